/**
 * Continuous collision against static bodies, after the solve (Box2D v3's
 * continuous stage). The speculative contacts hold the features a body
 * could reach with the velocity it had when its points were found. A body
 * the step moved further than that — spun up by an impact, dragged by a
 * joint to a heavy partner, launched by a motor — meets surfaces no point
 * holds, and a one-sided terrain lets it through for good.
 *
 * A body whose motion in the step (translation plus the chord of its turn
 * at its bounding radius) exceeds half its thinnest half size is swept from
 * its start pose to its end pose, turning about the fixed axis between
 * them, against the static bodies in the sweep's box; at the first contact
 * it is put back to that fraction of its motion, its velocity kept (the
 * next step's contacts answer it) unless it was put back in the last run
 * too: then those contacts missed the surface, and an inelastic impulse at
 * the hit point takes the speed into it. Surfaces the whole shape touches at the
 * start are left to the contacts (a body resting on the ground may slide
 * along it); for those, a sphere of a quarter of the thinnest half size
 * about the centre of mass is swept instead, so the body's core never
 * crosses them (Box2D's fallback).
 */
import type { Aabb } from '../collision/aabb';
import type { BroadPhase } from '../collision/broadphase/broadphase';
import { IdList } from '../collision/broadphase/broadphase';
import { shapeCastPair, ShapeCastPairHit, SWEEP } from '../collision/query/shape-cast';
import { collide } from '../collision/narrowphase/collide-table';
import { Manifold } from '../collision/narrowphase/manifold';
import { TURN, turnBy, type Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { MIN_SHAPE_SIZE } from '../math/validate';
import { ConvexShape, ShapeKind, type MassProperties } from '../shapes/shape';
import { Sphere } from '../shapes/sphere';
import type { ConvexHull } from '../shapes/convex-hull';
import type { RigidBody } from './body';
import { shouldCollide } from './contact-manager';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';

/**
 * The swept shape is the body's shrunk by the penetration a sweep tolerates,
 * this fraction of the thinnest half size (at least MIN_TOLERATED metres,
 * at most MAX_FRACTION of it): a body resting on a terrain with its contacts'
 * slop of overlap slides onto the next triangle without being stopped at
 * its edge (Jolt's linear cast lets a quarter of the inner radius through).
 */
const TOLERATED_FRACTION = 0.25;
const MIN_TOLERATED = 0.01;
const MAX_FRACTION = 0.75;
/** A body is swept when its motion in a step exceeds this fraction of its thinnest half size (Box2D's safety factor). */
const FAST_FRACTION = 0.5;
/** Radius of the core sphere, as a fraction of the thinnest half size. */
const CORE_FRACTION = 0.25;
/** limitDepth: deepest normals at start and end closer than this (cos 60°) are the same surface. */
const SAME_SURFACE_COS = 0.5;
/** limitDepth: halvings of the path when the body is put back along it (the fraction to 1/4096). */
const LIMIT_BISECTIONS = 12;

export class ContinuousCollision {
  /** Bodies swept and bodies put back in the last run. */
  swept = 0;
  hits = 0;
  private readonly candidates = new IdList();
  private readonly hit = new ShapeCastPairHit();
  private readonly start: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly startRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly endRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly motion: Vec3 = { x: 0, y: 0, z: 0 };
  /** putBack's sweep axis and turned rotation. */
  private readonly axis: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly turned: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  private readonly endBox: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  private readonly endPos: Vec3 = { x: 0, y: 0, z: 0 };

  constructor(
    private readonly broadphase: BroadPhase,
    private readonly bodyById: ReadonlyMap<number, RigidBody>,
  ) {}

  /**
   * Sweeps the fast dynamic bodies of the solver store from their bodies'
   * poses (the step's start, not yet written back) to their slots' poses,
   * and puts each back at its first contact with a static body.
   */
  run(B: SolverBodies): void {
    this.swept = 0;
    this.hits = 0;
    const bodies = B.bodies;
    for (let i = 0; i < B.count; i++) {
      if (B.dynamic[i] === 0) continue;
      const b = bodies[i]!;
      if (b.isSensor || !this.isFast(b, i, B)) {
        b.continuousPutBack = false;
        continue;
      }
      this.swept++;
      if (this.sweep(b, i, B)) this.hits++;
      else b.continuousPutBack = false;
    }
    SWEEP[0] = 0;
  }

  /**
   * Whether slot i moved further than FAST_FRACTION of its thinnest half
   * size since the step's start (translation plus turn × the reach of its
   * core); if so its turn goes to SWEEP (axis, angle, reach) and its
   * translation to this.motion. (Doubles stay in here: passed or returned
   * across calls V8 does not inline they would be boxed.)
   */
  private isFast(b: RigidBody, i: number, B: SolverBodies): boolean {
    const p = b.position, q = b.rotation;
    const tx = B.px[i]! - p.x, ty = B.py[i]! - p.y, tz = B.pz[i]! - p.z;
    // The turn from the start: dq = q1 · q0*, taken the short way.
    const x1 = B.qx[i]!, y1 = B.qy[i]!, z1 = B.qz[i]!, w1 = B.qw[i]!;
    let dx = -w1 * q.x + x1 * q.w - y1 * q.z + z1 * q.y;
    let dy = -w1 * q.y + x1 * q.z + y1 * q.w - z1 * q.x;
    let dz = -w1 * q.z - x1 * q.y + y1 * q.x + z1 * q.w;
    let dw = w1 * q.w + x1 * q.x + y1 * q.y + z1 * q.z;
    if (dw < 0) { dx = -dx; dy = -dy; dz = -dz; dw = -dw; }
    const s = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const angle = 2 * Math.atan2(s, dw);
    const reach = b.continuousReach;
    const travel = Math.sqrt(tx * tx + ty * ty + tz * tz) + angle * reach;
    if (!(travel > FAST_FRACTION * b.thinnestHalfSize)) return false;
    if (s > 1e-12) {
      SWEEP[1] = dx / s; SWEEP[2] = dy / s; SWEEP[3] = dz / s;
      SWEEP[4] = angle;
    } else {
      SWEEP[1] = 1; SWEEP[2] = 0; SWEEP[3] = 0;
      SWEEP[4] = 0;
    }
    SWEEP[5] = reach;
    const m = this.motion;
    m.x = tx; m.y = ty; m.z = tz;
    return true;
  }

  /** Sweeps slot i (SWEEP holds its turn, this.motion its translation); true if it was put back. */
  private sweep(b: RigidBody, i: number, B: SolverBodies): boolean {
    const p0 = this.start, q0 = this.startRotation, q1 = this.endRotation;
    p0.x = b.position.x; p0.y = b.position.y; p0.z = b.position.z;
    q0.x = b.rotation.x; q0.y = b.rotation.y; q0.z = b.rotation.z; q0.w = b.rotation.w;
    q1.x = B.qx[i]!; q1.y = B.qy[i]!; q1.z = B.qz[i]!; q1.w = B.qw[i]!;
    const T = this.motion;
    // The static bodies whose boxes meet the sweep's: both poses' boxes,
    // grown by how far a turn can bow a point off the straight path.
    const box = b.shape.computeAabb(this.box, p0, q0);
    const e = this.endPos;
    e.x = B.px[i]!; e.y = B.py[i]!; e.z = B.pz[i]!;
    const end = b.shape.computeAabb(this.endBox, e, q1);
    const bow = Math.min(SWEEP[4]!, 2) * SWEEP[5]!;
    box.min.x = Math.min(box.min.x, end.min.x) - bow; box.min.y = Math.min(box.min.y, end.min.y) - bow; box.min.z = Math.min(box.min.z, end.min.z) - bow;
    box.max.x = Math.max(box.max.x, end.max.x) + bow; box.max.y = Math.max(box.max.y, end.max.y) + bow; box.max.z = Math.max(box.max.z, end.max.z) + bow;
    const list = this.candidates;
    list.count = 0;
    this.broadphase.queryStaticList(box, list);
    if (list.count === 0) return false;
    if (b.shape.isConvex && (b.continuousInner === null || b.continuousInnerJointed !== b.jointCount > 0)) {
      b.continuousInner = innerShape(b);
      b.continuousInnerJointed = b.jointCount > 0;
    }
    const convex = b.continuousInner;
    const hit = this.hit;
    const H = this.best;
    H[0] = 1;
    const embedded = this.embedded;
    embedded.count = 0;
    for (let k = 0; k < list.count; k++) {
      const target = this.bodyById.get(list.ids[k]!);
      if (target === undefined || target.isSensor || !shouldCollide(b, target)) continue;
      let coreToo = convex === null;
      if (convex !== null && this.castTurning(convex, p0, q0, T, target)) {
        // Touched at the start: the deeper core, which keeps the body's
        // length, so a turning stick's ends cannot swing through the surface
        // while its middle rests on it.
        const deep = b.continuousInnerJointed ? null : b.continuousDeep ?? (b.continuousDeep = innerShape(b, MAX_FRACTION));
        coreToo = deep === null || this.castTurning(deep, p0, q0, T, target);
      }
      if (coreToo) {
        // The centre of mass does not turn: a plain translation of the core.
        const core = b.continuousCore ?? (b.continuousCore = new Sphere(Math.max(CORE_FRACTION * b.thinnestHalfSize, 1e-4)));
        if (shapeCastPair(core, p0, q0, T, target.shape, target.position, target.rotation, hit)) {
          const n = hit.normal;
          // A core already touching the surface and moving further into it
          // is stopped where it starts: a joint can drag a body along a seam
          // (a floor box's edge against a terrain) whose contact normals
          // both face sideways, and the whole shape was touching at the start.
          if (hit.fraction > 0) this.keepEarliest();
          else if (T.x * n.x + T.y * n.y + T.z * n.z < 0) this.keepStart();
        }
        if (convex !== null) embedded.push(target.id);
      }
    }
    if (embedded.count > 0 && this.limitDepth(b, B, i)) {
      // Deeper into a surface it started in: the contacts did not answer it.
      // (A jointed body too: moved out, it loses its speed into the surface
      // as pushOutOfImmovables takes it.)
      this.stopApproach(B, i);
      b.continuousPutBack = true;
      return true;
    }
    if (!(H[0]! < 1)) return false;
    this.fraction[0] = H[0]!;
    this.putBack(B, i);
    // Put back twice running: the contacts found in between did not answer
    // it. (Not for a jointed body: the impulse on it alone fights its joints,
    // and pushOutOfImmovables answers it on position.)
    if (b.continuousPutBack && b.jointCount === 0) this.stopApproach(B, i);
    b.continuousPutBack = true;
    return true;
  }

  /** Static bodies the swept shapes started in (ids), for limitDepth. */
  private readonly embedded = new IdList();
  private readonly manifold = new Manifold();
  private readonly pose: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly poseRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** depthAt's result: the deepest penetration, the point on the target and the normal out of it. */
  private readonly deepest = new Float64Array(7);

  /**
   * The sweeps skip surfaces the shrunk shapes start in, leaving them to the
   * contacts; a body spun or struck within the step can still go deeper into
   * them than its contact points allow for. The body's real shape may not
   * end deeper in those than it started or than MAX_FRACTION of its thinnest
   * half size, whichever is more: if it would, it is moved out along the
   * deepest point's normal to that depth (not back along its path, which
   * would stop a body sliding on the surface) when that normal is the
   * start's surface, else put back along its path; the speed into the
   * surface there is taken away. True if it was moved.
   */
  private limitDepth(b: RigidBody, B: SolverBodies, i: number): boolean {
    const H = this.best, D = this.deepest;
    this.depthAt(b, H[0]!);
    if (!(D[0]! > MAX_FRACTION * b.thinnestHalfSize)) return false;
    const E = this.endDeepest;
    E.set(D);
    this.depthAt(b, 0);
    const limit = Math.max(D[0]!, MAX_FRACTION * b.thinnestHalfSize);
    if (!(E[0]! > limit)) return false;
    if (D[0]! > 0 && D[4]! * E[4]! + D[5]! * E[5]! + D[6]! * E[6]! < SAME_SURFACE_COS) {
      // The deepest point now faces another side of the target than at the
      // start (a stick driven into a box by its edge, nearest its side face):
      // out through that side it would leave by a face it never crossed,
      // under whatever lies beyond. Back along its path instead, to where
      // the depth is within the limit.
      const S = this.startDeepest;
      S.set(D);
      let lo = 0, hi = H[0]!;
      for (let k = 0; k < LIMIT_BISECTIONS; k++) {
        const mid = 0.5 * (lo + hi);
        this.depthAt(b, mid);
        if (D[0]! > limit) hi = mid;
        else lo = mid;
      }
      this.depthAt(b, lo);
      this.fraction[0] = lo;
      this.putBack(B, i);
      H.set(D[0]! > 0 ? D : S);
      return true;
    }
    // Put back to the fraction the sweeps found (if any), then out.
    this.fraction[0] = H[0]!;
    this.putBack(B, i);
    const push = E[0]! - limit;
    B.px[i] = B.px[i]! + push * E[4]!; B.py[i] = B.py[i]! + push * E[5]!; B.pz[i] = B.pz[i]! + push * E[6]!;
    H.set(E);
    H[1] = E[1]! + push * E[4]!; H[2] = E[2]! + push * E[5]!; H[3] = E[3]! + push * E[6]!;
    return true;
  }
  private readonly endDeepest = new Float64Array(7);
  private readonly startDeepest = new Float64Array(7);

  /** The deepest contact of b's shape, at fraction t of its sweep, with the embedded targets into this.deepest. */
  private depthAt(b: RigidBody, t: number): void {
    const p = this.pose, q = this.poseRotation, m = this.manifold, D = this.deepest;
    this.fraction[0] = t;
    this.poseAtFraction(p, q);
    D[0] = 0;
    const list = this.embedded;
    for (let k = 0; k < list.count; k++) {
      const target = this.bodyById.get(list.ids[k]!)!;
      m.reset();
      collide(b.shape, p, q, target.shape, target.position, target.rotation, 0, m);
      for (let j = 0; j < m.pointCount; j++) {
        const pt = m.points[j]!;
        if (!(pt.depth > D[0]!)) continue;
        // n points from the body into the target; the target's surface point is position − n·depth/2.
        const n = pt.normal, h = 0.5 * pt.depth;
        D[0] = pt.depth;
        D[1] = pt.position.x - n.x * h; D[2] = pt.position.y - n.y * h; D[3] = pt.position.z - n.z * h;
        D[4] = -n.x; D[5] = -n.y; D[6] = -n.z;
      }
    }
  }

  /** The earliest hit of this sweep: fraction, point on the target, normal out of the target. */
  private readonly best = new Float64Array(7);

  /** this.hit, a contact at the start, into this.best. */
  private keepStart(): void {
    const hit = this.hit, H = this.best;
    H[0] = 0;
    H[1] = hit.point.x; H[2] = hit.point.y; H[3] = hit.point.z;
    H[4] = hit.normal.x; H[5] = hit.normal.y; H[6] = hit.normal.z;
  }

  /** this.hit into this.best if it is a contact after the start and earlier than the best so far. */
  private keepEarliest(): void {
    const hit = this.hit, H = this.best;
    if (!(hit.fraction > 0 && hit.fraction < H[0]!)) return;
    H[0] = hit.fraction;
    H[1] = hit.point.x; H[2] = hit.point.y; H[3] = hit.point.z;
    H[4] = hit.normal.x; H[5] = hit.normal.y; H[6] = hit.normal.z;
  }

  /**
   * An inelastic impulse at the first contact point that takes away the
   * speed into the surface there. The step's contact points did not hold
   * this surface (else the body would not have reached it); with its speed
   * kept, a body whose manifold misses the surface — a wide plate sliding up
   * a hill, holding four points over many triangles — is put back against
   * it step after step and turns into it about the points it has. The
   * impulse only removes energy: ΔE = −v_n²/(2k) with k the effective mass's
   * inverse along the normal.
   */
  private stopApproach(B: SolverBodies, i: number): void {
    const H = this.best;
    const nx = H[4]!, ny = H[5]!, nz = H[6]!;
    const rx = H[1]! - B.px[i]!, ry = H[2]! - B.py[i]!, rz = H[3]! - B.pz[i]!;
    const V = B.vel, o = i * VELOCITY_STRIDE;
    const wx = V[o + 3]!, wy = V[o + 4]!, wz = V[o + 5]!;
    const vx = V[o]! + wy * rz - wz * ry, vy = V[o + 1]! + wz * rx - wx * rz, vz = V[o + 2]! + wx * ry - wy * rx;
    const vn = vx * nx + vy * ny + vz * nz;
    if (!(vn < 0)) return;
    // r × n, and I⁻¹(r × n) (world inverse inertia of the slot).
    const cx = ry * nz - rz * ny, cy = rz * nx - rx * nz, cz = rx * ny - ry * nx;
    const ix = B.ixx[i]! * cx + B.ixy[i]! * cy + B.ixz[i]! * cz;
    const iy = B.ixy[i]! * cx + B.iyy[i]! * cy + B.iyz[i]! * cz;
    const iz = B.ixz[i]! * cx + B.iyz[i]! * cy + B.izz[i]! * cz;
    const im = B.invMass[i]!;
    const k = im + cx * ix + cy * iy + cz * iz;
    if (!(k > 0)) return;
    const j = -vn / k;
    V[o] = V[o]! + j * im * nx; V[o + 1] = V[o + 1]! + j * im * ny; V[o + 2] = V[o + 2]! + j * im * nz;
    V[o + 3] = wx + j * ix; V[o + 4] = wy + j * iy; V[o + 5] = wz + j * iz;
  }

  /**
   * Sweeps `shape` turning (SWEEP) along T against target, keeping its first
   * contact after the start in this.best; true if the target (or a triangle
   * or child of it, skipped by the sweep) was already touched at the start.
   */
  private castTurning(shape: ConvexShape, p0: Vec3, q0: Quat, T: Vec3, target: RigidBody): boolean {
    const hit = this.hit;
    SWEEP[0] = 1;
    SWEEP[6] = 0;
    const found = shapeCastPair(shape, p0, q0, T, target.shape, target.position, target.rotation, hit);
    SWEEP[0] = 0;
    // A hit after the start counts, and surfaces (a mesh's triangles) it
    // skipped as touched at the start still need the deeper sweep.
    if (found && hit.fraction > 0) this.keepEarliest();
    return (found && !(hit.fraction > 0)) || SWEEP[6]! > 0;
  }

  private readonly fraction = new Float64Array(1);

  /** Slot i to the pose at fraction t (this.fraction) of its sweep. */
  private putBack(B: SolverBodies, i: number): void {
    const p = this.pose, q = this.poseRotation;
    this.poseAtFraction(p, q);
    B.px[i] = p.x; B.py[i] = p.y; B.pz[i] = p.z;
    B.qx[i] = q.x; B.qy[i] = q.y; B.qz[i] = q.z; B.qw[i] = q.w;
    // The spin turns back with the body: kept in world space it would lie
    // along other body axes, and a rod spinning about its length would be
    // put back tumbling across it with many times the energy.
    const back = -(1 - this.fraction[0]!) * SWEEP[4]!;
    if (back !== 0) {
      const V = B.vel, o = i * VELOCITY_STRIDE;
      const ax = SWEEP[1]!, ay = SWEEP[2]!, az = SWEEP[3]!;
      const wx = V[o + 3]!, wy = V[o + 4]!, wz = V[o + 5]!;
      // Rodrigues: w cosθ + (a × w) sinθ + a (a·w)(1 − cosθ).
      const c = Math.cos(back), sn = Math.sin(back), d = (ax * wx + ay * wy + az * wz) * (1 - c);
      V[o + 3] = wx * c + (ay * wz - az * wy) * sn + ax * d;
      V[o + 4] = wy * c + (az * wx - ax * wz) * sn + ay * d;
      V[o + 5] = wz * c + (ax * wy - ay * wx) * sn + az * d;
    }
    // The inertia answers for the pose now (stopApproach's impulse): taken
    // at a pose a fast turn has left, a rod's impulse would spin it as if it
    // lay along another axis.
    if (B.staleCos[i]! >= 0) B.takeInertia(i);
  }

  /** The pose at fraction t (this.fraction) of the sweep: start + t·T, rot(axis, t·angle)·q0. */
  private poseAtFraction(out: Vec3, outRotation: Quat): void {
    const t = this.fraction[0]!;
    const p0 = this.start, q = this.startRotation, T = this.motion;
    out.x = p0.x + t * T.x; out.y = p0.y + t * T.y; out.z = p0.z + t * T.z;
    const axis = this.axis;
    axis.x = SWEEP[1]!; axis.y = SWEEP[2]!; axis.z = SWEEP[3]!;
    TURN[0] = t; TURN[1] = SWEEP[4]!;
    const r = turnBy(this.turned, q, axis);
    const n = 1 / Math.sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    outRotation.x = r.x * n; outRotation.y = r.y * n; outRotation.z = r.z * n; outRotation.w = r.w * n;
  }
}

/**
 * A hull shrunk towards its centre of mass: the source's vertices scaled by
 * k (support_kS(d) = k·support_S(d)). Its bounds are the source's (a
 * superset: only the mesh sweep's triangle gathering reads them). It keeps
 * the hull's kind, whose core radius the convex routines take as 0 without
 * loading it (minkowski-pair.ts loadCoreRadius).
 */
class ScaledHull extends ConvexShape {
  readonly kind = ShapeKind.ConvexHull;
  readonly coreRadius = 0;
  constructor(private readonly source: ConvexShape, private readonly k: number) {
    super();
  }
  coreSupport(out: Vec3, direction: Readonly<Vec3>): Vec3 {
    this.source.coreSupport(out, direction);
    const k = this.k;
    out.x *= k; out.y *= k; out.z *= k;
    return out;
  }
  computeAabb(out: Aabb, position: Readonly<Vec3>, rotation: Readonly<Quat>): Aabb {
    return this.source.computeAabb(out, position, rotation);
  }
  volume(): number {
    return this.source.volume();
  }
  massProperties(density: number): MassProperties {
    return this.source.massProperties(density);
  }
}

/**
 * The body's shape shrunk by the overlap a sweep tolerates (δ): a shape of
 * the same class where one exists (a sphere or capsule of radius r − δ, a
 * box of half extents h − δ, a cylinder of radius r − δ and half height
 * hh − δ: the exact erosions), so the convex routines see no new class.
 */
function innerShape(b: RigidBody, fraction = 0): ConvexShape {
  const shape = b.shape as ConvexShape;
  const th = b.thinnestHalfSize;
  // A jointed body is swept with the most overlap tolerated: a ragdoll limb
  // landing is held by its joints a little into the ground, and putting it
  // back alone would open them.
  let delta = fraction > 0 || b.jointCount > 0 ? MAX_FRACTION * th : Math.min(Math.max(TOLERATED_FRACTION * th, MIN_TOLERATED), MAX_FRACTION * th);
  // The smaller shape must stay a valid size (a body near MIN_SHAPE_SIZE is shrunk less).
  if (th - delta < MIN_SHAPE_SIZE) delta = Math.max(0, th - MIN_SHAPE_SIZE);
  // A hull has no exact erosion (ConvexShape.eroded is null). Scaled about
  // its centre of mass by 1 − δ/R, R its farthest vertex, no point of it
  // moves in by more than δ: scaled by 1 − δ/th instead, a long hull's far
  // corners would move in by δ·R/th, and the real shape could end that deep
  // once the small one touches.
  const eroded = shape.eroded(delta);
  if (eroded !== null) return eroded;
  const reach = farthestVertex(shape, b.boundingRadius);
  return new ScaledHull(shape, reach > 0 ? 1 - delta / reach : 1);
}

/** The largest distance of a hull's vertex from its centre of mass (the bounding radius for other shapes). */
function farthestVertex(shape: ConvexShape, fallback: number): number {
  // By kind, not instanceof: a world without hulls leaves their module out of the bundle.
  if (shape.kind !== ShapeKind.ConvexHull) return fallback;
  const V = (shape as ConvexHull).vertices;
  let most = 0;
  for (let k = 0; k < V.length; k += 3) most = Math.max(most, V[k]! * V[k]! + V[k + 1]! * V[k + 1]! + V[k + 2]! * V[k + 2]!);
  return Math.sqrt(most);
}
