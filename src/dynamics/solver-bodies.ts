/**
 * The solver's body store: one slot per body taking part in the step, struct
 * of arrays (velocities, poses, inverse mass and world inverse inertia), shared
 * by the contact solver, the joints and the integrator.
 */
import type { RigidBody } from './body';
import type { Vec3 } from '../math/vec3';
import { reserveFloat64, reserveUint8 } from '../math/typed-arrays';

type F64 = Float64Array<ArrayBuffer>;

/** Squared rotation (rad²) below which the soft separation update is linearised. */
const LINEARISE_ANGLE_SQ = 1e-4;

/** Doubles per slot in `SolverBodies.vel`. */
export const VELOCITY_STRIDE = 8;

/** Ground normals kept per slot (SolverBodies.groundNormal); more distinct ones than this are rare (a body wedged in a corner has three). */
export const GROUND_NORMALS = 4;
/** Fraction of a body's thinnest half size the joint projections may move it into a ground in one solve (SolverBodies.sinkBudget). */
const SINK_BUDGET_FRACTION = 0.5;

/** Source of `SolverBodies.poseVersion`: shared by every world, so a version never repeats. */
let poseEpoch = 0;

/** Per-body solver state (one slot per body taking part in the step). */
export class SolverBodies {
  count = 0;
  /**
   * Changes whenever any slot's pose moves or the slots are reassigned
   * (`moveSlot`, `add`, `clear`). Sweeps that cache geometry measured at the
   * current poses (joint anchors and effective masses, contact separations)
   * keep the version they measured at and measure again only when it changed.
   * Never repeats, across steps and worlds.
   */
  poseVersion = 0;
  capacity = 0;
  bodies: (RigidBody | null)[] = [];
  /**
   * Velocities, VELOCITY_STRIDE doubles a slot: linear x, y, z, angular x, y,
   * z (two unused). One slot is one cache line: the sweeps visit bodies in
   * contact order, effectively at random in a pile, and six separate arrays
   * cost six cache misses per body where this costs one.
   */
  vel = new Float64Array(0) as F64;
  px = new Float64Array(0) as F64; py = new Float64Array(0) as F64; pz = new Float64Array(0) as F64;
  qx = new Float64Array(0) as F64; qy = new Float64Array(0) as F64; qz = new Float64Array(0) as F64; qw = new Float64Array(0) as F64;
  /** Pose at the start of the step (soft step separation update). */
  px0 = new Float64Array(0) as F64; py0 = new Float64Array(0) as F64; pz0 = new Float64Array(0) as F64;
  /** Rotation vector accumulated since the start of the step (Σ h ω), for the linearised soft separation. */
  thx = new Float64Array(0) as F64; thy = new Float64Array(0) as F64; thz = new Float64Array(0) as F64;
  /** Displacement since the start of the step (x − x0), kept by the position integration. */
  dpx = new Float64Array(0) as F64; dpy = new Float64Array(0) as F64; dpz = new Float64Array(0) as F64;
  /** 1 once the slot has turned further than the linearised soft separation allows (|θ|² > LINEARISE_ANGLE_SQ). */
  turned = new Uint8Array(0);
  /** Argument of moveSlot. */
  readonly delta = new Float64Array(6);
  invMass = new Float64Array(0) as F64;
  /** World inverse inertia, symmetric: xx, xy, xz, yy, yz, zz. */
  ixx = new Float64Array(0) as F64; ixy = new Float64Array(0) as F64; ixz = new Float64Array(0) as F64;
  iyy = new Float64Array(0) as F64; iyz = new Float64Array(0) as F64; izz = new Float64Array(0) as F64;
  /** 1 when the solver integrates this slot's pose (dynamic and kinematic). */
  moves = new Uint8Array(0);
  /**
   * The poseVersion at which the slot's pose last changed (add or moveSlot):
   * per-body caches of geometry (the contact separations, the joint rows)
   * compare it with the version they measured at.
   */
  slotVersion = new Float64Array(0) as F64;
  /** 1 for a dynamic body's slot: the velocity integration applies gravity, forces and damping. */
  dynamic = new Uint8Array(0);
  /**
   * Per slot, read from the body when it is added (the velocity integration
   * then reads these arrays, not the bodies, every sub-step): the linear
   * acceleration g·gravityScale + F/m, the angular one I⁻¹τ, and the linear
   * and angular damping coefficients.
   */
  lax = new Float64Array(0) as F64; lay = new Float64Array(0) as F64; laz = new Float64Array(0) as F64;
  aax = new Float64Array(0) as F64; aay = new Float64Array(0) as F64; aaz = new Float64Array(0) as F64;
  linearDamping = new Float64Array(0) as F64; angularDamping = new Float64Array(0) as F64;
  /** The world's gravity, for the accelerations (set by the world). */
  gravity: Readonly<Vec3> = { x: 0, y: 0, z: 0 };
  /** Principal inverse inertia, along the body's axes turned by inertiaRotation (0 for slots that do not turn under impulses). */
  ilx = new Float64Array(0) as F64; ily = new Float64Array(0) as F64; ilz = new Float64Array(0) as F64;
  /**
   * RigidBody.inertiaRotation Q of the slots whose principal axes are not the
   * body's (inertiaFramed = 1): the world inertia turns by q ⊗ Q, not q.
   */
  iqx = new Float64Array(0) as F64; iqy = new Float64Array(0) as F64; iqz = new Float64Array(0) as F64; iqw = new Float64Array(0) as F64;
  inertiaFramed = new Uint8Array(0);
  /** The rotation at which ixx…izz were computed (see refreshInertia). */
  rqx = new Float64Array(0) as F64; rqy = new Float64Array(0) as F64; rqz = new Float64Array(0) as F64; rqw = new Float64Array(0) as F64;
  /** RigidBody.staleTurnCos, or −1 for a slot whose inertia is not used. */
  staleCos = new Float64Array(0) as F64;
  /** 1 for the slots whose inertia refreshInertia just recomputed (their contact rows follow). */
  refreshed = new Uint8Array(0);
  /**
   * How many distinct contact normals (up to GROUND_NORMALS) each slot has
   * against bodies the step cannot move (static, kinematic or held asleep),
   * pointing away from them, in groundNormal (stride 3·GROUND_NORMALS): a
   * joint projection may not teleport the slot into any of them
   * (joints/rows.ts translateSlot). All of them, not one: in a seam (a floor
   * box's edge against a terrain) the last contact's normal can be the
   * side face's, and a projection pulling down would pass unclipped.
   */
  grounded = new Uint8Array(0);
  groundNormal = new Float64Array(0) as F64;
  /**
   * Per ground normal (same stride as groundNormal's count), how far the
   * projections have moved the slot into that ground since it was recorded
   * (net, never below 0), and per slot how far they may in all
   * (sinkBudget, half the body's thinnest half size): many small moves, one
   * per joint and sub-step, must not add up to more than the body's size.
   */
  groundSunk = new Float64Array(0) as F64;
  sinkBudget = new Float64Array(0) as F64;

  reserve(n: number): void {
    if (n <= this.capacity) return;
    const c = Math.max(n, this.capacity * 2, 16);
    this.vel = reserveFloat64(this.vel, c * VELOCITY_STRIDE);
    this.px = reserveFloat64(this.px, c); this.py = reserveFloat64(this.py, c); this.pz = reserveFloat64(this.pz, c);
    this.qx = reserveFloat64(this.qx, c); this.qy = reserveFloat64(this.qy, c); this.qz = reserveFloat64(this.qz, c); this.qw = reserveFloat64(this.qw, c);
    this.px0 = reserveFloat64(this.px0, c); this.py0 = reserveFloat64(this.py0, c); this.pz0 = reserveFloat64(this.pz0, c);
    this.thx = reserveFloat64(this.thx, c); this.thy = reserveFloat64(this.thy, c); this.thz = reserveFloat64(this.thz, c);
    this.dpx = reserveFloat64(this.dpx, c); this.dpy = reserveFloat64(this.dpy, c); this.dpz = reserveFloat64(this.dpz, c);
    this.turned = reserveUint8(this.turned, c);
    this.invMass = reserveFloat64(this.invMass, c);
    this.ixx = reserveFloat64(this.ixx, c); this.ixy = reserveFloat64(this.ixy, c); this.ixz = reserveFloat64(this.ixz, c);
    this.iyy = reserveFloat64(this.iyy, c); this.iyz = reserveFloat64(this.iyz, c); this.izz = reserveFloat64(this.izz, c);
    this.moves = reserveUint8(this.moves, c);
    this.dynamic = reserveUint8(this.dynamic, c);
    this.slotVersion = reserveFloat64(this.slotVersion, c);
    this.lax = reserveFloat64(this.lax, c); this.lay = reserveFloat64(this.lay, c); this.laz = reserveFloat64(this.laz, c);
    this.aax = reserveFloat64(this.aax, c); this.aay = reserveFloat64(this.aay, c); this.aaz = reserveFloat64(this.aaz, c);
    this.linearDamping = reserveFloat64(this.linearDamping, c); this.angularDamping = reserveFloat64(this.angularDamping, c);
    this.ilx = reserveFloat64(this.ilx, c); this.ily = reserveFloat64(this.ily, c); this.ilz = reserveFloat64(this.ilz, c);
    this.iqx = reserveFloat64(this.iqx, c); this.iqy = reserveFloat64(this.iqy, c); this.iqz = reserveFloat64(this.iqz, c); this.iqw = reserveFloat64(this.iqw, c);
    this.inertiaFramed = reserveUint8(this.inertiaFramed, c);
    this.rqx = reserveFloat64(this.rqx, c); this.rqy = reserveFloat64(this.rqy, c); this.rqz = reserveFloat64(this.rqz, c); this.rqw = reserveFloat64(this.rqw, c);
    this.staleCos = reserveFloat64(this.staleCos, c);
    this.refreshed = reserveUint8(this.refreshed, c);
    this.grounded = reserveUint8(this.grounded, c);
    this.groundNormal = reserveFloat64(this.groundNormal, c * 3 * GROUND_NORMALS);
    this.groundSunk = reserveFloat64(this.groundSunk, c * GROUND_NORMALS);
    this.sinkBudget = reserveFloat64(this.sinkBudget, c);
    while (this.bodies.length < c) this.bodies.push(null);
    this.capacity = c;
  }

  /** Adds a body and returns its slot. */
  add(body: RigidBody): number {
    this.poseVersion = ++poseEpoch;
    const i = this.count++;
    this.reserve(this.count);
    this.bodies[i] = body;
    body.solverIndex = i;
    const v = body.linearVelocity, w = body.angularVelocity, p = body.position, q = body.rotation;
    const vo = i * VELOCITY_STRIDE;
    this.vel[vo] = v.x; this.vel[vo + 1] = v.y; this.vel[vo + 2] = v.z;
    this.vel[vo + 3] = w.x; this.vel[vo + 4] = w.y; this.vel[vo + 5] = w.z;
    this.px[i] = p.x; this.py[i] = p.y; this.pz[i] = p.z;
    this.px0[i] = p.x; this.py0[i] = p.y; this.pz0[i] = p.z;
    this.thx[i] = 0; this.thy[i] = 0; this.thz[i] = 0;
    this.dpx[i] = 0; this.dpy[i] = 0; this.dpz[i] = 0;
    this.turned[i] = 0;
    this.qx[i] = q.x; this.qy[i] = q.y; this.qz[i] = q.z; this.qw[i] = q.w;
    const dynamic = body.isDynamic;
    this.invMass[i] = dynamic ? body.inverseMass : 0;
    const I = body.inverseInertiaWorld;
    this.rqx[i] = q.x; this.rqy[i] = q.y; this.rqz[i] = q.z; this.rqw[i] = q.w;
    this.refreshed[i] = 0;
    this.grounded[i] = 0;
    this.sinkBudget[i] = SINK_BUDGET_FRACTION * body.thinnestHalfSize;
    if (dynamic) {
      this.ixx[i] = I.m00; this.ixy[i] = I.m01; this.ixz[i] = I.m02;
      this.iyy[i] = I.m11; this.iyz[i] = I.m12; this.izz[i] = I.m22;
      const il = body.inverseInertiaLocal;
      this.ilx[i] = il.x; this.ily[i] = il.y; this.ilz[i] = il.z;
      const iq = body.inertiaRotation;
      this.iqx[i] = iq.x; this.iqy[i] = iq.y; this.iqz[i] = iq.z; this.iqw[i] = iq.w;
      this.inertiaFramed[i] = body.inertiaFramed ? 1 : 0;
      this.staleCos[i] = body.staleTurnCos;
    } else {
      this.ilx[i] = 0; this.ily[i] = 0; this.ilz[i] = 0;
      this.inertiaFramed[i] = 0;
      this.staleCos[i] = -1;
      this.ixx[i] = 0; this.ixy[i] = 0; this.ixz[i] = 0; this.iyy[i] = 0; this.iyz[i] = 0; this.izz[i] = 0;
    }
    this.moves[i] = body.isStatic ? 0 : 1;
    this.slotVersion[i] = this.poseVersion;
    this.dynamic[i] = dynamic ? 1 : 0;
    if (dynamic) {
      const g = this.gravity, gs = body.gravityScale, im = body.inverseMass, f = body.force, t = body.torque;
      this.lax[i] = g.x * gs + f.x * im; this.lay[i] = g.y * gs + f.y * im; this.laz[i] = g.z * gs + f.z * im;
      this.aax[i] = I.m00 * t.x + I.m01 * t.y + I.m02 * t.z;
      this.aay[i] = I.m01 * t.x + I.m11 * t.y + I.m12 * t.z;
      this.aaz[i] = I.m02 * t.x + I.m12 * t.y + I.m22 * t.z;
      this.linearDamping[i] = body.linearDamping;
      this.angularDamping[i] = body.angularDamping;
    }
    return i;
  }

  /**
   * Adds a body that the step must not move: a static body, or a sleeping
   * one reached only through an awake neighbour (a speculative contact or a
   * joint). A sleeping dynamic body is held fixed (zero inverse mass and
   * inertia, zero velocity, not integrated): with its dynamic mass it would be
   * pushed without being woken. Returns the slot.
   */
  addFixed(body: RigidBody): number {
    const i = this.add(body);
    if (body.awake || !body.isDynamic) return i;
    this.invMass[i] = 0;
    this.ixx[i] = 0; this.ixy[i] = 0; this.ixz[i] = 0; this.iyy[i] = 0; this.iyz[i] = 0; this.izz[i] = 0;
    this.ilx[i] = 0; this.ily[i] = 0; this.ilz[i] = 0;
    this.staleCos[i] = -1;
    this.aax[i] = 0; this.aay[i] = 0; this.aaz[i] = 0;
    this.vel.fill(0, i * VELOCITY_STRIDE, i * VELOCITY_STRIDE + 6);
    this.moves[i] = 0;
    return i;
  }

  /**
   * Pose change of a slot, in `delta`: [0..2] the translation, [3..5] half the
   * rotation vector (½ Δθ). x += Δx; q ← normalise(q + (½ Δθ, 0) ⊗ q). Also
   * keeps the step's displacement (dp), accumulated rotation (θ) and the
   * `turned` flag current, which the soft separation update reads. The one
   * place a solver pose moves: the position integrator, NGS contact
   * pseudo-impulses and joint projections all go through it. (The pose change
   * comes in a typed array: doubles passed to a call V8 does not inline are
   * boxed.)
   */
  moveSlot(i: number): void {
    this.poseVersion = ++poseEpoch;
    this.slotVersion[i] = this.poseVersion;
    const d = this.delta;
    const px = this.px[i]! + d[0]!, py = this.py[i]! + d[1]!, pz = this.pz[i]! + d[2]!;
    this.px[i] = px; this.py[i] = py; this.pz[i] = pz;
    this.dpx[i] = px - this.px0[i]!; this.dpy[i] = py - this.py0[i]!; this.dpz[i] = pz - this.pz0[i]!;
    const wx = d[3]!, wy = d[4]!, wz = d[5]!;
    if (wx === 0 && wy === 0 && wz === 0) return;
    const thx = this.thx[i]! + 2 * wx, thy = this.thy[i]! + 2 * wy, thz = this.thz[i]! + 2 * wz;
    this.thx[i] = thx; this.thy[i] = thy; this.thz[i] = thz;
    if (thx * thx + thy * thy + thz * thz > LINEARISE_ANGLE_SQ) this.turned[i] = 1;
    const qx = this.qx[i]!, qy = this.qy[i]!, qz = this.qz[i]!, qw = this.qw[i]!;
    const x = qx + (wx * qw + wy * qz - wz * qy);
    const y = qy + (wy * qw + wz * qx - wx * qz);
    const z = qz + (wz * qw + wx * qy - wy * qx);
    const w = qw - (wx * qx + wy * qy + wz * qz);
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    this.qx[i] = x * inv; this.qy[i] = y * inv; this.qz[i] = z * inv; this.qw[i] = w * inv;
  }

  /**
   * Recomputes I⁻¹_world = (R Q) diag(I⁻¹_local) (R Q)ᵀ (Q the slot's
   * inertia frame, see iqx) of the slots that turned further than their θ_max
   * since it was last computed, and flags them in `refreshed`; returns how many. The sweeps apply impulses through the
   * world inertia: kept from the start of a step in which the body turns far,
   * it answers for the body's old orientation. For a thin body the error is
   * large: a rod's inertia about its own axis is a few hundred times smaller
   * than across it, so an impulse meant for a rod across the axis spins it
   * as if it were along it — energy from nowhere, which the next sweeps and
   * warm starts multiply.
   */
  refreshInertia(): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      this.refreshed[i] = 0;
      const limit = this.staleCos[i]!;
      if (limit < 0) continue;
      const qx = this.qx[i]!, qy = this.qy[i]!, qz = this.qz[i]!, qw = this.qw[i]!;
      const dot = qx * this.rqx[i]! + qy * this.rqy[i]! + qz * this.rqz[i]! + qw * this.rqw[i]!;
      if (dot >= limit || -dot >= limit) continue;
      this.takeInertia(i);
      this.refreshed[i] = 1;
      n++;
    }
    return n;
  }

  /** Slot i's world inverse inertia at its current rotation (a pose moved outside the integration: continuous collision's put-back). */
  takeInertia(i: number): void {
    // Joint rows that cache an effective mass (point and axis rows) measure it anew.
    this.poseVersion = ++poseEpoch;
    this.slotVersion[i] = this.poseVersion;
    let qx = this.qx[i]!, qy = this.qy[i]!, qz = this.qz[i]!, qw = this.qw[i]!;
    this.rqx[i] = qx; this.rqy[i] = qy; this.rqz[i] = qz; this.rqw[i] = qw;
    if (this.inertiaFramed[i] === 1) {
      // The principal axes turn by q ⊗ Q (RigidBody.updateInertia); the stale
      // test in refreshInertia compares body rotations, the same turn either way.
      const ax = this.iqx[i]!, ay = this.iqy[i]!, az = this.iqz[i]!, aw = this.iqw[i]!;
      const x = qw * ax + qx * aw + qy * az - qz * ay;
      const y = qw * ay - qx * az + qy * aw + qz * ax;
      const z = qw * az + qx * ay - qy * ax + qz * aw;
      qw = qw * aw - qx * ax - qy * ay - qz * az;
      qx = x; qy = y; qz = z;
    }
    // Columns of R: the principal axes in world space.
    const r00 = 1 - 2 * (qy * qy + qz * qz), r01 = 2 * (qx * qy - qz * qw), r02 = 2 * (qx * qz + qy * qw);
    const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
    const r20 = 2 * (qx * qz - qy * qw), r21 = 2 * (qy * qz + qx * qw), r22 = 1 - 2 * (qx * qx + qy * qy);
    const a = this.ilx[i]!, b = this.ily[i]!, c = this.ilz[i]!;
    this.ixx[i] = r00 * r00 * a + r01 * r01 * b + r02 * r02 * c;
    this.ixy[i] = r00 * r10 * a + r01 * r11 * b + r02 * r12 * c;
    this.ixz[i] = r00 * r20 * a + r01 * r21 * b + r02 * r22 * c;
    this.iyy[i] = r10 * r10 * a + r11 * r11 * b + r12 * r12 * c;
    this.iyz[i] = r10 * r20 * a + r11 * r21 * b + r12 * r22 * c;
    this.izz[i] = r20 * r20 * a + r21 * r21 * b + r22 * r22 * c;
  }

  clear(): void {
    this.poseVersion = ++poseEpoch;
    for (let i = 0; i < this.count; i++) {
      const b = this.bodies[i]!;
      b.solverIndex = -1;
      this.bodies[i] = null;
    }
    this.count = 0;
  }
}
