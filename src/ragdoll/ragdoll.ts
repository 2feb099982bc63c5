/**
 * Ragdolls built on the public joint API only: bodies from `createBody`,
 * joints from `addJoint`. A description is checked whole before that (the
 * body descriptions as createBody reads them, each joint made once on
 * stand-ins posed like its bodies), so a refused one adds nothing to the
 * world. Collision between jointed neighbours is disabled by
 * the joints (collideConnected = false); the humanoid's limbs are placed with
 * small gaps so that non-neighbours do not start overlapping.
 *
 * Anatomical limits (rest pose = standing, arms down, facing +Z), loosely
 * after Box2D v3 `shared/human.c` and Jolt's ragdoll samples:
 *   spine/chest   cone-twist, swing 25°, twist ±15°
 *   neck          cone-twist, swing 40°, twist ±45°
 *   shoulders     cone-twist about the arm, swing 85°, twist ±45°
 *   elbows        hinge, 0…140° forward flexion
 *   hips          elliptical cone-twist: 70° forward/back, 35° sideways, twist ±25°
 *   knees         hinge, 0…140° backward flexion
 */
import type { BodyDesc, RigidBody } from '../dynamics/body';
import { readBodyDesc } from '../dynamics/body-desc';
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { Box } from '../shapes/box';
import { Capsule } from '../shapes/capsule';
import type { ConvexShape } from '../shapes/shape';
import { Sphere } from '../shapes/sphere';
import { BallJoint } from '../joints/ball';
import { ConeTwistJoint } from '../joints/cone-twist';
import { FixedJoint } from '../joints/fixed';
import { HingeJoint } from '../joints/hinge';
import { MAX_JOINT_TORQUE, type Joint } from '../joints/joint';
import {
  MAX_LINEAR_SPEED, requireCollisionBits, requireFiniteQuat, requireFiniteVec, requireFriction, requireInRange, requireMagnitude, requireNonNegative, requirePosition, requirePositive,
} from '../math/validate';

/** The part of the World a ragdoll uses (the public API). */
export interface RagdollWorld {
  createBody(desc: BodyDesc): RigidBody;
  removeBody(body: RigidBody): void;
  addJoint(joint: Joint): unknown;
  removeJoint(joint: Joint): unknown;
}

/** How a bone hangs on its parent. Anchors and axes are in the description's model space. */
export type RagdollJointDesc =
  | { type: 'ball'; anchor: Readonly<Vec3> }
  | { type: 'fixed'; anchor?: Readonly<Vec3> }
  | { type: 'hinge'; anchor: Readonly<Vec3>; axis: Readonly<Vec3>; lowerAngle?: number; upperAngle?: number }
  | {
    type: 'coneTwist'; anchor: Readonly<Vec3>; twistAxis: Readonly<Vec3>; normalAxis?: Readonly<Vec3>;
    swingLimit?: number; swingLimitY?: number; swingLimitZ?: number; twistLower?: number; twistUpper?: number;
  };

/** One bone of a user skeleton. */
export interface RagdollBoneDesc {
  name: string;
  shape: ConvexShape;
  /** Name of the parent bone (listed earlier), or null for the root: the first bone, and only it. */
  parent: string | null;
  /** Bone centre in model space. */
  position: Readonly<Vec3>;
  /** Bone rotation in model space. Default identity. */
  rotation?: Readonly<Quat>;
  /** kg/m³. Default: the `density` option (1000). */
  density?: number;
  /** Required for every bone but the root. */
  joint?: RagdollJointDesc;
}

/** Where the model space sits in the world. */
export interface RagdollTransform {
  position: Readonly<Vec3>;
  /** Default identity. */
  rotation?: Readonly<Quat>;
}

export interface RagdollBodyOptions {
  /** kg/m³ for bones without their own. Default 1000. */
  density?: number;
  /** Default 0.6. */
  friction?: number;
  /** Default 0.1 (limbs should not spin forever). */
  angularDamping?: number;
  /** Default 0. */
  linearDamping?: number;
  /** Default 1 / 0xffffffff (the body defaults). */
  collisionGroup?: number;
  collisionMask?: number;
  /**
   * Dry friction torque (N·m) of every joint (`frictionTorque`): it stops the
   * slow rolling and spinning that nothing else damps (a sphere head about
   * its neck), so a resting ragdoll falls asleep. Default 0 for
   * `createRagdollFromDescription`; `createRagdoll` defaults to 1.5·scale⁴
   * (torque ∝ mass × length).
   */
  jointFriction?: number;
  /** Initial velocity of every bone. Default 0. */
  linearVelocity?: Readonly<Vec3>;
  userData?: unknown;
}

export interface RagdollOptions extends RagdollBodyOptions {
  /** World position of the pelvis centre. */
  position: Readonly<Vec3>;
  /** Default identity (standing, facing +Z). */
  rotation?: Readonly<Quat>;
  /** Uniform size factor (1 ≈ 1.8 m tall). Default 1. */
  scale?: number;
  /** Joint type of every joint: 'anatomical' (default: cone-twist and hinges) or 'ball' (no limits). */
  joints?: 'anatomical' | 'ball';
}

/**
 * The bodies and joints of one ragdoll. A body or joint removed from the
 * world on its own (`world.removeBody`, which also removes the body's
 * joints, or `world.removeJoint`) is dropped from the ragdoll's lists the
 * next time they are read, so they only ever list what is still in the
 * world; `isIntact` tells whether anything was dropped.
 */
export class Ragdoll {
  private readonly bodyList: RigidBody[] = [];
  private readonly jointList: Joint[] = [];
  private readonly nameList: string[] = [];
  private builtBodies = 0;
  private builtJoints = 0;
  private removed = false;

  constructor(private readonly world: RagdollWorld) {}

  /** The bones' bodies still in the world, in the order they were built (the root first unless it was removed). */
  get bodies(): readonly RigidBody[] { this.prune(); return this.bodyList; }
  /** The joints still in the world. */
  get joints(): readonly Joint[] { this.prune(); return this.jointList; }
  /** Bone names, parallel to `bodies`. */
  get names(): readonly string[] { this.prune(); return this.nameList; }

  /** Every body and joint the ragdoll was built with is still in the world (a broken joint still counts as there). */
  get isIntact(): boolean {
    this.prune();
    return !this.removed && this.bodyList.length === this.builtBodies && this.jointList.length === this.builtJoints;
  }

  /** The body of bone `name` (undefined if there is none, or it was removed). */
  body(name: string): RigidBody | undefined {
    this.prune();
    const i = this.nameList.indexOf(name);
    return i < 0 ? undefined : this.bodyList[i];
  }

  /** Removes the joints and bodies still in the world (once; the lists are then empty). */
  remove(): void {
    if (this.removed) return;
    this.prune();
    for (const j of this.jointList) this.world.removeJoint(j);
    for (const b of this.bodyList) this.world.removeBody(b);
    // Marked only now: a world that refused (a call from a query's filter) leaves the ragdoll removable later.
    this.removed = true;
    this.jointList.length = 0;
    this.bodyList.length = 0;
    this.nameList.length = 0;
  }

  /** @internal used while building */
  add(name: string, body: RigidBody): void {
    this.bodyList.push(body);
    this.nameList.push(name);
    this.builtBodies++;
  }

  /** @internal used while building */
  addJoint(joint: Joint): void {
    this.jointList.push(joint);
    this.builtJoints++;
  }

  /** Drops the bodies and joints that are no longer in a world (in place: the arrays handed out stay current). */
  private prune(): void {
    const bodies = this.bodyList, names = this.nameList, joints = this.jointList;
    let n = 0;
    for (let i = 0; i < bodies.length; i++) {
      if (bodies[i]!.world === null) continue;
      bodies[n] = bodies[i]!;
      names[n] = names[i]!;
      n++;
    }
    bodies.length = n;
    names.length = n;
    n = 0;
    for (let i = 0; i < joints.length; i++) {
      if (joints[i]!.owner === null) continue;
      joints[n++] = joints[i]!;
    }
    joints.length = n;
  }
}

/**
 * Builds a ragdoll from a user skeleton: each bone becomes a dynamic body at
 * rootTransform · (bone pose), each non-root bone a joint to its parent.
 * The whole description is checked before the first body is created: a bad
 * bone is named (`ragdoll bone 'knee': …`) and the world is left as it was.
 */
export function createRagdollFromDescription(world: RagdollWorld, bones: readonly RagdollBoneDesc[], rootTransform: RagdollTransform, options: RagdollBodyOptions = {}): Ragdoll {
  // A body created and removed again still changes the world (its next body id, the broadphase's free
  // nodes), so everything the world would refuse is found here first, without it.
  if (world === null || typeof world !== 'object' || typeof world.createBody !== 'function') throw new TypeError(`ragdoll: world must be a World (got ${shown(world)})`);
  if (rootTransform === null || typeof rootTransform !== 'object') throw new TypeError(`ragdoll: rootTransform must be an object { position, rotation? } (got ${shown(rootTransform)})`);
  requirePosition(rootTransform.position, 'ragdoll: position');
  if (rootTransform.rotation !== undefined) requireFiniteQuat(rootTransform.rotation, 'ragdoll: rotation');
  if (options === null || typeof options !== 'object') throw new TypeError(`ragdoll: options must be an object (got ${shown(options)})`);
  if (options.jointFriction !== undefined) requireInRange(options.jointFriction, 0, MAX_JOINT_TORQUE, 'ragdoll: jointFriction');
  checkBodyOptions(options);
  if (!Array.isArray(bones)) throw new TypeError(`ragdoll: bones must be an array of bone descriptions (got ${shown(bones)})`);
  if (bones.length === 0) throw new RangeError('ragdoll: bones must list at least one bone (the root)');
  const rootQ = quat.normalize({ x: 0, y: 0, z: 0, w: 1 }, rootTransform.rotation ?? IDENTITY);
  const rootP = rootTransform.position;
  const toWorld = (v: Readonly<Vec3>): Vec3 => {
    const r = quat.rotate({ x: 0, y: 0, z: 0 }, rootQ, v);
    return { x: r.x + rootP.x, y: r.y + rootP.y, z: r.z + rootP.z };
  };
  const dirToWorld = (v: Readonly<Vec3>): Vec3 => quat.rotate({ x: 0, y: 0, z: 0 }, rootQ, v);
  const frictionTorque = options.jointFriction ?? 0;
  const plans: BonePlan[] = [];
  const names: string[] = [];
  // Stand-ins with the pose each body will have: a joint reads only that (and isDynamic) when it is made.
  const standIns: RigidBody[] = [];
  for (let i = 0; i < bones.length; i++) {
    const bone = bones[i];
    if (bone === null || typeof bone !== 'object') throw new TypeError(`ragdoll: bones[${i}] must be a bone description object (got ${shown(bone)})`);
    const name = bone.name;
    if (typeof name !== 'string' || name === '') throw new TypeError(`ragdoll: bones[${i}].name must be a non-empty string (got ${shown(name)})`);
    if (names.indexOf(name) >= 0) throw new RangeError(`ragdoll: bones[${i}] repeats the bone name '${name}' (names must be unique)`);
    const where = `ragdoll bone '${name}'`;
    let parent = -1;
    // One skeleton: a second root would be a separate, unjointed ragdoll in the same lists.
    if (bone.parent === null && i > 0) throw new RangeError(`${where}: parent is null, but '${names[0]}' is already the root (a ragdoll has one root; give this bone a parent)`);
    if (bone.parent !== null) {
      if (typeof bone.parent !== 'string') throw new TypeError(`${where}: parent must be the name of a bone listed before it, or null for the root (got ${shown(bone.parent)})`);
      if (bone.parent === name) throw new RangeError(`${where}: names itself as its parent`);
      parent = names.indexOf(bone.parent);
      if (parent < 0) throw new RangeError(`${where}: names parent '${bone.parent}', which is not listed before it`);
    }
    requireFiniteVec(bone.position, `${where}: position`);
    if (bone.rotation !== undefined) requireFiniteQuat(bone.rotation, `${where}: rotation`);
    const desc: BodyDesc = {
      type: 'dynamic', shape: bone.shape, position: toWorld(bone.position), rotation: quat.multiply({ x: 0, y: 0, z: 0, w: 1 }, rootQ, bone.rotation ?? IDENTITY),
      density: bone.density ?? options.density ?? 1000, friction: options.friction ?? 0.6,
      angularDamping: options.angularDamping ?? 0.1, linearDamping: options.linearDamping ?? 0,
      collisionGroup: options.collisionGroup, collisionMask: options.collisionMask,
      linearVelocity: options.linearVelocity, userData: options.userData,
    };
    // createBody's own checks (shape, density, the position and rotation in the world), named by bone.
    try { readBodyDesc(desc); } catch (e) { throw boneError(name, e); }
    const standIn = { isDynamic: true, position: desc.position!, rotation: quat.normalize({ x: 0, y: 0, z: 0, w: 1 }, desc.rotation!) } as unknown as RigidBody;
    let makeJoint: JointMaker | null = null;
    if (parent >= 0) {
      makeJoint = jointMaker(bone.joint, where, toWorld, dirToWorld, frictionTorque);
      try { makeJoint(standIns[parent]!, standIn); } catch (e) { throw boneError(name, e); }
    }
    plans.push({ name, desc, parent, makeJoint });
    names.push(name);
    standIns.push(standIn);
  }

  const ragdoll = new Ragdoll(world);
  const built: RigidBody[] = [];
  try {
    for (const plan of plans) {
      const body = world.createBody(plan.desc);
      ragdoll.add(plan.name, body);
      built.push(body);
      if (plan.makeJoint === null) continue;
      const joint = plan.makeJoint(built[plan.parent]!, body);
      world.addJoint(joint);
      ragdoll.addJoint(joint);
    }
  } catch (e) {
    // Only the world can refuse now (a call from a query's filter refuses the first body):
    // take back what was built, and report the world's reason.
    try { ragdoll.remove(); } catch { /* the world refuses removals too: its first error says why */ }
    throw e;
  }
  return ragdoll;
}

type JointMaker = (parent: RigidBody, body: RigidBody) => Joint;

interface BonePlan {
  name: string;
  desc: BodyDesc;
  /** Index of the parent bone, −1 for a root. */
  parent: number;
  makeJoint: JointMaker | null;
}

/**
 * Checks what would otherwise be read through an undefined (`jd.anchor.x`) and returns a maker of the
 * bone's joint, in world space, with the description's values read once.
 */
function jointMaker(jd: RagdollJointDesc | undefined, where: string, toWorld: (v: Readonly<Vec3>) => Vec3, dirToWorld: (v: Readonly<Vec3>) => Vec3, frictionTorque: number): JointMaker {
  if (jd === undefined || jd === null) throw new RangeError(`${where}: needs a joint to its parent`);
  if (typeof jd !== 'object') throw new TypeError(`${where}: joint must be an object { type, anchor, … } (got ${shown(jd)})`);
  if (!JOINT_TYPES.includes(jd.type)) throw new RangeError(`${where}: unknown joint type ${shown(jd.type)} (the types are ${JOINT_TYPES.join(', ')})`);
  if (jd.type !== 'fixed' || jd.anchor !== undefined) requireFiniteVec(jd.anchor!, `${where}: joint.anchor`);
  switch (jd.type) {
    case 'ball': {
      const anchor = toWorld(jd.anchor);
      return (a, b) => new BallJoint({ bodyA: a, bodyB: b, anchor, frictionTorque });
    }
    case 'fixed': {
      const anchor = jd.anchor === undefined ? undefined : toWorld(jd.anchor);
      return (a, b) => new FixedJoint({ bodyA: a, bodyB: b, anchor });
    }
    case 'hinge': {
      requireFiniteVec(jd.axis, `${where}: joint.axis`);
      const anchor = toWorld(jd.anchor), axis = dirToWorld(jd.axis), lowerAngle = jd.lowerAngle, upperAngle = jd.upperAngle;
      return (a, b) => new HingeJoint({ bodyA: a, bodyB: b, anchor, axis, lowerAngle, upperAngle, frictionTorque });
    }
    case 'coneTwist': {
      requireFiniteVec(jd.twistAxis, `${where}: joint.twistAxis`);
      if (jd.normalAxis !== undefined) requireFiniteVec(jd.normalAxis, `${where}: joint.normalAxis`);
      const anchor = toWorld(jd.anchor), twistAxis = dirToWorld(jd.twistAxis);
      const normalAxis = jd.normalAxis === undefined ? undefined : dirToWorld(jd.normalAxis);
      const { swingLimit, swingLimitY, swingLimitZ, twistLower, twistUpper } = jd;
      return (a, b) => new ConeTwistJoint({ bodyA: a, bodyB: b, anchor, twistAxis, normalAxis, swingLimit, swingLimitY, swingLimitZ, twistLower, twistUpper, frictionTorque });
    }
  }
}

const JOINT_TYPES: readonly RagdollJointDesc['type'][] = ['ball', 'fixed', 'hinge', 'coneTwist'];

/** The body options all bones share, checked as the ragdoll's (createBody would blame the first bone). */
function checkBodyOptions(o: RagdollBodyOptions): void {
  if (o.density !== undefined) requirePositive(o.density, 'ragdoll: density');
  if (o.friction !== undefined) requireFriction(o.friction, 'ragdoll: friction');
  if (o.angularDamping !== undefined) requireNonNegative(o.angularDamping, 'ragdoll: angularDamping');
  if (o.linearDamping !== undefined) requireNonNegative(o.linearDamping, 'ragdoll: linearDamping');
  if (o.collisionGroup !== undefined) requireCollisionBits(o.collisionGroup, 'ragdoll: collisionGroup');
  if (o.collisionMask !== undefined) requireCollisionBits(o.collisionMask, 'ragdoll: collisionMask');
  if (o.linearVelocity !== undefined) requireMagnitude(o.linearVelocity, MAX_LINEAR_SPEED, 'MAX_LINEAR_SPEED', 'm/s', 'ragdoll: linearVelocity');
}

/** `error` with the bone's name in front (same class; the original as `cause`). */
function boneError(name: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = `ragdoll bone '${name}': ${error.message}`;
  if (error instanceof RangeError) return new RangeError(message, { cause: error });
  if (error instanceof TypeError) return new TypeError(message, { cause: error });
  return new Error(message, { cause: error });
}

/** A value for an error message: strings quoted, objects not converted (their toString may throw). */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

const IDENTITY: Readonly<Quat> = { x: 0, y: 0, z: 0, w: 1 };
const DEG = Math.PI / 180;
/** N·m at scale 1 (see RagdollBodyOptions.jointFriction). */
const DEFAULT_JOINT_FRICTION = 1.5;
/** Range of humanoidDescription's scale: every bone then stays within the shape size limits. */
const MIN_RAGDOLL_SCALE = 1e-3;
const MAX_RAGDOLL_SCALE = 1e3;

/**
 * The humanoid skeleton (12 bones) in model space for a given scale: pelvis at
 * the origin, standing on −0.99·scale, facing +Z. Exposed so games can edit it
 * before `createRagdollFromDescription`.
 */
export function humanoidDescription(scale = 1, joints: 'anatomical' | 'ball' = 'anatomical'): RagdollBoneDesc[] {
  if (typeof scale !== 'number') throw new TypeError(`ragdoll: scale must be a number (got ${typeof scale} ${shown(scale)})`);
  if (!(scale >= MIN_RAGDOLL_SCALE && scale <= MAX_RAGDOLL_SCALE)) {
    throw new RangeError(`ragdoll: scale must be in [${MIN_RAGDOLL_SCALE}, ${MAX_RAGDOLL_SCALE}] (got ${String(scale)})`);
  }
  // Anything else would quietly build the anatomical joints.
  if (joints !== 'anatomical' && joints !== 'ball') throw new RangeError(`ragdoll: joints must be 'anatomical' or 'ball' (got ${shown(joints)})`);
  const s = scale;
  const v = (x: number, y: number, z: number): Vec3 => ({ x: x * s, y: y * s, z: z * s });
  const box = (x: number, y: number, z: number): Box => new Box({ x: x * s, y: y * s, z: z * s });
  const capsule = (r: number, hh: number): Capsule => new Capsule(r * s, hh * s);
  const down: Vec3 = { x: 0, y: -1, z: 0 };
  const up: Vec3 = { x: 0, y: 1, z: 0 };
  const side: Vec3 = { x: 1, y: 0, z: 0 };
  const ball = joints === 'ball';
  const cone = (anchor: Vec3, twistAxis: Vec3, swingY: number, swingZ: number, twist: number): RagdollJointDesc =>
    ball ? { type: 'ball', anchor } : { type: 'coneTwist', anchor, twistAxis, normalAxis: side, swingLimitY: swingY * DEG, swingLimitZ: swingZ * DEG, twistLower: -twist * DEG, twistUpper: twist * DEG };
  const hinge = (anchor: Vec3, axis: Vec3, lower: number, upper: number): RagdollJointDesc =>
    ball ? { type: 'ball', anchor } : { type: 'hinge', anchor, axis, lowerAngle: lower * DEG, upperAngle: upper * DEG };
  const bones: RagdollBoneDesc[] = [
    { name: 'pelvis', shape: box(0.15, 0.09, 0.1), parent: null, position: v(0, 0, 0) },
    { name: 'spine', shape: box(0.14, 0.1, 0.09), parent: 'pelvis', position: v(0, 0.2, 0), joint: cone(v(0, 0.095, 0), up, 25, 25, 15) },
    { name: 'chest', shape: box(0.17, 0.13, 0.1), parent: 'spine', position: v(0, 0.44, 0), joint: cone(v(0, 0.305, 0), up, 25, 25, 15) },
    { name: 'head', shape: new Sphere(0.1 * s), parent: 'chest', position: v(0, 0.72, 0), joint: cone(v(0, 0.595, 0), up, 40, 40, 45) },
  ];
  for (const side_ of [-1, 1]) {
    const n = side_ < 0 ? 'Right' : 'Left';
    const x = 0.24 * side_;
    // Arms hang at the chest's sides (2 cm gap); elbows flex forward: about −X, positive angle.
    bones.push({ name: `upperArm${n}`, shape: capsule(0.05, 0.1), parent: 'chest', position: v(x, 0.38, 0), joint: cone(v(x, 0.53, 0), down, 85, 85, 45) });
    bones.push({ name: `lowerArm${n}`, shape: capsule(0.045, 0.1), parent: `upperArm${n}`, position: v(x, 0.08, 0), joint: hinge(v(x, 0.228, 0), { x: -1, y: 0, z: 0 }, -5, 140) });
  }
  for (const side_ of [-1, 1]) {
    const n = side_ < 0 ? 'Right' : 'Left';
    const x = 0.09 * side_;
    // Hip cone: frame Y = world X, so swingLimitY bounds forward/back swing, swingLimitZ the sideways swing.
    bones.push({ name: `upperLeg${n}`, shape: capsule(0.07, 0.15), parent: 'pelvis', position: v(x, -0.32, 0), joint: cone(v(x, -0.095, 0), down, 70, 35, 25) });
    // Knees flex backward: about +X, positive angle.
    bones.push({ name: `lowerLeg${n}`, shape: capsule(0.06, 0.16), parent: `upperLeg${n}`, position: v(x, -0.77, 0), joint: hinge(v(x, -0.545, 0), side, -5, 140) });
  }
  return bones;
}

/**
 * A humanoid ragdoll of 12 bodies (pelvis, spine, chest, head, upper/lower
 * arms, upper/lower legs; boxes, capsules and a sphere) with anatomical
 * limits, masses from `density` (about 73 kg at scale 1, density 1000).
 */
export function createRagdoll(world: RagdollWorld, options: RagdollOptions): Ragdoll {
  if (!options || typeof options !== 'object' || !options.position) throw new TypeError('createRagdoll: options.position is required');
  const scale = options.scale ?? 1;
  const bones = humanoidDescription(scale, options.joints ?? 'anatomical');
  const jointFriction = options.jointFriction ?? Math.min(DEFAULT_JOINT_FRICTION * scale ** 4, MAX_JOINT_TORQUE);
  return createRagdollFromDescription(world, bones, { position: options.position, rotation: options.rotation }, { ...options, jointFriction });
}
