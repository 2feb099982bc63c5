// Babylon's PhysicsConstraint types to footing joints. Pivots and axes come
// in each node's frame; footing joints take them in the body's frame, which
// differs by the shape's offset (see shapes.ts).
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import {
  PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode, PhysicsConstraintMotorType, PhysicsConstraintType, type PhysicsConstraintParameters,
} from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { Physics6DoFConstraint, PhysicsConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import {
  BallJoint, DistanceJoint, FixedJoint, HingeJoint, MAX_JOINT_TORQUE, MAX_SWING_LIMIT, SixDofJoint, type Joint, type Quat, type SixDofAxis, type SixDofAxisDesc, type Vec3, type World,
} from '../../index';
import type { ShapeGeometry } from './shapes';
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
  const minLength = free ? 0 : ax?.minLimit ?? length;
  const maxLength = free ? Infinity : ax?.maxLimit ?? length;
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
  return axis < 3 ? 1e6 : axis === 3 ? Math.PI : MAX_SWING_LIMIT;
}

/**
 * One SixDofJoint axis from the type's base mode, a SIX_DOF's `limits` entry
 * (min = max = 0 locks, as on Havok) and what was set through setAxis….
 */
function sixDofAxisDesc(j: JointInput, axis: number, massAB: number): SixDofAxisDesc {
  const type = j.type;
  let mode = BASE_MODES[type]![axis]!;
  let min: number | null = null, max: number | null = null;
  const d: SixDofAxisDesc = {};
  const limit = type === PhysicsConstraintType.SIX_DOF ? j.limits.find((l) => l.axis === axis) : undefined;
  if (limit) {
    if (limit.minLimit === 0 && limit.maxLimit === 0) mode = LOCKED;
    else if (limit.minLimit !== undefined || limit.maxLimit !== undefined) { mode = LIMITED; min = limit.minLimit ?? null; max = limit.maxLimit ?? null; }
    // Havok's stiffness (N/m or N·m/rad) and damping (N·s/m) as a spring on the pair's reduced mass.
    if (limit.stiffness && massAB > 0) {
      d.limitHertz = Math.min(1e4, Math.sqrt(limit.stiffness / massAB) / (2 * Math.PI));
      if (limit.damping) d.limitDampingRatio = Math.min(1e3, limit.damping / (2 * Math.sqrt(limit.stiffness * massAB)));
    }
  }
  const s = j.axes.get(axis as PhysicsConstraintAxis);
  if (s?.mode !== null && s?.mode !== undefined) mode = s.mode;
  if (s?.minLimit !== null && s?.minLimit !== undefined) min = s.minLimit;
  if (s?.maxLimit !== null && s?.maxLimit !== undefined) max = s.maxLimit;
  const r = axisRange(axis);
  d.mode = mode === LOCKED ? 'locked' : mode === LIMITED ? 'limited' : 'free';
  if (mode === LIMITED) {
    const lo = Math.max(-r, Math.min(r, min ?? -r)), hi = Math.max(-r, Math.min(r, max ?? r));
    d.min = Math.min(lo, hi); d.max = Math.max(lo, hi);
  }
  if (s?.friction !== null && s?.friction !== undefined) d.friction = Math.max(0, s.friction);
  if (s?.motorType === PhysicsConstraintMotorType.VELOCITY) {
    d.motor = 'velocity';
    d.motorSpeed = Math.max(-1000, Math.min(1000, s.motorTarget ?? 0));
  } else if (s?.motorType === PhysicsConstraintMotorType.POSITION) {
    d.motor = 'position';
    d.motorTarget = Math.max(-r, Math.min(r, s.motorTarget ?? 0));
  } else {
    d.motor = 'off';
  }
  if (s?.motorMaxForce !== null && s?.motorMaxForce !== undefined) d.maxMotorForce = Math.max(0, Math.min(MAX_JOINT_TORQUE, s.motorMaxForce));
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

/** The hinge's free axis (ANGULAR_X): limits, a velocity or position motor, friction. */
function applyHingeAxis(joint: HingeJoint, s: AxisSettings | undefined): void {
  if (!s) return;
  const clampAngle = (v: number): number => Math.min(Math.max(v, -Math.PI), Math.PI);
  if (s.mode === PhysicsConstraintAxisLimitMode.LOCKED) joint.setLimits(0, 0);
  else if (s.mode === PhysicsConstraintAxisLimitMode.LIMITED) joint.setLimits(s.minLimit === null ? -Infinity : clampAngle(s.minLimit), s.maxLimit === null ? Infinity : clampAngle(s.maxLimit));
  else joint.setLimits(-Infinity, Infinity);
  if (s.friction !== null) joint.frictionTorque = s.friction;
  if (s.motorType === PhysicsConstraintMotorType.VELOCITY) {
    joint.motorMode = 'velocity';
    joint.motorSpeed = s.motorTarget ?? 0;
    joint.maxMotorTorque = s.motorMaxForce ?? MAX_JOINT_TORQUE;
  } else if (s.motorType === PhysicsConstraintMotorType.POSITION) {
    // HingeJoint's servo: a spring on the angle error, bounded by the torque.
    joint.motorMode = 'position';
    joint.targetAngle = Math.min(Math.max(s.motorTarget ?? 0, -Math.PI), Math.PI);
    joint.maxMotorTorque = s.motorMaxForce ?? MAX_JOINT_TORQUE;
  } else {
    joint.maxMotorTorque = 0;
  }
}

/** The plugin's data behind one Babylon PhysicsConstraint: a footing joint per body pair. */
export class ConstraintData {
  enabled = true;
  collisions: boolean;
  readonly pairs: { a: BodyData; b: BodyData; joint: Joint | null }[] = [];
  readonly axes = new Map<PhysicsConstraintAxis, AxisSettings>();
  constructor(private readonly world: World, readonly constraint: PhysicsConstraint) {
    this.collisions = !!constraint.options.collision;
    if (!BUILDERS[constraint.type]) throw new TypeError(`FootingPlugin: unknown constraint type ${String(constraint.type)}`);
  }

  private input(a: BodyData, b: BodyData): JointInput {
    const limits = this.constraint.type === PhysicsConstraintType.SIX_DOF ? (this.constraint as Physics6DoFConstraint).limits ?? [] : [];
    return { a, b, options: this.constraint.options, collide: this.collisions, axes: this.axes, type: this.constraint.type, limits };
  }

  addPair(a: BodyData, b: BodyData): void {
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
      if (!this.enabled || !p.a.rigid || !p.b.rigid || p.a.rigid.world !== this.world || p.b.rigid.world !== this.world) continue;
      p.joint = this.world.addJoint(BUILDERS[this.constraint.type](this.input(p.a, p.b)));
    }
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

  axis(axis: PhysicsConstraintAxis): AxisSettings {
    let s = this.axes.get(axis);
    if (!s) {
      s = { mode: null, minLimit: null, maxLimit: null, friction: null, motorType: null, motorTarget: null, motorMaxForce: null };
      this.axes.set(axis, s);
    }
    return s;
  }

  setAxis<K extends keyof AxisSettings>(axis: PhysicsConstraintAxis, key: K, value: AxisSettings[K]): void {
    if (typeof value === 'number' && Number.isNaN(value)) throw new RangeError(`FootingPlugin: constraint axis ${key} must be a number (got NaN)`);
    const s = this.axis(axis);
    const old = s[key];
    s[key] = value;
    try {
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
    } catch (e) {
      s[key] = old;
      throw e;
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
