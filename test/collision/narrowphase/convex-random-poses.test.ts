/**
 * The pairs with a Cylinder or a ConvexHull over seeded random poses (random
 * rotations, B along a random direction from 3 margins apart to 30 % of the
 * smaller shape deep, found by bisection on EPA's signed distance). For each:
 * - no point when the shapes are further apart than the margin, at least one
 *   when they overlap;
 * - every point's A and B surface points (position ± n·depth/2) lie on the
 *   shapes' surfaces (exact SDFs for cylinder, box, sphere, capsule; the
 *   largest face-plane distance for a hull, exact on its faces): to 1e-12
 *   for hull–box and hull–hull, to CURVED with a curved surface;
 * - the deepest point's depth equals EPA's penetration depth within
 *   DEPTH_TOL, and its normal EPA's normal within the snap angle
 *   (collide-convex.ts, SNAP_COS).
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, ConvexHull, Cylinder, epaPenetration, GjkResult, Manifold, quat, Sphere, collide, type ConvexShape, type Quat, type Vec3 } from '../../../src/index';
import { seeded, type Random } from '../../helpers/random';

const POSES = 600;
const MARGIN = 0.02;
/**
 * Surface tolerance (m) where a surface is curved: the EPA point on a
 * cylinder's rim or side lies on a facet of EPA's polytope, and a capsule's
 * raised end reads up to r (1 − cos θ) shallow for its segment within
 * CAPSULE_FLAT_SIN (θ = 2.9°) of square to n.
 */
const CURVED = 5e-4;
/** The deepest point may be shallower than EPA's by MISSED_DEPTH (1e-4 m, collide-convex.ts) before the EPA point joins. */
const DEPTH_TOL = 1.5e-4;

interface Pose { position: Vec3; rotation: Quat }

function local(p: Vec3, pose: Pose): Vec3 {
  return quat.inverseRotate({ x: 0, y: 0, z: 0 }, pose.rotation, { x: p.x - pose.position.x, y: p.y - pose.position.y, z: p.z - pose.position.z });
}

function sdf(p: Vec3, s: ConvexShape, pose: Pose): number {
  const l = local(p, pose);
  if (s instanceof Sphere) return Math.hypot(l.x, l.y, l.z) - s.radius;
  if (s instanceof Capsule) return Math.hypot(l.x, l.y - Math.max(-s.halfHeight, Math.min(s.halfHeight, l.y)), l.z) - s.radius;
  if (s instanceof Box) {
    const h = s.halfExtents;
    const qx = Math.abs(l.x) - h.x, qy = Math.abs(l.y) - h.y, qz = Math.abs(l.z) - h.z;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0)) + Math.min(Math.max(qx, qy, qz), 0);
  }
  if (s instanceof Cylinder) {
    const dx = Math.hypot(l.x, l.z) - s.radius, dy = Math.abs(l.y) - s.halfHeight;
    return Math.min(Math.max(dx, dy), 0) + Math.hypot(Math.max(dx, 0), Math.max(dy, 0));
  }
  const h = s as ConvexHull;
  let d = -Infinity;
  for (let f = 0; f < h.faceCount; f++) d = Math.max(d, h.faceNormals[3 * f]! * l.x + h.faceNormals[3 * f + 1]! * l.y + h.faceNormals[3 * f + 2]! * l.z - h.faceOffsets[f]!);
  return d;
}

const res = new GjkResult();
/** EPA's signed distance and normal (A → B, in `res`). */
function signedDistance(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): number {
  epaPenetration(a, pa.position, pa.rotation, b, pb.position, pb.rotation, res);
  return res.distance;
}

function randomPoses(rng: Random, a: ConvexShape, b: ConvexShape, push: number): [Pose, Pose] {
  const pa: Pose = { position: rng.vec3(-2, 2), rotation: rng.quat() };
  const rb = rng.quat();
  const dir = rng.unitVec3();
  const at = (D: number): Pose => ({ position: { x: pa.position.x + dir.x * D, y: pa.position.y + dir.y * D, z: pa.position.z + dir.z * D }, rotation: rb });
  let lo = 0, hi = 6;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (lo + hi);
    if (signedDistance(a, pa, b, at(mid)) < 0) lo = mid; else hi = mid;
  }
  return [pa, at(Math.max(0, 0.5 * (lo + hi) - push))];
}

const rock = new ConvexHull([
  { x: 0.6, y: 0.1, z: 0 }, { x: -0.5, y: 0.2, z: 0.3 }, { x: -0.3, y: -0.3, z: -0.5 }, { x: 0.1, y: 0.55, z: 0.1 },
  { x: 0, y: -0.5, z: 0.3 }, { x: 0.3, y: -0.2, z: -0.4 }, { x: -0.4, y: 0.4, z: -0.2 }, { x: 0.2, y: 0.3, z: 0.45 },
]);
const cube = new ConvexHull([-0.4, 0.4].flatMap((x) => [-0.3, 0.3].flatMap((y) => [-0.5, 0.5].map((z) => ({ x, y, z })))));
const cases: { name: string; seed: number; a: ConvexShape; b: ConvexShape; surfaceTol: number }[] = [
  { name: 'cylinder-box', seed: 1911, a: new Cylinder(0.4, 0.6), b: new Box({ x: 0.5, y: 0.3, z: 0.7 }), surfaceTol: CURVED },
  { name: 'cylinder-sphere', seed: 1912, a: new Cylinder(0.4, 0.6), b: new Sphere(0.35), surfaceTol: CURVED },
  { name: 'cylinder-capsule', seed: 1913, a: new Cylinder(0.5, 0.3), b: new Capsule(0.2, 0.5), surfaceTol: CURVED },
  { name: 'cylinder-cylinder', seed: 1914, a: new Cylinder(0.4, 0.6), b: new Cylinder(0.3, 0.2), surfaceTol: CURVED },
  { name: 'hull-box', seed: 1915, a: rock, b: new Box({ x: 0.5, y: 0.3, z: 0.7 }), surfaceTol: 1e-12 },
  { name: 'hull-sphere', seed: 1916, a: rock, b: new Sphere(0.3), surfaceTol: CURVED },
  { name: 'hull-capsule', seed: 1917, a: rock, b: new Capsule(0.2, 0.5), surfaceTol: CURVED },
  { name: 'hull-hull', seed: 1918, a: rock, b: cube, surfaceTol: 1e-12 },
  { name: 'hull-cylinder', seed: 1919, a: cube, b: new Cylinder(0.35, 0.5), surfaceTol: CURVED },
];

describe('Cylinder and ConvexHull narrowphase over random poses', () => {
  for (const c of cases) {
    it(`${c.name}: margin, surfaces, depth and normal against EPA`, () => {
      const rng = seeded(c.seed, `convex narrowphase ${c.name}`);
      const m = new Manifold();
      let beyond = 0, missing = 0, points = 0, worstSurface = 0, worstDepth = 0, worstNormalCos = 1;
      for (let i = 0; i < POSES; i++) {
        const roll = rng.next();
        const push = roll < 0.15 ? -rng.range(1.2, 3) * MARGIN : roll < 0.3 ? -rng.range(0, 0.95) * MARGIN : rng.range(0, 0.3) * 0.4;
        const [pa, pb] = randomPoses(rng, c.a, c.b, push);
        collide(c.a, pa.position, pa.rotation, c.b, pb.position, pb.rotation, MARGIN, m);
        const g = signedDistance(c.a, pa, c.b, pb);
        const n = { ...res.normal };
        if (g > MARGIN + 1e-6 && m.pointCount > 0) beyond++;
        if (g < 0 && m.pointCount === 0) missing++;
        if (m.pointCount === 0) continue;
        points += m.pointCount;
        let deepest = -Infinity;
        for (let k = 0; k < m.pointCount; k++) {
          const p = m.points[k]!;
          const x = p.position, nn = p.normal, d = p.depth;
          const onA = { x: x.x + nn.x * d / 2, y: x.y + nn.y * d / 2, z: x.z + nn.z * d / 2 };
          const onB = { x: x.x - nn.x * d / 2, y: x.y - nn.y * d / 2, z: x.z - nn.z * d / 2 };
          worstSurface = Math.max(worstSurface, Math.abs(sdf(onA, c.a, pa)), Math.abs(sdf(onB, c.b, pb)));
          deepest = Math.max(deepest, d);
          worstNormalCos = Math.min(worstNormalCos, nn.x * n.x + nn.y * n.y + nn.z * n.z);
        }
        worstDepth = Math.max(worstDepth, Math.abs(deepest + g));
      }
      console.log(`[${c.name}] points=${points} beyond=${beyond} missing=${missing} worstSurface=${worstSurface.toExponential(2)} worstDepth=${worstDepth.toExponential(2)} worstNormalAngle=${(Math.acos(Math.min(1, worstNormalCos)) * 180 / Math.PI).toFixed(3)}°`);
      expect(beyond).toBe(0);
      expect(missing).toBe(0);
      expect(worstSurface).toBeLessThan(c.surfaceTol);
      expect(Math.acos(Math.min(1, worstNormalCos))).toBeLessThan(Math.acos(0.999) + 1e-9);
      expect(worstDepth).toBeLessThan(DEPTH_TOL);
    });
  }
});
