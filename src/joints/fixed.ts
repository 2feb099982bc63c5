/**
 * Fixed (weld) joint: a point block plus a 3×3 angular lock (angular-rows.ts
 * `AngularLock3`). The relative rotation error is the rotation vector
 * C = 2 Q_A·vec(q), q = conj(Q_A)·Q_B (w ≥ 0), valid for small errors.
 */
import type { SolverBodies } from '../dynamics/solver-bodies';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { ANGULAR_ERROR_LENGTH, Joint, JointKind, lockJointFields, setAnchors, setFrames, type JointDescBase } from './joint';
import { AngularLock3 } from './angular-rows';
import { PointRow } from './linear-rows';
import { frameOfSlot, relativeRotation, type JointStepContext } from './rows';

export interface FixedJointDesc extends JointDescBase {
  /** World anchor at creation. Default: midway between the two centres. */
  anchor?: Readonly<Vec3>;
  localAnchorA?: Readonly<Vec3>;
  localAnchorB?: Readonly<Vec3>;
  /** Relative frames (default: the current relative rotation is kept). */
  localFrameA?: Readonly<Quat>;
  localFrameB?: Readonly<Quat>;
}

export class FixedJoint extends Joint {
  readonly kind = JointKind.Fixed;
  /** @internal */ readonly point: PointRow;
  /** @internal */ readonly lock = new AngularLock3();
  private readonly tmp: Vec3 = { x: 0, y: 0, z: 0 };

  constructor(desc: FixedJointDesc) {
    super(desc);
    let anchor = desc.anchor;
    if (anchor === undefined && desc.localAnchorA === undefined) {
      const a = desc.bodyA.position, b = desc.bodyB.position;
      anchor = { x: 0.5 * (a.x + b.x), y: 0.5 * (a.y + b.y), z: 0.5 * (a.z + b.z) };
    }
    setAnchors(this, anchor, desc.localAnchorA, desc.localAnchorB);
    setFrames(this, null, desc.localFrameA, desc.localFrameB);
    this.point = new PointRow(this.localAnchorA, this.localAnchorB);
    lockJointFields(this);
  }

  private update(B: SolverBodies): void {
    this.markMeasured(B);
    const fa = frameOfSlot(this.frameA, B, this.slotA, this.localFrameA);
    const fb = frameOfSlot(this.frameB, B, this.slotB, this.localFrameB);
    const q = relativeRotation(this.relative, fa, fb);
    this.tmp.x = 2 * q.x; this.tmp.y = 2 * q.y; this.tmp.z = 2 * q.z;
    // Q_A·v = rotate by q_slotA·fA: rotate the frame-A vector to world.
    rotateFrame(this.tmp, fa, this.tmp);
    this.lock.cx = this.tmp.x; this.lock.cy = this.tmp.y; this.lock.cz = this.tmp.z;
  }

  /** @internal */
  prepare(_B: SolverBodies, _ctx: JointStepContext): void {}

  /** @internal */
  warmStart(B: SolverBodies): void {
    this.point.warmStart(B, this.slotA, this.slotB);
    this.lock.warmStart(B, this.slotA, this.slotB);
  }

  /** @internal */
  solveVelocity(B: SolverBodies, ctx: JointStepContext): void {
    if (this.geometryStale(B)) this.update(B);
    this.lock.solve(B, this.slotA, this.slotB, ctx);
    this.point.solve(B, this.slotA, this.slotB, ctx);
  }

  /** @internal */
  solvePosition(B: SolverBodies, _ctx: JointStepContext): number {
    this.update(B);
    const angular = this.lock.solvePosition(B, this.slotA, this.slotB);
    const linear = this.point.solvePosition(B, this.slotA, this.slotB);
    return Math.max(linear, angular * ANGULAR_ERROR_LENGTH);
  }

  /** @internal */
  finishStep(ctx: JointStepContext): void {
    const p = this.point, l = this.lock;
    this.stepImpulses[0] = Math.sqrt(p.lx * p.lx + p.ly * p.ly + p.lz * p.lz) * ctx.stepScale;
    this.stepImpulses[1] = Math.sqrt(l.lx * l.lx + l.ly * l.ly + l.lz * l.lz) * ctx.stepScale;
  }

  /** @internal */
  protected saveRows(out: number[]): void {
    this.point.save(out);
    this.lock.save(out);
  }

  /** @internal */
  protected loadRows(src: Float64Array, o: number): number {
    return this.lock.load(src, this.point.load(src, o));
  }

  resetImpulses(): void {
    this.point.lx = 0; this.point.ly = 0; this.point.lz = 0;
    this.lock.lx = 0; this.lock.ly = 0; this.lock.lz = 0;
  }

  /** @internal */
  scaleImpulses(scale: Float64Array): void {
    const s = scale[0]!;
    const p = this.point, l = this.lock;
    p.lx *= s; p.ly *= s; p.lz *= s;
    l.lx *= s; l.ly *= s; l.lz *= s;
  }
}

/** out = f v f* (v may alias out). */
function rotateFrame(out: Vec3, f: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  const vx = v.x, vy = v.y, vz = v.z;
  const tx = 2 * (f.y * vz - f.z * vy), ty = 2 * (f.z * vx - f.x * vz), tz = 2 * (f.x * vy - f.y * vx);
  out.x = vx + f.w * tx + (f.y * tz - f.z * ty);
  out.y = vy + f.w * ty + (f.z * tx - f.x * tz);
  out.z = vz + f.w * tz + (f.x * ty - f.y * tx);
  return out;
}
