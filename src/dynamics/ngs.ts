/**
 * The NGS position solve for contacts ('ngs'): after the positions moved,
 * sweeps that push penetrating points apart by moving the poses directly.
 */
import { ANCHOR, anchorWorld, currentSeparationFromAnchors, INT_STRIDE, I_A, I_B, R_LA, R_LB, R_N, RESULT, ROW_STRIDE, type ContactSolver } from './contact-solver';
import type { SolverBodies } from './solver-bodies';
import type { SolverSettings } from './solver-settings';

/** Arguments of effectiveMass: typed-array slots, not double arguments (V8 boxes those in calls it does not inline). */
const ARGS = new Float64Array(9);

/**
 * Nonlinear Gauss-Seidel on positions (Box2D v2.4
 * b2ContactSolver::SolvePositionConstraints): for C = s + slop ≤ 0 with the
 * separation s re-measured from the moved anchors, apply the pseudo-impulse
 * P = −clamp(β C, −maxCorrection, 0) / K along n directly to the poses.
 * Returns the largest penetration seen (for early exit).
 */
export function solveContactPositions(S: ContactSolver, B: SolverBodies, settings: SolverSettings): number {
  const slop = settings.linearSlop;
  const beta = settings.baumgarte;
  const maxCorrection = 0.2;
  const R = S.rows, I = S.ints;
  let worst = 0;
  for (let i = 0; i < S.count; i++) {
    const o = i * ROW_STRIDE;
    const ia = I[i * INT_STRIDE + I_A]!, ib = I[i * INT_STRIDE + I_B]!;
    anchorWorld(0, R, o + R_LA, B, ia);
    anchorWorld(3, R, o + R_LB, B, ib);
    const nx = R[o + R_N]!, ny = R[o + R_N + 1]!, nz = R[o + R_N + 2]!;
    currentSeparationFromAnchors(S, B, i);
    const s = RESULT[0]!;
    if (-s > worst) worst = -s;
    const C = Math.max(-maxCorrection, Math.min(beta * (s + slop), 0));
    if (C >= 0) continue;
    const rax = ANCHOR[0]!, ray = ANCHOR[1]!, raz = ANCHOR[2]!, rbx = ANCHOR[3]!, rby = ANCHOR[4]!, rbz = ANCHOR[5]!;
    ARGS[0] = rax; ARGS[1] = ray; ARGS[2] = raz; ARGS[3] = rbx; ARGS[4] = rby; ARGS[5] = rbz; ARGS[6] = nx; ARGS[7] = ny; ARGS[8] = nz;
    effectiveMass(B, ia, ib);
    const K = 1 / RESULT[0]!;
    if (!(K > 0) || !Number.isFinite(K)) continue;
    const impulse = -C / K;
    const px = impulse * nx, py = impulse * ny, pz = impulse * nz;
    movePose(B, ia, rax, ray, raz, -px, -py, -pz);
    movePose(B, ib, rbx, rby, rbz, px, py, pz);
  }
  return worst;
}

/** 1 / (J M⁻¹ Jᵀ) for anchors rA = ARGS[0..2], rB = ARGS[3..5] and direction ARGS[6..8]; result in RESULT[0]. */
function effectiveMass(B: SolverBodies, ia: number, ib: number): void {
  const rax = ARGS[0]!, ray = ARGS[1]!, raz = ARGS[2]!, rbx = ARGS[3]!, rby = ARGS[4]!, rbz = ARGS[5]!, nx = ARGS[6]!, ny = ARGS[7]!, nz = ARGS[8]!;
  // (r × n)ᵀ I⁻¹ (r × n) for each body, plus the inverse masses.
  const ax = ray * nz - raz * ny, ay = raz * nx - rax * nz, az = rax * ny - ray * nx;
  const bx = rby * nz - rbz * ny, by = rbz * nx - rbx * nz, bz = rbx * ny - rby * nx;
  const ka = ax * (B.ixx[ia]! * ax + B.ixy[ia]! * ay + B.ixz[ia]! * az) +
    ay * (B.ixy[ia]! * ax + B.iyy[ia]! * ay + B.iyz[ia]! * az) +
    az * (B.ixz[ia]! * ax + B.iyz[ia]! * ay + B.izz[ia]! * az);
  const kb = bx * (B.ixx[ib]! * bx + B.ixy[ib]! * by + B.ixz[ib]! * bz) +
    by * (B.ixy[ib]! * bx + B.iyy[ib]! * by + B.iyz[ib]! * bz) +
    bz * (B.ixz[ib]! * bx + B.iyz[ib]! * by + B.izz[ib]! * bz);
  const k = B.invMass[ia]! + B.invMass[ib]! + ka + kb;
  RESULT[0] = k > 0 ? 1 / k : 0;
}

/** Pseudo-impulse P at anchor r moves the pose: Δx = m⁻¹P, ½Δθ = ½ I⁻¹(r × P). */
function movePose(B: SolverBodies, slot: number, rx: number, ry: number, rz: number, px: number, py: number, pz: number): void {
  const im = B.invMass[slot]!;
  if (im === 0) return;
  const tx = ry * pz - rz * py, ty = rz * px - rx * pz, tz = rx * py - ry * px;
  const d = B.delta;
  d[0] = px * im; d[1] = py * im; d[2] = pz * im;
  d[3] = 0.5 * (B.ixx[slot]! * tx + B.ixy[slot]! * ty + B.ixz[slot]! * tz);
  d[4] = 0.5 * (B.ixy[slot]! * tx + B.iyy[slot]! * ty + B.iyz[slot]! * tz);
  d[5] = 0.5 * (B.ixz[slot]! * tx + B.iyz[slot]! * ty + B.izz[slot]! * tz);
  B.moveSlot(slot);
}
