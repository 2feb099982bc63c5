/**
 * The joints' linear rows: the point-to-point block (PointRow, three rows
 * solved together) and the scalar row along a direction (LinearRow). Shared
 * parts and the position-error modes: rows.ts.
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import { VELOCITY_STRIDE } from '../dynamics/solver-bodies';
import * as Rows from './rows';
import type { JointStepContext } from './rows';
import type { Vec3 } from '../math/vec3';

// What the rows share, as constants of this module (CONTRIBUTING.md, hot path).
const { rotateBySlot, F, applyLinearF, applyLinearImpulse, translateSlot, moveLinear, linearMass, solveSym3F } = Rows;

/** Metres a joint projection may translate a body per pass. */
const MAX_PROJECTION = 0.05;

// ------------------------------------------------------------ point (ball) block

/**
 * Point-to-point constraint as one 3×3 block:
 *   C = (x_B + r_B) − (x_A + r_A) = 0,   Ċ = v_B + ω_B×r_B − v_A − ω_A×r_A
 *   K = (m_A⁻¹ + m_B⁻¹) 𝟙 + [r_A]×ᵀ I_A⁻¹ [r_A]× + [r_B]×ᵀ I_B⁻¹ [r_B]×
 * and λ = −K⁻¹(Ċ + b) solves all three rows at once (Catto 2005 §"point to
 * point"; Box2D v3 b2SolveSphericalJoint). Three scalar rows would need many
 * sweeps when the anchor arm couples the axes through the inertia.
 */
// PointRow record layout: one Float64Array per row, one base load for the
// whole record (a class's double fields are separate heap numbers in V8).
const P_L = 0; // accumulated impulse (3)
const P_C = 3; // error C (3)
const P_RA = 6; // world anchor arms at the last update (3 + 3)
const P_RB = 9;
const P_K = 12; // K, symmetric: 00 01 02 11 12 22
const P_I = 18; // K⁻¹, same order
/**
 * Angular response of each body per unit impulse, from the last `update`:
 * M = I⁻¹[r]× (row-major), so an impulse P on B turns it by M_B P and −P on A
 * by −M_A P. Zero for an immovable body.
 */
const P_MA = 24;
const P_MB = 33;
const P_SIZE = 42;

export class PointRow {
  /** The row's numbers (see P_L … P_MB). */
  private readonly s = new Float64Array(P_SIZE);
  /** World anchor arms, for the cold paths that take vectors (warm start, NGS). */
  readonly ra: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rb: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly x: Vec3 = { x: 0, y: 0, z: 0 };

  constructor(readonly localA: Vec3, readonly localB: Vec3) {}

  /** Accumulated impulse (N·s per sub-step). */
  get lx(): number { return this.s[P_L]!; }
  set lx(v: number) { this.s[P_L] = v; }
  get ly(): number { return this.s[P_L + 1]!; }
  set ly(v: number) { this.s[P_L + 1] = v; }
  get lz(): number { return this.s[P_L + 2]!; }
  set lz(v: number) { this.s[P_L + 2] = v; }

  /**
   * The two slots' `SolverBodies.slotVersion` at the last `update`: anchors,
   * error and K⁻¹ are reused until either body moves (per body, not per
   * world: a joint projection that moves one limb leaves the other joints'
   * geometry valid).
   */
  private versionA = -1;
  private versionB = -1;

  /** Whether either body moved since the last `update`. */
  private stale(B: SolverBodies, ia: number, ib: number): boolean {
    return B.slotVersion[ia] !== this.versionA || B.slotVersion[ib] !== this.versionB;
  }

  /** Anchors, error and K from the current poses. */
  update(B: SolverBodies, ia: number, ib: number): void {
    this.versionA = B.slotVersion[ia]!;
    this.versionB = B.slotVersion[ib]!;
    const s = this.s;
    const ra = rotateBySlot(this.ra, B, ia, this.localA);
    const rb = rotateBySlot(this.rb, B, ib, this.localB);
    s[P_RA] = ra.x; s[P_RA + 1] = ra.y; s[P_RA + 2] = ra.z;
    s[P_RB] = rb.x; s[P_RB + 1] = rb.y; s[P_RB + 2] = rb.z;
    s[P_C] = B.px[ib]! + rb.x - B.px[ia]! - ra.x;
    s[P_C + 1] = B.py[ib]! + rb.y - B.py[ia]! - ra.y;
    s[P_C + 2] = B.pz[ib]! + rb.z - B.pz[ia]! - ra.z;
    const m = B.invMass[ia]! + B.invMass[ib]!;
    s[P_K] = m; s[P_K + 1] = 0; s[P_K + 2] = 0; s[P_K + 3] = m; s[P_K + 4] = 0; s[P_K + 5] = m;
    this.addArm(B, ia, ra, P_MA);
    this.addArm(B, ib, rb, P_MB);
    // K⁻¹ by the adjugate, kept for the sweeps that reuse this geometry.
    const k00 = s[P_K]!, k01 = s[P_K + 1]!, k02 = s[P_K + 2]!, k11 = s[P_K + 3]!, k12 = s[P_K + 4]!, k22 = s[P_K + 5]!;
    const c00 = k11 * k22 - k12 * k12, c01 = k02 * k12 - k01 * k22, c02 = k01 * k12 - k02 * k11;
    const det = k00 * c00 + k01 * c01 + k02 * c02;
    if (!(Math.abs(det) > 1e-30)) {
      s.fill(0, P_I, P_I + 6);
      return;
    }
    const inv = 1 / det;
    s[P_I] = c00 * inv; s[P_I + 1] = c01 * inv; s[P_I + 2] = c02 * inv;
    s[P_I + 3] = (k00 * k22 - k02 * k02) * inv; s[P_I + 4] = (k01 * k02 - k00 * k12) * inv; s[P_I + 5] = (k00 * k11 - k01 * k01) * inv;
  }

  /**
   * K += [r]×ᵀ I⁻¹ [r]×, entry (i, j) = u_i·I⁻¹u_j with u_i = r × e_i:
   * the three products w_j = I⁻¹u_j first (9 terms each with the zeros of u
   * dropped), then the six dot products of the symmetric block. The columns
   * w_j are the body's angular response M, stored at `m`.
   */
  private addArm(B: SolverBodies, slot: number, r: Vec3, m: number): void {
    const s = this.s;
    if (B.invMass[slot]! === 0) {
      s.fill(0, m, m + 9);
      return;
    }
    const rx = r.x, ry = r.y, rz = r.z;
    const a = B.ixx[slot]!, b = B.ixy[slot]!, c = B.ixz[slot]!, d = B.iyy[slot]!, e = B.iyz[slot]!, f = B.izz[slot]!;
    // u_i = r × e_i: u_x = (0, rz, −ry), u_y = (−rz, 0, rx), u_z = (ry, −rx, 0); w_i = I⁻¹ u_i, the columns of I⁻¹[r]×.
    const wxx = b * rz - c * ry, wxy = d * rz - e * ry, wxz = e * rz - f * ry;
    const wyx = c * rx - a * rz, wyy = e * rx - b * rz, wyz = f * rx - c * rz;
    const wzx = a * ry - b * rx, wzy = b * ry - d * rx, wzz = c * ry - e * rx;
    s[P_K] = s[P_K]! + (rz * wxy - ry * wxz);
    s[P_K + 1] = s[P_K + 1]! + (rz * wyy - ry * wyz);
    s[P_K + 2] = s[P_K + 2]! + (rz * wzy - ry * wzz);
    s[P_K + 3] = s[P_K + 3]! + (-rz * wyx + rx * wyz);
    s[P_K + 4] = s[P_K + 4]! + (-rz * wzx + rx * wzz);
    s[P_K + 5] = s[P_K + 5]! + (ry * wzx - rx * wzy);
    s[m] = wxx; s[m + 1] = wyx; s[m + 2] = wzx;
    s[m + 3] = wxy; s[m + 4] = wyy; s[m + 5] = wzy;
    s[m + 6] = wxz; s[m + 7] = wyz; s[m + 8] = wzz;
  }

  /** Appends the row's numbers (accumulated impulse and the geometry of the last `update`) for a snapshot. */
  save(out: number[]): void {
    for (let k = 0; k < P_SIZE; k++) out.push(this.s[k]!);
    out.push(this.ra.x, this.ra.y, this.ra.z, this.rb.x, this.rb.y, this.rb.z);
  }

  /** Reads what `save` wrote at `o`; returns the offset after it. The geometry is measured again on the next use. */
  load(src: Float64Array, o: number): number {
    for (let k = 0; k < P_SIZE; k++) this.s[k] = src[o++]!;
    this.ra.x = src[o++]!; this.ra.y = src[o++]!; this.ra.z = src[o++]!;
    this.rb.x = src[o++]!; this.rb.y = src[o++]!; this.rb.z = src[o++]!;
    this.versionA = -1;
    this.versionB = -1;
    return o;
  }

  /** |C| from the last `update`. */
  errorLength(): number {
    const s = this.s;
    return Math.sqrt(s[P_C]! * s[P_C]! + s[P_C + 1]! * s[P_C + 1]! + s[P_C + 2]! * s[P_C + 2]!);
  }

  warmStart(B: SolverBodies, ia: number, ib: number): void {
    if (this.stale(B, ia, ib)) {
      rotateBySlot(this.ra, B, ia, this.localA);
      rotateBySlot(this.rb, B, ib, this.localB);
    }
    const s = this.s;
    F[0] = s[P_L]!; F[1] = s[P_L + 1]!; F[2] = s[P_L + 2]!;
    applyLinearF(B, ia, ib, this.ra, this.rb);
  }

  solve(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    if (this.stale(B, ia, ib)) this.update(B, ia, ib);
    const s = this.s;
    const rax = s[P_RA]!, ray = s[P_RA + 1]!, raz = s[P_RA + 2]!, rbx = s[P_RB]!, rby = s[P_RB + 1]!, rbz = s[P_RB + 2]!;
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    const vax = V[oa]!, vay = V[oa + 1]!, vaz = V[oa + 2]!, wax = V[oa + 3]!, way = V[oa + 4]!, waz = V[oa + 5]!;
    const vbx = V[ob]!, vby = V[ob + 1]!, vbz = V[ob + 2]!, wbx = V[ob + 3]!, wby = V[ob + 4]!, wbz = V[ob + 5]!;
    const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
    const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
    const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
    const rate = ctx.biasRate;
    let bx = rate * s[P_C]!, by = rate * s[P_C + 1]!, bz = rate * s[P_C + 2]!;
    const len = Math.sqrt(bx * bx + by * by + bz * bz);
    if (len > ctx.maxCorrectionVelocity) {
      const f = ctx.maxCorrectionVelocity / len;
      bx *= f; by *= f; bz *= f;
    }
    const rx = dvx + bx, ry = dvy + by, rz = dvz + bz;
    const i00 = s[P_I]!, i01 = s[P_I + 1]!, i02 = s[P_I + 2]!, i11 = s[P_I + 3]!, i12 = s[P_I + 4]!, i22 = s[P_I + 5]!;
    const px = -(i00 * rx + i01 * ry + i02 * rz);
    const py = -(i01 * rx + i11 * ry + i12 * rz);
    const pz = -(i02 * rx + i12 * ry + i22 * rz);
    s[P_L] = s[P_L]! + px; s[P_L + 1] = s[P_L + 1]! + py; s[P_L + 2] = s[P_L + 2]! + pz;
    // applyLinearF written out: the velocities are already in registers.
    const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
    V[oa] = vax - px * ima; V[oa + 1] = vay - py * ima; V[oa + 2] = vaz - pz * ima;
    V[ob] = vbx + px * imb; V[ob + 1] = vby + py * imb; V[ob + 2] = vbz + pz * imb;
    V[oa + 3] = wax - (s[P_MA]! * px + s[P_MA + 1]! * py + s[P_MA + 2]! * pz);
    V[oa + 4] = way - (s[P_MA + 3]! * px + s[P_MA + 4]! * py + s[P_MA + 5]! * pz);
    V[oa + 5] = waz - (s[P_MA + 6]! * px + s[P_MA + 7]! * py + s[P_MA + 8]! * pz);
    V[ob + 3] = wbx + s[P_MB]! * px + s[P_MB + 1]! * py + s[P_MB + 2]! * pz;
    V[ob + 4] = wby + s[P_MB + 3]! * px + s[P_MB + 4]! * py + s[P_MB + 5]! * pz;
    V[ob + 5] = wbz + s[P_MB + 6]! * px + s[P_MB + 7]! * py + s[P_MB + 8]! * pz;
  }

  /**
   * Translates only B (A and both rotations held) so that |C| ≤ slop. Used
   * after the limit projection (JointSolver.project): a
   * translation leaves the angles that were just fixed untouched, and in a
   * tree whose joints are listed parent first, correcting the child only
   * never undoes a joint earlier in the list. (The joint solver moves the
   * pair back together when the lift this gives it cannot be paid for.)
   */
  projectB(B: SolverBodies, ia: number, ib: number, ctx: JointStepContext): void {
    const slop = ctx.anchorSlop;
    if (B.invMass[ib]! === 0) { this.solvePosition(B, ia, ib, slop); return; }
    // The error at the current poses, from `update` (which the sweep after
    // the projection would run anyway; it then runs again only for the
    // joints whose bodies this pass moves).
    if (this.stale(B, ia, ib)) this.update(B, ia, ib);
    const s = this.s;
    const cx = s[P_C]!, cy = s[P_C + 1]!, cz = s[P_C + 2]!;
    const err2 = cx * cx + cy * cy + cz * cz;
    if (err2 <= slop * slop) return;
    const err = Math.sqrt(err2);
    // At most MAX_PROJECTION per pass: a longer teleport can carry B past a surface no contact saw coming.
    const f = Math.min(err - slop, MAX_PROJECTION) / err;
    const d = B.delta;
    d[0] = -f * cx; d[1] = -f * cy; d[2] = -f * cz; d[3] = 0; d[4] = 0; d[5] = 0;
    translateSlot(B, ib);
  }

  /**
   * NGS: P = −K⁻¹ C applied to the poses, scaled to leave an error of `slop`
   * (m, default 0). Returns |C| before the correction.
   */
  solvePosition(B: SolverBodies, ia: number, ib: number, slop = 0): number {
    this.update(B, ia, ib);
    const err = this.errorLength();
    if (err <= slop) return err;
    const f = (err - slop) / err;
    const s = this.s;
    for (let k = 0; k < 6; k++) F[k] = s[P_K + k]!;
    F[6] = f * s[P_C]!; F[7] = f * s[P_C + 1]!; F[8] = f * s[P_C + 2]!;
    const x = solveSym3F(this.x);
    moveLinear(B, ia, ib, this.ra, this.rb, -x.x, -x.y, -x.z);
    return err;
  }
}

// ------------------------------------------------------------ scalar linear row (distance)

/**
 * One linear row along a world unit n at anchors r_A, r_B (set by the joint):
 * Ċ = n·(v_B + ω_B×r_B − v_A − ω_A×r_A).
 */
export class LinearRow {
  impulse = 0;

  save(out: number[]): void {
    out.push(this.impulse);
  }

  load(src: Float64Array, o: number): number {
    this.impulse = src[o]!;
    return o + 1;
  }

  warmStart(B: SolverBodies, ia: number, ib: number, ra: Vec3, rb: Vec3, nx: number, ny: number, nz: number): void {
    const l = this.impulse;
    if (l !== 0) applyLinearImpulse(B, ia, ib, ra, rb, l * nx, l * ny, l * nz);
  }

  /**
   * Generic scalar row: λ_new = clamp(λ − s_m m (Ċ + bias) − s_i λ, lo, hi).
   */
  solve(B: SolverBodies, ia: number, ib: number, ra: Vec3, rb: Vec3, nx: number, ny: number, nz: number,
    bias: number, massScale: number, impulseScale: number, lo: number, hi: number): void {
    const m = linearMass(B, ia, ib, ra, rb, nx, ny, nz);
    if (m === 0) return;
    const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
    const dvx = V[ob]! + (V[ob + 4]! * rb.z - V[ob + 5]! * rb.y) - V[oa]! - (V[oa + 4]! * ra.z - V[oa + 5]! * ra.y);
    const dvy = V[ob + 1]! + (V[ob + 5]! * rb.x - V[ob + 3]! * rb.z) - V[oa + 1]! - (V[oa + 5]! * ra.x - V[oa + 3]! * ra.z);
    const dvz = V[ob + 2]! + (V[ob + 3]! * rb.y - V[ob + 4]! * rb.x) - V[oa + 2]! - (V[oa + 3]! * ra.y - V[oa + 4]! * ra.x);
    const cdot = dvx * nx + dvy * ny + dvz * nz;
    const old = this.impulse;
    let l = old - massScale * m * (cdot + bias) - impulseScale * old;
    l = l > hi ? hi : l < lo ? lo : l;
    this.impulse = l;
    const d = l - old;
    applyLinearImpulse(B, ia, ib, ra, rb, d * nx, d * ny, d * nz);
  }
}
