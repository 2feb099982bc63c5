// Babylon's PhysicsConstraint types to footing joints. Pivots and axes come
// in each node's frame; footing joints take them in the body's frame, which
// differs by the shape's offset (see shapes.ts).
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import {
  PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode, PhysicsConstraintMotorType, PhysicsConstraintType, type PhysicsConstraintParameters,
} from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { Physics6DoFConstraint, PhysicsConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import {
  BallJoint, DistanceJoint, FixedJoint, HingeJoint, MAX_JOINT_LENGTH, MAX_JOINT_TORQUE, MAX_MOTOR_SPEED, MAX_SWING_LIMIT, SixDofJoint,
  type Joint, type Quat, type SixDofAxis, type SixDofAxisDesc, type Vec3, type World,
} from '../../index';
import type { ShapeGeometry } from './shapes';
import { requireEnumValue } from './pose';
import type { BodyData } from './body-data';

/** What Babylon set on one constraint axis (read back as set; null until set). */
export interface AxisSettings {
  mode: PhysicsConstraintAxisLimitMode | null;
  minLimit: number | null;
  maxLimit: number | null;
  friction: number | null;
  motorType: PhysicsConstraintMotorType | null;
  motorTarget: number | null;
  motorMaxForce: number | null;
}

interface JointInput {
  a: BodyData;
  b: BodyData;
  options: PhysicsConstraintParameters;
  collide: boolean;
  axes: Map<PhysicsConstraintAxis, AxisSettings>;
  type: PhysicsConstraintType;
  /** A Physics6DoFConstraint's `limits` (empty for the other types). */
  limits: Physics6DoFConstraint['limits'];
}

/** A point in the node's frame into the footing body's frame: inverse(offset) · p. */
function toBodyPoint(p: Vector3 | undefined, g: ShapeGeometry | null | undefined): Vec3 {
  const v = p ? p.clone() : Vector3.Zero();
  if (!g) return { x: v.x, y: v.y, z: v.z };
  v.subtractFromFloatsToRef(g.offsetPosition.x, g.offsetPosition.y, g.offsetPosition.z, v);
  v.applyRotationQuaternionInPlace(new Quaternion(-g.offsetRotation.x, -g.offsetRotation.y, -g.offsetRotation.z, g.offsetRotation.w));
  return { x: v.x, y: v.y, z: v.z };
}

function toBodyDirection(d: Vector3, g: ShapeGeometry | null | undefined): Vector3 {
  const v = d.normalizeToNew();
  if (g) v.applyRotationQuaternionInPlace(new Quaternion(-g.offsetRotation.x, -g.offsetRotation.y, -g.offsetRotation.z, g.offsetRotation.w));
  return v;
}

/** The constraint frame in a body: x = axis, y = perpendicular axis (Havok's convention). */
function bodyFrame(axis: Vector3 | undefined, perp: Vector3 | undefined, g: ShapeGeometry | null | undefined): Quat {
  const x = toBodyDirection(axis ?? new Vector3(1, 0, 0), g);
  let y: Vector3;
  if (perp) y = toBodyDirection(perp, g);
  else { y = new Vector3(); x.getNormalToRef(y); y.normalize(); }
  const z = Vector3.Cross(x, y).normalize();
  y = Vector3.Cross(z, x).normalize();
  const q = Quaternion.RotationQuaternionFromAxis(x, y, z);
  return { x: q.x, y: q.y, z: q.z, w: q.w };
}

function anchors(j: JointInput): { localAnchorA: Vec3; localAnchorB: Vec3 } {
  return { localAnchorA: toBodyPoint(j.options.pivotA, j.a.shape?.geometry), localAnchorB: toBodyPoint(j.options.pivotB, j.b.shape?.geometry) };
}

function ball(j: JointInput): Joint {
  return new BallJoint({ bodyA: j.a.rigid!, bodyB: j.b.rigid!, collideConnected: j.collide, ...anchors(j) });
}

/** Havok's DISTANCE is a rod of length maxDistance; LINEAR_DISTANCE limits widen it to a rope or a range. */
function distance(j: JointInput): Joint {
  const length = j.options.maxDistance ?? 0;
  const ax = j.axes.get(PhysicsConstraintAxis.LINEAR_DISTANCE);
  const free = ax?.mode === PhysicsConstraintAxisLimitMode.FREE;
  // A limit past the axis' reach [0, MAX_JOINT_LENGTH] is its end; maxDistance itself is checked by DistanceJoint.
  const reach = (v: number): number => Math.min(Math.max(v, 0), MAX_JOINT_LENGTH);
  const minLength = free ? 0 : ax && ax.minLimit !== null ? reach(ax.minLimit) : length;
  const maxLength = free ? Infinity : ax && ax.maxLimit !== null ? reach(ax.maxLimit) : length;
  return new DistanceJoint({ bodyA: j.a.rigid!, bodyB: j.b.rigid!, collideConnected: j.collide, ...anchors(j), length: Math.min(Math.max(length, minLength), maxLength), minLength, maxLength });
}

function hinge(j: JointInput): Joint {
  const ga = j.a.shape?.geometry, gb = j.b.shape?.geometry;
  const axisA = toBodyDirection(j.options.axisA ?? new Vector3(1, 0, 0), ga);
  const axisB = toBodyDirection(j.options.axisB ?? new Vector3(1, 0, 0), gb);
  const joint = new HingeJoint({
    bodyA: j.a.rigid!, bodyB: j.b.rigid!, collideConnected: j.collide, ...anchors(j),
    localAxisA: { x: axisA.x, y: axisA.y, z: axisA.z }, localAxisB: { x: axisB.x, y: axisB.y, z: axisB.z },
  });
  applyHingeAxis(joint, j.axes.get(PhysicsConstraintAxis.ANGULAR_X));
  return joint;
}

function lock(j: JointInput): Joint {
  const ga = j.a.shape?.geometry, gb = j.b.shape?.geometry;
  return new FixedJoint({
    bodyA: j.a.rigid!, bodyB: j.b.rigid!, collideConnected: j.collide, ...anchors(j),
    localFrameA: bodyFrame(j.options.axisA, j.options.perpAxisA, ga), localFrameB: bodyFrame(j.options.axisB, j.options.perpAxisB, gb),
  });
}

const FREE = PhysicsConstraintAxisLimitMode.FREE, LOCKED = PhysicsConstraintAxisLimitMode.LOCKED, LIMITED = PhysicsConstraintAxisLimitMode.LIMITED;
/** The axes HavokPlugin locks for each type built on footing's SixDofJoint (LINEAR_X … ANGULAR_Z); the rest start free. */
const BASE_MODES: Partial<Record<PhysicsConstraintType, PhysicsConstraintAxisLimitMode[]>> = {
  [PhysicsConstraintType.SLIDER]: [FREE, LOCKED, LOCKED, FREE, LOCKED, LOCKED],
  [PhysicsConstraintType.PRISMATIC]: [FREE, LOCKED, LOCKED, LOCKED, LOCKED, LOCKED],
  [PhysicsConstraintType.SIX_DOF]: [FREE, FREE, FREE, FREE, FREE, FREE],
};

/** How far each SixDofJoint axis reaches: metres, twist ±π, swing ±0.9π. */
function axisRange(axis: number): number {
  return axis < 3 ? MAX_JOINT_LENGTH : axis === 3 ? Math.PI : MAX_SWING_LIMIT;
}

/** `v` within ±r: a finite value past what footing's axis can express is its end (docs/babylon-plugin.md). */
function clampTo(v: number, r: number): number {
  return Math.max(-r, Math.min(r, v));
}

/** A SIX_DOF's `limits` entry for the axis (min = max = 0 locks it, as on Havok). */
function limitEntry(j: Pick<JointInput, 'type' | 'limits'>, axis: number): Physics6DoFConstraint['limits'][number] | undefined {
  return j.type === PhysicsConstraintType.SIX_DOF ? j.limits.find((l) => l.axis === axis) : undefined;
}

/**
 * The limits an axis is built with (null: open on that side): what was set
 * through setAxisMin/MaxLimit, else a SIX_DOF's `limits` entry, else a
 * DISTANCE's maxDistance. The setters' min ≤ max check reads the same.
 */
function axisBounds(j: Pick<JointInput, 'type' | 'limits' | 'options'>, axis: number, s: Readonly<AxisSettings> | undefined): { min: number | null; max: number | null } {
  let min: number | null = null, max: number | null = null;
  const limit = limitEntry(j, axis);
  if (limit && !(limit.minLimit === 0 && limit.maxLimit === 0)) { min = limit.minLimit ?? null; max = limit.maxLimit ?? null; }
  if (j.type === PhysicsConstraintType.DISTANCE && axis === PhysicsConstraintAxis.LINEAR_DISTANCE) min = max = j.options.maxDistance ?? 0;
  if (s && s.minLimit !== null) min = s.minLimit;
  if (s && s.maxLimit !== null) max = s.maxLimit;
  return { min, max };
}

/**
 * One SixDofJoint axis from the type's base mode, a SIX_DOF's `limits` entry
 * and what was set through setAxis…. Limits and targets past the axis' reach
 * are clamped to it; min ≤ max was checked when they were given.
 */
function sixDofAxisDesc(j: JointInput, axis: number, massAB: number): SixDofAxisDesc {
  let mode = BASE_MODES[j.type]![axis]!;
  const d: SixDofAxisDesc = {};
  const limit = limitEntry(j, axis);
  if (limit) {
    if (limit.minLimit === 0 && limit.maxLimit === 0) mode = LOCKED;
    else if (limit.minLimit !== undefined || limit.maxLimit !== undefined) mode = LIMITED;
    // Havok's stiffness (N/m or N·m/rad) and damping (N·s/m) as a spring on the pair's reduced mass.
    if (limit.stiffness && massAB > 0) {
      d.limitHertz = Math.min(1e4, Math.sqrt(limit.stiffness / massAB) / (2 * Math.PI));
      if (limit.damping) d.limitDampingRatio = Math.min(1e3, limit.damping / (2 * Math.sqrt(limit.stiffness * massAB)));
    }
  }
  const s = j.axes.get(axis as PhysicsConstraintAxis);
  if (s?.mode !== null && s?.mode !== undefined) mode = s.mode;
  const r = axisRange(axis);
  d.mode = mode === LOCKED ? 'locked' : mode === LIMITED ? 'limited' : 'free';
  if (mode === LIMITED) {
    const b = axisBounds(j, axis, s);
    d.min = clampTo(b.min ?? -r, r); d.max = clampTo(b.max ?? r, r);
  }
  if (s?.friction !== null && s?.friction !== undefined) d.friction = Math.min(s.friction, MAX_JOINT_TORQUE);
  if (s?.motorType === PhysicsConstraintMotorType.VELOCITY) {
    d.motor = 'velocity';
    d.motorSpeed = clampTo(s.motorTarget ?? 0, MAX_MOTOR_SPEED);
  } else if (s?.motorType === PhysicsConstraintMotorType.POSITION) {
    d.motor = 'position';
    d.motorTarget = clampTo(s.motorTarget ?? 0, r);
  } else {
    d.motor = 'off';
  }
  if (s?.motorMaxForce !== null && s?.motorMaxForce !== undefined) d.maxMotorForce = Math.min(s.motorMaxForce, MAX_JOINT_TORQUE);
  return d;
}

function reducedMass(j: JointInput): number {
  const ma = j.a.rigid!.isDynamic ? j.a.rigid!.mass : Infinity, mb = j.b.rigid!.isDynamic ? j.b.rigid!.mass : Infinity;
  if (ma === Infinity && mb === Infinity) return 0;
  if (ma === Infinity) return mb;
  if (mb === Infinity) return ma;
  return (ma * mb) / (ma + mb);
}

/** SLIDER, PRISMATIC and SIX_DOF: a footing SixDofJoint in Havok's constraint frame (X = axis, Y = perpendicular axis). */
function sixDof(j: JointInput): Joint {
  const ga = j.a.shape?.geometry, gb = j.b.shape?.geometry;
  const m = reducedMass(j);
  return new SixDofJoint({
    bodyA: j.a.rigid!, bodyB: j.b.rigid!, collideConnected: j.collide, ...anchors(j),
    localFrameA: bodyFrame(j.options.axisA, j.options.perpAxisA, ga), localFrameB: bodyFrame(j.options.axisB, j.options.perpAxisB, gb),
    linearX: sixDofAxisDesc(j, 0, m), linearY: sixDofAxisDesc(j, 1, m), linearZ: sixDofAxisDesc(j, 2, m),
    angularX: sixDofAxisDesc(j, 3, m), angularY: sixDofAxisDesc(j, 4, m), angularZ: sixDofAxisDesc(j, 5, m),
  });
}

/** Writes a recomputed axis description onto a live joint axis (limits first so a mode change sees them). */
function applySixDofAxis(a: SixDofAxis, d: SixDofAxisDesc): void {
  a.setLimits(d.min ?? 0, d.max ?? 0);
  a.mode = d.mode ?? 'locked';
  if (d.limitHertz !== undefined) a.limitHertz = d.limitHertz;
  if (d.limitDampingRatio !== undefined) a.limitDampingRatio = d.limitDampingRatio;
  a.friction = d.friction ?? 0;
  if (d.motorSpeed !== undefined) a.motorSpeed = d.motorSpeed;
  if (d.motorTarget !== undefined) a.motorTarget = d.motorTarget;
  a.maxMotorForce = d.maxMotorForce ?? MAX_JOINT_TORQUE;
  a.motor = d.motor ?? 'off';
}

/** One small builder per Babylon constraint type; a new core joint is one entry here. */
const BUILDERS: Record<PhysicsConstraintType, (j: JointInput) => Joint> = {
  [PhysicsConstraintType.BALL_AND_SOCKET]: ball,
  [PhysicsConstraintType.DISTANCE]: distance,
  [PhysicsConstraintType.HINGE]: hinge,
  [PhysicsConstraintType.SLIDER]: sixDof,
  [PhysicsConstraintType.LOCK]: lock,
  [PhysicsConstraintType.PRISMATIC]: sixDof,
  [PhysicsConstraintType.SIX_DOF]: sixDof,
};

/** The hinge's free axis (ANGULAR_X): limits, a velocity or position motor, friction; clamped as a SIX_DOF axis is. */
function applyHingeAxis(joint: HingeJoint, s: AxisSettings | undefined): void {
  if (!s) return;
  if (s.mode === PhysicsConstraintAxisLimitMode.LOCKED) joint.setLimits(0, 0);
  else if (s.mode === PhysicsConstraintAxisLimitMode.LIMITED) joint.setLimits(s.minLimit === null ? -Infinity : clampTo(s.minLimit, Math.PI), s.maxLimit === null ? Infinity : clampTo(s.maxLimit, Math.PI));
  else joint.setLimits(-Infinity, Infinity);
  if (s.friction !== null) joint.frictionTorque = Math.min(s.friction, MAX_JOINT_TORQUE);
  const maxTorque = s.motorMaxForce === null ? MAX_JOINT_TORQUE : Math.min(s.motorMaxForce, MAX_JOINT_TORQUE);
  if (s.motorType === PhysicsConstraintMotorType.VELOCITY) {
    joint.motorMode = 'velocity';
    joint.motorSpeed = clampTo(s.motorTarget ?? 0, MAX_MOTOR_SPEED);
    joint.maxMotorTorque = maxTorque;
  } else if (s.motorType === PhysicsConstraintMotorType.POSITION) {
    // HingeJoint's servo: a spring on the angle error, bounded by the torque.
    joint.motorMode = 'position';
    joint.targetAngle = clampTo(s.motorTarget ?? 0, Math.PI);
    joint.maxMotorTorque = maxTorque;
  } else {
    joint.maxMotorTorque = 0;
  }
}

/** What each axis setter takes, by the AxisSettings field it writes. */
const AXIS_VALUES: Record<keyof AxisSettings, 'finite' | 'non-negative' | Readonly<Record<string | number, string | number>>> = {
  mode: PhysicsConstraintAxisLimitMode, motorType: PhysicsConstraintMotorType,
  minLimit: 'finite', maxLimit: 'finite', motorTarget: 'finite', friction: 'non-negative', motorMaxForce: 'non-negative',
};

/** `setAxisMinLimit` from `minLimit`: the Babylon method that writes the field, for messages. */
function setterName(key: keyof AxisSettings): string {
  return `setAxis${key[0]!.toUpperCase()}${key.slice(1)}`;
}

function requireAxis(axis: PhysicsConstraintAxis, method: string): void {
  requireEnumValue(axis, PhysicsConstraintAxis, 'PhysicsConstraintAxis', `${method}: axis`);
}

/**
 * A Physics6DoFConstraint's `limits`, checked by name before anything is
 * made: HavokPlugin drops a NaN stiffness (`if (l.stiffness)`) and keeps
 * min > max, which holds the body at neither limit.
 */
function requireLimits(limits: Physics6DoFConstraint['limits']): void {
  if (!Array.isArray(limits)) throw new TypeError(`FootingPlugin: Physics6DoFConstraint limits must be an array (got ${String(limits)})`);
  limits.forEach((l, i) => {
    const field = `Physics6DoFConstraint limits[${i}]`;
    if (l === null || typeof l !== 'object') throw new TypeError(`FootingPlugin: ${field} must be a { axis, minLimit?, maxLimit?, stiffness?, damping? } object`);
    requireEnumValue(l.axis, PhysicsConstraintAxis, 'PhysicsConstraintAxis', `${field}.axis`);
    for (const key of ['minLimit', 'maxLimit', 'stiffness', 'damping'] as const) {
      const v = l[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`FootingPlugin: ${field}.${key} must be a finite number (got ${String(v)})`);
      if ((key === 'stiffness' || key === 'damping') && v < 0) throw new RangeError(`FootingPlugin: ${field}.${key} must be ≥ 0 (got ${v})`);
    }
    if (l.minLimit !== undefined && l.maxLimit !== undefined && l.minLimit > l.maxLimit) {
      throw new RangeError(`FootingPlugin: ${field}.minLimit (${l.minLimit}) must be ≤ maxLimit (${l.maxLimit})`);
    }
  });
}

/** An axis nothing was set on (read back as null, as Babylon's getters allow). */
const UNSET_AXIS: Readonly<AxisSettings> = Object.freeze({ mode: null, minLimit: null, maxLimit: null, friction: null, motorType: null, motorTarget: null, motorMaxForce: null });

/** The plugin's data behind one Babylon PhysicsConstraint: a footing joint per body pair. */
export class ConstraintData {
  enabled = true;
  collisions: boolean;
  readonly pairs: { a: BodyData; b: BodyData; joint: Joint | null }[] = [];
  readonly axes = new Map<PhysicsConstraintAxis, AxisSettings>();
  constructor(private readonly world: World, readonly constraint: PhysicsConstraint) {
    this.collisions = !!constraint.options.collision;
    if (!BUILDERS[constraint.type]) throw new TypeError(`FootingPlugin: unknown constraint type ${String(constraint.type)}`);
    if (constraint.type === PhysicsConstraintType.SIX_DOF) requireLimits((constraint as Physics6DoFConstraint).limits ?? []);
  }

  /** What the Babylon constraint was made with: its type, options and a SIX_DOF's limits. */
  private made(): Pick<JointInput, 'type' | 'options' | 'limits'> {
    const limits = this.constraint.type === PhysicsConstraintType.SIX_DOF ? (this.constraint as Physics6DoFConstraint).limits ?? [] : [];
    return { options: this.constraint.options, type: this.constraint.type, limits };
  }

  private input(a: BodyData, b: BodyData): JointInput {
    return { a, b, collide: this.collisions, axes: this.axes, ...this.made() };
  }

  addPair(a: BodyData, b: BodyData): void {
    // The joint is made once on trial first: one footing refuses (a zero
    // hinge axis) must leave the constraint, its other pairs' joints and the
    // bodies as they were (rebuild would stop half-way through the pairs).
    if (this.builds(a, b)) BUILDERS[this.constraint.type](this.input(a, b));
    this.pairs.push({ a, b, joint: null });
    a.constraints.add(this);
    b.constraints.add(this);
    this.rebuild();
  }

  /** Replaces the joints (after a body was rebuilt, or a setting footing fixes at creation changed). */
  rebuild(): void {
    for (const p of this.pairs) {
      if (p.joint && this.world.joints.includes(p.joint)) this.world.removeJoint(p.joint);
      p.joint = null;
      if (!this.builds(p.a, p.b)) continue;
      p.joint = this.world.addJoint(BUILDERS[this.constraint.type](this.input(p.a, p.b)));
    }
  }

  /**
   * Whether a pair of these bodies has a footing joint now: enabled, both
   * bodies made in this world, one of them dynamic in footing. A joint
   * between two bodies that do not move (STATIC, ANIMATED, a DYNAMIC of
   * mass 0, a MESH) holds nothing, and footing refuses it: the pair waits
   * until one of them is dynamic.
   */
  private builds(a: BodyData, b: BodyData): boolean {
    const ra = a.rigid, rb = b.rigid;
    return this.enabled && ra !== null && rb !== null && ra.world === this.world && rb.world === this.world && (ra.isDynamic || rb.isDynamic);
  }

  /** Drops the pairs that use a body being disposed. */
  detach(d: BodyData): void {
    for (let i = this.pairs.length - 1; i >= 0; i--) {
      const p = this.pairs[i]!;
      if (p.a !== d && p.b !== d) continue;
      if (p.joint && this.world.joints.includes(p.joint)) this.world.removeJoint(p.joint);
      this.pairs.splice(i, 1);
      (p.a === d ? p.b : p.a).constraints.delete(this);
    }
    d.constraints.delete(this);
  }

  setEnabled(v: boolean): void {
    if (this.enabled === !!v) return;
    this.enabled = !!v;
    this.rebuild();
  }

  setCollisions(v: boolean): void {
    if (this.collisions === !!v) return;
    this.collisions = !!v;
    this.rebuild();
  }

  /** What was set on an axis (all null when nothing was); `method` names the call in an error. */
  axis(axis: PhysicsConstraintAxis, method: string): Readonly<AxisSettings> {
    requireAxis(axis, method);
    return this.axes.get(axis) ?? UNSET_AXIS;
  }

  /**
   * One axis setter: the axis and value are checked by name (a limit may
   * not pass the other one) before anything changes, and a joint that
   * refuses the new settings gets the old ones back.
   */
  setAxis<K extends keyof AxisSettings>(axis: PhysicsConstraintAxis, key: K, value: AxisSettings[K]): void {
    const method = setterName(key);
    requireAxis(axis, method);
    const kind = AXIS_VALUES[key];
    if (typeof kind === 'object') requireEnumValue(value as number, kind, key === 'mode' ? 'PhysicsConstraintAxisLimitMode' : 'PhysicsConstraintMotorType', `${method}: ${key}`);
    else if (typeof value !== 'number' || !Number.isFinite(value) || (kind === 'non-negative' && value < 0)) {
      throw new RangeError(`FootingPlugin.${method}: ${key} must be a finite number${kind === 'non-negative' ? ' ≥ 0' : ''} (got ${String(value)})`);
    }
    const created = !this.axes.has(axis);
    const s = this.axes.get(axis) ?? { ...UNSET_AXIS };
    if (key === 'minLimit' || key === 'maxLimit') {
      const b = axisBounds(this.made(), axis, { ...s, [key]: value });
      if (b.min !== null && b.max !== null && b.min > b.max) {
        throw new RangeError(`FootingPlugin.${method}: minLimit (${b.min}) must be ≤ maxLimit (${b.max}) on ${PhysicsConstraintAxis[axis]}; to move a range past its other end, set that end first`);
      }
    }
    const old = s[key];
    s[key] = value;
    if (created) this.axes.set(axis, s);
    try {
      this.applyAxis(axis, s);
    } catch (e) {
      s[key] = old;
      if (created) this.axes.delete(axis);
      this.applyAxis(axis, s);
      throw e;
    }
  }

  /** Writes an axis' settings to the live joints and wakes their bodies. */
  private applyAxis(axis: PhysicsConstraintAxis, s: AxisSettings): void {
    if (this.constraint.type === PhysicsConstraintType.HINGE && axis === PhysicsConstraintAxis.ANGULAR_X) {
      for (const p of this.pairs) if (p.joint instanceof HingeJoint) { applyHingeAxis(p.joint, s); p.a.rigid?.wakeUp(); p.b.rigid?.wakeUp(); }
    } else if (this.constraint.type === PhysicsConstraintType.DISTANCE && axis === PhysicsConstraintAxis.LINEAR_DISTANCE) {
      this.rebuild();
    } else if (BASE_MODES[this.constraint.type] && axis <= PhysicsConstraintAxis.ANGULAR_Z) {
      for (const p of this.pairs) {
        if (!(p.joint instanceof SixDofJoint)) continue;
        const j = this.input(p.a, p.b);
        applySixDofAxis(p.joint.axes[axis]!, sixDofAxisDesc(j, axis, reducedMass(j)));
        // A new limit or motor target must reach bodies that had fallen asleep.
        p.a.rigid?.wakeUp();
        p.b.rigid?.wakeUp();
      }
    }
  }


  dispose(): void {
    for (const p of this.pairs) {
      if (p.joint && this.world.joints.includes(p.joint)) this.world.removeJoint(p.joint);
      p.a.constraints.delete(this);
      p.b.constraints.delete(this);
    }
    this.pairs.length = 0;
  }
}
