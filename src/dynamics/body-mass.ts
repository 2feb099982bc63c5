/**
 * A dynamic body's mass properties: the mass and principal moments from its
 * shape and density (or mass), or the ones the description gives, and how far
 * it may turn within a step before its world inertia is recomputed.
 */
import { normalize, type Quat } from '../math/quat';
import { requireFiniteQuat } from '../math/validate';
import type { Vec3 } from '../math/vec3';
import type { ConvexShape, Shape } from '../shapes/shape';

/** The fields of a body description (BodyDesc) its mass comes from; body-desc.ts imports this module, so BodyDesc is not named here. */
export interface MassDesc {
  readonly mass?: number;
  readonly density?: number;
  readonly inertia?: Readonly<Vec3>;
  readonly inertiaRotation?: Readonly<Quat>;
}

/**
 * @internal The mass (kg), principal moments (kg·m²) and the rotation from
 * their axes to the body's of a body from its description; zero (and
 * identity) unless dynamic.
 */
export function bodyMass(type: 'static' | 'dynamic' | 'kinematic', shape: Shape, desc: MassDesc): { mass: number; inertia: Vec3; inertiaRotation: Quat } {
  let mass = 0;
  const inertia = { x: 0, y: 0, z: 0 };
  if (type === 'dynamic') {
    // A Compound has the same massProperties (centre of mass at its origin, compound.ts).
    const convex = shape as ConvexShape;
    if (desc.mass !== undefined) {
      if (typeof desc.mass !== 'number' || !Number.isFinite(desc.mass) || desc.mass <= 0) {
        throw new RangeError(`mass must be a finite number > 0 for a dynamic body (got ${String(desc.mass)})`);
      }
      const props = convex.massProperties(1);
      const k = desc.mass / props.mass;
      mass = desc.mass;
      inertia.x = props.inertia.x * k;
      inertia.y = props.inertia.y * k;
      inertia.z = props.inertia.z * k;
    } else {
      const density = desc.density ?? 1000;
      if (typeof density !== 'number' || !Number.isFinite(density) || density <= 0) {
        throw new RangeError(`density must be a finite number > 0 (got ${String(density)})`);
      }
      const props = convex.massProperties(density);
      mass = props.mass;
      inertia.x = props.inertia.x;
      inertia.y = props.inertia.y;
      inertia.z = props.inertia.z;
    }
    // A size at the end of the accepted range with an extreme density or
    // mass can under- or overflow (a 1e-6 m box of density 1e-300 has mass 0).
    const what = desc.mass !== undefined ? `mass ${desc.mass}` : `density ${String(desc.density ?? 1000)}`;
    if (!(mass > 0 && mass < Infinity && 1 / mass < Infinity)) {
      throw new RangeError(`shape: the body's mass from its shape and ${what} is ${mass}; it must be finite and > 0 (use a larger shape or another mass/density)`);
    }
    if (desc.inertia !== undefined) {
      const di = desc.inertia;
      if (di === null || typeof di !== 'object') throw new TypeError(`inertia must be a vector { x, y, z } (got ${String(di)})`);
      for (const k of ['x', 'y', 'z'] as const) {
        const v = di[k];
        if (typeof v !== 'number' || !(v > 0 && v < Infinity && 1 / v < Infinity)) throw new RangeError(`inertia.${k} must be a finite number > 0 (got ${String(v)})`);
      }
      inertia.x = di.x; inertia.y = di.y; inertia.z = di.z;
    }
    if (!(inertia.x < Infinity && inertia.y < Infinity && inertia.z < Infinity && 1 / inertia.x < Infinity && 1 / inertia.y < Infinity && 1 / inertia.z < Infinity && inertia.x > 0 && inertia.y > 0 && inertia.z > 0)) {
      throw new RangeError(`shape: the body's inertia from its shape and ${what} is (${inertia.x}, ${inertia.y}, ${inertia.z}); it must be finite and > 0`);
    }
  }
  const inertiaRotation = { x: 0, y: 0, z: 0, w: 1 };
  const r = desc.inertiaRotation;
  if (r !== undefined && type === 'dynamic') {
    requireFiniteQuat(r, 'inertiaRotation');
    normalize(inertiaRotation, r);
  }
  return { mass, inertia, inertiaRotation };
}

/**
 * Turn (rad) after which a slot's world inertia and its contact rows are
 * recomputed within a step, for a body with equal principal moments.
 */
const MAX_STALE_ANGLE = 0.3;
/**
 * Relative error allowed in the world inertia before it is recomputed. Turned
 * by θ, the inertia about an axis grows from λ_min by up to (λ_max − λ_min)
 * sin²θ, a relative error of about (λ_max/λ_min − 1) θ².
 */
const STALE_INERTIA_ERROR = 0.15;

/** cos(½ θ_max) for a body with principal inverse inertia (a, b, c); see MAX_STALE_ANGLE. @internal */
export function staleTurnCos(a: number, b: number, c: number): number {
  const hi = Math.max(a, b, c), lo = Math.min(a, b, c);
  if (!(lo > 0)) return Math.cos(0.5 * MAX_STALE_ANGLE);
  const ratio = hi / lo - 1;
  const angle = ratio > 0 ? Math.min(MAX_STALE_ANGLE, Math.sqrt(STALE_INERTIA_ERROR / ratio)) : MAX_STALE_ANGLE;
  return Math.cos(0.5 * angle);
}
