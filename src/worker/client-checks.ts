// What the client checks and copies before a command leaves for the worker, and what a snapshot transfers.
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { WorkerSnapshot } from './protocol';

/**
 * A copy of `v` to send; throws a TypeError naming `field` when it is not an
 * object (the worker checks the numbers and names the component).
 */
export function copyVec(v: Vec3, field: string): Vec3 {
  if (v === null || typeof v !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${String(v)})`);
  return { x: v.x, y: v.y, z: v.z };
}

/** A copy of `q` to send; throws a TypeError naming `field` when it is not an object. */
export function copyQuat(q: Quat, field: string): Quat {
  if (q === null || typeof q !== 'object') throw new TypeError(`${field} must be a { x, y, z, w } object (got ${String(q)})`);
  return { x: q.x, y: q.y, z: q.z, w: q.w };
}

/** A copy of `v` to send, refused at the call with a RangeError naming `field` when a component is not finite. */
export function copyFiniteVec(v: Vec3, field: string): Vec3 {
  requireFiniteVec(v, field);
  return { x: v.x, y: v.y, z: v.z };
}

/** A copy of `q` to send, refused at the call when a component is not finite (the worker normalises it). */
export function copyFiniteQuat(q: Quat, field: string): Quat {
  requireFiniteQuat(q, field);
  return { x: q.x, y: q.y, z: q.z, w: q.w };
}

export function requireFiniteVec(v: Vec3, field: string): void {
  if (v === null || typeof v !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${String(v)})`);
  if (!Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) throw new RangeError(`${field} must be finite (got (${v.x}, ${v.y}, ${v.z}))`);
}

export function requireFiniteQuat(q: Quat, field: string): void {
  if (q === null || typeof q !== 'object') throw new TypeError(`${field} must be a { x, y, z, w } object (got ${String(q)})`);
  if (!Number.isFinite(q.x) || !Number.isFinite(q.y) || !Number.isFinite(q.z) || !Number.isFinite(q.w)) {
    throw new RangeError(`${field} must be finite (got (${q.x}, ${q.y}, ${q.z}, ${q.w}))`);
  }
}

/**
 * Throws a TypeError naming `field` when `value` cannot cross to the worker,
 * before a handle is claimed (postMessage would throw a DataCloneError
 * naming neither the command nor the field).
 */
export function requireCloneable(value: unknown, field: string): void {
  if (typeof structuredClone !== 'function') return;
  try {
    structuredClone(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${field} cannot be sent to the worker: it must be structured-cloneable (plain data, no functions or DOM nodes; ${reason})`);
  }
}

/**
 * The error to throw for a message postMessage refused (a DataCloneError,
 * which names neither the command nor the field): a TypeError naming the
 * first field of the message that cannot be cloned.
 */
export function unsendable(message: { type: string }, error: unknown): unknown {
  if (error === null || typeof error !== 'object' || (error as { name?: unknown }).name !== 'DataCloneError') return error;
  let field = 'the message';
  if (typeof structuredClone === 'function') {
    for (const [key, value] of Object.entries(message)) {
      try {
        structuredClone(value);
      } catch {
        field = key;
        break;
      }
    }
  }
  const reason = (error as { message?: unknown }).message;
  return new TypeError(`${message.type}: ${field} cannot be sent to the worker: it must be structured-cloneable (plain data, no functions or DOM nodes; ${String(reason)})`);
}

/** The ArrayBuffers of a WorkerSnapshot (the client imports no physics code, so not the World's snapshotTransferList). */
export function transferListOf(s: WorkerSnapshot): ArrayBuffer[] {
  if (s === null || typeof s !== 'object' || s.world === null || typeof s.world !== 'object' || !Array.isArray(s.characters)) {
    throw new TypeError(`restore: snapshot must be a worker snapshot ({ world, characters }) to transfer (got ${String(s)})`);
  }
  const out: ArrayBuffer[] = [];
  const add = (a: ArrayBufferView | undefined): void => {
    if (a && a.buffer instanceof ArrayBuffer && out.indexOf(a.buffer) < 0) out.push(a.buffer);
  };
  const w = s.world;
  for (const a of [w.world, w.bodies, w.bodyInts, w.contacts, w.contactInts, w.broadphaseInts, w.broadphaseBounds, w.joints, w.jointInts]) add(a);
  for (const st of w.steppers) if (st) { add(st.f64); add(st.i32); }
  for (const c of s.characters) { add(c.walker.f64); add(c.walker.i32); add(c.walker.controller.f64); add(c.walker.controller.i32); }
  return out;
}
