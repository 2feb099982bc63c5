/**
 * The elliptical swing cone of ConeTwistJoint and of SixDofJoint's swingType
 * 'cone' (Jolt SwingTwistConstraint, Bullet btConeTwistConstraint): the
 * radial error C = r(φ) − θ ≥ 0 of a swing by θ in the direction u = (0,
 * cos φ, sin φ) of frame A, with the cone's radius there
 *   r(φ) = (cos²φ/l_y² + sin²φ/l_z²)^(−1/2),
 * and the row's exact rate axis. B's twist axis a_B = cos θ X + sin θ v
 * (v = u × X) moves with ȧ_B = ω_rel × a_B, so
 *   θ̇ = u·ω_rel,   φ̇ = (X − cot θ v)·ω_rel,
 *   Ċ = r′(φ) φ̇ − θ̇,   r′(φ) = −r³ sin φ cos φ (1/l_z² − 1/l_y²),
 * and J = r′(X − cot θ v) − u, which is ⊥ a_B (it never twists B about its
 * own axis). The ellipse's normal alone is not enough: twisting about A's X
 * carries a tilted a_B around the cone (docs/joints.md).
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { frameAxisX, frameAxisY, frameAxisZ } from './rows';

/**
 * swingCone's doubles (CONTRIBUTING.md, hot path). In: [0] u_y, [1] u_z (the
 * unit swing direction in frame A), [2] θ, [3] l_y, [4] l_z (half-angles
 * about frame A's Y and Z). Out: [5] C, [6..8] J in world space (not unit).
 */
export const SWING_CONE = new Float64Array(9);

/** Smallest cone half-angle the row uses (rad); a smaller limit is a lock in all but name. */
export const MIN_CONE_ANGLE = 1e-6;

/** C and J of the cone (see SWING_CONE) for joint frame A `fa`; `tmp` is the caller's scratch. */
export function swingCone(fa: Readonly<Quat>, tmp: Vec3): void {
  const w = SWING_CONE;
  // Half-angles below MIN_CONE_ANGLE act as it: 1/l² overflows below about 1e-154 rad, which would turn the row NaN and the cone unlimited.
  const uy = w[0]!, uz = w[1]!, theta = w[2]!, ly = Math.max(w[3]!, MIN_CONE_ANGLE), lz = Math.max(w[4]!, MIN_CONE_ANGLE);
  // u in world space.
  const ty = frameAxisY(tmp, fa);
  let ux = uy * ty.x, uyw = uy * ty.y, uzw = uy * ty.z;
  const tz = frameAxisZ(tmp, fa);
  ux += uz * tz.x; uyw += uz * tz.y; uzw += uz * tz.z;
  let jx = -ux, jy = -uyw, jz = -uzw;
  let r = ly;
  if (ly !== lz) {
    const iy = 1 / (ly * ly), iz = 1 / (lz * lz);
    r = 1 / Math.sqrt(uy * uy * iy + uz * uz * iz);
    const dr = -r * r * r * uy * uz * (iz - iy);
    const sinT = Math.sin(theta);
    if (sinT > 1e-6) {
      const ax = frameAxisX(tmp, fa);
      const cot = Math.cos(theta) / sinT;
      // v = u × X
      const vx = uyw * ax.z - uzw * ax.y, vy = uzw * ax.x - ux * ax.z, vz = ux * ax.y - uyw * ax.x;
      jx += dr * (ax.x - cot * vx); jy += dr * (ax.y - cot * vy); jz += dr * (ax.z - cot * vz);
    }
  }
  w[5] = r - theta;
  w[6] = jx; w[7] = jy; w[8] = jz;
}
