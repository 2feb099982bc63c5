/**
 * Rope: a chain of particles. Segments are distance limits 0 ≤ |d| ≤ L (a
 * rope goes slack under compression instead of pushing like a rod), or rigid
 * sticks with `rigid: true`.
 */
import type { RigidBody } from '../dynamics/body';
import type { Vec3 } from '../math/vec3';
import { requireInRange, requirePosition } from '../math/validate';
import type { World } from '../world/world';
import { ParticleSystem, type ParticleSystemOptions } from './particles';

export interface RopeOptions extends ParticleSystemOptions {
  from: Readonly<Vec3>;
  to: Readonly<Vec3>;
  /** Number of segments (particles = segments + 1), ≥ 1. */
  segments: number;
  /** Rest length, metres (≥ |to − from| leaves slack). Default |to − from|. */
  length?: number;
  /** Which ends are held in place. Default 'start'. */
  pinned?: 'start' | 'end' | 'both' | 'none';
  /** Attach the start to this body (at the start point) instead of the world; a body of the rope's world. Default null. */
  startBody?: RigidBody | null;
  /** Attach the end to this body (a body of the rope's world). Default null. */
  endBody?: RigidBody | null;
  /** Segments as rigid sticks instead of max-length limits. Default false. */
  rigid?: boolean;
  /** Total mass, kg. Default 1. */
  mass?: number;
  /**
   * Tethers: each particle also keeps within its rest distance along the rope
   * of each pinned end (long-range attachments, Kim, Chentanez & Müller 2012).
   * Gauss-Seidel needs ~N² sweeps to carry a pin's correction down an N-link
   * chain, so without tethers a hanging rope sits long (docs/verlet.md).
   * Default true.
   */
  tethers?: boolean;
}

export interface Rope {
  readonly system: ParticleSystem;
  /** Rest length of one segment, metres. */
  readonly segmentLength: number;
  /** Current length along the particles, metres. */
  length(): number;
}

/** Builds a rope and registers its particle system with the world (`world.addStepper`). */
export function createRope(world: World | null, options: RopeOptions): Rope {
  if (options === null || typeof options !== 'object') throw new TypeError('createRope: options must be an object');
  const { from, to, segments } = options;
  requirePosition(from, 'createRope: from');
  requirePosition(to, 'createRope: to');
  if (!Number.isInteger(segments) || segments < 1 || segments > 1e5) throw new RangeError(`createRope: segments must be an integer in [1, 100000] (got ${String(segments)})`);
  const span = Math.hypot(to.x - from.x, to.y - from.y, to.z - from.z);
  const length = options.length ?? span;
  if (!(length > 0)) throw new RangeError(`createRope: length must be > 0 (got ${String(length)}${options.length === undefined ? ': from and to coincide' : ''})`);
  requireInRange(length, 0, 1e6, 'createRope: length');
  const mass = options.mass ?? 1;
  if (!(mass > 0 && mass < Infinity)) throw new RangeError(`createRope: mass must be a finite number > 0 (got ${String(mass)})`);
  for (const [end, field] of [[options.startBody, 'startBody'], [options.endBody, 'endBody']] as const) {
    if (end !== undefined && end !== null && (typeof end !== 'object' || typeof end.isDynamic !== 'boolean')) throw new TypeError(`createRope: ${field} must be a RigidBody or null (got ${String(end)})`);
    if (end && end.world === null) throw new Error(`createRope: body ${end.id} is not in a world (removed)`);
    // As addJoint: the rope's world saves the pin by body id, which names the right body only in that world.
    if (end && world && end.world !== world) throw new Error(`createRope: ${field} (body ${end.id}) is not in this world`);
  }
  if (options.startBody && options.endBody && options.startBody.world !== options.endBody.world) {
    throw new Error(`createRope: startBody (body ${options.startBody.id}) and endBody (body ${options.endBody.id}) are in different worlds`);
  }
  const system = new ParticleSystem({ capacity: segments + 1, ...options });
  const invMass = (segments + 1) / mass;
  for (let i = 0; i <= segments; i++) {
    const t = i / segments;
    system.addParticle({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t, z: from.z + (to.z - from.z) * t }, invMass);
  }
  const segmentLength = length / segments;
  for (let i = 0; i < segments; i++) {
    if (options.rigid) system.addStick(i, i + 1, 1, segmentLength);
    else system.addDistanceLimit(i, i + 1, 0, segmentLength);
  }
  const pinned = options.pinned ?? 'start';
  const pinEnd = (i: number, body: RigidBody | null | undefined): void => {
    if (body) system.pinToBody(i, body); else system.pinToWorld(i);
  };
  if (pinned === 'start' || pinned === 'both' || options.startBody) pinEnd(0, options.startBody);
  if (pinned === 'end' || pinned === 'both' || options.endBody) pinEnd(segments, options.endBody);
  if (options.tethers ?? true) {
    const pinnedStart = system.inverseMasses[0] === 0, pinnedEnd = system.inverseMasses[segments] === 0;
    for (let i = 1; i < segments; i++) {
      if (pinnedStart && i > 1) system.addDistanceLimit(0, i, 0, i * segmentLength);
      if (pinnedEnd && i < segments - 1) system.addDistanceLimit(segments, i, 0, (segments - i) * segmentLength);
    }
    if (pinnedStart && !pinnedEnd && segments > 1) system.addDistanceLimit(0, segments, 0, length);
    if (pinnedEnd && !pinnedStart && segments > 1) system.addDistanceLimit(segments, 0, 0, length);
  }
  if (world) {
    world.addStepper(system);
    system.steppedBy = world;
  }
  const x = system.positions;
  // Frozen: segmentLength is the rest length the constraints were built with.
  return Object.freeze({
    system,
    segmentLength,
    length(): number {
      let sum = 0;
      for (let i = 0; i < segments; i++) {
        sum += Math.hypot(x[3 * i + 3]! - x[3 * i]!, x[3 * i + 4]! - x[3 * i + 1]!, x[3 * i + 5]! - x[3 * i + 2]!);
      }
      return sum;
    },
  });
}
