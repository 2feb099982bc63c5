/**
 * Joint rows in the world's sequential-impulse solver. The World calls, per
 * step (after the contact rows are built):
 *
 *   prepare(joints, B, settings, h, dt)
 *   'soft':      per sub-step: warmStart; solveVelocities(useBias = true);
 *                integrate positions; relax: project, solveVelocities(useBias = false)
 *                (between the two the solver retakes the inertia of bodies the projection turned far)
 *   'baumgarte': warmStart; iterations × solveVelocities(useBias = true)
 *   'ngs':       warmStart; iterations × solveVelocities(useBias = false);
 *                integrate; iterations × solvePositions
 *   storeImpulses()
 *
 * Joint softness ('soft'): Box2D v3 solves joints as springs of `jointHertz`
 * and `jointDampingRatio` (mass scaled by s_m, impulse leak s_i; Catto,
 * "Solver2D", 2024), then relaxes without the bias. That spring's stiffness
 * is m_eff ω², m_eff ≈ the lighter body, too soft for a heavy torso on light
 * shins, so the rows stay rigid (s_m = 1, s_i = 0) and only the position
 * bias b·C uses the spring's rate b = ω/(2ζ + hω). The push-back b·C is
 * velocity the relax sweep must take out again, which its sweeps do not
 * fully do over a long chain: hence the high default ζ (slow push-back);
 * the projection still holds the anchors within `anchorSlop`. Measurements
 * in docs/joints.md. Hertz is capped at 0.25 / h like contacts.
 *
 * Per joint, not per row, dispatch: each joint is a small object with its
 * rows as fields (the rows are the SoA-free equivalent of Box2D's joint
 * union). A ragdoll scene has hundreds of joints, not tens of thousands of
 * rows, so the virtual call per joint is noise next to the row math.
 */
import type { RigidBody } from '../dynamics/body';
import type { SolverBodies } from '../dynamics/solver-bodies';
import type { SolverSettings } from '../dynamics/solver-settings';
import { HEAVY_B, JointStepContext, translateSlot } from './rows';
import { SWEEP_BAUMGARTE, SWEEP_RIGID, SWEEP_SOFT } from '../dynamics/sweep-mode';
import { VELOCITY_STRIDE } from '../dynamics/solver-bodies';
import { reserveFloat64, reserveInt32, reserveUint8 } from '../math/typed-arrays';

/**
 * What the solver reads and calls of a joint (joint.ts's Joint implements
 * it; declared here so that the solver does not import the joint classes,
 * which bring the solver in: see Joint.newSolver).
 */
export interface SolvedJoint {
  readonly bodyA: RigidBody;
  readonly bodyB: RigidBody;
  broken: boolean;
  readonly breakImpulse: number;
  slotA: number;
  slotB: number;
  readonly stepImpulses: Float64Array;
  readonly applied: Float64Array;
  prepare(B: SolverBodies, ctx: JointStepContext): void;
  warmStart(B: SolverBodies): void;
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void;
  solvePosition(B: SolverBodies, ctx: JointStepContext): number;
  projectLimits(B: SolverBodies, ctx: JointStepContext): void;
  projectsAnchor(): boolean;
  /** Set in prepare: !projectsAnchor(), the joint's pull counts in jointDv. */
  loadsProjection: boolean;
  finishStep(ctx: JointStepContext): void;
  resetImpulses(): void;
  scaleImpulses(scale: Float64Array): void;
  workBound(out: Float64Array): boolean;
}
type Joint = SolvedJoint;

/** How much more kinetic energy a warm start may carry than the impulses had when solved (see JointSolver.warmStart). */
const WARM_START_ENERGY_GROWTH = 1;

/** principalFrame's result: the rotation p = q ⊗ Q of slot s's principal axes (x, y, z, w). */
const P = new Float64Array(4);

/** Slot s's principal-axes rotation into P: its rotation q, turned by its inertia frame Q when it has one. */
function principalFrame(B: SolverBodies, s: number): void {
  const qx = B.qx[s]!, qy = B.qy[s]!, qz = B.qz[s]!, qw = B.qw[s]!;
  if (B.inertiaFramed[s] !== 1) { P[0] = qx; P[1] = qy; P[2] = qz; P[3] = qw; return; }
  const ax = B.iqx[s]!, ay = B.iqy[s]!, az = B.iqz[s]!, aw = B.iqw[s]!;
  P[0] = qw * ax + qx * aw + qy * az - qz * ay;
  P[1] = qw * ay - qx * az + qy * aw + qz * ax;
  P[2] = qw * az + qx * ay - qy * ax + qz * aw;
  P[3] = qw * aw - qx * ax - qy * ay - qz * az;
}

/**
 * Kinetic energy ½ m|Δv|² + ½ Δωᵀ I Δω of the velocity change d[o..o+5] of a
 * slot, with I at the slot's current rotation (Δω taken to the principal
 * frame, where I is diagonal), added to out[k]; 0 for a slot held fixed. (Doubles
 * in and out through typed arrays: see rows.ts on V8 boxing.)
 */
function addChangeEnergy(B: SolverBodies, s: number, d: Float64Array, o: number, out: Float64Array, k: number): void {
  const im = B.invMass[s]!;
  if (im === 0) return;
  const vx = d[o]!, vy = d[o + 1]!, vz = d[o + 2]!;
  const wx = d[o + 3]!, wy = d[o + 4]!, wz = d[o + 5]!;
  // Δω in the principal frame = conj(p) Δω p, p = q ⊗ Q (Q the inertia frame).
  principalFrame(B, s);
  const qx = -P[0]!, qy = -P[1]!, qz = -P[2]!, qw = P[3]!;
  const tx = 2 * (qy * wz - qz * wy), ty = 2 * (qz * wx - qx * wz), tz = 2 * (qx * wy - qy * wx);
  const lx = wx + qw * tx + (qy * tz - qz * ty);
  const ly = wy + qw * ty + (qz * tx - qx * tz);
  const lz = wz + qw * tz + (qx * ty - qy * tx);
  const ix = B.ilx[s]!, iy = B.ily[s]!, iz = B.ilz[s]!;
  let e = (vx * vx + vy * vy + vz * vz) / im;
  if (ix > 0) e += lx * lx / ix;
  if (iy > 0) e += ly * ly / iy;
  if (iz > 0) e += lz * lz / iz;
  out[k] = out[k]! + 0.5 * e;
}

/**
 * out[k] += Δᵀ M v for slot s: the velocity change d[o..o+5] against the
 * slot's current velocity, m Δv·v + Δωᵀ I ω with I at the slot's current
 * rotation (both turned into the body frame); and out[k + 1] += Δᵀ M Δ.
 * 0 for a slot held fixed.
 */
function addChangeDot(B: SolverBodies, s: number, d: Float64Array, o: number, out: Float64Array, k: number): void {
  const im = B.invMass[s]!;
  if (im === 0) return;
  const V = B.vel, ov = s * VELOCITY_STRIDE;
  principalFrame(B, s);
  const qx = -P[0]!, qy = -P[1]!, qz = -P[2]!, qw = P[3]!;
  // Principal-frame Δω and ω: conj(p) x p.
  let wx = d[o + 3]!, wy = d[o + 4]!, wz = d[o + 5]!;
  let tx = 2 * (qy * wz - qz * wy), ty = 2 * (qz * wx - qx * wz), tz = 2 * (qx * wy - qy * wx);
  const ax = wx + qw * tx + (qy * tz - qz * ty), ay = wy + qw * ty + (qz * tx - qx * tz), az = wz + qw * tz + (qx * ty - qy * tx);
  wx = V[ov + 3]!; wy = V[ov + 4]!; wz = V[ov + 5]!;
  tx = 2 * (qy * wz - qz * wy); ty = 2 * (qz * wx - qx * wz); tz = 2 * (qx * wy - qy * wx);
  const bx = wx + qw * tx + (qy * tz - qz * ty), by = wy + qw * ty + (qz * tx - qx * tz), bz = wz + qw * tz + (qx * ty - qy * tx);
  const dvx = d[o]!, dvy = d[o + 1]!, dvz = d[o + 2]!;
  let dot = (dvx * V[ov]! + dvy * V[ov + 1]! + dvz * V[ov + 2]!) / im;
  let sq = (dvx * dvx + dvy * dvy + dvz * dvz) / im;
  const ix = B.ilx[s]!, iy = B.ily[s]!, iz = B.ilz[s]!;
  if (ix > 0) { dot += ax * bx / ix; sq += ax * ax / ix; }
  if (iy > 0) { dot += ay * by / iy; sq += ay * ay / iy; }
  if (iz > 0) { dot += az * bz / iz; sq += az * az / iz; }
  out[k] = out[k]! + dot;
  out[k + 1] = out[k + 1]! + sq;
}

/** Union-find root of slot s, halving the path on the way. */
function findRoot(parent: Int32Array, s: number): number {
  while (parent[s] !== s) {
    const p = parent[s]!;
    parent[s] = parent[p]!;
    s = parent[s]!;
  }
  return s;
}

/** Joint solver settings (separate from the world's SolverSettings); checked at the start of every step. */
export interface JointSolverSettings {
  /** Joint stiffness (Hz) in 'soft' mode, in [0, 1e6], capped at 0.25 / sub-step. Default 60. */
  jointHertz: number;
  /** Joint damping ratio in 'soft' mode; sets the bias rate ω/(2ζ + hω). Default 30 (bias ≈ 6/s at 240 Hz). Range 0–1000. */
  jointDampingRatio: number;
  /**
   * Sweeps over the joint rows per `solveVelocities` call. Default 2: a
   * ragdoll is a chain of up to 5 bodies with 10:1 mass ratios (torso on a
   * forearm). The projection holds the anchors within `anchorSlop` either
   * way; what one sweep loses is the torso's weight reaching the floor
   * through the limbs: over 16 random-orientation drops of the humanoid
   * from 3 m the median deepest floor penetration was 11 mm with 1 sweep
   * and 6 mm with 2 (the 32-ragdoll pile steps 5–10 % faster with 1).
   * Integer in [1, 100]: each sweep costs about as much as the rest of a
   * ragdoll step.
   */
  jointIterations: number;
  /**
   * 'soft' only: after each sub-step's position integration, rotate bodies
   * back to within `limitSlop` of violated hinge/cone-twist limits and
   * translate them to within `anchorSlop` of their anchors (ball, hinge,
   * cone-twist; see `solveVelocities`). Default true.
   */
  projection: boolean;
  /** Radians a limit may stay violated before the projection acts, in [0, π]. Default 0.5° (0.00873). */
  limitSlop: number;
  /**
   * Metres (≥ 0) a ball, hinge or cone-twist joint's anchors may stay apart before
   * the projection acts. Default 0.001 (a 32-ragdoll pile then holds every
   * joint within 1 mm; 2 mm gave the same limits but 2 mm gaps).
   */
  anchorSlop: number;
}

export function defaultJointSolverSettings(): JointSolverSettings {
  return { jointHertz: 60, jointDampingRatio: 30, jointIterations: 2, projection: true, limitSlop: 0.5 * Math.PI / 180, anchorSlop: 0.001 };
}

/**
 * out[0] += −m a·Δx for a slot moved by Δx = x − p[o..o+2] in its constant
 * acceleration a (gravity and force): the potential energy it gained.
 */
function addPotentialGain(B: SolverBodies, s: number, p: Float64Array, o: number, out: Float64Array): void {
  const im = B.invMass[s]!;
  if (im === 0) return;
  const dx = B.px[s]! - p[o]!, dy = B.py[s]! - p[o + 1]!, dz = B.pz[s]! - p[o + 2]!;
  out[0] = out[0]! - (B.lax[s]! * dx + B.lay[s]! * dy + B.laz[s]! * dz) / im;
}

/**
 * out[1] += −m (a + a_j)·Δx for a slot moved by Δx = x − p[o..o+2]: the work
 * done against its constant acceleration a and against a_j = dv / h, the
 * pull over the sub-step so far of the joints whose anchors the projection
 * does not hold (jointDv). What a projection stretches in a spring or a
 * slider, the spring gives back as speed. (Projected joints are left out:
 * the projection closes their stretch as a teleport too. Contacts are left
 * out: the relax sweep takes back the speed their push-out gives.)
 */
function addConstraintWork(B: SolverBodies, s: number, p: Float64Array, o: number, dv: Float64Array, invH: number, out: Float64Array): void {
  const im = B.invMass[s]!;
  if (im === 0) return;
  const o0 = s * 3;
  const ax = B.lax[s]! + dv[o0]! * invH, ay = B.lay[s]! + dv[o0 + 1]! * invH, az = B.laz[s]! + dv[o0 + 2]! * invH;
  const dx = B.px[s]! - p[o]!, dy = B.py[s]! - p[o + 1]!, dz = B.pz[s]! - p[o + 2]!;
  out[1] = out[1]! - (ax * dx + ay * dy + az * dz) / im;
}

/**
 * e[1] = the kinetic energy of the pair's motion relative to its centre of
 * mass (a body held fixed is the frame), what payFromRelativeMotion can pay
 * from. `d`: 12 doubles of scratch.
 */
function relativeKinetic(B: SolverBodies, ia: number, ib: number, e: Float64Array, d: Float64Array): void {
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
  for (let k = 0; k < 3; k++) {
    const c = ima === 0 ? V[oa + k]! : imb === 0 ? V[ob + k]! : (V[oa + k]! / ima + V[ob + k]! / imb) / (1 / ima + 1 / imb);
    d[k] = V[oa + k]! - c; d[3 + k] = V[oa + 3 + k]!;
    d[6 + k] = V[ob + k]! - c; d[9 + k] = V[ob + 3 + k]!;
  }
  e[1] = 0;
  addChangeEnergy(B, ia, d, 0, e, 1);
  addChangeEnergy(B, ib, d, 6, e, 1);
}

/**
 * Takes `energy` (J) out of the kinetic energy of the pair's motion relative
 * to its centre of mass: linear velocities v_i → v_c + s(v_i − v_c), angular
 * ω_i → s ω_i, s = √(1 − energy / E_rel) (0 if E_rel ≤ energy), energy =
 * e[0] (e[1] scratch). Momentum is
 * kept. A body held fixed is the frame (v_c = its velocity). `d`: 12
 * doubles of scratch.
 */
function payFromRelativeMotion(B: SolverBodies, ia: number, ib: number, e: Float64Array, d: Float64Array): void {
  const energy = e[0]!;
  const V = B.vel, oa = ia * VELOCITY_STRIDE, ob = ib * VELOCITY_STRIDE;
  const ima = B.invMass[ia]!, imb = B.invMass[ib]!;
  let cx: number, cy: number, cz: number;
  if (ima === 0) { cx = V[oa]!; cy = V[oa + 1]!; cz = V[oa + 2]!; }
  else if (imb === 0) { cx = V[ob]!; cy = V[ob + 1]!; cz = V[ob + 2]!; }
  else {
    const ma = 1 / ima, mb = 1 / imb, inv = 1 / (ma + mb);
    cx = (ma * V[oa]! + mb * V[ob]!) * inv; cy = (ma * V[oa + 1]! + mb * V[ob + 1]!) * inv; cz = (ma * V[oa + 2]! + mb * V[ob + 2]!) * inv;
  }
  for (let k = 0; k < 3; k++) {
    const c = k === 0 ? cx : k === 1 ? cy : cz;
    d[k] = V[oa + k]! - c; d[3 + k] = V[oa + 3 + k]!;
    d[6 + k] = V[ob + k]! - c; d[9 + k] = V[ob + 3 + k]!;
  }
  e[1] = 0;
  addChangeEnergy(B, ia, d, 0, e, 1);
  addChangeEnergy(B, ib, d, 6, e, 1);
  const rel = e[1]!;
  const s = rel > energy ? Math.sqrt(1 - energy / rel) : 0;
  for (let k = 0; k < 3; k++) {
    const c = k === 0 ? cx : k === 1 ? cy : cz;
    if (ima !== 0) { V[oa + k] = c + s * d[k]!; V[oa + 3 + k] = s * d[3 + k]!; }
    if (imb !== 0) { V[ob + k] = c + s * d[6 + k]!; V[ob + 3 + k] = s * d[9 + k]!; }
  }
}

/** Translates slot s back to the position p[o..o+2] (a projection undone). */
function putBack(B: SolverBodies, s: number, p: Float64Array, o: number): void {
  if (B.invMass[s] === 0) return;
  const d = B.delta;
  d[0] = p[o]! - B.px[s]!; d[1] = p[o + 1]! - B.py[s]!; d[2] = p[o + 2]! - B.pz[s]!;
  if (d[0] === 0 && d[1] === 0 && d[2] === 0) return;
  d[3] = 0; d[4] = 0; d[5] = 0;
  B.moveSlot(s);
}

/**
 * Translates both slots of a pair by −Δ_c, Δ_c the displacement of the
 * pair's centre of mass since the positions p[0..5] (A's, then B's): the
 * gap a projection closed stays closed, and the centre of mass, with
 * gravity's potential energy, returns to where it was. Both slots dynamic.
 */
function shiftPairBack(B: SolverBodies, ia: number, ib: number, p: Float64Array): void {
  const ma = 1 / B.invMass[ia]!, mb = 1 / B.invMass[ib]!, inv = 1 / (ma + mb);
  const d = B.delta;
  const cx = (ma * (B.px[ia]! - p[0]!) + mb * (B.px[ib]! - p[3]!)) * inv;
  const cy = (ma * (B.py[ia]! - p[1]!) + mb * (B.py[ib]! - p[4]!)) * inv;
  const cz = (ma * (B.pz[ia]! - p[2]!) + mb * (B.pz[ib]! - p[5]!)) * inv;
  for (let k = 0; k < 2; k++) {
    d[0] = -cx; d[1] = -cy; d[2] = -cz; d[3] = 0; d[4] = 0; d[5] = 0;
    translateSlot(B, k === 0 ? ia : ib);
  }
}

export class JointSolver {
  /** Live settings (the world's `jointSettings`); take effect at the next `prepare`. */
  readonly settings: JointSolverSettings;
  /**
   * Joints solved this step (both slots valid) are active[0 .. activeCount);
   * the array is only grown, never truncated (truncating to 0 and pushing
   * again reallocated its backing store every step).
   */
  readonly active: (Joint | null)[] = [];
  activeCount = 0;
  /** @internal */ readonly context = new JointStepContext();
  private warmStarting = true;
  /** Set by warmStart: the next sweep first line-searches each joint's warm start (trimWarmStarts). */
  private trimPending = false;

  constructor(settings: JointSolverSettings = defaultJointSolverSettings()) {
    this.settings = settings;
  }

  /**
   * Called once per step after the contact rows are built; joints that are
   * broken, or whose bodies are both static or asleep, are skipped. `h` is the
   * (sub)step, `dt` the full step. Gives joint bodies solver slots on demand
   * (static and sleeping partners get one, a static body with zero inverse mass).
   */
  prepare(joints: readonly Joint[], B: SolverBodies, settings: SolverSettings, h: number, dt: number): void {
    if (joints.length === 0 && this.activeCount === 0) return; // nothing to do: skip the per-step double setup too
    const ctx = this.context;
    const active = this.active;
    let n = 0;
    const pc = settings.positionCorrection;
    ctx.mode = pc === 'soft' ? SWEEP_SOFT : pc === 'baumgarte' ? SWEEP_BAUMGARTE : SWEEP_RIGID;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.stepScale = dt / h;
    ctx.beta = settings.baumgarte;
    ctx.maxCorrectionVelocity = settings.maxCorrectionVelocity;
    const js = this.settings;
    ctx.softness.set(Math.min(js.jointHertz, 0.25 / h), js.jointDampingRatio, h);
    ctx.limitSlop = js.limitSlop;
    ctx.anchorSlop = js.anchorSlop;
    this.warmStarting = settings.warmStarting;
    for (let i = 0; i < joints.length; i++) {
      const j = joints[i]!;
      if (j.broken) continue;
      const a = j.bodyA, b = j.bodyB;
      const aActive = a.awake && !a.isStatic;
      const bActive = b.awake && !b.isStatic;
      if (!aActive && !bActive) continue;
      if (a.solverIndex < 0) B.addFixed(a);
      if (b.solverIndex < 0) B.addFixed(b);
      j.slotA = a.solverIndex;
      j.slotB = b.solverIndex;
      if (!this.warmStarting) j.resetImpulses();
      j.prepare(B, ctx);
      j.loadsProjection = !j.projectsAnchor();
      if (n < active.length) active[n] = j;
      else active.push(j);
      n++;
    }
    for (let i = n; i < this.activeCount; i++) active[i] = null;
    this.activeCount = n;
  }

  /**
   * Applies the accumulated impulses (per (sub)step, like contacts), each
   * joint's limited to the energy its rows actually gave its bodies since the
   * last warm start (`applied`).
   *
   * Why: the rows measure their Jacobians at the current poses, so the
   * impulses accumulated over a sub-step (the biased sweeps before the
   * position integration, the relax sweep after it) are re-applied along
   * the turned anchors and axes. Where the rows of one joint carry large
   * impulses that cancel on a body (a far anchor on a light, thin body: the
   * anchor's torque r × P against a limit row's), a turn of the body makes
   * them stop cancelling, and the warm start hands that body a spin of up to
   * |r||P|/I — the 2 joint sweeps that follow do not take it all back. The
   * impulses were worth the kinetic energy E_applied when they were solved;
   * the same impulses in a new geometry are allowed at most
   * WARM_START_ENERGY_GROWTH × E_applied, else all of them are scaled by
   * s = √(WARM_START_ENERGY_GROWTH E_applied / E_warm) (the energy of an
   * impulse is quadratic in it). A chain or a ragdoll, whose geometry
   * barely changes between sub-steps, keeps s = 1. (A growth of 2 still let
   * random jointed worlds run away, each sub-step's warm start feeding the next.)
   *
   * Before that guard, a joint carries only cos θ of its impulses, θ = |ω| h
   * the larger turn of its two bodies over the sub-step: the impulses are a
   * guess made at the old geometry, and where the sweeps cannot converge
   * (joints in series through a light body with far anchors) a full warm
   * start at a turned geometry puts in energy every sub-step that the
   * sweeps do not take out again, and the joint chain runs away. A resting
   * or slowly turning ragdoll keeps its whole warm start (cos θ ≈ 1).
   */
  warmStart(B: SolverBodies): void {
    if (this.activeCount === 0) return;
    if (!this.warmStarting) return;
    const active = this.active, n = this.activeCount;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      this.turnRatio(B, j);
      if (this.ratio[0]! < 1) j.scaleImpulses(this.ratio);
      const a = j.applied;
      const E = this.energy;
      E[0] = 0; E[1] = 0;
      addChangeEnergy(B, j.slotA, a, 0, E, 0);
      addChangeEnergy(B, j.slotB, a, 6, E, 0);
      this.velocitiesBefore(B, j);
      j.warmStart(B);
      this.velocitiesChange(B, j, true);
      addChangeEnergy(B, j.slotA, a, 0, E, 1);
      addChangeEnergy(B, j.slotB, a, 6, E, 1);
      if (E[1]! > WARM_START_ENERGY_GROWTH * E[0]!) {
        E[0] = Math.sqrt(WARM_START_ENERGY_GROWTH * E[0]! / E[1]!);
        j.scaleImpulses(E);
        this.rescaleChange(B, j);
      }
    }
    this.trimPending = true;
  }

  /**
   * Each joint keeps the share s ∈ [0, 1] of its warm start that leaves the
   * least kinetic energy at the current velocities (every joint's and
   * contact's warm start applied): with Δ the velocity change of its warm
   * start, KE(v − (1 − s)Δ) is least at 1 − s = Δᵀ M v / Δᵀ M Δ, clamped.
   * The same exact minimisation along one direction that a row solve is,
   * restricted to shrinking the guess: a stale warm start (joints in series
   * the sweeps do not converge, impulses measured on a lever arm that has
   * turned since) can no longer hand the bodies energy that two sweeps do
   * not take out again, while a good one (a resting ragdoll's joints and
   * contacts cancelling gravity together) keeps s ≈ 1. A joint with a
   * velocity motor is trimmed only once its warm start raised the energy by
   * more than the motor can do in the sub-step (Joint.workBound); one with
   * a spring or a position motor (stored energy) keeps its warm start.
   */
  private trimWarmStarts(B: SolverBodies): void {
    const active = this.active, n = this.activeCount, E = this.energy;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      if (!j.workBound(this.ratio)) continue;
      const a = j.applied;
      E[0] = 0; E[1] = 0;
      addChangeDot(B, j.slotA, a, 0, E, 0);
      addChangeDot(B, j.slotB, a, 6, E, 0);
      if (!(E[0]! > 0 && E[1]! > 0)) continue;
      // A velocity motor's warm start may raise the energy by as much as the motor can do over the sub-step.
      if (this.ratio[0]! > 0 && E[0]! - 0.5 * E[1]! <= this.ratio[0]! * this.context.h) continue;
      E[1] = Math.min(1, E[0]! / E[1]!);
      this.takeBack(B, j);
    }
    this.trimGroups(B);
  }

  /**
   * The per-joint trims are one Gauss-Seidel pass: each keeps what lowers the
   * energy given the others' warm starts, and joints in series that the
   * sweeps cannot make agree (a long weld on a hinge) may still, together,
   * hand their bodies energy. So each group of joints linked through
   * dynamic bodies is trimmed once more along the sum Δ of what is left of
   * its warm starts, by the least share u with KE(v − uΔ) ≤ KE(v − Δ):
   * together they may not raise the energy above what it was without them
   * by more than the work W their velocity motors may do over the sub-step: with
   * a = Δᵀ M v, b = Δᵀ M Δ, u = (a − √((a − b)² + 2bW)) / b (2a/b − 1 for
   * W = 0). Joints that store energy (springs, position motors: workBound)
   * are left out.
   */
  private trimGroups(B: SolverBodies): void {
    const active = this.active, n = this.activeCount;
    if (n < 2) return;
    const count = B.count;
    this.groupOf = reserveInt32(this.groupOf, count);
    this.groupDv = reserveFloat64(this.groupDv, count * 6);
    this.groupSum = reserveFloat64(this.groupSum, count * 3);
    this.groupSeen = reserveUint8(this.groupSeen, count);
    const root = this.groupOf, dv = this.groupDv, sum = this.groupSum, seen = this.groupSeen, ratio = this.ratio;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      root[j.slotA] = j.slotA; root[j.slotB] = j.slotB;
      seen[j.slotA] = 0; seen[j.slotB] = 0;
      dv.fill(0, j.slotA * 6, j.slotA * 6 + 6); dv.fill(0, j.slotB * 6, j.slotB * 6 + 6);
      sum.fill(0, 3 * j.slotA, 3 * j.slotA + 3); sum.fill(0, 3 * j.slotB, 3 * j.slotB + 3);
    }
    let grouped = 0;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      if (!j.workBound(ratio)) continue;
      grouped++;
      const ia = j.slotA, ib = j.slotB, a = j.applied;
      for (let k = 0; k < 6; k++) { dv[ia * 6 + k] = dv[ia * 6 + k]! + a[k]!; dv[ib * 6 + k] = dv[ib * 6 + k]! + a[6 + k]!; }
      if (B.invMass[ia] !== 0 && B.invMass[ib] !== 0) {
        const ra = findRoot(root, ia), rb = findRoot(root, ib);
        if (ra !== rb) root[ra] = rb;
      }
    }
    if (grouped < 2) return;
    const h = this.context.h;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      if (!j.workBound(ratio) || ratio[0] === 0) continue;
      const s = B.invMass[j.slotA] !== 0 ? j.slotA : j.slotB;
      const r = 3 * findRoot(root, s) + 2;
      sum[r] = sum[r]! + ratio[0]! * h;
    }
    // Σ over each group's dynamic slots of Δᵀ M v and Δᵀ M Δ, kept at the root.
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      for (let k = 0; k < 2; k++) {
        const s = k === 0 ? j.slotA : j.slotB;
        if (B.invMass[s] === 0 || seen[s] === 1) continue;
        seen[s] = 1;
        addChangeDot(B, s, dv, s * 6, sum, 3 * findRoot(root, s));
      }
    }
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      if (!j.workBound(ratio)) continue;
      const s = B.invMass[j.slotA] !== 0 ? j.slotA : j.slotB;
      if (B.invMass[s] === 0) continue;
      const r = 3 * findRoot(root, s), dot = sum[r]!, sq = sum[r + 1]!, work = sum[r + 2]!;
      // The warm starts' net gain KE(v) − KE(v − Δ) = Δᵀ M v − ½ Δᵀ M Δ, beyond what the motors may do.
      if (!(sq > 0) || !(dot - 0.5 * sq > work)) continue;
      this.energy[1] = Math.max(0, Math.min(1, (dot - Math.sqrt((dot - sq) * (dot - sq) + 2 * sq * work)) / sq));
      this.takeBack(B, j);
    }
  }

  /**
   * Takes the share t = energy[1] of joint j's warm start back: its impulses,
   * the velocity change it gave (`applied`) and the bodies' velocities. (t
   * comes through the typed array: a double argument to a call V8 does not
   * inline is boxed, an allocation every call.)
   */
  private takeBack(B: SolverBodies, j: Joint): void {
    const E = this.energy, a = j.applied, t = E[1]!;
    E[0] = 1 - t;
    j.scaleImpulses(E);
    this.addJointDv(j, a, -t);
    const V = B.vel, oa = j.slotA * VELOCITY_STRIDE, ob = j.slotB * VELOCITY_STRIDE;
    for (let k = 0; k < 6; k++) {
      if (B.invMass[j.slotA] !== 0) V[oa + k] = V[oa + k]! - t * a[k]!;
      if (B.invMass[j.slotB] !== 0) V[ob + k] = V[ob + k]! - t * a[6 + k]!;
      a[k] = a[k]! * (1 - t); a[6 + k] = a[6 + k]! * (1 - t);
    }
  }

  /** Scratch of trimGroups: union-find parent of each slot, each slot's summed warm start (6), each root's Δᵀ M v and Δᵀ M Δ. */
  private groupOf = new Int32Array(0);
  private groupDv = new Float64Array(0);
  private groupSum = new Float64Array(0);
  private groupSeen = new Uint8Array(0);

  /** ratio[0] = cos θ for the larger turn θ = |ω| h of the joint's two slots over the coming sub-step (0 past a quarter turn). */
  private turnRatio(B: SolverBodies, j: Joint): void {
    const V = B.vel;
    let w2 = 0;
    for (let k = 0; k < 2; k++) {
      const s = k === 0 ? j.slotA : j.slotB;
      if (B.invMass[s] === 0) continue;
      const o = s * VELOCITY_STRIDE;
      const x = V[o + 3]!, y = V[o + 4]!, z = V[o + 5]!;
      const q = x * x + y * y + z * z;
      if (q > w2) w2 = q;
    }
    const t = Math.sqrt(w2) * this.context.h;
    this.ratio[0] = t < 0.5 * Math.PI ? Math.cos(t) : 0;
  }

  /** The warm start's share (turnRatio) for scaleImpulses. */
  private readonly ratio = new Float64Array(1);

  /** Velocities of the joint's two slots before one of its calls (see `applied`). */
  private readonly before = new Float64Array(12);
  /** Scratch of payFromRelativeMotion. */
  private readonly after = new Float64Array(12);
  /** Energies and the scale factor of the warm start and the projection (doubles through a typed array, see rows.ts). */
  private readonly energy = new Float64Array(2);

  /** Linear velocity change (3 per slot) all joint rows gave each slot over the sub-step so far (beginSubStep, addJointDv). */
  private jointDv = new Float64Array(0);

  /**
   * Called after each sub-step's velocity integration, before any warm
   * start: the projection weighs a body's pull by the other joints
   * (addConstraintWork) from the velocity changes of this sub-step.
   */
  beginSubStep(B: SolverBodies): void {
    if (this.activeCount === 0) return;
    this.jointDv = reserveFloat64(this.jointDv, B.count * 3);
    const dv = this.jointDv, active = this.active, n = this.activeCount;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      dv.fill(0, j.slotA * 3, j.slotA * 3 + 3);
      dv.fill(0, j.slotB * 3, j.slotB * 3 + 3);
    }
  }

  /** jointDv += f · (the linear parts of d[0..2] for A, d[6..8] for B), for a joint that loads the projection. */
  private addJointDv(j: Joint, d: Float64Array, f: number): void {
    if (!j.loadsProjection) return;
    const dv = this.jointDv, a = j.slotA * 3, b = j.slotB * 3;
    for (let k = 0; k < 3; k++) { dv[a + k] = dv[a + k]! + f * d[k]!; dv[b + k] = dv[b + k]! + f * d[6 + k]!; }
  }

  /**
   * The energy a projection gave the pair since the positions p[0..5]:
   * energy[0] = the larger of the work against gravity alone and against
   * gravity and the other joints' pull (what the pair pays), energy[1] = the
   * former (the lift).
   */
  private projectionGain(B: SolverBodies, ia: number, ib: number, p: Float64Array, invH: number): void {
    const E = this.energy;
    E[0] = 0; E[1] = 0;
    addConstraintWork(B, ia, p, 0, this.jointDv, invH, E);
    addConstraintWork(B, ib, p, 3, this.jointDv, invH, E);
    const work = E[1]!;
    addPotentialGain(B, ia, p, 0, E);
    addPotentialGain(B, ib, p, 3, E);
    E[1] = E[0]!;
    if (work > E[0]!) E[0] = work;
  }

  private velocitiesBefore(B: SolverBodies, j: Joint): void {
    const V = B.vel, b = this.before, oa = j.slotA * VELOCITY_STRIDE, ob = j.slotB * VELOCITY_STRIDE;
    for (let k = 0; k < 6; k++) { b[k] = V[oa + k]!; b[6 + k] = V[ob + k]!; }
  }

  /** `applied` (+)= the velocity change since `velocitiesBefore`. */
  private velocitiesChange(B: SolverBodies, j: Joint, reset: boolean): void {
    const V = B.vel, b = this.before, a = j.applied, oa = j.slotA * VELOCITY_STRIDE, ob = j.slotB * VELOCITY_STRIDE;
    const dv = this.jointDv, da = j.slotA * 3, db = j.slotB * 3;
    for (let k = 0; j.loadsProjection && k < 3; k++) {
      dv[da + k] = dv[da + k]! + (V[oa + k]! - b[k]!);
      dv[db + k] = dv[db + k]! + (V[ob + k]! - b[6 + k]!);
    }
    if (reset) {
      for (let k = 0; k < 6; k++) { a[k] = V[oa + k]! - b[k]!; a[6 + k] = V[ob + k]! - b[6 + k]!; }
    } else {
      for (let k = 0; k < 6; k++) { a[k] = a[k]! + (V[oa + k]! - b[k]!); a[6 + k] = a[6 + k]! + (V[ob + k]! - b[6 + k]!); }
    }
  }

  /** Replaces the warm start's velocity change (in `applied`) by s = energy[0] times it. */
  private rescaleChange(B: SolverBodies, j: Joint): void {
    const s = this.energy[0]!;
    const V = B.vel, b = this.before, a = j.applied, oa = j.slotA * VELOCITY_STRIDE, ob = j.slotB * VELOCITY_STRIDE;
    this.addJointDv(j, a, s - 1);
    for (let k = 0; k < 6; k++) {
      a[k] = a[k]! * s; a[6 + k] = a[6 + k]! * s;
      V[oa + k] = b[k]! + a[k]!; V[ob + k] = b[6 + k]! + a[6 + k]!;
    }
  }

  /**
   * Sub-step projection ('soft' with `projection` on, in each relax sweep,
   * which follows the position integration; returns whether it ran):
   * velocity rows alone let a tumbling ragdoll pass its limits by 2–5° — a
   * limb hitting a step gets 30–50 rad/s relative to its parent and the
   * Gauss-Seidel sweeps over 10:1 mass ratios do not converge within a
   * sub-step. So, for each joint with limits, in list order: rotate B only by
   * the pseudo-impulse −C/(a·I_B⁻¹·a) about the limit's axis (the NGS update
   * of Box2D v2.4 / Catto's "position projection", with A held), then
   * translate B to close its anchor gap (B alone when it is no heavier than
   * A, else B and A in proportion to their inverse masses: rows.ts
   * PointRow.projectB). Holding A makes one pass exact for a tree listed
   * parent first (a ragdoll, children lighter): a joint's correction moves
   * only its child, whose own joints come later. Only the error beyond the
   * slops is removed, so resting contact and the soft rows are left alone
   * unless a limit is really violated.
   *
   * A projection is a teleport and may not create energy. A body it turns
   * keeps its body-frame spin (rows.ts turnSpin); a translation shared by
   * inverse mass keeps the pair's centre of mass, and the potential energy a
   * one-sided move gives the pair (a child lifted back to its parent's
   * anchor; a grounded body's clipped share) is paid from the pair's kinetic
   * energy relative to its centre of mass (payFromRelativeMotion): unpaid, a
   * lift every sub-step is a pump. So is a move against a spring or a slider
   * on the same body, which gives the stretch back as speed: the work
   * against the pull of the joints the projection does not hold is paid too
   * (addConstraintWork), and a pass whose lift is paid but not that work is
   * undone (putBack).
   */
  project(B: SolverBodies, h: number): boolean {
    if (this.activeCount === 0) return false;
    const ctx = this.context;
    if (ctx.mode !== SWEEP_SOFT || !this.settings.projection) return false;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.setBias(false);
    const active = this.active, n = this.activeCount;
    if (this.trimPending) { this.trimPending = false; this.trimWarmStarts(B); }
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      const ia = j.slotA, ib = j.slotB;
      const p = this.before, E = this.energy;
      p[0] = B.px[ia]!; p[1] = B.py[ia]!; p[2] = B.pz[ia]!; p[3] = B.px[ib]!; p[4] = B.py[ib]!; p[5] = B.pz[ib]!;
      j.projectLimits(B, ctx);
      this.projectionGain(B, ia, ib, p, ctx.invH);
      const lift = E[1]!;
      if (E[0]! > 0) {
        relativeKinetic(B, ia, ib, E, this.after);
        // A lift against gravity more than the pair's relative motion can
        // pay, and B much the heavier: move the pair back together instead.
        // (Not for the pull of other joints: the shift moves A by B's
        // displacement, and a grounded A whose share projectB clipped would
        // be pushed into its ground.)
        if (E[1]! < lift && B.invMass[ia] !== 0 && B.invMass[ib]! < HEAVY_B * B.invMass[ia]!) {
          shiftPairBack(B, ia, ib, p);
          this.projectionGain(B, ia, ib, p, ctx.invH);
        } else if (E[1]! < E[0]! && E[1]! >= lift) {
          // The relative motion pays the lift but not the work against the
          // pull of other joints: the pass is not made (the translation is
          // undone; the soft rows keep closing the gap). An unpaid lift is
          // left as it was: undoing it would leave a body to a projection
          // pulling the other way (two joints that cannot both hold).
          putBack(B, ia, p, 0);
          putBack(B, ib, p, 3);
          E[0] = 0;
        }
        if (E[0]! > 0) payFromRelativeMotion(B, ia, ib, E, this.after);
      }
    }
    return true;
  }

  /** `jointIterations` sweeps over the joint rows, with the position bias or without. */
  solveVelocities(B: SolverBodies, h: number, useBias: boolean): void {
    if (this.activeCount === 0) return;
    const ctx = this.context;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.setBias(useBias);
    const active = this.active, n = this.activeCount;
    if (this.trimPending) { this.trimPending = false; this.trimWarmStarts(B); }
    // Rows measure their geometry again only after the poses moved (poseVersion).
    const sweeps = this.settings.jointIterations;
    for (let k = 0; k < sweeps; k++) {
      for (let i = 0; i < n; i++) {
        const j = active[i]!;
        this.velocitiesBefore(B, j);
        j.solveVelocity(B, ctx);
        this.velocitiesChange(B, j, false);
      }
    }
  }

  /**
   * 'ngs' only: one NGS sweep over the joint position errors (pseudo-impulses
   * on the slot poses). Returns the largest error: metres for anchors, radians
   * × 0.25 m for angles (ANGULAR_ERROR_LENGTH), so the caller can compare it with
   * the linear slop.
   */
  solvePositions(B: SolverBodies): number {
    if (this.activeCount === 0) return 0;
    const ctx = this.context;
    const active = this.active, n = this.activeCount;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const e = active[i]!.solvePosition(B, ctx);
      if (e > worst) worst = e;
    }
    return worst;
  }

  /**
   * Keeps the accumulated impulses for the next step's warm start (they live
   * on the joints), reports each joint's step impulse and breaks joints whose
   * impulse exceeded `breakImpulse` (`joint.broken = true`; the World emits
   * 'jointBreak'). Returns the number of joints that broke in this step.
   */
  storeImpulses(): number {
    if (this.activeCount === 0) return 0;
    const ctx = this.context;
    const active = this.active, n = this.activeCount;
    let broke = 0;
    for (let i = 0; i < n; i++) {
      const j = active[i]!;
      j.finishStep(ctx);
      const si = j.stepImpulses;
      if (si[0]! > j.breakImpulse || si[1]! > j.breakImpulse) {
        j.broken = true;
        j.resetImpulses();
        broke++;
      }
      j.slotA = -1;
      j.slotB = -1;
    }
    return broke;
  }
}
