/**
 * Test helpers for the convex narrowphase: exact signed-distance functions of
 * sphere, box and capsule (Quilez's formulas), an exact overlap measure per
 * pair, a brute-force 15-axis SAT for boxes, and a generator of random
 * touching / penetrating / separated poses.
 */
import type { Quat } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import type { Shape } from '../../../src/shapes/shape';
import { Sphere } from '../../../src/shapes/sphere';
import type { Manifold } from '../../../src/collision/narrowphase/manifold';
import { inverseRotate, rotate } from '../../../src/math/quat';
import type { Random } from '../../helpers/random';

export interface Pose {
  position: Vec3;
  rotation: Quat;
}

function toLocal(p: Readonly<Vec3>, pose: Pose): Vec3 {
  const v = { x: p.x - pose.position.x, y: p.y - pose.position.y, z: p.z - pose.position.z };
  return inverseRotate(v, pose.rotation, v);
}

export function sdfBox(p: Readonly<Vec3>, box: Box, pose: Pose): number {
  const l = toLocal(p, pose);
  const h = box.halfExtents;
  const qx = Math.abs(l.x) - h.x, qy = Math.abs(l.y) - h.y, qz = Math.abs(l.z) - h.z;
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0));
  return outside + Math.min(Math.max(qx, qy, qz), 0);
}

export function sdfCapsule(p: Readonly<Vec3>, capsule: Capsule, pose: Pose): number {
  const l = toLocal(p, pose);
  const y = Math.min(Math.max(l.y, -capsule.halfHeight), capsule.halfHeight);
  return Math.hypot(l.x, l.y - y, l.z) - capsule.radius;
}

export function sdfSphere(p: Readonly<Vec3>, sphere: Sphere, pose: Pose): number {
  return Math.hypot(p.x - pose.position.x, p.y - pose.position.y, p.z - pose.position.z) - sphere.radius;
}

export function sdf(p: Readonly<Vec3>, shape: Shape, pose: Pose): number {
  if (shape instanceof Sphere) return sdfSphere(p, shape, pose);
  if (shape instanceof Box) return sdfBox(p, shape, pose);
  if (shape instanceof Capsule) return sdfCapsule(p, shape, pose);
  throw new Error('sdf: unsupported shape');
}

/** World end points of a capsule's segment at parameter s ∈ [-1, 1]. */
export function capsulePoint(capsule: Capsule, pose: Pose, s: number): Vec3 {
  const v = rotate({ x: 0, y: 0, z: 0 }, pose.rotation, { x: 0, y: s * capsule.halfHeight, z: 0 });
  return { x: pose.position.x + v.x, y: pose.position.y + v.y, z: pose.position.z + v.z };
}

/** Minimum of a convex function on [lo, hi] by golden-section search. */
function minimizeConvex(f: (s: number) => number, lo: number, hi: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let a = lo, b = hi;
  let c = b - g * (b - a), d = a + g * (b - a);
  let fc = f(c), fd = f(d);
  for (let i = 0; i < 120; i++) {
    if (fc < fd) { b = d; d = c; fd = fc; c = b - g * (b - a); fc = f(c); }
    else { a = c; c = d; fc = fd; d = a + g * (b - a); fd = f(d); }
  }
  return Math.min(fc, fd, f(lo), f(hi));
}

export function worldAxes(pose: Pose): Vec3[] {
  return [
    rotate({ x: 0, y: 0, z: 0 }, pose.rotation, { x: 1, y: 0, z: 0 }),
    rotate({ x: 0, y: 0, z: 0 }, pose.rotation, { x: 0, y: 1, z: 0 }),
    rotate({ x: 0, y: 0, z: 0 }, pose.rotation, { x: 0, y: 0, z: 1 }),
  ];
}

/** Separation of two boxes along each of the 15 SAT axes (brute force, world space). */
export function boxBoxAxisSeparations(a: Box, pa: Pose, b: Box, pb: Pose): number[] {
  const axA = worldAxes(pa), axB = worldAxes(pb);
  const hA = [a.halfExtents.x, a.halfExtents.y, a.halfExtents.z];
  const hB = [b.halfExtents.x, b.halfExtents.y, b.halfExtents.z];
  const axes: Vec3[] = [...axA, ...axB];
  for (const u of axA) for (const v of axB) {
    const c = { x: u.y * v.z - u.z * v.y, y: u.z * v.x - u.x * v.z, z: u.x * v.y - u.y * v.x };
    const l = Math.hypot(c.x, c.y, c.z);
    if (l > 1e-5) axes.push({ x: c.x / l, y: c.y / l, z: c.z / l });
  }
  const d = { x: pb.position.x - pa.position.x, y: pb.position.y - pa.position.y, z: pb.position.z - pa.position.z };
  return axes.map((L) => {
    const ra = hA.reduce((s, h, i) => s + h * Math.abs(L.x * axA[i]!.x + L.y * axA[i]!.y + L.z * axA[i]!.z), 0);
    const rb = hB.reduce((s, h, i) => s + h * Math.abs(L.x * axB[i]!.x + L.y * axB[i]!.y + L.z * axB[i]!.z), 0);
    return Math.abs(d.x * L.x + d.y * L.y + d.z * L.z) - ra - rb;
  });
}

/**
 * A signed gap between A and B: > 0 separated, < 0 overlapping, and exact
 * (the distance, or minus the penetration depth) for every pair but box–box and
 * box–capsule, where only the distance side is exact (box–box: max SAT
 * separation; box–capsule overlapping: minus the deepest segment point's depth).
 */
export function gap(a: Shape, pa: Pose, b: Shape, pb: Pose): number {
  if (a instanceof Box && b instanceof Box) return Math.max(...boxBoxAxisSeparations(a, pa, b, pb));
  if (a instanceof Sphere) return sdf(pa.position, b, pb) - a.radius;
  if (b instanceof Sphere || (b instanceof Capsule && !(a instanceof Capsule))) return gap(b, pb, a, pa);
  if (a instanceof Capsule) {
    return minimizeConvex((s) => sdf(capsulePoint(a, pa, s), b, pb), -1, 1) - a.radius;
  }
  throw new Error('gap: unsupported pair');
}

/** The smallest dimension of a shape (diameter or shortest box side). */
export function smallestSize(s: Shape): number {
  if (s instanceof Sphere) return 2 * s.radius;
  if (s instanceof Capsule) return 2 * s.radius;
  if (s instanceof Box) return 2 * Math.min(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
  throw new Error('unsupported');
}

function boundingRadius(s: Shape): number {
  if (s instanceof Sphere) return s.radius;
  if (s instanceof Capsule) return s.radius + s.halfHeight;
  if (s instanceof Box) return Math.hypot(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
  throw new Error('unsupported');
}

/**
 * A random pose pair: random rotations, B placed along a random direction at
 * the touching distance (found by bisection on `gap`) minus `push`.
 */
export function randomPoses(rng: Random, a: Shape, b: Shape, push: number): [Pose, Pose] {
  const pa: Pose = { position: rng.vec3(-2, 2), rotation: rng.quat() };
  const rb = rng.quat();
  const dir = rng.unitVec3();
  const at = (D: number): Pose => ({
    position: { x: pa.position.x + dir.x * D, y: pa.position.y + dir.y * D, z: pa.position.z + dir.z * D },
    rotation: rb,
  });
  let lo = 0, hi = boundingRadius(a) + boundingRadius(b) + 0.1;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (lo + hi);
    if (gap(a, pa, b, at(mid)) < 0) lo = mid; else hi = mid;
  }
  return [pa, at(Math.max(0, 0.5 * (lo + hi) - push))];
}

export interface PointCheck {
  worstSurfaceError: number;
  worstNormalError: number;
}

/** Largest |sdf| of the two surface points of every manifold point. */
export function surfaceErrors(m: Manifold, a: Shape, pa: Pose, b: Shape, pb: Pose): PointCheck {
  let worstSurfaceError = 0, worstNormalError = 0;
  for (let i = 0; i < m.pointCount; i++) {
    const p = m.points[i]!;
    const { position: x, normal: n, depth } = p;
    const onA = { x: x.x + n.x * depth / 2, y: x.y + n.y * depth / 2, z: x.z + n.z * depth / 2 };
    const onB = { x: x.x - n.x * depth / 2, y: x.y - n.y * depth / 2, z: x.z - n.z * depth / 2 };
    worstSurfaceError = Math.max(worstSurfaceError, Math.abs(sdf(onA, a, pa)), Math.abs(sdf(onB, b, pb)));
    worstNormalError = Math.max(worstNormalError, Math.abs(Math.hypot(n.x, n.y, n.z) - 1));
  }
  return { worstSurfaceError, worstNormalError };
}

export function maxDepth(m: Manifold): number {
  let d = -Infinity;
  for (let i = 0; i < m.pointCount; i++) d = Math.max(d, m.points[i]!.depth);
  return d;
}

/**
 * The largest mismatch between manifold `ab` and the flipped `ba`: every point
 * of one must have a point of the other at the same position with the same
 * depth and the opposite normal. Infinity when the counts differ.
 */
export function symmetryError(ab: Manifold, ba: Manifold): number {
  if (ab.pointCount !== ba.pointCount) return Infinity;
  let worst = 0;
  for (let i = 0; i < ab.pointCount; i++) {
    const p = ab.points[i]!;
    let best = Infinity;
    for (let j = 0; j < ba.pointCount; j++) {
      const q = ba.points[j]!;
      const e = Math.max(
        Math.abs(p.position.x - q.position.x), Math.abs(p.position.y - q.position.y), Math.abs(p.position.z - q.position.z),
        Math.abs(p.normal.x + q.normal.x), Math.abs(p.normal.y + q.normal.y), Math.abs(p.normal.z + q.normal.z),
        Math.abs(p.depth - q.depth),
      );
      best = Math.min(best, e);
    }
    worst = Math.max(worst, best);
  }
  return worst;
}
