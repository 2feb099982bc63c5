/**
 * Ball (spherical) joint: the two anchors coincide, rotation is free.
 * One 3×3 point block (linear-rows.ts `PointRow`).
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import type { Vec3 } from '../math/vec3';
import { Joint, JointKind, lockJointFields, setAnchors, setFrames, type JointDescBase } from './joint';
import { AngularFriction3 } from './angular-rows';
import { PointRow } from './linear-rows';
import { type JointStepContext } from './rows';

export interface BallJointDesc extends JointDescBase {
  /** World anchor at creation. Default: B's centre. */
  anchor?: Readonly<Vec3>;
  /** Anchors in the bodies' local frames (win over `anchor`). */
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
}

export class BallJoint extends Joint {
  readonly kind = JointKind.Ball;
  /** @internal */ readonly point: PointRow;
  /** @internal */ readonly friction = new AngularFriction3();

  constructor(desc: BallJointDesc) {
    super(desc);
    setAnchors(this, desc.anchor, desc.localAnchorA, desc.localAnchorB);
    setFrames(this, null);
    this.point = new PointRow(this.localAnchorA, this.localAnchorB);
    lockJointFields(this);
  }

  /** @internal */
  prepare(_B: SolverBodies, _ctx: JointStepContext): void {}

  /** @internal */
  warmStart(B: SolverBodies): void {
    this.point.warmStart(B, this.slotA, this.slotB);
    if (this.frictionTorque > 0) this.friction.warmStart(B, this.slotA, this.slotB);
  }

  /** @internal */
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void {
    if (this.frictionTorque > 0) {
      this.friction.maxImpulse = this.frictionTorque * ctx.h;
      this.friction.solve(B, this.slotA, this.slotB);
    }
    this.point.solve(B, this.slotA, this.slotB, ctx);
  }

  /** @internal */
  solvePosition(B: SolverBodies, _ctx: JointStepContext): number {
    return this.point.solvePosition(B, this.slotA, this.slotB);
  }

  /** @internal */
  override projectsAnchor(): boolean { return true; }

  /** @internal */
  override projectLimits(B: SolverBodies, ctx: JointStepContext): void {
    this.point.projectB(B, this.slotA, this.slotB, ctx);
  }

  /** @internal */
  finishStep(ctx: JointStepContext): void {
    const p = this.point;
    this.stepImpulses[0] = Math.sqrt(p.lx * p.lx + p.ly * p.ly + p.lz * p.lz) * ctx.stepScale;
    this.stepImpulses[1] = 0;
  }

  /** @internal */
  protected saveRows(out: number[]): void {
    this.point.save(out);
    this.friction.save(out);
  }

  /** @internal */
  protected loadRows(src: Float64Array, o: number): number {
    return this.friction.load(src, this.point.load(src, o));
  }

  resetImpulses(): void {
    this.point.lx = 0; this.point.ly = 0; this.point.lz = 0;
    this.friction.reset();
  }

  /** @internal */
  scaleImpulses(scale: Float64Array): void {
    const s = scale[0]!;
    const p = this.point, f = this.friction;
    p.lx *= s; p.ly *= s; p.lz *= s;
    f.lx *= s; f.ly *= s; f.lz *= s;
  }
}
