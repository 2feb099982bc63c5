// Shape casts against a posed TriangleMesh vs the bisection reference run
// on every triangle (as a convex shape) in world space, keeping the
// earliest. Tolerance 1e-3 on the fraction; never later by more than 1e-9.
// Double-sided: every triangle counts. One-sided: a triangle whose first
// contact comes with the cast shape's centre behind its plane is passed
// through (the rule the contacts use).
import { describe, expect, it } from 'vitest';
import type { Aabb } from '../../../src/collision/aabb';
import { GjkResult, gjkDistance } from '../../../src/collision/narrowphase/gjk';
import { CAST_TARGET, CAST_TOLERANCE, ShapeCastPairHit, shapeCastPair } from '../../../src/collision/query/shape-cast';
import type { Quat } from '../../../src/math/quat';
import { rotate } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import { ConvexShape, type MassProperties, ShapeKind } from '../../../src/shapes/shape';
import { Sphere } from '../../../src/shapes/sphere';
import { TriangleMesh } from '../../../src/shapes/triangle-mesh';
import { type Random, seeded } from '../../helpers/random';
import { referenceCast } from './cast-reference';

const CASTS = 1000;

const v3 = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const sub = (a: Vec3, b: Vec3): Vec3 => v3(a.x - b.x, a.y - b.y, a.z - b.z);
const add = (a: Vec3, b: Vec3): Vec3 => v3(a.x + b.x, a.y + b.y, a.z + b.z);
const mul = (a: Vec3, s: number): Vec3 => v3(a.x * s, a.y * s, a.z * s);
const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const len = (a: Vec3): number => Math.sqrt(dot(a, a));
const cross = (a: Vec3, b: Vec3): Vec3 => v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
const rot = (q: Quat, v: Vec3): Vec3 => rotate(v3(0, 0, 0), q, v);

/** A world-space triangle as a convex shape, for the reference. */
class RefTriangle extends ConvexShape {
  readonly kind = ShapeKind.TriangleMesh;
  readonly coreRadius = 0;
  readonly bounds: Aabb;
  constructor(readonly p: [Vec3, Vec3, Vec3]) {
    super();
    this.bounds = this.computeAabb({ min: v3(0, 0, 0), max: v3(0, 0, 0) });
  }
  coreSupport(out: Vec3, d: Readonly<Vec3>): Vec3 {
    let best = this.p[0];
    for (const q of this.p) if (dot(q, d) > dot(best, d)) best = q;
    out.x = best.x; out.y = best.y; out.z = best.z;
    return out;
  }
  computeAabb(out: Aabb): Aabb {
    const [a, b, c] = this.p;
    out.min = v3(Math.min(a.x, b.x, c.x), Math.min(a.y, b.y, c.y), Math.min(a.z, b.z, c.z));
    out.max = v3(Math.max(a.x, b.x, c.x), Math.max(a.y, b.y, c.y), Math.max(a.z, b.z, c.z));
    return out;
  }
  volume(): number {
    return 0;
  }
  massProperties(): MassProperties {
    throw new Error('no mass');
  }
}

function heightField(rng: Random, doubleSided: boolean): TriangleMesh {
  // 24 × 24 cells of 0.5 m (1152 triangles), smooth bumps ±0.6 m plus a
  // 1 m step ridge along one row, so casts meet slopes, creases and walls.
  const n = 24, cell = 0.5;
  const positions: number[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const x = (i - n / 2) * cell, z = (j - n / 2) * cell;
      const ridge = j === 16 ? 1 : 0;
      positions.push(x, 0.6 * Math.sin(0.9 * x) * Math.cos(0.7 * z) + ridge + 0.05 * rng.range(-1, 1), z);
    }
  }
  const indices: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  return new TriangleMesh(positions, indices, { doubleSided });
}

function makeShape(rng: Random, kind: string): ConvexShape {
  if (kind === 'sphere') return new Sphere(rng.range(0.1, 0.6));
  if (kind === 'capsule') return new Capsule(rng.range(0.1, 0.4), rng.range(0.1, 0.7));
  return new Box(v3(rng.range(0.05, 0.6), rng.range(0.05, 0.6), rng.range(0.05, 0.6)));
}

describe('shapeCastPair (triangle mesh target)', () => {
  for (const [kind, doubleSided] of [['sphere', true], ['capsule', true], ['box', true], ['sphere', false], ['capsule', false], ['box', false]] as const) {
    const sides = doubleSided ? 'double-sided' : 'one-sided';
    it(`${kind} cast against a posed ${sides} height field: earliest fraction vs per-triangle bisection over ${CASTS} casts`, () => {
      const rng = seeded(500 + kind.length, `cast ${kind}->mesh`);
      const mesh = heightField(rng, doubleSided);
      const pm = v3(5, -3, 2);
      const qm = rng.quat();
      const up = rot(qm, v3(0, 1, 0));
      const tris: RefTriangle[] = [];
      for (let t = 0; t < mesh.triangleCount; t++) {
        const a = v3(0, 0, 0), b = v3(0, 0, 0), c = v3(0, 0, 0);
        mesh.getTriangle(t, a, b, c);
        tris.push(new RefTriangle([add(pm, rot(qm, a)), add(pm, rot(qm, b)), add(pm, rot(qm, c))]));
      }
      const scratch = new GjkResult();
      const q0 = { x: 0, y: 0, z: 0, w: 1 };
      const out = new ShapeCastPairHit();
      let hits = 0, misses = 0, starts = 0, maxErr = 0, maxLate = -Infinity, refRuns = 0, fromBehind = 0;
      for (let i = 0; i < CASTS; i++) {
        const s = makeShape(rng, kind);
        const qa = rng.quat();
        const local = v3(rng.range(-4, 4), i % 40 === 0 ? rng.range(-0.3, 0.3) : rng.range(1, 2.5), rng.range(-4, 4));
        const pa = add(pm, rot(qm, local));
        // Mostly downwards and slanted, some sideways (into the ridge and bumps).
        const dir = i % 4 === 0 ? rng.unitVec3() : add(mul(up, -1), mul(rng.unitVec3(), rng.range(0, 1.5)));
        const T = mul(dir, rng.range(1, 3) / len(dir));
        // Reference: triangles in order of their earliest possible impact
        // (the gap closes at most |T| per unit fraction), stopping once that
        // bound passes the best root found.
        const lenT = len(T);
        // Only triangles whose bounds meet the swept bounds can be reached.
        const sweep = s.computeAabb({ min: v3(0, 0, 0), max: v3(0, 0, 0) }, pa, qa);
        const lo = v3(Math.min(sweep.min.x, sweep.min.x + T.x), Math.min(sweep.min.y, sweep.min.y + T.y), Math.min(sweep.min.z, sweep.min.z + T.z));
        const hi = v3(Math.max(sweep.max.x, sweep.max.x + T.x), Math.max(sweep.max.y, sweep.max.y + T.y), Math.max(sweep.max.z, sweep.max.z + T.z));
        const order = tris
          .map((tri, index) => ({ tri, index }))
          .filter(({ tri }) => {
            const b = tri.bounds;
            return b.min.x <= hi.x + 1e-3 && b.max.x >= lo.x - 1e-3 && b.min.y <= hi.y + 1e-3 && b.max.y >= lo.y - 1e-3 && b.min.z <= hi.z + 1e-3 && b.max.z >= lo.z - 1e-3;
          })
          .map(({ tri, index }) => ({ index, bound: gjkDistance(s, pa, qa, tri, q0v, q0, scratch).distance / lenT }))
          .filter((e) => e.bound <= 1)
          .sort((x, y) => x.bound - y.bound);
        let best: number | null = null;
        let minDistance = Infinity;
        for (const e of order) {
          if (best !== null && e.bound >= best) break;
          const tri = tris[e.index]!;
          refRuns++;
          const r = referenceCast((t) => gjkDistance(s, add(pa, mul(T, t)), qa, tri, q0v, q0, scratch).distance);
          minDistance = Math.min(minDistance, r.minDistance);
          if (r.fraction !== null && !doubleSided) {
            const [a, b, c] = tri.p;
            const n = cross(sub(b, a), sub(c, a));
            if (dot(sub(add(pa, mul(T, r.fraction)), a), n) < 0) {
              fromBehind++;
              continue;
            }
          }
          if (r.fraction !== null && (best === null || r.fraction < best)) best = r.fraction;
        }
        const hit = shapeCastPair(s, pa, qa, T, mesh, pm, qm, out);
        if (best === null) {
          misses++;
          if (hit) expect(minDistance).toBeLessThan(CAST_TARGET + CAST_TOLERANCE + 1e-9);
          continue;
        }
        expect(hit).toBe(true);
        if (best === 0) starts++;
        else hits++;
        const err = Math.abs(out.fraction - best);
        maxErr = Math.max(maxErr, err);
        maxLate = Math.max(maxLate, out.fraction - best);
        expect(err).toBeLessThan(1e-3);
        expect(out.fraction - best).toBeLessThan(1e-9);
        expect(out.triangle).toBeGreaterThanOrEqual(0);
        expect(Math.abs(len(out.normal) - 1)).toBeLessThan(1e-9);
        if (best > 0) {
          // Touching the reported triangle, not overlapping any.
          const end = add(pa, mul(T, out.fraction));
          const dTri = gjkDistance(s, end, qa, tris[out.triangle]!, q0v, q0, scratch).distance;
          expect(dTri).toBeGreaterThanOrEqual(0);
          expect(dTri).toBeLessThan(CAST_TARGET + CAST_TOLERANCE + 1e-9);
          expect(dot(out.normal, T)).toBeLessThan(0);
        }
      }
      console.log(
        `[cast ${kind}->${sides} mesh] ${hits} hits, ${starts} starting overlapped, ${misses} misses, ${fromBehind} triangles met from behind${doubleSided ? '' : ' (passed)'}; max |Δfraction| ${maxErr.toExponential(2)}, max lateness ${maxLate.toExponential(2)} (${refRuns} per-triangle references)`,
      );
      expect(hits).toBeGreaterThan(CASTS / 3);
      expect(misses).toBeGreaterThan(CASTS / 50);
      expect(starts).toBeGreaterThan(0);
      if (!doubleSided) expect(fromBehind).toBeGreaterThan(10);
    });
  }
});

const q0v: Vec3 = { x: 0, y: 0, z: 0 };
