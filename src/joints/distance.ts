/**
 * Distance joint (rod, rope, spring): one linear row along the current
 * direction n = d/|d| between the anchors, d = (x_B + r_B) − (x_A + r_A):
 *   C = |d| − L,  Ċ = n·(v_B + ω_B×r_B − v_A − ω_A×r_A)
 * - rod (minLength = maxLength, no spring): bilateral row, C = |d| − L;
 * - spring (frequency > 0): soft row towards `length` with the spring's own
 *   Softness (Box2D v3 distance_joint.c), always on;
 * - limits (minLength < maxLength): C = |d| − min ≥ 0 and max − |d| ≥ 0,
 *   one-sided rows, speculative while inside the range.
 */
import type { SolverBodies } from '../dynamics/contact-solver';
import { Softness } from '../dynamics/contact-solver';
import * as quat from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { Joint, JointKind, setAnchors, setFrames, type JointDescBase } from './joint';
import { LIMIT, limitBias, LinearRow, moveLinear, linearMass, rotateBySlot, type JointStepContext } from './rows';

export interface DistanceJointDesc extends JointDescBase {
  /** World anchor on A at creation. Default: A's centre. */
  anchorA?: Readonly<Vec3>;
  /** World anchor on B at creation. Default: B's centre. */
  anchorB?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** Rest length (m). Default: the anchors' distance at creation. */
  length?: number;
  /** m. Default `length` (a rod); 0 makes a rope. */
  minLength?: number;
  /** m. Default `length`. */
  maxLength?: number;
  /** Spring frequency (Hz) towards `length`; 0 = no spring. Default 0. */
  frequency?: number;
  /** Spring damping ratio. Default 1. */
  dampingRatio?: number;
}

export class DistanceJoint extends Joint {
  readonly kind = JointKind.Distance;
  // Numbers from the start (not undefined): V8 keeps a field that starts out
  // undefined as a tagged slot, and then boxes every double written to it.
  length = 0;
  minLength = 0;
  maxLength = 0;
  frequency = 0;
  dampingRatio = 0;
  /** @internal */ readonly axial = new LinearRow();
  /** @internal */ readonly lower = new LinearRow();
  /** @internal */ readonly upper = new LinearRow();
  private readonly spring = new Softness();
  private readonly ra: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly rb: Vec3 = { x: 0, y: 0, z: 0 };
  private nx = 1; private ny = 0; private nz = 0;
  private current = 0;

  constructor(desc: DistanceJointDesc) {
    super(desc);
    const a = desc.bodyA, b = desc.bodyB;
    setAnchors(this, desc.anchorA ?? a.position, desc.localAnchorA, desc.localAnchorA);
    if (desc.localAnchorB !== undefined) {
      this.localAnchorB.x = desc.localAnchorB.x; this.localAnchorB.y = desc.localAnchorB.y; this.localAnchorB.z = desc.localAnchorB.z;
    } else {
      const w = desc.anchorB ?? b.position;
      const d = { x: w.x - b.position.x, y: w.y - b.position.y, z: w.z - b.position.z };
      quat.inverseRotate(this.localAnchorB, b.rotation, d);
    }
    setFrames(this, null);
    const L = desc.length ?? this.currentLength();
    this.length = L;
    this.minLength = desc.minLength ?? L;
    this.maxLength = desc.maxLength ?? L;
    this.frequency = desc.frequency ?? 0;
    this.dampingRatio = desc.dampingRatio ?? 1;
    if (!(L >= 0) || !(this.minLength >= 0) || !(this.maxLength >= this.minLength)) {
      throw new RangeError('DistanceJoint: need 0 ≤ minLength ≤ maxLength and length ≥ 0');
    }
    if (!(this.frequency >= 0) || !(this.dampingRatio >= 0)) throw new RangeError('DistanceJoint: frequency and dampingRatio must be ≥ 0');
  }

  /** Current anchor distance (m). */
  currentLength(): number {
    return this.separation;
  }

  private update(B: SolverBodies): void {
    this.markMeasured(B);
    const ia = this.slotA, ib = this.slotB;
    const ra = rotateBySlot(this.ra, B, ia, this.localAnchorA);
    const rb = rotateBySlot(this.rb, B, ib, this.localAnchorB);
    const dx = B.px[ib]! + rb.x - B.px[ia]! - ra.x;
    const dy = B.py[ib]! + rb.y - B.py[ia]! - ra.y;
    const dz = B.pz[ib]! + rb.z - B.pz[ia]! - ra.z;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    this.current = len;
    // Keep the last direction when the anchors coincide.
    if (len > 1e-9) { this.nx = dx / len; this.ny = dy / len; this.nz = dz / len; }
  }

  /** @internal */
  prepare(_B: SolverBodies, ctx: JointStepContext): void {
    this.spring.set(this.frequency, this.dampingRatio, ctx.h);
    if (!this.isRod() && this.frequency === 0) this.axial.impulse = 0;
  }

  private isRod(): boolean {
    return this.minLength === this.maxLength && this.frequency === 0;
  }

  /** @internal */
  warmStart(B: SolverBodies): void {
    this.update(B);
    const l = this.axial.impulse + this.lower.impulse - this.upper.impulse;
    if (l !== 0) {
      // One combined impulse along n.
      this.scratch.impulse = l;
      this.scratch.warmStart(B, this.slotA, this.slotB, this.ra, this.rb, this.nx, this.ny, this.nz);
    }
  }
  private readonly scratch = new LinearRow();

  /** @internal */
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void {
    const ia = this.slotA, ib = this.slotB;
    if (this.geometryStale(B)) this.update(B);
    const nx = this.nx, ny = this.ny, nz = this.nz;
    if (this.isRod()) {
      let bias = ctx.biasRate * (this.current - this.length);
      bias = Math.max(-ctx.maxCorrectionVelocity, Math.min(ctx.maxCorrectionVelocity, bias));
      this.axial.solve(B, ia, ib, this.ra, this.rb, nx, ny, nz, bias, 1, 0, -Infinity, Infinity);
      return;
    }
    if (this.frequency > 0) {
      const s = this.spring;
      this.axial.solve(B, ia, ib, this.ra, this.rb, nx, ny, nz, s.biasRate * (this.current - this.length), s.massScale, s.impulseScale, -Infinity, Infinity);
    }
    if (this.minLength > 0) this.solveLimit(B, ctx, this.lower, this.current - this.minLength, 1);
    if (this.maxLength !== Infinity) this.solveLimit(B, ctx, this.upper, this.maxLength - this.current, -1);
  }

  private solveLimit(B: SolverBodies, ctx: JointStepContext, row: LinearRow, C: number, sign: number): void {
    LIMIT[0] = C;
    limitBias(ctx);
    row.solve(B, this.slotA, this.slotB, this.ra, this.rb, sign * this.nx, sign * this.ny, sign * this.nz, LIMIT[0]!, 1, 0, 0, Infinity);
  }

  /** @internal */
  solvePosition(B: SolverBodies, _ctx: JointStepContext): number {
    if (this.frequency > 0 && !(this.current < this.minLength || this.current > this.maxLength)) return 0;
    this.update(B);
    let C = 0;
    if (this.isRod()) C = this.current - this.length;
    else if (this.current < this.minLength) C = this.current - this.minLength;
    else if (this.current > this.maxLength) C = this.current - this.maxLength;
    if (C === 0) return 0;
    const m = linearMass(B, this.slotA, this.slotB, this.ra, this.rb, this.nx, this.ny, this.nz);
    const l = -C * m;
    moveLinear(B, this.slotA, this.slotB, this.ra, this.rb, l * this.nx, l * this.ny, l * this.nz);
    return Math.abs(C);
  }

  /** @internal */
  finishStep(ctx: JointStepContext): void {
    this.stepImpulses[0] = Math.abs(this.axial.impulse + this.lower.impulse - this.upper.impulse) * ctx.stepScale;
    this.stepImpulses[1] = 0;
  }

  resetImpulses(): void {
    this.axial.impulse = 0; this.lower.impulse = 0; this.upper.impulse = 0;
  }

  /** @internal */
  scaleImpulses(scale: Float64Array): void {
    const s = scale[0]!;
    this.axial.impulse *= s; this.lower.impulse *= s; this.upper.impulse *= s;
  }
}
