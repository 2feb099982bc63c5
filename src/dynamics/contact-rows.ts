/**
 * The contact rows: one packed record per contact point (the layout below),
 * built from the contacts at the start of each step (addContact), kept
 * current as the poses move (refreshRows, measureSeparations), and the
 * helpers that measure a row at the current poses. The sweeps that solve
 * them are in contact-solver.ts; the NGS position solve in ngs.ts; shock
 * propagation in shock.ts.
 */
import { FRICTION_IMPULSE, NORMAL_IMPULSE, PERSISTED, POINT_DEPTH, POINT_NORMAL, POINT_STRIDE, type Contact } from './contact';
import type { SolverSettings } from './solver-settings';
import type { Vec3 } from '../math/vec3';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';

/** Tangential speed (m/s) above which t1 follows the sliding direction. */
export const ALIGN_SPEED = 1e-3;
export const FRICTION_CONSTANT = 0;
export const FRICTION_CATTO2005 = 1;
export const FRICTION_COULOMB = 2;

type F64 = Float64Array<ArrayBuffer>;
type I32 = Int32Array<ArrayBuffer>;

function grow(a: F64, n: number): F64 {
  if (a.length >= n) return a;
  const b = new Float64Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}
function growI(a: I32, n: number): I32 {
  if (a.length >= n) return a;
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

// ---- Row layout. One contact point is one record of ROW_STRIDE doubles in
// ContactSolver.rows (and one of INT_STRIDE ints in ContactSolver.ints): the
// sweep reads a point's data from one array, in a few cache lines, instead of
// from forty arrays (each one a separate pointer and length to load).
/** Normal n (A→B), 3. */
export const R_N = 0;
/** Tangent t1, 3. */
export const R_T1 = 3;
/** Tangent t2 = n × t1, 3. */
export const R_T2 = 6;
/** Anchor rA = p − xA at the start of the step, 3. */
export const R_RA = 9;
/** Anchor rB = p − xB, 3. */
export const R_RB = 12;
/** rA × n, 3 (angular Jacobian of the normal row on A). */
export const R_CA = 15;
/** rB × n, 3. */
export const R_CB = 18;
export const R_NORMAL_MASS = 21;
export const R_TANGENT_MASS1 = 22;
export const R_TANGENT_MASS2 = 23;
export const R_NORMAL_IMPULSE = 24;
export const R_TANGENT_IMPULSE1 = 25;
export const R_TANGENT_IMPULSE2 = 26;
/** Largest normal impulse seen in the step (restitution applies only to points that pushed). */
export const R_MAX_NORMAL_IMPULSE = 27;
/** Separation at the start of the step (−depth). */
export const R_SEPARATION = 28;
/** The constant friction bound for the step ('constant' and 'catto2005'); −1 for 'coulomb'. */
export const R_FRICTION_BOUND = 29;
export const R_FRICTION = 30;
/** Normal velocity before the solve (restitution, shock propagation). */
export const R_APPROACH = 31;
export const R_RESTITUTION = 32;
/**
 * Angular velocity change per unit impulse of each row on each body, fixed
 * for the step: I_A⁻¹(rA × n), I_B⁻¹(rB × n), then the same for t1 and t2,
 * 3 each. Applying an impulse λ to a row is then ω_A −= λ·K_A, ω_B += λ·K_B:
 * no cross product and no inertia product in the sweep.
 */
export const R_KA_N = 33;
export const R_KB_N = 36;
export const R_KA_T1 = 39;
export const R_KB_T1 = 42;
export const R_KA_T2 = 45;
export const R_KB_T2 = 48;
/** Soft separation at the current poses, kept between the sweeps that share them. */
export const R_SEP_CUR = 51;
/**
 * Anchors in the bodies' local frames (NGS and the exact soft separation),
 * 3 + 3: the contact point, or on a sphere or capsule the centre of its
 * rounded surface there (the point moved along n by R_ROUND_OFFSET's parts).
 * A body-fixed surface point of a ball turning by φ rises by ρ(1 − cos φ)
 * off the surface it presses on, while the centre keeps the true gap: a
 * shin hitting the floor at 24 rad/s (0.4 rad a step) would otherwise sink
 * a few millimetres more than the contact allows.
 */
export const R_LA = 52;
export const R_LB = 55;
/** k_B − k_A, the anchors' offsets along n from the point (see R_LA), subtracted from the anchors' gap. */
export const R_ROUND_OFFSET = 58;
/**
 * Normal velocity change per unit impulse of each tangent row, 2: the
 * off-diagonal terms J_n M⁻¹ J_tᵀ = (rA × n)·K_A,t + (rB × n)·K_B,t of the
 * point's effective-mass matrix (the linear part vanishes, n ⊥ t). The sweep
 * gets the normal row's velocity after the friction impulses from them
 * instead of recomputing the relative velocity at the point.
 */
export const R_COUPLE1 = 59;
export const R_COUPLE2 = 60;
/**
 * Rate (1/s) at which a speculative gap s may close: the approach allowed in
 * a sub-step is min(s/h, max(s·rate, JOINTED_FREE_APPROACH)). 1/h when
 * neither body has joints (the gap closes within the sub-step and no
 * further, which one row solves exactly), jointedSpeculativeRate/h when
 * either has (see SolverSettings.jointedSpeculativeRate).
 */
export const R_SPEC_RATE = 61;
/**
 * 1 when the point was apart (beyond the slop) or approaching faster than
 * IMPACT_SPEED at the start of the current (sub-)step: its impulse stops an
 * approach once and is not carried into the next (sub-)step's warm start.
 */
export const R_IMPACT = 62;
/** k_A: anchor A's offset along n from the surface point (see R_LA); k_B = k_A + R_ROUND_OFFSET. */
export const R_ROUND_A = 63;
/** Σ of the normal impulse over the step's sub-steps so far (see endSubStep): what the point has pushed. */
export const R_PUSHED = 64;
/** Restitution: the bounce impulse applied so far, or −1 for a point that does not bounce (see applyRestitution). */
export const R_BOUNCE = 65;
export const ROW_STRIDE = 66;
/** Gauss-Seidel passes of the restitution over each manifold (see applyRestitution). */
export const RESTITUTION_PASSES = 4;
/**
 * m/s: a point approaching faster than this at the start of a (sub-)step is
 * being hit, not resting: gravity adds |g|·h ≈ 0.04 m/s a sub-step, and
 * bodies settling in a pile knock into each other at up to about a metre a
 * second, where the warm start still helps (docs/contact-energy.md).
 */
export const IMPACT_SPEED = 2;
/**
 * m/s: a jointed body approaching a surface slower than this closes the gap
 * at the full rate. The slowed approach is for impacts; below this speed a
 * limb settling onto the ground would only take longer, and every slow
 * speculative point would leave the sweep's idle shortcut.
 */
export const JOINTED_FREE_APPROACH = 0.5;
/** Solver slots of body A and body B, first row and row count of the point's manifold. */
export const I_A = 0;
export const I_B = 1;
export const I_FIRST = 2;
export const I_SIZE = 3;
/** Sweeps over the manifold per sweep of the rows (first row only): 1, or IMPACT_PASSES / FAST_IMPACT_PASSES while a point is hit. */
export const I_PASSES = 4;
export const INT_STRIDE = 5;
/**
 * Most Gauss-Seidel passes over a manifold in each sweep while one of its
 * points is being hit; they stop once converged (IMPACT_TOLERANCE). A sweep
 * visits a manifold's points one at a time, and the first point visited
 * stops most of a flat impact alone; one pass leaves the points unequal,
 * which is spin the impact did not have and, for a fast body, a corner
 * that goes through.
 */
export const IMPACT_PASSES = 6;
/**
 * m/s: an impact faster than this gets up to FAST_IMPACT_PASSES: what a
 * pass leaves unconverged scales with the speed stopped.
 */
export const FAST_IMPACT_SPEED = 10;
export const FAST_IMPACT_PASSES = 32;
/** m/s: the impact passes stop once a pass changes no point's normal velocity by more than this. */
export const IMPACT_TOLERANCE = 1e-3;

/** Contact rows, rebuilt every step: one packed record per contact point (layout above). */
export class ContactRows {
  count = 0;
  /**
   * SolverBodies.poseVersion at which R_SEP_CUR was last right for every row
   * (set by the world when the rows are built, and by measureSeparations).
   */
  measuredVersion = 0;
  capacity = 0;
  contact: (Contact | null)[] = [];
  pointIndex = new Int32Array(0) as I32;
  rows = new Float64Array(0) as F64;
  ints = new Int32Array(0) as I32;

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    const c = Math.max(n, this.capacity * 2, 64);
    this.pointIndex = growI(this.pointIndex, c);
    this.ints = growI(this.ints, c * INT_STRIDE);
    this.rows = grow(this.rows, c * ROW_STRIDE);
    while (this.contact.length < c) this.contact.push(null);
    this.capacity = c;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.contact[i] = null;
    this.count = 0;
  }

  /** Solver slot of body A of row i. */
  slotA(i: number): number {
    return this.ints[i * INT_STRIDE + I_A]!;
  }

  /** Solver slot of body B of row i. */
  slotB(i: number): number {
    return this.ints[i * INT_STRIDE + I_B]!;
  }

  /**
   * Builds the rows of every point of `contact`. `h` is the time step the rows
   * are solved with (the sub-step in 'soft'), `gravity` |g| for the fallback
   * friction bound.
   */
  addContact(contact: Contact, bodies: SolverBodies, settings: SolverSettings, h: number, stepDt: number, gravity: Readonly<Vec3>, useLastImpulse: boolean): void {
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
    const first = this.count;
    this.reserve(this.count + pointCount);
    const R = this.rows, I = this.ints;
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
      const i = this.count++;
      const o = i * ROW_STRIDE;
      this.contact[i] = contact;
      this.pointIndex[i] = k;
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
  refreshRows(B: SolverBodies): void {
    const R = this.rows, I = this.ints, F = B.refreshed;
    for (let first = 0; first < this.count;) {
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
   * 'soft': each row's separation at the current poses, into R_SEP_CUR (the
   * sweeps read it until the poses move again). While both bodies have turned
   * by less than ~0.01 rad this step (θ = Σ h ω), linearised: anchors move by
   * θ × r, so along n the gap changes by n·(Δx_B − Δx_A) + (r_B × n)·θ_B −
   * (r_A × n)·θ_A, a fifth of the cost of rotating both anchors by
   * quaternions. Faster-turning bodies (a ragdoll limb hitting the floor)
   * take the exact path from the anchors: the linear error grows as θ².
   * Only the manifolds with a body that moved since `measuredVersion` are
   * measured (the sub-step's joint projection moves a few limbs after the
   * sweeps have measured everything).
   */
  measureSeparations(B: SolverBodies): void {
    const R = this.rows, I = this.ints;
    const since = this.measuredVersion, V = B.slotVersion;
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      if (V[ia]! <= since && V[ib]! <= since) {
        first += size;
        continue;
      }
      if (B.turned[ia] !== 0 || B.turned[ib] !== 0) {
        for (let i = first; i < first + size; i++) {
          currentSeparation(this, B, i);
          R[i * ROW_STRIDE + R_SEP_CUR] = RESULT[0]!;
        }
      } else {
        const ddx = B.dpx[ib]! - B.dpx[ia]!, ddy = B.dpy[ib]! - B.dpy[ia]!, ddz = B.dpz[ib]! - B.dpz[ia]!;
        const thax = B.thx[ia]!, thay = B.thy[ia]!, thaz = B.thz[ia]!;
        const thbx = B.thx[ib]!, thby = B.thy[ib]!, thbz = B.thz[ib]!;
        for (let i = first; i < first + size; i++) {
          const o = i * ROW_STRIDE;
          R[o + R_SEP_CUR] = R[o + R_SEPARATION]! + (R[o + R_N]! * ddx + R[o + R_N + 1]! * ddy + R[o + R_N + 2]! * ddz +
            R[o + R_CB]! * thbx + R[o + R_CB + 1]! * thby + R[o + R_CB + 2]! * thbz -
            R[o + R_CA]! * thax - R[o + R_CA + 1]! * thay - R[o + R_CA + 2]! * thaz);
        }
      }
      first += size;
    }
    this.measuredVersion = B.poseVersion;
  }
}

/**
 * Numeric results of the helpers below. A non-inlined function returning a
 * double makes V8 box it on the heap; writing into a typed array does not.
 */
export const RESULT = new Float64Array(1);
export const ANCHOR = new Float64Array(6);

/**
 * From row o's anchors, normal and tangents: r × n, the K vectors I⁻¹(r × d)
 * and effective masses of d = n, t1, t2, and the tangent rows' couplings to
 * the normal row (see R_KA_N, R_COUPLE1); the same quantities addContact
 * writes, for refreshRows.
 */
export function rowMasses(R: F64, o: number, B: SolverBodies, ia: number, ib: number): void {
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

/**
 * World anchor (current rotation) of the local anchor R[ro..ro+2] on the body
 * in `slot`, written to ANCHOR[offset..offset+2]. Typed-array scratch: stores
 * of doubles into plain object fields can allocate heap numbers, which showed
 * up as megabytes per step in the inner loop.
 */
export function anchorWorld(offset: number, R: F64, ro: number, B: SolverBodies, slot: number): void {
  const rx = R[ro]!, ry = R[ro + 1]!, rz = R[ro + 2]!;
  const qx = B.qx[slot]!, qy = B.qy[slot]!, qz = B.qz[slot]!, qw = B.qw[slot]!;
  const tx = 2 * (qy * rz - qz * ry), ty = 2 * (qz * rx - qx * rz), tz = 2 * (qx * ry - qy * rx);
  ANCHOR[offset] = rx + qw * tx + (qy * tz - qz * ty);
  ANCHOR[offset + 1] = ry + qw * ty + (qz * tx - qx * tz);
  ANCHOR[offset + 2] = rz + qw * tz + (qx * ty - qy * tx);
}

/**
 * s = s0 + n·[(xB + aB_now) − (xA + aA_now)] − (k_B − k_A): the start
 * separation moved by how far the two anchor points (offsets in ANCHOR) have
 * moved apart along n; they start k_A and k_B along n from the same point p0
 * (see R_LA), so their start gap along n is k_B − k_A.
 */
export function currentSeparationFromAnchors(S: ContactRows, B: SolverBodies, i: number): void {
  const R = S.rows, o = i * ROW_STRIDE;
  const ia = S.slotA(i), ib = S.slotB(i);
  const dx = (B.px[ib]! + ANCHOR[3]!) - (B.px[ia]! + ANCHOR[0]!);
  const dy = (B.py[ib]! + ANCHOR[4]!) - (B.py[ia]! + ANCHOR[1]!);
  const dz = (B.pz[ib]! + ANCHOR[5]!) - (B.pz[ia]! + ANCHOR[2]!);
  RESULT[0] = R[o + R_SEPARATION]! + (dx * R[o + R_N]! + dy * R[o + R_N + 1]! + dz * R[o + R_N + 2]! - R[o + R_ROUND_OFFSET]!);
}

/** Separation of row i now, from its anchors moved with the bodies, into RESULT[0]. */
export function currentSeparation(S: ContactRows, B: SolverBodies, i: number): void {
  const ia = S.slotA(i), ib = S.slotB(i);
  const o = i * ROW_STRIDE;
  if (B.moves[ia] === 0 && B.moves[ib] === 0) {
    RESULT[0] = S.rows[o + R_SEPARATION]!;
    return;
  }
  anchorWorld(0, S.rows, o + R_LA, B, ia);
  anchorWorld(3, S.rows, o + R_LB, B, ib);
  currentSeparationFromAnchors(S, B, i);
}

/**
 * Relative normal velocity n·v_rel of row i, into RESULT[0]:
 * n·(v_B − v_A) + ω_B·(r_B × n) − ω_A·(r_A × n), from the row's r × n.
 */
export function normalVelocity(S: ContactRows, B: SolverBodies, i: number, ia: number, ib: number): void {
  const R = S.rows, o = i * ROW_STRIDE;
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  RESULT[0] = R[o + R_N]! * (V[ob]! - V[oa]!) + R[o + R_N + 1]! * (V[ob + 1]! - V[oa + 1]!) + R[o + R_N + 2]! * (V[ob + 2]! - V[oa + 2]!) +
    R[o + R_CB]! * V[ob + 3]! + R[o + R_CB + 1]! * V[ob + 4]! + R[o + R_CB + 2]! * V[ob + 5]! -
    R[o + R_CA]! * V[oa + 3]! - R[o + R_CA + 1]! * V[oa + 4]! - R[o + R_CA + 2]! * V[oa + 5]!;
}

