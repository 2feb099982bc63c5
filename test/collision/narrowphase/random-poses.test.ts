/**
 * Every convex pair over 1000 seeded random poses (random rotations, B placed
 * along a random direction from touching to ~30 % of the smaller shape deep,
 * plus separated poses inside and beyond the margin). Asserts for each pose:
 * - points beyond the margin never appear; overlapping or within-margin poses
 *   give at least one point;
 * - every point's A and B surface points (position ± n·depth/2) lie on the
 *   shapes' surfaces within 1e-4 (exact SDFs in ./sdf.ts);
 * - the deepest point equals the exact penetration depth / distance within
 *   1e-4 where the test can compute it (sphere–sphere, sphere–box,
 *   sphere–capsule, capsule–capsule), and for box–box lies within the face
 *   bias of the brute-force 15-axis minimum (and equals it when a face axis wins
 *   clearly);
 * - collide(A, B) and collide(B, A) give the same points with flipped normals.
 * And over 1000 separated poses (1.2–15 margins apart): when no point comes
 * back, the gap the routine reports (narrowphaseGap, which lets the world
 * skip the pair's narrowphase until the bodies could have closed it) exceeds
 * the margin and never exceeds the true distance (GJK).
 */
import { describe, expect, it } from 'vitest';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import type { Shape } from '../../../src/shapes/shape';
import { Sphere } from '../../../src/shapes/sphere';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { GjkResult, gjkDistance } from '../../../src/collision/narrowphase/gjk';
import { narrowphaseGap } from '../../../src/collision/narrowphase/margin';
import type { ConvexShape } from '../../../src/shapes/shape';
import { seeded } from '../../helpers/random';
import { boxBoxAxisSeparations, gap, maxDepth, randomPoses, smallestSize, surfaceErrors, symmetryError } from './sdf';

const POSES = 1000;
const MARGIN = 0.02;
const SURFACE_TOLERANCE = 1e-4;

interface PairCase {
  name: string;
  seed: number;
  make: (pick: number) => [Shape, Shape];
  exactDepth: boolean;
}

const sizes = [0.25, 0.5, 0.8];
const cases: PairCase[] = [
  { name: 'sphere-sphere', seed: 101, exactDepth: true, make: (k) => [new Sphere(sizes[k % 3]!), new Sphere(sizes[(k + 1) % 3]!)] },
  { name: 'sphere-box', seed: 102, exactDepth: true, make: (k) => [new Sphere(sizes[k % 3]!), new Box({ x: 0.5, y: sizes[(k + 1) % 3]!, z: 0.7 })] },
  { name: 'sphere-capsule', seed: 103, exactDepth: true, make: (k) => [new Sphere(sizes[k % 3]!), new Capsule(0.3, sizes[(k + 2) % 3]!)] },
  { name: 'capsule-capsule', seed: 104, exactDepth: true, make: (k) => [new Capsule(0.3, sizes[k % 3]!), new Capsule(sizes[(k + 1) % 3]! * 0.6, 0.5)] },
  { name: 'box-capsule', seed: 105, exactDepth: false, make: (k) => [new Box({ x: 0.6, y: sizes[k % 3]!, z: 0.4 }), new Capsule(0.25, sizes[(k + 1) % 3]!)] },
  { name: 'box-box', seed: 106, exactDepth: false, make: (k) => [new Box({ x: 0.5, y: sizes[k % 3]!, z: 0.6 }), new Box({ x: sizes[(k + 2) % 3]!, y: 0.4, z: 0.3 })] },
];

describe('convex narrowphase over random poses', () => {
  for (const c of cases) {
    it(`${c.name}: surfaces, depth, margin and A–B/B–A symmetry`, () => {
      const rng = seeded(c.seed, `narrowphase ${c.name}`);
      const ab = new Manifold();
      const ba = new Manifold();
      let worstSurface = 0, worstNormal = 0, worstDepth = 0, worstSymmetry = 0, worstBiasExcess = 0, worstClear = 0;
      let missing = 0, beyondMargin = 0, total = 0, symmetrySkipped = 0, clearCases = 0;
      for (let i = 0; i < POSES; i++) {
        const [a, b] = c.make(i);
        const roll = rng.next();
        const small = Math.min(smallestSize(a), smallestSize(b));
        const push = roll < 0.1 ? -rng.range(1.2, 3) * MARGIN : roll < 0.25 ? -rng.range(0, 0.95) * MARGIN : rng.range(0, 0.3) * small;
        const [pa, pb] = randomPoses(rng, a, b, push);
        collide(a, pa.position, pa.rotation, b, pb.position, pb.rotation, MARGIN, ab);
        collide(b, pb.position, pb.rotation, a, pa.position, pa.rotation, MARGIN, ba);
        const g = gap(a, pa, b, pb);
        total += ab.pointCount;
        if (g > MARGIN + 1e-7 && ab.pointCount > 0) beyondMargin++;
        // Box–box: the SAT gap is only a lower bound of the distance, so only
        // overlapping poses must give points.
        const mustTouch = a instanceof Box && b instanceof Box ? g < 0 : g < MARGIN - 1e-7;
        if (mustTouch && ab.pointCount === 0) missing++;
        if (ab.pointCount === 0) continue;
        const e = surfaceErrors(ab, a, pa, b, pb);
        worstSurface = Math.max(worstSurface, e.worstSurfaceError);
        worstNormal = Math.max(worstNormal, e.worstNormalError);
        const d = maxDepth(ab);
        if (c.exactDepth) worstDepth = Math.max(worstDepth, Math.abs(d + g));
        let symmetric = true;
        if (a instanceof Box && b instanceof Box) {
          // Within the face bias the reference face depends on the argument
          // order by design (hysteresis); compare orders only outside it.
          const seps = boxBoxAxisSeparations(a, pa, b, pb);
          const sA = Math.max(...seps.slice(0, 3)), sB = Math.max(...seps.slice(3, 6));
          const sE = seps.length > 6 ? Math.max(...seps.slice(6)) : -Infinity;
          const tol = (s: number): number => 0.05 * Math.abs(s) + 0.005 + 1e-6;
          const near = (x: number, y: number): boolean => Math.abs(x - y) <= tol(Math.max(x, y)) + 1e-6;
          if (near(sA, sB) || near(sA, sE) || near(sB, sE)) symmetric = false;
          const minOverlap = -Math.max(...seps);
          // The chosen axis may be worse than the best by the bias only.
          // chosen overlap d ≤ best overlap + 0.05·d + 0.005.
          worstBiasExcess = Math.max(worstBiasExcess, d - (minOverlap + 0.005) / 0.95);
          const faceBest = Math.max(sA, sB);
          if (minOverlap > 0 && faceBest > sE + tol(sE) && !near(sA, sB)) {
            clearCases++;
            worstClear = Math.max(worstClear, Math.abs(d - minOverlap));
          }
        }
        if (symmetric) worstSymmetry = Math.max(worstSymmetry, symmetryError(ab, ba));
        else symmetrySkipped++;
      }
      console.log(
        `[${c.name}] points=${total} worstSurface=${worstSurface.toExponential(2)} worstDepth=${worstDepth.toExponential(2)} ` +
          `worstSymmetry=${worstSymmetry.toExponential(2)} skipped=${symmetrySkipped} missing=${missing} beyondMargin=${beyondMargin} ` +
          `biasExcess=${worstBiasExcess.toExponential(2)} clear=${clearCases} worstClear=${worstClear.toExponential(2)}`,
      );
      expect(beyondMargin).toBe(0);
      expect(missing).toBe(0);
      expect(worstSurface).toBeLessThan(SURFACE_TOLERANCE);
      expect(worstNormal).toBeLessThan(1e-9);
      expect(worstDepth).toBeLessThan(1e-4);
      expect(worstSymmetry).toBeLessThan(1e-7);
      expect(worstBiasExcess).toBeLessThan(1e-4);
      expect(worstClear).toBeLessThan(1e-4);
    });
  }
});

describe('the gap reported with an empty manifold', () => {
  for (const c of cases) {
    it(`${c.name}: a lower bound of the distance, beyond the margin`, () => {
      const rng = seeded(c.seed + 1000, `narrowphase gap ${c.name}`);
      const m = new Manifold();
      const result = new GjkResult();
      let reported = 0, empty = 0, worstExcess = -Infinity, worstBelowMargin = Infinity, worstExact = 0;
      for (let i = 0; i < POSES; i++) {
        const [a, b] = c.make(i);
        const [pa, pb] = randomPoses(rng, a, b, -rng.range(1.2, 15) * MARGIN);
        collide(a, pa.position, pa.rotation, b, pb.position, pb.rotation, MARGIN, m);
        if (m.pointCount > 0) continue;
        empty++;
        const g = narrowphaseGap[0]!;
        if (g === 0) continue;
        reported++;
        const distance = gjkDistance(a as ConvexShape, pa.position, pa.rotation, b as ConvexShape, pb.position, pb.rotation, result).distance;
        worstExcess = Math.max(worstExcess, g - distance);
        worstBelowMargin = Math.min(worstBelowMargin, g - MARGIN);
        if (c.exactDepth) worstExact = Math.max(worstExact, Math.abs(g - distance));
      }
      console.log(`[${c.name} gap] empty=${empty} reported=${reported} worst gap − distance=${worstExcess.toExponential(2)} ` +
        `least gap − margin=${worstBelowMargin.toExponential(2)} worst |gap − distance| (exact pairs)=${worstExact.toExponential(2)}`);
      expect(empty).toBeGreaterThan(0.9 * POSES);
      // Every routine reports a gap on the separated poses it rejects.
      expect(reported).toBeGreaterThan(0.9 * empty);
      expect(worstExcess).toBeLessThan(1e-6);
      expect(worstBelowMargin).toBeGreaterThan(0);
      // Spheres and capsules report the distance itself.
      expect(worstExact).toBeLessThan(1e-6);
    });
  }
});
