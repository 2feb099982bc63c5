/**
 * The NGS position solve for contacts ('ngs'): after the positions moved,
 * sweeps that push penetrating points apart by moving the poses directly.
 */
import { ANCHOR, anchorWorld, currentSeparationFromAnchors, INT_STRIDE, I_A, I_B, R_LA, R_LB, R_N, RESULT, ROW_STRIDE, type ContactSolver } from './contact-solver';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
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

/**
 * Contacts with an immovable body have the last word on position: a dynamic
 * body that the step left deeper in a static or kinematic body than the
 * overlap tolerated (its thinnest half size, half of it for a jointed body,
 * at least twice the slop) is moved straight out along the normal to that
 * depth, without energy from the move (below). The velocity sweeps solve
 * the joints after the contacts, so that a ragdoll's joints are not pulled
 * apart by its limbs' contacts; where a joint to a far heavier body and the
 * ground cannot both hold, the joint wins those sweeps and drags the light
 * body in a little each step. Here the contact wins, and the joint's error
 * grows instead (docs/joints.md). Returns how many bodies it moved.
 */
/**
 * Overlap tolerated by pushOutOfImmovables, as a fraction of the thinnest
 * half size: past about half, the core a continuous sweep of the body
 * starts from is behind a one-sided surface, and the next strong pull takes
 * the body through it unseen.
 */
const PUSH_OUT_FRACTION = 0.5;

export function pushOutOfImmovables(S: ContactSolver, B: SolverBodies, settings: SolverSettings): number {
  const R = S.rows, I = S.ints;
  const slop2 = 2 * settings.linearSlop;
  let moved = 0;
  for (let i = 0; i < S.count; i++) {
    const ia = I[i * INT_STRIDE + I_A]!, ib = I[i * INT_STRIDE + I_B]!;
    const da = B.dynamic[ia] === 1, db = B.dynamic[ib] === 1;
    if (da === db) continue;
    const o = i * ROW_STRIDE;
    anchorWorld(0, R, o + R_LA, B, ia);
    anchorWorld(3, R, o + R_LB, B, ib);
    currentSeparationFromAnchors(S, B, i);
    const s = RESULT[0]!;
    const slot = da ? ia : ib;
    const body = B.bodies[slot]!;
    // A joint-free body gets this far in only when its contacts lose to heavy
    // bodies pressing it down: it is held to its whole thinnest half size.
    const tolerated = Math.max((body.jointCount === 0 ? 1 : PUSH_OUT_FRACTION) * body.thinnestHalfSize, slop2);
    if (!(s < -tolerated)) continue;
    // n points from A to B; sign: +1 moves the dynamic body out along ±n.
    const sign = da ? -1 : 1;
    const nx = sign * R[o + R_N]!, ny = sign * R[o + R_N + 1]!, nz = sign * R[o + R_N + 2]!;
    const push = -(s + tolerated);
    B.px[slot] = B.px[slot]! + push * nx;
    B.py[slot] = B.py[slot]! + push * ny;
    B.pz[slot] = B.pz[slot]! + push * nz;
    // No energy from the move: a speed into the surface is taken away
    // (inelastic), and a raise against gravity is paid for from the speed
    // out of it (½v'² = ½v² − g·push).
    const V = B.vel, vo = slot * VELOCITY_STRIDE;
    const vn = V[vo]! * nx + V[vo + 1]! * ny + V[vo + 2]! * nz;
    const g = B.gravity, gs = body.gravityScale;
    const lift = -(g.x * nx + g.y * ny + g.z * nz) * gs * push;
    let dv = 0;
    if (vn < 0) dv = -vn;
    else if (lift > 0) dv = Math.sqrt(Math.max(vn * vn - 2 * lift, 0)) - vn;
    V[vo] = V[vo]! + dv * nx; V[vo + 1] = V[vo + 1]! + dv * ny; V[vo + 2] = V[vo + 2]! + dv * nz;
    moved++;
  }
  return moved;
}
