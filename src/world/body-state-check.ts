/**
 * Body poses and velocities are handed out live (Readonly to TypeScript, no
 * copy per read, for an allocation-free hot path), so plain JavaScript can
 * write them past the setters. The world checks them at the start of every
 * step, before anything moves, as it checks its live settings objects.
 */
import { requireBodyViews, type RigidBody } from '../dynamics/body';
import { MAX_BODY_STATE } from '../math/validate';
import type { Vec3 } from '../math/vec3';

/** A rotation whose squared length is further than this from 1 was written directly. */
const ROTATION_TOLERANCE = 1e-3;

/** Throws a RangeError naming the first body field that is not a number within MAX_BODY_STATE, or a rotation that is not unit. */
export function checkBodyStates(bodies: readonly RigidBody[]): void {
  const L = MAX_BODY_STATE;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    const p = b.position, q = b.rotation, v = b.linearVelocity, w = b.angularVelocity, f = b.force, t = b.torque;
    const n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    // Inline comparisons on the fast path (NaN fails every one); typeof as
    // well, since a numeric string passes a comparison and concatenates.
    if (
      typeof p.x === 'number' && typeof p.y === 'number' && typeof p.z === 'number' &&
      typeof v.x === 'number' && typeof v.y === 'number' && typeof v.z === 'number' &&
      typeof w.x === 'number' && typeof w.y === 'number' && typeof w.z === 'number' &&
      typeof q.x === 'number' && typeof q.y === 'number' && typeof q.z === 'number' && typeof q.w === 'number' &&
      Math.abs(p.x) <= L && Math.abs(p.y) <= L && Math.abs(p.z) <= L &&
      Math.abs(v.x) <= L && Math.abs(v.y) <= L && Math.abs(v.z) <= L &&
      Math.abs(w.x) <= L && Math.abs(w.y) <= L && Math.abs(w.z) <= L &&
      Math.abs(n - 1) <= ROTATION_TOLERANCE &&
      // force and torque are live too (applyForce checks what goes through it).
      typeof f.x === 'number' && typeof f.y === 'number' && typeof f.z === 'number' && typeof t.x === 'number' && typeof t.y === 'number' && typeof t.z === 'number' &&
      Math.abs(f.x) <= L && Math.abs(f.y) <= L && Math.abs(f.z) <= L && Math.abs(t.x) <= L && Math.abs(t.y) <= L && Math.abs(t.z) <= L &&
      // The step writes these objects in place: a frozen one would throw half-way through it.
      Object.isExtensible(p) && Object.isExtensible(q) && Object.isExtensible(v) && Object.isExtensible(w)
    ) continue;
    nameBadField(b);
  }
}

function nameBadField(b: RigidBody): never {
  const where = `(body ${b.id})`;
  const live: readonly [string, object][] = [['position', b.position], ['rotation', b.rotation], ['linearVelocity', b.linearVelocity], ['angularVelocity', b.angularVelocity]];
  for (const [field, obj] of live) {
    if (!Object.isExtensible(obj)) {
      throw new TypeError(`body.${field} ${where} is frozen, sealed or not extensible: the world writes it in place every step; copy it before freezing (e.g. { ...body.${field} })`);
    }
  }
  const vectors: readonly [string, Readonly<Record<'x' | 'y' | 'z', unknown>>, string][] = [
    ['position', b.position, 'setPosition'],
    ['linearVelocity', b.linearVelocity, 'setLinearVelocity'],
    ['angularVelocity', b.angularVelocity, 'setAngularVelocity'],
    ['force', b.force, 'applyForce'],
    ['torque', b.torque, 'applyTorque'],
  ];
  for (const [field, vec, setter] of vectors) {
    for (const c of ['x', 'y', 'z'] as const) {
      const x = vec[c];
      if (!(typeof x === 'number' && Math.abs(x) <= MAX_BODY_STATE)) {
        throw new RangeError(`body.${field}.${c} ${where} must be a finite number within ±1e15 (MAX_BODY_STATE) at the start of a step (got ${String(x)}); write it through body.${setter}`);
      }
    }
  }
  const q = b.rotation as Readonly<Record<'x' | 'y' | 'z' | 'w', unknown>>;
  for (const c of ['x', 'y', 'z', 'w'] as const) {
    if (typeof q[c] !== 'number' || !Number.isFinite(q[c])) {
      throw new RangeError(`body.rotation.${c} ${where} must be a finite number at the start of a step (got ${String(q[c])}); write it through body.setRotation`);
    }
  }
  const r = b.rotation;
  const n = Math.sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
  throw new RangeError(`body.rotation ${where} must be a unit quaternion at the start of a step (length ${n}); write it through body.setRotation, which normalises`);
}

/** The live views World.snapshot saves: restore refuses them unless finite. */
const SNAPSHOT_VIEWS: readonly string[] = ['position', 'rotation', 'linearVelocity', 'angularVelocity', 'previousPosition', 'previousRotation'];

/**
 * What World.snapshot saves and restore would refuse by index, checked by
 * name before anything is saved: gravity, and each body's live views (the
 * previous pose is one the step never reads before writing; a static or
 * sleeping body's is never written), the rotations unit to restore's 1e-6
 * on |q|² (the step accepts 1e-3 and normalises only the bodies it moves).
 * A world the next step refuses for another reason (a setting, a frozen
 * view) can still be saved.
 */
export function checkSnapshotState(g: Readonly<Vec3>, bodies: readonly RigidBody[]): void {
  if (!(Number.isFinite(g.x) && Number.isFinite(g.y) && Number.isFinite(g.z))) throw new RangeError(`snapshot: world.gravity must be finite (got (${String(g.x)}, ${String(g.y)}, ${String(g.z)}))`);
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    requireBodyViews(b, SNAPSHOT_VIEWS, 'snapshot');
    for (const q of [b.rotation, b.previousRotation]) {
      const n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
      // restore's tolerance (snapshot.ts, requireUnitQuat).
      if (!(Math.abs(n2 - 1) <= 1e-6)) throw new RangeError(`snapshot: body.${q === b.rotation ? 'rotation' : 'previousRotation'} (body ${b.id}) must be a unit quaternion to 1e-6 (|q|² = ${n2})`);
    }
  }
}
