// Babylon's calculateMovement (PhysicsCharacterController's helper that
// steers a character's velocity towards the one its game wants), for
// FootingCharacterController.
import type { Vector3 } from '@babylonjs/core/Maths/math.vector';

/** The numbers surfaceMovement reads, kept in fields (a double handed to a call V8 does not inline is boxed). */
export interface MovementGains {
  /** Gain towards the desired velocity per call, in [0, 1]. */
  readonly acceleration: number;
  /** Largest velocity change per second, m/s². */
  readonly maxAcceleration: number;
  /** The call's time step, seconds. */
  readonly movementDt: number;
}

/**
 * Babylon's helper: the velocity that moves `currentVelocity` towards
 * `desiredVelocity` in the frame of the surface (tangent, binormal,
 * normal), by `acceleration` of the difference and at most
 * maxAcceleration·deltaTime, plus `surfaceVelocity`. `forwardWorld` and
 * `desiredVelocity` give the wish: its forward part runs along the
 * surface's tangent, its sideways part (up × forward) along the binormal.
 * Returns false (result untouched) when forward is parallel to up.
 */
export function surfaceMovement(
  g: MovementGains, forwardWorld: Vector3, surfaceNormal: Vector3, currentVelocity: Vector3, surfaceVelocity: Vector3,
  desiredVelocity: Vector3, upWorld: Vector3, result: Vector3,
): boolean {
  const fx = forwardWorld.x, fy = forwardWorld.y, fz = forwardWorld.z;
  const ux = upWorld.x, uy = upWorld.y, uz = upWorld.z;
  const nx = surfaceNormal.x, ny = surfaceNormal.y, nz = surfaceNormal.z;
  // b = forward × up, unit
  let bx = fy * uz - fz * uy, by = fz * ux - fx * uz, bz = fx * uy - fy * ux;
  let l2 = bx * bx + by * by + bz * bz;
  if (l2 < 1e-5) return false;
  let l = Math.sqrt(l2);
  bx /= l; by /= l; bz /= l;
  // t = b × n, unit: the surface's tangent (−forward on flat ground)
  let tx = by * nz - bz * ny, ty = bz * nx - bx * nz, tz = bx * ny - by * nx;
  l = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (l > 0) { tx /= l; ty /= l; tz /= l; }
  // b = t × n, unit: the binormal (up × forward on flat ground)
  bx = ty * nz - tz * ny; by = tz * nx - tx * nz; bz = tx * ny - ty * nx;
  l = Math.sqrt(bx * bx + by * by + bz * bz);
  if (l > 0) { bx /= l; by /= l; bz /= l; }
  // the velocity relative to the surface, in the frame (t, b, n): rows orthogonal, so the inverse divides by |row|²
  const rx0 = currentVelocity.x - surfaceVelocity.x, ry0 = currentVelocity.y - surfaceVelocity.y, rz0 = currentVelocity.z - surfaceVelocity.z;
  const n2 = nx * nx + ny * ny + nz * nz;
  let a = rx0 * tx + ry0 * ty + rz0 * tz;
  let b = rx0 * bx + ry0 * by + rz0 * bz;
  let c = n2 > 0 ? (rx0 * nx + ry0 * ny + rz0 * nz) / n2 : 0;
  // the wish in the same frame: forward along −t, sideways along b, keeping its length
  const sx = uy * fz - uz * fy, sy = uz * fx - ux * fz, sz = ux * fy - uy * fx;
  const fwd = desiredVelocity.x * fx + desiredVelocity.y * fy + desiredVelocity.z * fz;
  const side = desiredVelocity.x * sx + desiredVelocity.y * sy + desiredVelocity.z * sz;
  const len = Math.sqrt(desiredVelocity.x * desiredVelocity.x + desiredVelocity.y * desiredVelocity.y + desiredVelocity.z * desiredVelocity.z);
  let wa = -fwd, wb = side;
  l = Math.sqrt(wa * wa + wb * wb);
  if (l > 0) { wa = wa / l * len; wb = wb / l * len; }
  // step towards it: gain `acceleration`, at most maxAcceleration·dt
  const da = wa - a, db = wb - b, dc = -c;
  l2 = da * da + db * db + dc * dc;
  const maxDelta = g.maxAcceleration * g.movementDt;
  const k = l2 * g.acceleration * g.acceleration > maxDelta * maxDelta ? maxDelta / Math.sqrt(l2) : g.acceleration;
  a += da * k; b += db * k; c += dc * k;
  result.set(
    a * tx + b * bx + c * nx + surfaceVelocity.x,
    a * ty + b * by + c * ny + surfaceVelocity.y,
    a * tz + b * bz + c * nz + surfaceVelocity.z,
  );
  return true;
}
