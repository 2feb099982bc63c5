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
import type { SolverBodies } from '../dynamics/solver-bodies';
import { Softness } from '../dynamics/softness';
import * as quat from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { requireInRange, requirePosition } from '../math/validate';
import { Joint, JointKind, lockJointFields, MAX_JOINT_LENGTH, requireLocalAnchor, setAnchors, setFrames, type JointDescBase } from './joint';
import { LinearRow } from './linear-rows';
import { LIMIT, limitBias, moveLinear, linearMass, rotateBySlot, type JointStepContext } from './rows';

export interface DistanceJointDesc extends JointDescBase {
  /** World anchor on A at creation. Default: A's centre. */
  anchorA?: Readonly<Vec3>;
  /** World anchor on B at creation. Default: B's centre. */
  anchorB?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** Rest length (m), in [0, 1e6] (MAX_JOINT_LENGTH). Default: the anchors' distance at creation. */
  length?: number;
  /** m, in [0, 1e6]. Default `length` (a rod); 0 makes a rope. */
  minLength?: number;
  /** m, in [minLength, 1e6], or Infinity (no upper limit). Default `length`. */
  maxLength?: number;
  /** Spring frequency (Hz) towards `length`, in [0, 1e6]; 0 = no spring. Default 0. */
  frequency?: number;
  /** Spring damping ratio, in [0, 1000]. Default 1. */
  dampingRatio?: number;
}

export class DistanceJoint extends Joint {
  readonly kind = JointKind.Distance;
  // Numbers from the start, not undefined (CONTRIBUTING.md, hot path).
  private lengthValue = 0;
  private minLengthValue = 0;
  private maxLengthValue = 0;
  private frequencyValue = 0;
  private dampingRatioValue = 1;
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
    if (desc.anchorA !== undefined) requirePosition(desc.anchorA, 'anchorA');
    if (desc.anchorB !== undefined) requirePosition(desc.anchorB, 'anchorB');
    setAnchors(this, desc.anchorA ?? a.position, desc.localAnchorA, desc.localAnchorA);
    if (desc.localAnchorB !== undefined) {
      const l = requireLocalAnchor(desc.localAnchorB, 'localAnchorB');
      this.localAnchorB.x = l.x; this.localAnchorB.y = l.y; this.localAnchorB.z = l.z;
    } else {
      const w = desc.anchorB ?? b.position;
      if (desc.anchorB !== undefined) requireLocalAnchor({ x: w.x - b.position.x, y: w.y - b.position.y, z: w.z - b.position.z }, 'anchorB (relative to bodyB)');
      const d = { x: w.x - b.position.x, y: w.y - b.position.y, z: w.z - b.position.z };
      quat.inverseRotate(this.localAnchorB, b.rotation, d);
    }
    setFrames(this, null);
    const L = desc.length ?? this.currentLength();
    this.length = L;
    this.setLimits(desc.minLength ?? L, desc.maxLength ?? L);
    this.frequency = desc.frequency ?? 0;
    this.dampingRatio = desc.dampingRatio ?? 1;
    lockJointFields(this);
  }

  /** Rest length (m), in [0, MAX_JOINT_LENGTH]. */
  get length(): number { return this.lengthValue; }
  set length(v: number) { requireInRange(v, 0, MAX_JOINT_LENGTH, 'DistanceJoint.length'); this.lengthValue = v; }
  /** m, in [0, MAX_JOINT_LENGTH] and ≤ maxLength (setLimits moves both). */
  get minLength(): number { return this.minLengthValue; }
  set minLength(v: number) { this.setLimits(v, this.maxLengthValue); }
  /** m, in [minLength, MAX_JOINT_LENGTH] or Infinity (no upper limit). */
  get maxLength(): number { return this.maxLengthValue; }
  set maxLength(v: number) { this.setLimits(this.minLengthValue, v); }

  /** Sets both length limits at once (checked together: min ≤ max). */
  setLimits(minLength: number, maxLength: number): void {
    requireInRange(minLength, 0, MAX_JOINT_LENGTH, 'DistanceJoint.minLength');
    if (maxLength !== Infinity) requireInRange(maxLength, 0, MAX_JOINT_LENGTH, 'DistanceJoint.maxLength');
    if (minLength > maxLength) throw new RangeError(`DistanceJoint.minLength (${minLength}) must be ≤ maxLength (${maxLength}); setLimits(min, max) moves both at once`);
    this.minLengthValue = minLength;
    this.maxLengthValue = maxLength;
  }

  /** Spring frequency (Hz), in [0, 1e6]; 0: no spring. */
  get frequency(): number { return this.frequencyValue; }
  set frequency(v: number) { requireInRange(v, 0, 1e6, 'DistanceJoint.frequency'); this.frequencyValue = v; }
  /** Spring damping ratio, in [0, 1000]. */
  get dampingRatio(): number { return this.dampingRatioValue; }
  set dampingRatio(v: number) { requireInRange(v, 0, 1000, 'DistanceJoint.dampingRatio'); this.dampingRatioValue = v; }

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

  /** @internal A spring stores energy. */
  override workBound(out: Float64Array): boolean { out[0] = 0; return !(this.frequencyValue > 0); }

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

  /** @internal */
  protected saveRows(out: number[]): void {
    out.push(this.length, this.minLength, this.maxLength, this.frequency, this.dampingRatio);
    // The last direction is kept while the anchors coincide, and `current` is read before the next update.
    out.push(this.nx, this.ny, this.nz, this.current);
    out.push(this.ra.x, this.ra.y, this.ra.z, this.rb.x, this.rb.y, this.rb.z);
    out.push(this.spring.biasRate, this.spring.massScale, this.spring.impulseScale);
    this.axial.save(out);
    this.lower.save(out);
    this.upper.save(out);
  }

  /** @internal */
  protected loadRows(src: Float64Array, o: number): number {
    this.length = src[o]!; this.minLength = src[o + 1]!; this.maxLength = src[o + 2]!; this.frequency = src[o + 3]!; this.dampingRatio = src[o + 4]!;
    this.nx = src[o + 5]!; this.ny = src[o + 6]!; this.nz = src[o + 7]!; this.current = src[o + 8]!;
    this.ra.x = src[o + 9]!; this.ra.y = src[o + 10]!; this.ra.z = src[o + 11]!;
    this.rb.x = src[o + 12]!; this.rb.y = src[o + 13]!; this.rb.z = src[o + 14]!;
    this.spring.biasRate = src[o + 15]!; this.spring.massScale = src[o + 16]!; this.spring.impulseScale = src[o + 17]!;
    return this.upper.load(src, this.lower.load(src, this.axial.load(src, o + 18)));
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
