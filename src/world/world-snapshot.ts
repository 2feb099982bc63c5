/**
 * World.snapshot and World.restore: the world's state to and from the
 * typed-array format of snapshot.ts. The world hands over its parts
 * (SnapshotHost); nothing here is stepped.
 */
import { BroadPhase } from '../collision/broadphase/broadphase';
import { MAX_MANIFOLD_POINTS } from '../collision/narrowphase/manifold';
import type { RigidBody } from '../dynamics/body';
import { CONTACT_STRIDE, FRICTION_IMPULSE, NORMAL_IMPULSE, PAIR_GAP, PAIR_GAP_ODOMETER, PAIR_IDLE, PAIR_INTS, PAIR_NUMS } from '../dynamics/contact';
import { PAIR_KEY_SCALE, type ContactManager } from '../dynamics/contact-manager';
import { FAT_MARGIN } from '../dynamics/integrate';
import type { Joint } from '../joints/joint';
import type { Quat } from '../math/quat';
import { MAX_BODY_STATE } from '../math/validate';
import type { Vec3 } from '../math/vec3';
import type { SceneQueries } from './queries';
import {
  B_ANGULAR, B_ANGULAR_DAMPING, B_FORCE, B_FRICTION, B_GRAVITY_SCALE, B_LINEAR_DAMPING, B_MASS, B_ODOMETER, B_POSITION, B_PREV_POSITION, B_PREV_ROTATION,
  B_RESTITUTION, B_ROTATION, B_SHAPE, B_STATIC_FRICTION, B_INERTIA, B_INERTIA_ROTATION, BI_COMBINE, B_SLEEP_TIME, B_TARGET_POSITION, B_TARGET_ROTATION, B_TORQUE, B_VELOCITY, BI_FLAGS, BI_GROUP, BI_ID, BI_ISLAND_NEXT,
  BI_MASK, BI_PROXY, BI_SHAPE, BI_TYPE, BODY_AWAKE, BODY_CAN_SLEEP, BODY_INTS, BODY_PUT_BACK, BODY_KINEMATIC_TARGET, BODY_PROXY_STALE, BODY_SENSOR, BODY_STRIDE,
  C_FRICTION, C_GAP, C_GAP_ODOMETER, C_RESTITUTION, C_TOTAL_IMPULSE, CI_A, CI_B, CI_FLAGS, CI_POINTS, CONTACT_CACHED, CONTACT_EXTRA, CONTACT_IDLE,
  CONTACT_INTS, CONTACT_TOUCHING, CONTACT_WAS_TOUCHING, getQuat, getVec, JI_A, JI_B, JI_FLAGS, JI_KIND, JI_LENGTH, JI_OFFSET, JOINT_BREAK_REPORTED,
  JOINT_BROKEN, JOINT_INTS, putQuat, putVec, requireF64, requireI32, requireSameBody, requireUnitQuat, shapeParams, SNAPSHOT_VERSION, SnapshotError,
  W_ACCUMULATOR, W_BODIES, W_CONTACTS, W_DROPPED, W_GRAVITY, W_JOINTS, W_NEXT_BODY_ID, W_STEP_COUNT, WORLD_LENGTH, type StepperSnapshot, type WorldSnapshot,
} from './snapshot';

/** A stepper as the snapshot sees it (World.WorldStepper); W is the world type its methods take. */
export interface SnapshotStepper<W> {
  snapshotState?(): StepperSnapshot;
  validateState?(state: StepperSnapshot, world: W): void;
  restoreState?(state: StepperSnapshot, world: W): void;
}

/** The parts of a world that a snapshot holds. */
export interface SnapshotHost<W> {
  readonly bodyList: RigidBody[];
  readonly bodyById: ReadonlyMap<number, RigidBody>;
  readonly contactManager: ContactManager;
  readonly broadphase: BroadPhase;
  readonly jointList: readonly Joint[];
  readonly steppers: readonly SnapshotStepper<W>[];
  readonly queries: SceneQueries;
  readonly gravity: Vec3;
  stepCountValue: number;
  accumulator: number;
  nextBodyId: number;
  droppedTimeValue: number;
}

/** The world's state as a WorldSnapshot (see World.snapshot). */
export function takeSnapshot<W>(w: SnapshotHost<W>): WorldSnapshot {
  const nb = w.bodyList.length, nc = w.contactManager.list.length, nj = w.jointList.length;
  const world = new Float64Array(WORLD_LENGTH);
  world[W_STEP_COUNT] = w.stepCountValue;
  world[W_ACCUMULATOR] = w.accumulator;
  world[W_NEXT_BODY_ID] = w.nextBodyId;
  putVec(world, W_GRAVITY, w.gravity);
  world[W_DROPPED] = w.droppedTimeValue;
  world[W_BODIES] = nb; world[W_CONTACTS] = nc; world[W_JOINTS] = nj;
  const bodies = new Float64Array(BODY_STRIDE * nb), bodyInts = new Int32Array(BODY_INTS * nb);
  for (let i = 0; i < nb; i++) {
    const b = w.bodyList[i]!, o = BODY_STRIDE * i, oi = BODY_INTS * i;
    putVec(bodies, o + B_POSITION, b.position); putQuat(bodies, o + B_ROTATION, b.rotation);
    putVec(bodies, o + B_VELOCITY, b.linearVelocity); putVec(bodies, o + B_ANGULAR, b.angularVelocity);
    putVec(bodies, o + B_PREV_POSITION, b.previousPosition); putQuat(bodies, o + B_PREV_ROTATION, b.previousRotation);
    putVec(bodies, o + B_FORCE, b.force); putVec(bodies, o + B_TORQUE, b.torque);
    bodies[o + B_SLEEP_TIME] = b.sleepTime;
    bodies[o + B_ODOMETER] = b.odometer;
    putVec(bodies, o + B_TARGET_POSITION, b.kinematicTargetPosition); putQuat(bodies, o + B_TARGET_ROTATION, b.kinematicTargetRotation);
    bodies[o + B_FRICTION] = b.friction; bodies[o + B_RESTITUTION] = b.restitution;
    bodies[o + B_LINEAR_DAMPING] = b.linearDamping; bodies[o + B_ANGULAR_DAMPING] = b.angularDamping;
    bodies[o + B_GRAVITY_SCALE] = b.gravityScale; bodies[o + B_MASS] = b.mass;
    shapeParams(b.shape, bodies, o + B_SHAPE);
    bodies[o + B_STATIC_FRICTION] = b.staticFrictionRaw;
    putVec(bodies, o + B_INERTIA, b.inertia); putQuat(bodies, o + B_INERTIA_ROTATION, b.inertiaRotation);
    bodyInts[oi + BI_COMBINE] = b.frictionCombineCode | (b.restitutionCombineCode << 4);
    bodyInts[oi + BI_ID] = b.id;
    bodyInts[oi + BI_TYPE] = b.typeCode;
    bodyInts[oi + BI_SHAPE] = b.shape.kind;
    bodyInts[oi + BI_FLAGS] = (b.awake ? BODY_AWAKE : 0) | (b.proxyStale ? BODY_PROXY_STALE : 0) | (b.hasKinematicTarget ? BODY_KINEMATIC_TARGET : 0) |
      (b.canSleep ? BODY_CAN_SLEEP : 0) | (b.isSensor ? BODY_SENSOR : 0) | (b.continuousPutBack ? BODY_PUT_BACK : 0);
    bodyInts[oi + BI_ISLAND_NEXT] = b.islandNext !== null ? b.islandNext.id : -1;
    bodyInts[oi + BI_PROXY] = b.proxy;
    bodyInts[oi + BI_GROUP] = b.collisionGroup;
    bodyInts[oi + BI_MASK] = b.collisionMask;
  }
  const row = CONTACT_STRIDE + CONTACT_EXTRA;
  const contacts = new Float64Array(row * nc), contactInts = new Int32Array(CONTACT_INTS * nc);
  const store = w.contactManager.store;
  for (let i = 0; i < nc; i++) {
    const c = w.contactManager.list[i]!, o = row * i, e = o + CONTACT_STRIDE, oi = CONTACT_INTS * i;
    contacts.set(store.data.subarray(CONTACT_STRIDE * i, CONTACT_STRIDE * (i + 1)), o);
    contacts[e + C_GAP] = store.gaps[PAIR_NUMS * i + PAIR_GAP]!;
    contacts[e + C_GAP_ODOMETER] = store.gaps[PAIR_NUMS * i + PAIR_GAP_ODOMETER]!;
    contacts[e + C_FRICTION] = c.friction;
    contacts[e + C_RESTITUTION] = c.restitution;
    contacts[e + C_TOTAL_IMPULSE] = c.totalNormalImpulse;
    contactInts[oi + CI_A] = c.bodyA!.id;
    contactInts[oi + CI_B] = c.bodyB!.id;
    contactInts[oi + CI_POINTS] = c.pointCount;
    contactInts[oi + CI_FLAGS] = (c.touching ? CONTACT_TOUCHING : 0) | (c.wasTouching ? CONTACT_WAS_TOUCHING : 0) |
      (c.manifoldCached ? CONTACT_CACHED : 0) | (store.ints[PAIR_INTS * i + PAIR_IDLE] === 1 ? CONTACT_IDLE : 0);
  }
  const broadphase = w.broadphase.saveState();
  const jointNumbers: number[] = [];
  const jointInts = new Int32Array(JOINT_INTS * nj);
  for (let i = 0; i < nj; i++) {
    const j = w.jointList[i]!, oi = JOINT_INTS * i;
    const start = jointNumbers.length;
    j.saveState(jointNumbers);
    jointInts[oi + JI_KIND] = j.kind;
    jointInts[oi + JI_A] = j.bodyA.id;
    jointInts[oi + JI_B] = j.bodyB.id;
    jointInts[oi + JI_FLAGS] = (j.broken ? JOINT_BROKEN : 0) | (j.breakReported ? JOINT_BREAK_REPORTED : 0);
    jointInts[oi + JI_OFFSET] = start;
    jointInts[oi + JI_LENGTH] = jointNumbers.length - start;
  }
  const steppers: (StepperSnapshot | null)[] = [];
  for (let i = 0; i < w.steppers.length; i++) steppers.push(stepperState(w.steppers[i]!, i));
  return {
    version: SNAPSHOT_VERSION, world, bodies, bodyInts, contacts, contactInts,
    broadphaseInts: broadphase.ints, broadphaseBounds: broadphase.bounds,
    joints: Float64Array.from(jointNumbers), jointInts, steppers,
  };
}

/**
 * Stepper i's state, or null without snapshotState. Its shape is checked
 * here, by the stepper's name: restore would refuse the snapshot later.
 */
function stepperState<W>(s: SnapshotStepper<W>, i: number): StepperSnapshot | null {
  if (s.snapshotState === undefined) return null;
  requireHook(s, 'snapshotState', i, 'snapshot');
  requireHook(s, 'restoreState', i, 'snapshot');
  const state: unknown = s.snapshotState();
  const st = state as Partial<StepperSnapshot> | null;
  if (st === null || typeof st !== 'object' || !(st.f64 instanceof Float64Array) || !(st.i32 instanceof Int32Array)) {
    throw new TypeError(`snapshot: steppers[${i}].snapshotState() must return { f64: Float64Array, i32: Int32Array } (got ${st === null || typeof st !== 'object' ? String(st) : `{ f64: ${typeName(st.f64)}, i32: ${typeName(st.i32)} }`})`);
  }
  return st as StepperSnapshot;
}

function typeName(v: unknown): string {
  return v === null || typeof v !== 'object' ? String(v) : (v.constructor?.name ?? 'an object');
}

/** A stepper hook the snapshot calls must be a function (plain JavaScript may have replaced it since addStepper). */
function requireHook<W>(s: SnapshotStepper<W>, hook: 'snapshotState' | 'validateState' | 'restoreState', i: number, call: string): void {
  if (typeof s[hook] !== 'function') throw new TypeError(`${call}: steppers[${i}].${hook} must be a function (got ${String(s[hook])})`);
}

/** Checks the whole snapshot, then applies it (see World.restore). */
export function restoreSnapshot<W>(w: SnapshotHost<W>, snapshot: WorldSnapshot, world: W): void {
  validateSnapshot(w, snapshot, world);
  const s = snapshot;
  w.queries.version++;
  const nb = w.bodyList.length;
  const f = s.bodies, fi = s.bodyInts;
  // Bodies in the snapshot's order (the body order feeds the solver order).
  for (let i = 0; i < nb; i++) {
    const o = BODY_STRIDE * i, oi = BODY_INTS * i;
    const b = w.bodyById.get(fi[oi + BI_ID]!)!;
    w.bodyList[i] = b;
    b.index = i;
    getVec(b.position as Vec3, f, o + B_POSITION); getQuat(b.rotation as Quat, f, o + B_ROTATION);
    getVec(b.linearVelocity as Vec3, f, o + B_VELOCITY); getVec(b.angularVelocity as Vec3, f, o + B_ANGULAR);
    getVec(b.previousPosition as Vec3, f, o + B_PREV_POSITION); getQuat(b.previousRotation as Quat, f, o + B_PREV_ROTATION);
    getVec(b.force, f, o + B_FORCE); getVec(b.torque, f, o + B_TORQUE);
    b.sleepTime = f[o + B_SLEEP_TIME]!;
    b.odometer = f[o + B_ODOMETER]!;
    getVec(b.kinematicTargetPosition, f, o + B_TARGET_POSITION); getQuat(b.kinematicTargetRotation, f, o + B_TARGET_ROTATION);
    b.friction = f[o + B_FRICTION]!; b.restitution = f[o + B_RESTITUTION]!;
    b.linearDamping = f[o + B_LINEAR_DAMPING]!; b.angularDamping = f[o + B_ANGULAR_DAMPING]!;
    b.gravityScale = f[o + B_GRAVITY_SCALE]!;
    b.staticFrictionRaw = f[o + B_STATIC_FRICTION]!;
    b.frictionCombineCode = fi[oi + BI_COMBINE]! & 15;
    b.restitutionCombineCode = fi[oi + BI_COMBINE]! >> 4;
    const flags = fi[oi + BI_FLAGS]!;
    b.awake = (flags & BODY_AWAKE) !== 0;
    b.proxyStale = (flags & BODY_PROXY_STALE) !== 0;
    b.hasKinematicTarget = (flags & BODY_KINEMATIC_TARGET) !== 0;
    b.endsOnKinematicTarget = false;
    b.canSleep = (flags & BODY_CAN_SLEEP) !== 0;
    b.continuousPutBack = (flags & BODY_PUT_BACK) !== 0;
    b.proxy = fi[oi + BI_PROXY]!;
    b.collisionGroup = fi[oi + BI_GROUP]!;
    b.collisionMask = fi[oi + BI_MASK]!;
    b.updateInertia();
  }
  for (let i = 0; i < nb; i++) {
    const next = fi[BODY_INTS * i + BI_ISLAND_NEXT]!;
    w.bodyList[i]!.islandNext = next >= 0 ? w.bodyById.get(next)! : null;
  }
  w.broadphase.loadState(s.broadphaseInts, s.broadphaseBounds);
  // Contacts: rebuilt exactly, in the snapshot's order.
  while (w.contactManager.list.length > 0) w.contactManager.destroyContact(w.contactManager.list[w.contactManager.list.length - 1]!, false);
  const nc = s.world[W_CONTACTS]!, row = CONTACT_STRIDE + CONTACT_EXTRA, cf = s.contacts, ci = s.contactInts;
  for (let i = 0; i < nc; i++) {
    const o = row * i, e = o + CONTACT_STRIDE, oi = CONTACT_INTS * i;
    const c = w.contactManager.createContact(w.bodyById.get(ci[oi + CI_A]!)!, w.bodyById.get(ci[oi + CI_B]!)!);
    const store = w.contactManager.store;
    store.data.set(cf.subarray(o, o + CONTACT_STRIDE), CONTACT_STRIDE * i);
    store.gaps[PAIR_NUMS * i + PAIR_GAP] = cf[e + C_GAP]!;
    store.gaps[PAIR_NUMS * i + PAIR_GAP_ODOMETER] = cf[e + C_GAP_ODOMETER]!;
    const flags = ci[oi + CI_FLAGS]!;
    store.ints[PAIR_INTS * i + PAIR_IDLE] = (flags & CONTACT_IDLE) !== 0 ? 1 : 0;
    c.friction = cf[e + C_FRICTION]!;
    c.restitution = cf[e + C_RESTITUTION]!;
    c.totalNormalImpulse = cf[e + C_TOTAL_IMPULSE]!;
    c.pointCount = ci[oi + CI_POINTS]!;
    c.touching = (flags & CONTACT_TOUCHING) !== 0;
    c.wasTouching = (flags & CONTACT_WAS_TOUCHING) !== 0;
    c.manifoldCached = (flags & CONTACT_CACHED) !== 0;
  }
  for (let i = 0; i < w.jointList.length; i++) {
    const j = w.jointList[i]!, oi = JOINT_INTS * i;
    j.loadState(s.joints, s.jointInts[oi + JI_OFFSET]!);
    const flags = s.jointInts[oi + JI_FLAGS]!;
    j.broken = (flags & JOINT_BROKEN) !== 0;
    j.breakReported = (flags & JOINT_BREAK_REPORTED) !== 0;
  }
  for (let i = 0; i < w.steppers.length; i++) {
    const st = s.steppers[i];
    if (st) w.steppers[i]!.restoreState!(st, world);
  }
  const sw = s.world;
  w.stepCountValue = sw[W_STEP_COUNT]!;
  w.accumulator = sw[W_ACCUMULATOR]!;
  w.nextBodyId = sw[W_NEXT_BODY_ID]!;
  getVec(w.gravity, sw, W_GRAVITY);
  w.droppedTimeValue = sw[W_DROPPED]!;
}

/**
 * Impulse (N·s) per kilogram of the world's dynamic bodies that a saved
 * contact impulse may reach: ten times the most velocity change a step can
 * ask of a body (twice MAX_LINEAR_SPEED, and MAX_GRAVITY over MAX_TIME_STEP),
 * rounded up. A heavy body resting or landing needs more than MAX_BODY_STATE
 * (a 1e17 kg box at rest on the floor takes 1.6e16 N·s a step).
 */
const IMPULSE_PER_KG = 1e7;
/** Largest bound, so that the impulse over a light body's mass stays finite in the next step. */
const MAX_IMPULSE_BOUND = 1e250;

/** The largest contact impulse restore takes in this world: MAX_BODY_STATE, or IMPULSE_PER_KG × its dynamic mass if more. */
function contactImpulseBound(bodies: readonly RigidBody[]): number {
  let mass = 0;
  for (let i = 0; i < bodies.length; i++) if (bodies[i]!.isDynamic) mass += bodies[i]!.mass;
  return Math.max(MAX_BODY_STATE, Math.min(IMPULSE_PER_KG * mass, MAX_IMPULSE_BOUND));
}

/** 1e15 for 1e15, 1.6e27 for 1.6e27: the bound as the messages give it. */
function exp(x: number): string {
  return x.toPrecision(2).replace(/\.0e/, 'e').replace('e+', 'e');
}

/**
 * The warm-start impulses of contact i's row at o (each point's normal
 * impulse ≥ 0, its friction impulses, the pair's total) within ±bound (see
 * contactImpulseBound), and its mixed friction ≥ 0 and restitution in
 * [0, 1]: a finite but huge warm start turns the bodies' velocities to NaN
 * in the next step.
 */
function requireContactNumbers(cf: Float64Array, o: number, i: number, bound: number): void {
  for (let k = 0; k < MAX_MANIFOLD_POINTS; k++) {
    const n = cf[o + NORMAL_IMPULSE + k]!;
    if (!(n >= 0 && n <= bound)) throw new SnapshotError(`restore: contact ${i}'s normal impulse ${k} must be within [0, ${exp(bound)}] (got ${n})`);
  }
  for (let k = 0; k < 3 * MAX_MANIFOLD_POINTS; k++) {
    const f = cf[o + FRICTION_IMPULSE + k]!;
    if (!(Math.abs(f) <= bound)) throw new SnapshotError(`restore: contact ${i}'s friction impulse ${k} must be within ±${exp(bound)} (got ${f})`);
  }
  const e = o + CONTACT_STRIDE;
  const total = cf[e + C_TOTAL_IMPULSE]!, friction = cf[e + C_FRICTION]!, restitution = cf[e + C_RESTITUTION]!;
  if (!(total >= 0 && total <= bound)) throw new SnapshotError(`restore: contact ${i}'s total impulse must be within [0, ${exp(bound)}] (got ${total})`);
  if (!(friction >= 0)) throw new SnapshotError(`restore: contact ${i}'s friction must be ≥ 0 (got ${friction})`);
  if (!(restitution >= 0 && restitution <= 1)) throw new SnapshotError(`restore: contact ${i}'s restitution must be within [0, 1] (got ${restitution})`);
}

/** Throws a SnapshotError unless `restore(s)` can apply every part of `s` to this world. Changes nothing. */
function validateSnapshot<W>(host: SnapshotHost<W>, s: WorldSnapshot, world: W): void {
  if (s === null || typeof s !== 'object') throw new SnapshotError('restore: not a footing world snapshot');
  if (s.version !== SNAPSHOT_VERSION) throw new SnapshotError(`restore: snapshot version ${String(s.version)}; this footing restores version ${SNAPSHOT_VERSION}`);
  const w = requireF64(s.world, WORLD_LENGTH, 'world', false);
  const nb = w[W_BODIES]!, nc = w[W_CONTACTS]!, nj = w[W_JOINTS]!;
  if (nb !== host.bodyList.length) throw new SnapshotError(`restore: the snapshot has ${nb} bodies, the world ${host.bodyList.length}`);
  if (nj !== host.jointList.length) throw new SnapshotError(`restore: the snapshot has ${nj} joints, the world ${host.jointList.length}`);
  if (!Number.isInteger(nc) || nc < 0) throw new SnapshotError(`restore: contact count ${nc}`);
  if (!Number.isInteger(w[W_STEP_COUNT]) || w[W_STEP_COUNT]! < 0 || w[W_STEP_COUNT]! > Number.MAX_SAFE_INTEGER) throw new SnapshotError(`restore: step count ${w[W_STEP_COUNT]}`);
  if (!(w[W_ACCUMULATOR]! >= 0) || !(w[W_DROPPED]! >= 0)) throw new SnapshotError('restore: negative accumulator or dropped time');
  const nextId = w[W_NEXT_BODY_ID]!;
  if (!Number.isInteger(nextId) || nextId < 0 || nextId > PAIR_KEY_SCALE) throw new SnapshotError(`restore: next body id ${nextId}`);

  const f = requireF64(s.bodies, BODY_STRIDE * nb, 'bodies', false);
  const fi = requireI32(s.bodyInts, BODY_INTS * nb, 'bodyInts');
  const seen = new Set<number>();
  const scratch = new Float64Array(3);
  for (let i = 0; i < nb; i++) {
    const o = BODY_STRIDE * i, oi = BODY_INTS * i;
    const id = fi[oi + BI_ID]!;
    const b = host.bodyById.get(id);
    if (!b) throw new SnapshotError(`restore: body ${id} of the snapshot is not in this world`);
    if (seen.has(id)) throw new SnapshotError(`restore: body ${id} appears twice in the snapshot`);
    seen.add(id);
    if (id >= nextId) throw new SnapshotError(`restore: body ${id} is not below the snapshot's next body id ${nextId}`);
    requireSameBody(b, f, fi, i, scratch);
    requireUnitQuat(f, o + B_ROTATION, `body ${id} rotation`);
    requireUnitQuat(f, o + B_PREV_ROTATION, `body ${id} previousRotation`);
    requireUnitQuat(f, o + B_TARGET_ROTATION, `body ${id} kinematic target rotation`);
    const next = fi[oi + BI_ISLAND_NEXT]!;
    if (next !== -1 && !host.bodyById.has(next)) throw new SnapshotError(`restore: body ${id}'s island link names body ${next}, which is not in this world`);
  }

  const row = CONTACT_STRIDE + CONTACT_EXTRA;
  const cf = requireF64(s.contacts, row * nc, 'contacts', false);
  const ci = requireI32(s.contactInts, CONTACT_INTS * nc, 'contactInts');
  const pairs = new Set<number>();
  const impulseBound = contactImpulseBound(host.bodyList);
  for (let i = 0; i < nc; i++) {
    const oi = CONTACT_INTS * i;
    const a = ci[oi + CI_A]!, b = ci[oi + CI_B]!;
    if (!host.bodyById.has(a) || !host.bodyById.has(b)) throw new SnapshotError(`restore: contact ${i} names body ${host.bodyById.has(a) ? b : a}, which is not in this world`);
    const key = a < b ? a * PAIR_KEY_SCALE + b : b * PAIR_KEY_SCALE + a;
    if (a === b || pairs.has(key)) throw new SnapshotError(`restore: contact ${i} (bodies ${a}, ${b}) repeats a pair or a body`);
    pairs.add(key);
    const n = ci[oi + CI_POINTS]!;
    if (!(n >= 0 && n <= MAX_MANIFOLD_POINTS)) throw new SnapshotError(`restore: contact ${i} has ${n} points`);
    requireContactNumbers(cf, row * i, i, impulseBound);
  }

  // The broadphase is checked by loading it into a scratch one.
  const scratchBroadphase = new BroadPhase(FAT_MARGIN);
  if (!(s.broadphaseInts instanceof Int32Array)) throw new SnapshotError('restore: broadphaseInts must be an Int32Array');
  const bounds = s.broadphaseBounds;
  requireF64(bounds, bounds instanceof Float64Array ? bounds.length : 0, 'broadphaseBounds', false);
  try {
    scratchBroadphase.loadState(s.broadphaseInts, bounds);
  } catch (e) {
    throw new SnapshotError(`restore: the broadphase state is inconsistent (${(e as Error).message})`);
  }
  if (scratchBroadphase.proxyCount !== nb) throw new SnapshotError(`restore: the broadphase holds ${scratchBroadphase.proxyCount} proxies for ${nb} bodies`);
  for (let i = 0; i < nb; i++) {
    const oi = BODY_INTS * i, h = fi[oi + BI_PROXY]!;
    if (!scratchBroadphase.isLeaf(h) || scratchBroadphase.getUserData(h) !== fi[oi + BI_ID] || scratchBroadphase.getCategory(h) !== fi[oi + BI_TYPE]) {
      throw new SnapshotError(`restore: body ${fi[oi + BI_ID]}'s broadphase handle ${h} is not its proxy`);
    }
  }

  const ji = requireI32(s.jointInts, JOINT_INTS * nj, 'jointInts');
  let total = 0;
  const own: number[] = [];
  for (let i = 0; i < nj; i++) {
    const j = host.jointList[i]!, oi = JOINT_INTS * i;
    if (ji[oi + JI_KIND] !== j.kind || ji[oi + JI_A] !== j.bodyA.id || ji[oi + JI_B] !== j.bodyB.id) {
      throw new SnapshotError(`restore: joint ${i} is of kind ${ji[oi + JI_KIND]} between bodies ${ji[oi + JI_A]} and ${ji[oi + JI_B]} in the snapshot, of kind ${j.kind} between ${j.bodyA.id} and ${j.bodyB.id} in the world`);
    }
    own.length = 0;
    j.saveState(own);
    if (ji[oi + JI_OFFSET] !== total || ji[oi + JI_LENGTH] !== own.length) throw new SnapshotError(`restore: joint ${i}'s row is truncated or misplaced`);
    total += own.length;
  }
  // Infinity is a joint setting's "none" (limits, break impulse).
  requireF64(s.joints, total, 'joints', true);
  // Each joint's settings go through its checked setters: load them on
  // trial and put the joint's own state back, so that a bad value (a motor
  // speed out of range, an unknown axis mode) is refused before anything
  // is restored.
  const loaded: number[] = [], zeroed: number[] = [];
  for (let i = 0; i < nj; i++) {
    const j = host.jointList[i]!;
    own.length = 0;
    j.saveState(own);
    let error: unknown = null;
    try {
      j.loadState(s.joints, ji[JOINT_INTS * i + JI_OFFSET]!);
      j.requireFiniteImpulses(loaded, zeroed);
    } catch (e) {
      error = e;
    }
    j.loadState(Float64Array.from(own), 0);
    if (error !== null) throw new SnapshotError(`restore: joint ${i}'s state is refused (${(error as Error).message})`);
  }

  if (!Array.isArray(s.steppers) || s.steppers.length !== host.steppers.length) {
    throw new SnapshotError(`restore: the snapshot has ${Array.isArray(s.steppers) ? s.steppers.length : 'no'} steppers, the world ${host.steppers.length}`);
  }
  for (let i = 0; i < host.steppers.length; i++) {
    const st = host.steppers[i]!, data = s.steppers[i];
    if ((st.snapshotState !== undefined) !== (data !== null && data !== undefined)) throw new SnapshotError(`restore: stepper ${i} has state in only one of the snapshot and the world`);
    if (!data) continue;
    if (!(data.f64 instanceof Float64Array) || !(data.i32 instanceof Int32Array)) throw new SnapshotError(`restore: stepper ${i}'s state must be a Float64Array and an Int32Array`);
    // Checked before anything is written: the apply phase calls restoreState after the bodies, contacts and joints.
    requireHook(st, 'restoreState', i, 'restore');
    if (st.validateState !== undefined) {
      requireHook(st, 'validateState', i, 'restore');
      st.validateState(data, world);
    }
  }
}
