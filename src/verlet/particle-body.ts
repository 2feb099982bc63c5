/**
 * A rigid body made of particles (Jakobsen §4): four particles at the corners
 * of a regular tetrahedron held by six sticks. Relaxation keeps all six
 * distances, which fixes the shape; collisions and pins act on single
 * particles, and rotation emerges from the sticks — no inertia tensor needed.
 */
import type { Vec3 } from '../math/vec3';
import { requirePosition } from '../math/validate';
import type { World } from '../world/world';
import { ParticleSystem, type ParticleSystemOptions } from './particles';

export interface ParticleBodyOptions extends ParticleSystemOptions {
  /** Centre, metres. */
  position: Readonly<Vec3>;
  /** Distance from the centre to each particle, metres. Default 0.25. */
  size?: number;
  /** Total mass, kg. Default 1. */
  mass?: number;
  /** Add to this system instead of creating one. */
  system?: ParticleSystem;
}

export interface ParticleBody {
  readonly system: ParticleSystem;
  /** The four particle indices. */
  readonly particles: readonly [number, number, number, number];
  /** Centre of the four particles. */
  getCenter(out: Vec3): Vec3;
}

/** Builds a 4-particle, 6-stick rigid tetrahedron; a new system is registered with the world. */
export function createParticleBody(world: World | null, options: ParticleBodyOptions): ParticleBody {
  if (options === null || typeof options !== 'object') throw new TypeError('createParticleBody: options must be an object');
  requirePosition(options.position, 'createParticleBody: position');
  const s = options.size ?? 0.25;
  const mass = options.mass ?? 1;
  if (typeof s !== 'number' || typeof mass !== 'number' || !(s > 0 && s <= 1e6) || !(mass > 0 && mass < Infinity)) throw new RangeError(`createParticleBody: size must be in (0, 1e6] and mass finite and > 0 (got ${String(s)}, ${String(mass)})`);
  if (options.system !== undefined && !(options.system instanceof ParticleSystem)) throw new TypeError(`createParticleBody: system must be a ParticleSystem (got ${String(options.system)})`);
  const own = options.system === undefined;
  const system = options.system ?? new ParticleSystem({ capacity: 4, ...options });
  const c = options.position;
  // Alternate cube corners (±1, ±1, ±1) with an even number of minus signs: a regular tetrahedron, circumradius √3.
  const k = s / Math.sqrt(3);
  const w = 4 / mass;
  const a = system.addParticle({ x: c.x + k, y: c.y + k, z: c.z + k }, w);
  const b = system.addParticle({ x: c.x + k, y: c.y - k, z: c.z - k }, w);
  const d = system.addParticle({ x: c.x - k, y: c.y + k, z: c.z - k }, w);
  const e = system.addParticle({ x: c.x - k, y: c.y - k, z: c.z + k }, w);
  system.addStick(a, b); system.addStick(a, d); system.addStick(a, e);
  system.addStick(b, d); system.addStick(b, e); system.addStick(d, e);
  if (world && own) {
    world.addStepper(system);
    system.steppedBy = world;
  }
  const x = system.positions;
  // Frozen: the particle indices name the four particles the sticks join.
  return Object.freeze({
    system,
    particles: Object.freeze([a, b, d, e] as const),
    getCenter(out: Vec3): Vec3 {
      out.x = (x[3 * a]! + x[3 * b]! + x[3 * d]! + x[3 * e]!) / 4;
      out.y = (x[3 * a + 1]! + x[3 * b + 1]! + x[3 * d + 1]! + x[3 * e + 1]!) / 4;
      out.z = (x[3 * a + 2]! + x[3 * b + 2]! + x[3 * d + 2]! + x[3 * e + 2]!) / 4;
      return out;
    },
  });
}
