/**
 * The contact solver: the contact rows (one packed record per contact point,
 * layout below) and the sequential-impulse sweeps over them. The layout and
 * the sweeps share one module on purpose: V8 folds a module's own top-level
 * constants into the code it compiles, while an imported constant is loaded
 * at every use (under vitest's module transform, a getter call), which made
 * the sweeps several times slower. The NGS position solve (ngs.ts) and shock
 * propagation (shock.ts) read the layout from here.
 *
 * For a contact point with normal n (A→B), anchors rA = p − xA, rB = p − xB
 * and relative velocity at the point
 *     v_rel = (vB + ωB × rB) − (vA + ωA × rA),
 * the normal row is C' = n·v_rel ≥ target with Jacobian
 *     J = [−n, −(rA × n), n, rB × n]
 * and effective mass m_n = 1 / (mA⁻¹ + mB⁻¹ + (rA×n)·IA⁻¹(rA×n) + (rB×n)·IB⁻¹(rB×n)).
 * Each iteration: Δλ = ω m_n (target − n·v_rel); the ACCUMULATED impulse is
 * clamped, λ = max(λ_old + Δλ, 0), and only the clamped change is applied
 * (Catto, GDC 2005/2009 "Iterative Dynamics with Temporal Coherence").
 *
 * Friction: two tangent rows t1, t2 per point, each clamped to ±f. The bound f
 * depends on `frictionModel` (see settings.ts). t1 follows the sliding
 * direction when the point slides, so the two independent box clamps do not
 * bias the heading of a sliding body (a box clamp on axes skewed to the motion
 * would turn the friction force towards the diagonal).
 *
 * Positions: 'ngs' runs pseudo-impulse sweeps on the separation after the
 * position update (Box2D v2.4); 'baumgarte' biases the normal row
 * by β/dt·max(depth − slop, 0); 'soft' is Box2D v3's soft step (Catto 2024,
 * "Solver2D"): sub-steps with a spring-damper normal row, then a relax sweep
 * without the bias so the push-out leaves no velocity behind.
 */
import { FRICTION_IMPULSE, NORMAL_IMPULSE, PERSISTED, POINT_DEPTH, POINT_NORMAL, POINT_STRIDE, type Contact } from './contact';
import type { SolverSettings } from './solver-settings';
import type { Vec3 } from '../math/vec3';
import { Softness } from './softness';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
import { SWEEP_BAUMGARTE, SWEEP_SOFT, type SweepMode } from './sweep-mode';

/** Tangential speed (m/s) above which t1 follows the sliding direction. */
const ALIGN_SPEED = 1e-3;
const FRICTION_CONSTANT = 0;
const FRICTION_CATTO2005 = 1;
const FRICTION_COULOMB = 2;

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
const R_T1 = 3;
/** Tangent t2 = n × t1, 3. */
const R_T2 = 6;
/** Anchor rA = p − xA at the start of the step, 3. */
const R_RA = 9;
/** Anchor rB = p − xB, 3. */
const R_RB = 12;
/** rA × n, 3 (angular Jacobian of the normal row on A). */
export const R_CA = 15;
/** rB × n, 3. */
export const R_CB = 18;
const R_NORMAL_MASS = 21;
const R_TANGENT_MASS1 = 22;
const R_TANGENT_MASS2 = 23;
const R_NORMAL_IMPULSE = 24;
const R_TANGENT_IMPULSE1 = 25;
const R_TANGENT_IMPULSE2 = 26;
/** Largest normal impulse seen in the step (restitution applies only to points that pushed). */
const R_MAX_NORMAL_IMPULSE = 27;
/** Separation at the start of the step (−depth). */
export const R_SEPARATION = 28;
/** The constant friction bound for the step ('constant' and 'catto2005'); −1 for 'coulomb'. */
const R_FRICTION_BOUND = 29;
const R_FRICTION = 30;
/** Normal velocity before the solve (restitution, shock propagation). */
export const R_APPROACH = 31;
const R_RESTITUTION = 32;
/**
 * Angular velocity change per unit impulse of each row on each body, fixed
 * for the step: I_A⁻¹(rA × n), I_B⁻¹(rB × n), then the same for t1 and t2,
 * 3 each. Applying an impulse λ to a row is then ω_A −= λ·K_A, ω_B += λ·K_B:
 * no cross product and no inertia product in the sweep.
 */
export const R_KA_N = 33;
export const R_KB_N = 36;
const R_KA_T1 = 39;
const R_KB_T1 = 42;
const R_KA_T2 = 45;
const R_KB_T2 = 48;
/** Soft separation at the current poses, kept between the sweeps that share them. */
const R_SEP_CUR = 51;
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
const R_ROUND_OFFSET = 58;
/**
 * Normal velocity change per unit impulse of each tangent row, 2: the
 * off-diagonal terms J_n M⁻¹ J_tᵀ = (rA × n)·K_A,t + (rB × n)·K_B,t of the
 * point's effective-mass matrix (the linear part vanishes, n ⊥ t). The sweep
 * gets the normal row's velocity after the friction impulses from them
 * instead of recomputing the relative velocity at the point.
 */
const R_COUPLE1 = 59;
const R_COUPLE2 = 60;
/**
 * Rate (1/s) at which a speculative gap s may close: the approach allowed in
 * a sub-step is min(s/h, max(s·rate, JOINTED_FREE_APPROACH)). 1/h when
 * neither body has joints (the gap closes within the sub-step and no
 * further, which one row solves exactly), jointedSpeculativeRate/h when
 * either has (see SolverSettings.jointedSpeculativeRate).
 */
const R_SPEC_RATE = 61;
/**
 * 1 when the point was apart (beyond the slop) or approaching faster than
 * IMPACT_SPEED at the start of the current (sub-)step: its impulse stops an
 * approach once and is not carried into the next (sub-)step's warm start.
 */
const R_IMPACT = 62;
/** k_A: anchor A's offset along n from the surface point (see R_LA); k_B = k_A + R_ROUND_OFFSET. */
const R_ROUND_A = 63;
/** Σ of the normal impulse over the step's sub-steps so far (see endSubStep): what the point has pushed. */
const R_PUSHED = 64;
/** Restitution: the bounce impulse applied so far, or −1 for a point that does not bounce (see applyRestitution). */
const R_BOUNCE = 65;
export const ROW_STRIDE = 66;
/** Gauss-Seidel passes of the restitution over each manifold (see applyRestitution). */
const RESTITUTION_PASSES = 4;
/**
 * m/s: a point approaching faster than this at the start of a (sub-)step is
 * being hit, not resting: gravity adds |g|·h ≈ 0.04 m/s a sub-step, and
 * bodies settling in a pile knock into each other at up to about a metre a
 * second, where the warm start still helps (docs/contact-energy.md).
 */
const IMPACT_SPEED = 2;
/**
 * m/s: a jointed body approaching a surface slower than this closes the gap
 * at the full rate. The slowed approach is for impacts; below this speed a
 * limb settling onto the ground would only take longer, and every slow
 * speculative point would leave the sweep's idle shortcut.
 */
const JOINTED_FREE_APPROACH = 0.5;
/** Solver slots of body A and body B, first row and row count of the point's manifold. */
export const I_A = 0;
export const I_B = 1;
const I_FIRST = 2;
export const I_SIZE = 3;
/** Sweeps over the manifold per sweep of the rows (first row only): 1, or IMPACT_PASSES / FAST_IMPACT_PASSES while a point is hit. */
const I_PASSES = 4;
export const INT_STRIDE = 5;
/**
 * Most Gauss-Seidel passes over a manifold in each sweep while one of its
 * points is being hit; they stop once converged (IMPACT_TOLERANCE). A sweep
 * visits a manifold's points one at a time, and the first point visited
 * stops most of a flat impact alone; one pass leaves the points unequal,
 * which is spin the impact did not have and, for a fast body, a corner
 * that goes through.
 */
const IMPACT_PASSES = 6;
/**
 * m/s: an impact faster than this gets up to FAST_IMPACT_PASSES: what a
 * pass leaves unconverged scales with the speed stopped.
 */
const FAST_IMPACT_SPEED = 10;
const FAST_IMPACT_PASSES = 32;
/** m/s: the impact passes stop once a pass changes no point's normal velocity by more than this. */
const IMPACT_TOLERANCE = 1e-3;

/** Contact rows, rebuilt every step: one packed record per contact point (layout above). */
export class ContactSolver {
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
  /** 1 when restitution may count the compression of speculative points as pushed (an unsplit step; see applyRestitution). */
  countInFlight = 1;
  /** 1/h of the last velocity sweep (restitution's compression cap), kept in an array: a double field read in a call is boxed. */
  private readonly invH = new Float64Array(1);

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
   * Applies the accumulated impulses of every row (warm start), a manifold at
   * a time, and marks the rows being hit (R_IMPACT). An impulse that stopped
   * an approach belongs to that (sub-)step alone: carried into the next one
   * it pushes the resting body away again at the impact speed, and the few
   * sweeps left must take that back, unevenly over a manifold's points: spin
   * the landing did not have. A point that is apart carries nothing either.
   * With warm starting off every row starts from zero. (It takes the
   * settings object, not the slop: a double argument is boxed.)
   */
  warmStart(B: SolverBodies, settings: SolverSettings): void {
    const slop = settings.linearSlop, apply = settings.warmStarting;
    const R = this.rows, I = this.ints;
    const V = B.vel;
    // The marks first, from the velocities before any impulse of this
    // (sub-)step: part-way through the warm start, a body in a stack has the
    // push from below and not yet the weight from above.
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      const dvx = V[ob]! - V[oa]!, dvy = V[ob + 1]! - V[oa + 1]!, dvz = V[ob + 2]! - V[oa + 2]!;
      const wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
      let hit = 0;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const apart = R[o + R_SEP_CUR]! > slop;
        if (!apply || apart || R[o + R_IMPACT] === 1) {
          R[o + R_NORMAL_IMPULSE] = 0; R[o + R_TANGENT_IMPULSE1] = 0; R[o + R_TANGENT_IMPULSE2] = 0;
        }
        const vn = R[o + R_N]! * dvx + R[o + R_N + 1]! * dvy + R[o + R_N + 2]! * dvz +
          wbx * R[o + R_CB]! + wby * R[o + R_CB + 1]! + wbz * R[o + R_CB + 2]! -
          wax * R[o + R_CA]! - way * R[o + R_CA + 1]! - waz * R[o + R_CA + 2]!;
        const approaching = vn < -IMPACT_SPEED;
        R[o + R_IMPACT] = apart || approaching ? 1 : 0;
        if (approaching && -vn > hit) hit = -vn;
      }
      I[first * INT_STRIDE + I_PASSES] = hit === 0 || size === 1 ? 1 : hit > FAST_IMPACT_SPEED ? FAST_IMPACT_PASSES : IMPACT_PASSES;
      first += size;
    }
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      let vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
      let vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const ln = R[o + R_NORMAL_IMPULSE]!, l1 = R[o + R_TANGENT_IMPULSE1]!, l2 = R[o + R_TANGENT_IMPULSE2]!;
        // Nothing to apply (new points, and the speculative ones that
        // carried nothing: half a ragdoll pile's rows).
        if (ln === 0 && l1 === 0 && l2 === 0) continue;
        const px = ln * R[o + R_N]! + l1 * R[o + R_T1]! + l2 * R[o + R_T2]!;
        const py = ln * R[o + R_N + 1]! + l1 * R[o + R_T1 + 1]! + l2 * R[o + R_T2 + 1]!;
        const pz = ln * R[o + R_N + 2]! + l1 * R[o + R_T1 + 2]! + l2 * R[o + R_T2 + 2]!;
        vax -= px * ima; vay -= py * ima; vaz -= pz * ima;
        vbx += px * imb; vby += py * imb; vbz += pz * imb;
        wax -= ln * R[o + R_KA_N]! + l1 * R[o + R_KA_T1]! + l2 * R[o + R_KA_T2]!;
        way -= ln * R[o + R_KA_N + 1]! + l1 * R[o + R_KA_T1 + 1]! + l2 * R[o + R_KA_T2 + 1]!;
        waz -= ln * R[o + R_KA_N + 2]! + l1 * R[o + R_KA_T1 + 2]! + l2 * R[o + R_KA_T2 + 2]!;
        wbx += ln * R[o + R_KB_N]! + l1 * R[o + R_KB_T1]! + l2 * R[o + R_KB_T2]!;
        wby += ln * R[o + R_KB_N + 1]! + l1 * R[o + R_KB_T1 + 1]! + l2 * R[o + R_KB_T2 + 1]!;
        wbz += ln * R[o + R_KB_N + 2]! + l1 * R[o + R_KB_T1 + 2]! + l2 * R[o + R_KB_T2 + 2]!;
      }
      V[oa] = vax; V[oa + 1] = vay; V[oa + 2] = vaz; V[oa + 3] = wax; V[oa + 4] = way; V[oa + 5] = waz;
      V[ob] = vbx; V[ob + 1] = vby; V[ob + 2] = vbz; V[ob + 3] = wbx; V[ob + 4] = wby; V[ob + 5] = wbz;
      first += size;
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

  /**
   * One sweep of the velocity rows.
   * SWEEP_RIGID: rigid rows (targets: speculative approach, restitution handled after);
   * SWEEP_BAUMGARTE: 'baumgarte' bias; SWEEP_SOFT: soft rows with bias; SWEEP_RELAX: soft relax (no bias).
   * Rows read the separation in R_SEP_CUR: the step's start separation, or
   * in 'soft' the one `measureSeparations` took after the poses last moved.
   */
  solveVelocities(B: SolverBodies, settings: SolverSettings, h: number, mode: SweepMode, softness: Softness, reverse: boolean, rotation: number): void {
    const inv = 1 / h;
    this.invH[0] = inv;
    const omega = settings.relaxation;
    const slop = settings.linearSlop;
    const beta = settings.baumgarte;
    const maxBias = settings.maxCorrectionVelocity;
    // Push-out of penetration, target = min(pushRate · max(depth − pushSlop, 0), maxBias):
    // 'baumgarte' β/h beyond the slop; soft-with-bias the spring's rate with
    // no slop (a dead zone of zero stiffness lets each contact of a tall stack
    // tilt freely within it, and the column then buckles; the soft spring
    // itself keeps resting contacts alive) and the soft mass and impulse
    // scales; rigid and relax sweeps none.
    const pushRate = mode === SWEEP_BAUMGARTE ? beta * inv : mode === SWEEP_SOFT ? softness.biasRate : 0;
    const pushSlop = mode === SWEEP_BAUMGARTE ? slop : 0;
    const modeMassScale = mode === SWEEP_SOFT ? softness.massScale : 1;
    const modeImpulseScale = mode === SWEEP_SOFT ? softness.impulseScale : 0;
    // Restitution asks whether a point pushed during the step: the sweeps that
    // end a sub-step (relax) or the step (rigid modes) see every impulse that lasts.
    const trackMax = mode !== SWEEP_SOFT;
    const R = this.rows, I = this.ints;
    const V = B.vel;
    // Alternate the sweep direction (symmetric Gauss-Seidel): a fixed order
    // biases the first rows of a manifold, which shows as a rotation that a
    // tall stack accumulates into a sway.
    // Within a manifold the starting point rotates with `rotation`, so no
    // corner is always solved first.
    // One manifold at a time: its two bodies' velocities and step
    // displacements are loaded once and stored once for all its points.
    const n = this.count;
    for (let s = 1; s <= MAX_BLOCK; s++) ROTATION_MOD[s] = rotation % s;
    let e = reverse ? n : 0;
    while (reverse ? e > 0 : e < n) {
      let first: number, size: number;
      if (reverse) {
        first = I[(e - 1) * INT_STRIDE + I_FIRST]!;
        size = e - first;
        e = first;
      } else {
        first = e;
        size = I[e * INT_STRIDE + I_SIZE]!;
        e += size;
      }
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      let vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
      let vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
      const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
      const rot = ROTATION_MOD[size]!;
      const passes = I[first * INT_STRIDE + I_PASSES]!;
      // Largest normal velocity change (m/s) a pass made, for the impact passes' early exit.
      let passChange = 0;
      for (let t = 0, tt = 0, tEnd = size * passes; t < tEnd; t++, tt++) {
        if (tt === size) {
          if (passChange < IMPACT_TOLERANCE) break;
          tt = 0;
          passChange = 0;
        }
        // first + (position + rotation) mod size, without an integer division per row.
        let r = (reverse ? size - 1 - tt : tt) + rot;
        if (r >= size) r -= size;
        const i = first + r;
        const o = i * ROW_STRIDE;
        const nx = R[o + R_N]!, ny = R[o + R_N + 1]!, nz = R[o + R_N + 2]!;
        const s = R[o + R_SEP_CUR]!;
        const old = R[o + R_NORMAL_IMPULSE]!;
        // Bound: a constant for the step, or (negative marker) μλn of the
        // current accumulated normal impulse ('coulomb', and speculative
        // points that carried nothing last step).
        let bound = R[o + R_FRICTION_BOUND]!;
        if (bound < 0) {
          // A gap with no normal impulse, so no friction allowed: the point
          // stays idle unless the bodies would close the gap faster than its
          // rows allow, which the normal velocity alone tells (r × n is R_CA
          // / R_CB). The full rows below would do the same, except that they
          // would also clear friction left from an earlier sweep in which
          // the point pushed; here it stays for the rest of the step unless
          // the point pushes again.
          if (old === 0 && s > 0) {
            const vn0 = nx * (vbx - vax) + ny * (vby - vay) + nz * (vbz - vaz) +
              wbx * R[o + R_CB]! + wby * R[o + R_CB + 1]! + wbz * R[o + R_CB + 2]! -
              wax * R[o + R_CA]! - way * R[o + R_CA + 1]! - waz * R[o + R_CA + 2]!;
            // The normal row's speculative target below, written out again:
            // computed once above both, every speculative row would pay for it.
            if (vn0 >= -Math.min(s * inv, Math.max(s * R[o + R_SPEC_RATE]!, JOINTED_FREE_APPROACH))) continue;
          }
          bound = R[o + R_FRICTION]! * old;
        }
        const rax = R[o + R_RA]!, ray = R[o + R_RA + 1]!, raz = R[o + R_RA + 2]!;
        const rbx = R[o + R_RB]!, rby = R[o + R_RB + 1]!, rbz = R[o + R_RB + 2]!;
        const t1x = R[o + R_T1]!, t1y = R[o + R_T1 + 1]!, t1z = R[o + R_T1 + 2]!;
        const t2x = R[o + R_T2]!, t2y = R[o + R_T2 + 1]!, t2z = R[o + R_T2 + 2]!;

        // ---- friction rows first (Box2D order: non-penetration, solved last,
        // wins when the rows disagree).
        const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
        const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
        const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
        const vt1 = dvx * t1x + dvy * t1y + dvz * t1z;
        const vt2 = dvx * t2x + dvy * t2y + dvz * t2z;
        const old1 = R[o + R_TANGENT_IMPULSE1]!;
        let l1 = old1 - omega * R[o + R_TANGENT_MASS1]! * vt1;
        l1 = l1 > bound ? bound : l1 < -bound ? -bound : l1;
        const d1 = l1 - old1;
        R[o + R_TANGENT_IMPULSE1] = l1;
        const old2 = R[o + R_TANGENT_IMPULSE2]!;
        let l2 = old2 - omega * R[o + R_TANGENT_MASS2]! * vt2;
        l2 = l2 > bound ? bound : l2 < -bound ? -bound : l2;
        const d2 = l2 - old2;
        R[o + R_TANGENT_IMPULSE2] = l2;
        // ---- normal row, at the velocity the friction impulses leave: the
        // same relative velocity along n plus their coupling (R_COUPLE1/2).
        const vn = dvx * nx + dvy * ny + dvz * nz + d1 * R[o + R_COUPLE1]! + d2 * R[o + R_COUPLE2]!;
        let target: number, massScale: number, impulseScale: number;
        if (s > 0) {
          // Speculative: allow the gap to close this sub-step, no more (a
          // jointed body: part of it; see R_SPEC_RATE).
          target = -Math.min(s * inv, Math.max(s * R[o + R_SPEC_RATE]!, JOINTED_FREE_APPROACH));
          massScale = 1;
          impulseScale = 0;
        } else {
          target = Math.min(pushRate * Math.max(-s - pushSlop, 0), maxBias);
          massScale = modeMassScale;
          impulseScale = modeImpulseScale;
        }
        let dl = omega * (R[o + R_NORMAL_MASS]! * massScale * (target - vn) - impulseScale * old);
        let ln = old + dl;
        if (ln < 0) ln = 0;
        dl = ln - old;
        R[o + R_NORMAL_IMPULSE] = ln;
        if (trackMax && ln > R[o + R_MAX_NORMAL_IMPULSE]!) R[o + R_MAX_NORMAL_IMPULSE] = ln;

        // The three rows' impulses applied to both bodies at once. (Inline: a
        // shared helper would take them as double arguments, which V8 boxes
        // when it does not inline the call.)
        const px = d1 * t1x + d2 * t2x + dl * nx;
        const py = d1 * t1y + d2 * t2y + dl * ny;
        const pz = d1 * t1z + d2 * t2z + dl * nz;
        vax -= px * ima; vay -= py * ima; vaz -= pz * ima;
        vbx += px * imb; vby += py * imb; vbz += pz * imb;
        wax -= d1 * R[o + R_KA_T1]! + d2 * R[o + R_KA_T2]! + dl * R[o + R_KA_N]!;
        way -= d1 * R[o + R_KA_T1 + 1]! + d2 * R[o + R_KA_T2 + 1]! + dl * R[o + R_KA_N + 1]!;
        waz -= d1 * R[o + R_KA_T1 + 2]! + d2 * R[o + R_KA_T2 + 2]! + dl * R[o + R_KA_N + 2]!;
        wbx += d1 * R[o + R_KB_T1]! + d2 * R[o + R_KB_T2]! + dl * R[o + R_KB_N]!;
        wby += d1 * R[o + R_KB_T1 + 1]! + d2 * R[o + R_KB_T2 + 1]! + dl * R[o + R_KB_N + 1]!;
        wbz += d1 * R[o + R_KB_T1 + 2]! + d2 * R[o + R_KB_T2 + 2]! + dl * R[o + R_KB_N + 2]!;
        if (passes > 1) {
          const change = Math.abs(dl) / R[o + R_NORMAL_MASS]!;
          if (change > passChange) passChange = change;
        }
      }
      V[oa] = vax; V[oa + 1] = vay; V[oa + 2] = vaz; V[oa + 3] = wax; V[oa + 4] = way; V[oa + 5] = waz;
      V[ob] = vbx; V[ob + 1] = vby; V[ob + 2] = vbz; V[ob + 3] = wbx; V[ob + 4] = wby; V[ob + 5] = wbz;
    }
  }

  /**
   * Restitution (after the iterations): a point that was approaching faster
   * than the threshold and received an impulse is driven to the normal
   * velocity −e·v_approach (Newton), with accumulated clamping so it only
   * pushes, in RESTITUTION_PASSES Gauss-Seidel passes over its manifold so
   * the points of a flat landing bounce evenly. The manifold's bounce
   * impulses together stay within e times the impulse its points pushed
   * to stop the approach (Poisson's bound): v_approach is predicted at the
   * step's start, and a body that turned during the step meets the surface
   * elsewhere and slower — the Newton target alone would throw it off with
   * energy it never brought in.
   * A speculative point that pushed still approaches at the end of the step
   * (its gap lets it close within the next sub-step): those points are
   * first stopped (compression passes), and that impulse counts as pushed.
   * Without it the bound misses the approach still in flight and a ball
   * caught a few millimetres above the floor rebounds at a fraction of e.
   */
  applyRestitution(B: SolverBodies, settings: Readonly<SolverSettings>): void {
    // The threshold is read here, not passed: a double argument is boxed (CONTRIBUTING.md, hot path).
    const threshold = settings.restitutionThreshold;
    const R = this.rows, I = this.ints;
    const V = B.vel;
    for (let first = 0; first < this.count;) {
      const size = I[first * INT_STRIDE + I_SIZE]!;
      let bouncing = 0;
      for (let i = first; i < first + size; i++) {
        const o = i * ROW_STRIDE;
        const e = R[o + R_RESTITUTION]!;
        R[o + R_BOUNCE] = 0;
        if (e === 0 || R[o + R_APPROACH]! > -threshold || R[o + R_MAX_NORMAL_IMPULSE]! === 0) {
          R[o + R_BOUNCE] = -1;
          continue;
        }
        bouncing++;
      }
      if (bouncing === 0) {
        first += size;
        continue;
      }
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
      const oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
      let budget = 0, used = 0, compressed = 0;
      // A jointed body's manifold skips the compression passes: what still
      // approaches may be its joint's drag, not an impact, and counted as
      // pushed and bounced back it pumps energy into the joint.
      const jointed = B.bodies[ia]!.jointCount > 0 || B.bodies[ib]!.jointCount > 0;
      for (let pass = jointed ? RESTITUTION_PASSES : 0; pass < 2 * RESTITUTION_PASSES; pass++) {
        const compress = pass < RESTITUTION_PASSES;
        if (pass === RESTITUTION_PASSES) {
          let cap = 0, eMax = 0;
          for (let i = first; i < first + size; i++) {
            const o = i * ROW_STRIDE;
            if (R[o + R_BOUNCE]! < 0) continue;
            budget += R[o + R_RESTITUTION]! * R[o + R_PUSHED]!;
            const sep = R[o + R_SEP_CUR]!;
            if (sep > 0) cap += R[o + R_NORMAL_MASS]! * sep * this.invH[0]!;
            if (R[o + R_RESTITUTION]! > eMax) eMax = R[o + R_RESTITUTION]!;
            R[o + R_BOUNCE] = 0;
          }
          // The compression counts as pushed up to the approach the gaps still
          // allowed (beyond that the rows are stale, not in flight), and not in
          // a split step: its parts keep the rows of the step's start while a
          // fast-turning body turns, and the full Newton bounce on them adds
          // energy (docs/contact-energy.md).
          if (this.countInFlight === 1) budget += eMax * (compressed < cap ? compressed : cap);
          if (budget <= 0) break;
        }
        for (let i = first; i < first + size; i++) {
          const o = i * ROW_STRIDE;
          const bounce = R[o + R_BOUNCE]!;
          if (bounce < 0) continue;
          normalVelocity(this, B, i, ia, ib);
          const old = R[o + R_NORMAL_IMPULSE]!;
          let ln: number;
          if (compress) {
            // Stop what still approaches (accumulated over the passes, never pulling).
            ln = old - R[o + R_NORMAL_MASS]! * RESULT[0]!;
            if (ln < old - R[o + R_BOUNCE]!) ln = old - R[o + R_BOUNCE]!;
          } else {
            ln = old - R[o + R_NORMAL_MASS]! * (RESULT[0]! + R[o + R_RESTITUTION]! * R[o + R_APPROACH]!);
            if (ln > old + budget - used) ln = old + budget - used;
            // The bounce only adds to the push: never below the impulse the
            // point had before the bounce passes.
            if (ln < old - bounce) ln = old - bounce;
          }
          if (ln < 0) ln = 0;
          const dl = ln - old;
          if (dl === 0) continue;
          if (compress) {
            compressed += dl;
          } else {
            used += dl;
          }
          R[o + R_BOUNCE] = bounce + dl;
          R[o + R_NORMAL_IMPULSE] = ln;
          const px = dl * R[o + R_N]!, py = dl * R[o + R_N + 1]!, pz = dl * R[o + R_N + 2]!;
          V[oa] = V[oa]! - px * ima; V[oa + 1] = V[oa + 1]! - py * ima; V[oa + 2] = V[oa + 2]! - pz * ima;
          V[ob] = V[ob]! + px * imb; V[ob + 1] = V[ob + 1]! + py * imb; V[ob + 2] = V[ob + 2]! + pz * imb;
          V[oa + 3] = V[oa + 3]! - dl * R[o + R_KA_N]!; V[oa + 4] = V[oa + 4]! - dl * R[o + R_KA_N + 1]!; V[oa + 5] = V[oa + 5]! - dl * R[o + R_KA_N + 2]!;
          V[ob + 3] = V[ob + 3]! + dl * R[o + R_KB_N]!; V[ob + 4] = V[ob + 4]! + dl * R[o + R_KB_N + 1]!; V[ob + 5] = V[ob + 5]! + dl * R[o + R_KB_N + 2]!;
        }
      }
      first += size;
    }
  }

  /** Adds each row's normal impulse of the (sub-)step just solved to R_PUSHED. */
  endSubStep(): void {
    const R = this.rows;
    for (let i = 0; i < this.count; i++) {
      const o = i * ROW_STRIDE;
      R[o + R_PUSHED] = R[o + R_PUSHED]! + R[o + R_NORMAL_IMPULSE]!;
    }
  }

  /** Copies the accumulated impulses back to the persistent contacts. */
  storeImpulses(): void {
    const R = this.rows;
    for (let i = 0; i < this.count; i++) {
      const o = i * ROW_STRIDE;
      const c = this.contact[i]!;
      const k = this.pointIndex[i]!;
      const ln = R[o + R_NORMAL_IMPULSE]!;
      c.totalNormalImpulse += ln;
      // An impact's impulse is not the next step's guess (see warmStart).
      const carry = R[o + R_IMPACT] === 1 ? 0 : 1;
      const d = c.store.data;
      d[c.base + NORMAL_IMPULSE + k] = ln * carry;
      const l1 = R[o + R_TANGENT_IMPULSE1]! * carry, l2 = R[o + R_TANGENT_IMPULSE2]! * carry;
      const f = c.base + FRICTION_IMPULSE + 3 * k;
      d[f] = l1 * R[o + R_T1]! + l2 * R[o + R_T2]!;
      d[f + 1] = l1 * R[o + R_T1 + 1]! + l2 * R[o + R_T2 + 1]!;
      d[f + 2] = l1 * R[o + R_T1 + 2]! + l2 * R[o + R_T2 + 2]!;
    }
  }
}

/**
 * Numeric results of the helpers below. A non-inlined function returning a
 * double makes V8 box it on the heap; writing into a typed array does not.
 */
export const RESULT = new Float64Array(1);
/** Largest manifold (points per block). */
const MAX_BLOCK = 4;
/** rotation mod s for s = 1..MAX_BLOCK, set per sweep. */
const ROTATION_MOD = new Int32Array(MAX_BLOCK + 1);
export const ANCHOR = new Float64Array(6);

/**
 * From row o's anchors, normal and tangents: r × n, the K vectors I⁻¹(r × d)
 * and effective masses of d = n, t1, t2, and the tangent rows' couplings to
 * the normal row (see R_KA_N, R_COUPLE1); the same quantities addContact
 * writes, for refreshRows.
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
export function currentSeparationFromAnchors(S: ContactSolver, B: SolverBodies, i: number): void {
  const R = S.rows, o = i * ROW_STRIDE;
  const ia = S.slotA(i), ib = S.slotB(i);
  const dx = (B.px[ib]! + ANCHOR[3]!) - (B.px[ia]! + ANCHOR[0]!);
  const dy = (B.py[ib]! + ANCHOR[4]!) - (B.py[ia]! + ANCHOR[1]!);
  const dz = (B.pz[ib]! + ANCHOR[5]!) - (B.pz[ia]! + ANCHOR[2]!);
  RESULT[0] = R[o + R_SEPARATION]! + (dx * R[o + R_N]! + dy * R[o + R_N + 1]! + dz * R[o + R_N + 2]! - R[o + R_ROUND_OFFSET]!);
}

/** Separation of row i now, from its anchors moved with the bodies, into RESULT[0]. */
export function currentSeparation(S: ContactSolver, B: SolverBodies, i: number): void {
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
export function normalVelocity(S: ContactSolver, B: SolverBodies, i: number, ia: number, ib: number): void {
  const R = S.rows, o = i * ROW_STRIDE;
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  RESULT[0] = R[o + R_N]! * (V[ob]! - V[oa]!) + R[o + R_N + 1]! * (V[ob + 1]! - V[oa + 1]!) + R[o + R_N + 2]! * (V[ob + 2]! - V[oa + 2]!) +
    R[o + R_CB]! * V[ob + 3]! + R[o + R_CB + 1]! * V[ob + 4]! + R[o + R_CB + 2]! * V[ob + 5]! -
    R[o + R_CA]! * V[oa + 3]! - R[o + R_CA + 1]! * V[oa + 4]! - R[o + R_CA + 2]! * V[oa + 5]!;
}

