/**
 * Building the contact rows (Box2D v3's contact preparation): for each point
 * of a touching manifold, its anchors, tangent basis, Jacobians, effective
 * masses, friction bound and warm-start impulses; and rebuilding the
 * Jacobians of bodies whose world inertia was refreshed mid-step. Row layout:
 * contact-solver.ts.
 */
import { FRICTION_IMPULSE, NORMAL_IMPULSE, PERSISTED, POINT_DEPTH, POINT_NORMAL, POINT_STRIDE, type Contact } from './contact';
import * as Rows from './contact-solver';
import type { ContactSolver } from './contact-solver';
import type { SolverSettings } from './solver-settings';
import type { Vec3 } from '../math/vec3';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';

type F64 = Float64Array<ArrayBuffer>;

// The row layout as constants of this module (see contact-solver.ts).
const { R_N, R_T1, R_T2, R_RA, R_RB, R_CA, R_CB, R_NORMAL_MASS, R_TANGENT_MASS1, R_TANGENT_MASS2,
  R_NORMAL_IMPULSE, R_TANGENT_IMPULSE1, R_TANGENT_IMPULSE2, R_MAX_NORMAL_IMPULSE, R_SEPARATION,
  R_FRICTION_BOUND, R_FRICTION, R_APPROACH, R_RESTITUTION, R_KA_N, R_KB_N, R_KA_T1, R_KB_T1, R_KA_T2,
  R_KB_T2, R_SEP_CUR, R_LA, R_LB, R_ROUND_OFFSET, R_COUPLE1, R_COUPLE2, R_SPEC_RATE, R_IMPACT, R_ROUND_A,
  R_PUSHED, ROW_STRIDE, I_A, I_B, I_FIRST, I_SIZE, I_PASSES, INT_STRIDE, ANCHOR, anchorWorld } = Rows;

/** Tangential speed (m/s) above which t1 follows the sliding direction. */
const ALIGN_SPEED = 1e-3;
const FRICTION_CONSTANT = 0;
const FRICTION_CATTO2005 = 1;
const FRICTION_COULOMB = 2;

/**
 * Builds the rows of every point of `contact`. `h` is the time step the rows
 * are solved with (the sub-step in 'soft'), `gravity` |g| for the fallback
 * friction bound.
 */
export function prepareContact(C: ContactSolver, contact: Contact, bodies: SolverBodies, settings: SolverSettings, h: number, stepDt: number, gravity: Readonly<Vec3>, useLastImpulse: boolean): void {
  const gravityLength = Math.sqrt(gravity.x * gravity.x + gravity.y * gravity.y + gravity.z * gravity.z);
  const pointCount = contact.pointCount;
  const bodyA = contact.bodyA!;
  const bodyB = contact.bodyB!;
  const ia = bodyA.solverIndex;
  const ib = bodyB.solverIndex;
  const model = settings.frictionModel === 'constant' ? FRICTION_CONSTANT : settings.frictionModel === 'catto2005' ? FRICTION_CATTO2005 : FRICTION_COULOMB;
  // m_c: the body's mass shared over its contact points (Catto 2005); for a
  // pair of dynamic bodies the lighter share, which is the one that can slide.
  let mc = Infinity;
  if (bodyA.isDynamic && bodyA.contactPointCount > 0) mc = bodyA.mass / bodyA.contactPointCount;
  if (bodyB.isDynamic && bodyB.contactPointCount > 0) mc = Math.min(mc, bodyB.mass / bodyB.contactPointCount);
  if (!Number.isFinite(mc)) mc = 0;
  const fallbackBound = contact.friction * mc * gravityLength * h;
  const B = bodies;
  const cp = contact.store.data, cb = contact.base;
  // (A field, not a call: a double returned by a call V8 does not inline is boxed.)
  const roundA = bodyA.roundingRadius, roundB = bodyB.roundingRadius;
  const first = C.count;
  C.reserve(C.count + pointCount);
  const R = C.rows, I = C.ints;
  // The two bodies' state, read once for all the points: between the row
  // stores V8 cannot keep a load from another Float64Array (they might
  // share a buffer), so each point would read it again.
  const pax = B.px[ia]!, pay = B.py[ia]!, paz = B.pz[ia]!, pbx = B.px[ib]!, pby = B.py[ib]!, pbz = B.pz[ib]!;
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  const vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
  const vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
  // Conjugates of the start rotations (world → local).
  const qax = -B.qx[ia]!, qay = -B.qy[ia]!, qaz = -B.qz[ia]!, qaw = B.qw[ia]!;
  const qbx = -B.qx[ib]!, qby = -B.qy[ib]!, qbz = -B.qz[ib]!, qbw = B.qw[ib]!;
  const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
  const axx = B.ixx[ia]!, axy = B.ixy[ia]!, axz = B.ixz[ia]!, ayy = B.iyy[ia]!, ayz = B.iyz[ia]!, azz = B.izz[ia]!;
  const bxx = B.ixx[ib]!, bxy = B.ixy[ib]!, bxz = B.ixz[ib]!, byy = B.iyy[ib]!, byz = B.iyz[ib]!, bzz = B.izz[ib]!;
  const specRate = (bodyA.jointCount > 0 || bodyB.jointCount > 0 ? settings.jointedSpeculativeRate : 1) / h;
  const ga = ima > 0 ? bodyA.gravityScale * stepDt : 0;
  const gb = imb > 0 ? bodyB.gravityScale * stepDt : 0;
  for (let k = 0; k < pointCount; k++) {
    // The contact's packed copy of the manifold point (see Contact.data).
    const c = k * POINT_STRIDE;
    const px0 = cp[cb + c]!, py0 = cp[cb + c + 1]!, pz0 = cp[cb + c + 2]!;
    const i = C.count++;
    const o = i * ROW_STRIDE;
    C.contact[i] = contact;
    C.pointIndex[i] = k;
    const io = i * INT_STRIDE;
    I[io + I_A] = ia;
    I[io + I_B] = ib;
    I[io + I_FIRST] = first;
    I[io + I_SIZE] = pointCount;
    I[io + I_PASSES] = 1;
    const nx = cp[cb + c + POINT_NORMAL]!, ny = cp[cb + c + POINT_NORMAL + 1]!, nz = cp[cb + c + POINT_NORMAL + 2]!;
    R[o + R_N] = nx; R[o + R_N + 1] = ny; R[o + R_N + 2] = nz;
    const rax = px0 - pax, ray = py0 - pay, raz = pz0 - paz;
    const rbx = px0 - pbx, rby = py0 - pby, rbz = pz0 - pbz;
    R[o + R_RA] = rax; R[o + R_RA + 1] = ray; R[o + R_RA + 2] = raz;
    R[o + R_RB] = rbx; R[o + R_RB + 1] = rby; R[o + R_RB + 2] = rbz;
    const cax = ray * nz - raz * ny, cay = raz * nx - rax * nz, caz = rax * ny - ray * nx;
    const cbx = rby * nz - rbz * ny, cby = rbz * nx - rbx * nz, cbz = rbx * ny - rby * nx;
    R[o + R_CA] = cax; R[o + R_CA + 1] = cay; R[o + R_CA + 2] = caz;
    R[o + R_CB] = cbx; R[o + R_CB + 1] = cby; R[o + R_CB + 2] = cbz;
    // Local anchors: q* r q, at the rounded surfaces' centres (see R_LA):
    // the point is midway between the surfaces, depth apart along n (A → B).
    const depth = cp[cb + c + POINT_DEPTH]!;
    const ka = roundA > 0 ? 0.5 * depth - roundA : 0, kb = roundB > 0 ? roundB - 0.5 * depth : 0;
    {
      const rx = rax + ka * nx, ry = ray + ka * ny, rz = raz + ka * nz;
      const tx = 2 * (qay * rz - qaz * ry), ty = 2 * (qaz * rx - qax * rz), tz = 2 * (qax * ry - qay * rx);
      R[o + R_LA] = rx + qaw * tx + (qay * tz - qaz * ty);
      R[o + R_LA + 1] = ry + qaw * ty + (qaz * tx - qax * tz);
      R[o + R_LA + 2] = rz + qaw * tz + (qax * ty - qay * tx);
    }
    {
      const rx = rbx + kb * nx, ry = rby + kb * ny, rz = rbz + kb * nz;
      const tx = 2 * (qby * rz - qbz * ry), ty = 2 * (qbz * rx - qbx * rz), tz = 2 * (qbx * ry - qby * rx);
      R[o + R_LB] = rx + qbw * tx + (qby * tz - qbz * ty);
      R[o + R_LB + 1] = ry + qbw * ty + (qbz * tx - qbx * tz);
      R[o + R_LB + 2] = rz + qbw * tz + (qbx * ty - qby * tx);
    }
    R[o + R_ROUND_OFFSET] = kb - ka;
    R[o + R_ROUND_A] = ka;
    R[o + R_PUSHED] = 0;

    // Relative velocity at the point, before the solve.
    const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
    const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
    const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);

    // Tangent basis: t1 along the tangential velocity the friction will have
    // to cancel — the current relative velocity plus what gravity adds this
    // step (so a box resting on a slope gets t1 downhill and the full bound
    // resists it; a skewed basis would let the two box-clamped rows resist
    // up to √2 μ). A fixed basis of n only when nothing slides. Warm-start
    // impulses are stored as world vectors, so the basis may change freely.
    const pvx = dvx + gravity.x * (gb - ga), pvy = dvy + gravity.y * (gb - ga), pvz = dvz + gravity.z * (gb - ga);
    const pvn = pvx * nx + pvy * ny + pvz * nz;
    // Restitution uses the approach speed including this step's gravity: a
    // falling body hits during the step, faster than it started it.
    R[o + R_APPROACH] = pvn;
    let tx = pvx - pvn * nx, ty = pvy - pvn * ny, tz = pvz - pvn * nz;
    const tl = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (tl > ALIGN_SPEED) {
      tx /= tl; ty /= tl; tz /= tl;
    } else {
      // Duff et al. 2017 branch-free basis.
      const sign = nz >= 0 ? 1 : -1;
      const aa = -1 / (sign + nz);
      const bb = nx * ny * aa;
      tx = 1 + sign * nx * nx * aa; ty = sign * bb; tz = -sign * nx;
    }
    R[o + R_T1] = tx; R[o + R_T1 + 1] = ty; R[o + R_T1 + 2] = tz;
    const sx = ny * tz - nz * ty, sy = nz * tx - nx * tz, sz = nx * ty - ny * tx;
    // t2 = n × t1 keeps (t1, t2, n) right-handed up to sign; either sign works.
    R[o + R_T2] = sx; R[o + R_T2 + 1] = sy; R[o + R_T2 + 2] = sz;

    // K vectors I⁻¹(r × d) and effective masses 1 / (mA⁻¹ + mB⁻¹ +
    // (rA × d)·K_A + (rB × d)·K_B) of d = n, t1, t2 (see R_KA_N).
    const im = ima + imb;
    // d = n (r × n is R_CA / R_CB).
    let kax = axx * cax + axy * cay + axz * caz, kay = axy * cax + ayy * cay + ayz * caz, kaz = axz * cax + ayz * cay + azz * caz;
    let kbx = bxx * cbx + bxy * cby + bxz * cbz, kby = bxy * cbx + byy * cby + byz * cbz, kbz = bxz * cbx + byz * cby + bzz * cbz;
    R[o + R_KA_N] = kax; R[o + R_KA_N + 1] = kay; R[o + R_KA_N + 2] = kaz;
    R[o + R_KB_N] = kbx; R[o + R_KB_N + 1] = kby; R[o + R_KB_N + 2] = kbz;
    let kk = im + cax * kax + cay * kay + caz * kaz + cbx * kbx + cby * kby + cbz * kbz;
    R[o + R_NORMAL_MASS] = kk > 0 ? 1 / kk : 0;
    // d = t1; its normal coupling (R_COUPLE1) is (rA × n)·K_A,t1 + (rB × n)·K_B,t1.
    let ux = ray * tz - raz * ty, uy = raz * tx - rax * tz, uz = rax * ty - ray * tx;
    let wx = rby * tz - rbz * ty, wy = rbz * tx - rbx * tz, wz = rbx * ty - rby * tx;
    kax = axx * ux + axy * uy + axz * uz; kay = axy * ux + ayy * uy + ayz * uz; kaz = axz * ux + ayz * uy + azz * uz;
    kbx = bxx * wx + bxy * wy + bxz * wz; kby = bxy * wx + byy * wy + byz * wz; kbz = bxz * wx + byz * wy + bzz * wz;
    R[o + R_KA_T1] = kax; R[o + R_KA_T1 + 1] = kay; R[o + R_KA_T1 + 2] = kaz;
    R[o + R_KB_T1] = kbx; R[o + R_KB_T1 + 1] = kby; R[o + R_KB_T1 + 2] = kbz;
    kk = im + ux * kax + uy * kay + uz * kaz + wx * kbx + wy * kby + wz * kbz;
    R[o + R_TANGENT_MASS1] = kk > 0 ? 1 / kk : 0;
    R[o + R_COUPLE1] = cax * kax + cay * kay + caz * kaz + cbx * kbx + cby * kby + cbz * kbz;
    // d = t2.
    ux = ray * sz - raz * sy; uy = raz * sx - rax * sz; uz = rax * sy - ray * sx;
    wx = rby * sz - rbz * sy; wy = rbz * sx - rbx * sz; wz = rbx * sy - rby * sx;
    kax = axx * ux + axy * uy + axz * uz; kay = axy * ux + ayy * uy + ayz * uz; kaz = axz * ux + ayz * uy + azz * uz;
    kbx = bxx * wx + bxy * wy + bxz * wz; kby = bxy * wx + byy * wy + byz * wz; kbz = bxz * wx + byz * wy + bzz * wz;
    R[o + R_KA_T2] = kax; R[o + R_KA_T2 + 1] = kay; R[o + R_KA_T2 + 2] = kaz;
    R[o + R_KB_T2] = kbx; R[o + R_KB_T2 + 1] = kby; R[o + R_KB_T2 + 2] = kbz;
    kk = im + ux * kax + uy * kay + uz * kaz + wx * kbx + wy * kby + wz * kbz;
    R[o + R_TANGENT_MASS2] = kk > 0 ? 1 / kk : 0;
    R[o + R_COUPLE2] = cax * kax + cay * kay + caz * kaz + cbx * kbx + cby * kby + cbz * kbz;

    const persisted = cp[cb + PERSISTED + k] === 1;
    const lastNormal = persisted ? cp[cb + NORMAL_IMPULSE + k]! : 0;
    let l1 = 0, l2 = 0;
    if (settings.warmStarting && persisted) {
      R[o + R_NORMAL_IMPULSE] = lastNormal;
      const f = FRICTION_IMPULSE + 3 * k;
      const fx = cp[cb + f]!, fy = cp[cb + f + 1]!, fz = cp[cb + f + 2]!;
      l1 = fx * tx + fy * ty + fz * tz;
      l2 = fx * sx + fy * sy + fz * sz;
    } else {
      R[o + R_NORMAL_IMPULSE] = 0;
    }
    R[o + R_MAX_NORMAL_IMPULSE] = 0;
    R[o + R_SEPARATION] = -cp[cb + c + POINT_DEPTH]!;
    R[o + R_SEP_CUR] = -cp[cb + c + POINT_DEPTH]!;
    R[o + R_FRICTION] = contact.friction;
    R[o + R_SPEC_RATE] = specRate;
    R[o + R_IMPACT] = 0;
    R[o + R_RESTITUTION] = contact.restitution;
    let fb: number;
    if (model === FRICTION_CONSTANT) {
      // Temporal coherence: last step's normal impulse carries the real load
      // (a stack's lower boxes hold the weight above them).
      // A speculative point that carried nothing last step (apart at the
      // step's start) gets μ × its current normal impulse instead of the
      // weight-based guess: nothing rubs before it touches, and the sweep
      // can pass over it cheaply while it stays apart.
      fb = useLastImpulse && lastNormal > 0 ? contact.friction * lastNormal : depth < 0 ? -1 : fallbackBound;
    } else if (model === FRICTION_CATTO2005) {
      fb = fallbackBound;
    } else {
      fb = -1; // coulomb: from the current normal impulse
    }
    R[o + R_FRICTION_BOUND] = fb;
    if (fb >= 0) {
      // Warm-started friction must respect this step's bound.
      l1 = Math.max(-fb, Math.min(fb, l1));
      l2 = Math.max(-fb, Math.min(fb, l2));
    } else if (model === FRICTION_CONSTANT) {
      // Speculative and unloaded: its bound starts at μ × 0.
      l1 = 0;
      l2 = 0;
    }
    R[o + R_TANGENT_IMPULSE1] = l1;
    R[o + R_TANGENT_IMPULSE2] = l2;
  }
}

/**
 * Rebuilds the Jacobians of the manifolds whose body's inertia
 * `SolverBodies.refreshInertia` just recomputed: the anchors turned with
 * the bodies (rA = q_A·l_A − k_A n, rB = q_B·l_B − k_B n), r × n, the K
 * vectors and the effective masses. The normal, the tangents, the
 * accumulated impulses and the step's start separation stay.
 */
export function refreshContactRows(C: ContactSolver, B: SolverBodies): void {
  const R = C.rows, I = C.ints, F = B.refreshed;
  for (let first = 0; first < C.count;) {
    const size = I[first * INT_STRIDE + I_SIZE]!;
    const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
    if (F[ia] !== 0 || F[ib] !== 0) {
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const nx = R[o + R_N]!, ny = R[o + R_N + 1]!, nz = R[o + R_N + 2]!;
        const ka = R[o + R_ROUND_A]!, kb = ka + R[o + R_ROUND_OFFSET]!;
        anchorWorld(0, R, o + R_LA, B, ia);
        anchorWorld(3, R, o + R_LB, B, ib);
        R[o + R_RA] = ANCHOR[0]! - ka * nx; R[o + R_RA + 1] = ANCHOR[1]! - ka * ny; R[o + R_RA + 2] = ANCHOR[2]! - ka * nz;
        R[o + R_RB] = ANCHOR[3]! - kb * nx; R[o + R_RB + 1] = ANCHOR[4]! - kb * ny; R[o + R_RB + 2] = ANCHOR[5]! - kb * nz;
        rowMasses(R, o, B, ia, ib);
      }
    }
    first += size;
  }
}

/**
 * From row o's anchors, normal and tangents: r × n, the K vectors I⁻¹(r × d)
 * and effective masses of d = n, t1, t2, and the tangent rows' couplings to
 * the normal row (see R_KA_N, R_COUPLE1); the same quantities prepareContact
 * writes, for refreshContactRows.
 */
function rowMasses(R: F64, o: number, B: SolverBodies, ia: number, ib: number): void {
  const rax = R[o + R_RA]!, ray = R[o + R_RA + 1]!, raz = R[o + R_RA + 2]!;
  const rbx = R[o + R_RB]!, rby = R[o + R_RB + 1]!, rbz = R[o + R_RB + 2]!;
  const im = B.invMass[ia]! + B.invMass[ib]!;
  for (let d = 0; d < 3; d++) {
    const dirOffset = d === 0 ? R_N : d === 1 ? R_T1 : R_T2;
    const kaOffset = d === 0 ? R_KA_N : d === 1 ? R_KA_T1 : R_KA_T2;
    const kbOffset = d === 0 ? R_KB_N : d === 1 ? R_KB_T1 : R_KB_T2;
    const dx = R[o + dirOffset]!, dy = R[o + dirOffset + 1]!, dz = R[o + dirOffset + 2]!;
    const ux = ray * dz - raz * dy, uy = raz * dx - rax * dz, uz = rax * dy - ray * dx;
    const wx = rby * dz - rbz * dy, wy = rbz * dx - rbx * dz, wz = rbx * dy - rby * dx;
    const kax = B.ixx[ia]! * ux + B.ixy[ia]! * uy + B.ixz[ia]! * uz;
    const kay = B.ixy[ia]! * ux + B.iyy[ia]! * uy + B.iyz[ia]! * uz;
    const kaz = B.ixz[ia]! * ux + B.iyz[ia]! * uy + B.izz[ia]! * uz;
    const kbx = B.ixx[ib]! * wx + B.ixy[ib]! * wy + B.ixz[ib]! * wz;
    const kby = B.ixy[ib]! * wx + B.iyy[ib]! * wy + B.iyz[ib]! * wz;
    const kbz = B.ixz[ib]! * wx + B.iyz[ib]! * wy + B.izz[ib]! * wz;
    R[o + kaOffset] = kax; R[o + kaOffset + 1] = kay; R[o + kaOffset + 2] = kaz;
    R[o + kbOffset] = kbx; R[o + kbOffset + 1] = kby; R[o + kbOffset + 2] = kbz;
    const k = im + ux * kax + uy * kay + uz * kaz + wx * kbx + wy * kby + wz * kbz;
    const mass = k > 0 ? 1 / k : 0;
    if (d === 0) {
      R[o + R_CA] = ux; R[o + R_CA + 1] = uy; R[o + R_CA + 2] = uz;
      R[o + R_CB] = wx; R[o + R_CB + 1] = wy; R[o + R_CB + 2] = wz;
      R[o + R_NORMAL_MASS] = mass;
    } else {
      // (rA × n)·K_A,t + (rB × n)·K_B,t; r × n was written when d was n.
      const couple = R[o + R_CA]! * kax + R[o + R_CA + 1]! * kay + R[o + R_CA + 2]! * kaz +
        R[o + R_CB]! * kbx + R[o + R_CB + 1]! * kby + R[o + R_CB + 2]! * kbz;
      R[o + (d === 1 ? R_TANGENT_MASS1 : R_TANGENT_MASS2)] = mass;
      R[o + (d === 1 ? R_COUPLE1 : R_COUPLE2)] = couple;
    }
  }
}
