// Shape casts (conservative advancement) vs a bisection reference on
// "GJK distance ≤ 0". The reference uses that d(t) is convex in t: a
// golden-section search finds its minimum, then bisection finds the first
// root before it (60 halvings: exact to ~1e-18). Tolerance: 1e-3 on the
// fraction, and the cast is never later than the reference by more than
// 1e-9 (its design never steps past contact).
import { describe, expect, it } from 'vitest';
import { GjkResult, gjkDistance } from '../../../src/collision/narrowphase/gjk';
import { CAST_TARGET, CAST_TOLERANCE, ShapeCastPairHit, shapeCastPair } from '../../../src/collision/query/shape-cast';
import type { Quat } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { rotate } from '../../../src/math/quat';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import type { ConvexShape } from '../../../src/shapes/shape';
import { Sphere } from '../../../src/shapes/sphere';
import { type Random, seeded } from '../../helpers/random';
import { referenceCast } from './cast-reference';

const CASTS = 1000;

const v3 = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const sub = (a: Vec3, b: Vec3): Vec3 => v3(a.x - b.x, a.y - b.y, a.z - b.z);
const add = (a: Vec3, b: Vec3): Vec3 => v3(a.x + b.x, a.y + b.y, a.z + b.z);
const mul = (a: Vec3, s: number): Vec3 => v3(a.x * s, a.y * s, a.z * s);
const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const len = (a: Vec3): number => Math.sqrt(dot(a, a));
const rot = (q: Quat, v: Vec3): Vec3 => rotate(v3(0, 0, 0), q, v);

const scratch = new GjkResult();

/** Signed distance of the full shapes with A at pos + t·T (an upper bound when the cores overlap, still ≤ 0). */
function distanceAt(a: ConvexShape, pos: Vec3, q: Quat, T: Vec3, t: number, b: ConvexShape, pb: Vec3, qb: Quat): number {
  return gjkDistance(a, add(pos, mul(T, t)), q, b, pb, qb, scratch).distance;
}

type Kind = 'sphere' | 'box' | 'capsule';

function makeShape(rng: Random, kind: Kind): ConvexShape {
  if (kind === 'sphere') return new Sphere(rng.range(0.1, 0.6));
  if (kind === 'capsule') return new Capsule(rng.range(0.1, 0.4), rng.range(0.1, 0.7));
  return new Box(v3(rng.range(0.05, 0.6), rng.range(0.05, 0.6), rng.range(0.05, 0.6)));
}

describe('shapeCastPair (convex targets)', () => {
  const kinds: Kind[] = ['sphere', 'capsule', 'box'];
  for (const castKind of kinds) {
    for (const targetKind of kinds) {
      it(`${castKind} cast against ${targetKind}: fraction vs bisection over ${CASTS} casts`, () => {
        const rng = seeded(300 + 10 * kinds.indexOf(castKind) + kinds.indexOf(targetKind), `cast ${castKind}->${targetKind}`);
        const out = new ShapeCastPairHit();
        let hits = 0, misses = 0, starts = 0, maxErr = 0, maxLate = -Infinity;
        for (let i = 0; i < CASTS; i++) {
          const a = makeShape(rng, castKind);
          const b = makeShape(rng, targetKind);
          const pb = rng.vec3(-30, 30);
          const qb = rng.quat();
          const qa = rng.quat();
          // Start 1–3.5 m away (a few start overlapped), aim near the target.
          const pa = add(pb, mul(rng.unitVec3(), i % 50 === 0 ? rng.range(0, 0.3) : rng.range(1, 3.5)));
          const aim = add(pb, rng.vec3(-0.8, 0.8));
          const T = mul(sub(aim, pa), rng.range(0.6, 2));
          const ref = referenceCast((t) => distanceAt(a, pa, qa, T, t, b, pb, qb));
          const hit = shapeCastPair(a, pa, qa, T, b, pb, qb, out);
          if (ref.fraction === null) {
            misses++;
            // A miss by less than the contact tolerance may be reported as a touch.
            if (hit) {
              expect(ref.minDistance).toBeLessThan(CAST_TARGET + CAST_TOLERANCE + 1e-9);
            }
            continue;
          }
          expect(hit).toBe(true);
          if (ref.fraction === 0) starts++;
          else hits++;
          const err = Math.abs(out.fraction - ref.fraction);
          maxErr = Math.max(maxErr, err);
          maxLate = Math.max(maxLate, out.fraction - ref.fraction);
          expect(err).toBeLessThan(1e-3);
          expect(out.fraction - ref.fraction).toBeLessThan(1e-9);
          expect(Math.abs(len(out.normal) - 1)).toBeLessThan(1e-9);
          // At the reported fraction the shapes touch within the tolerance and
          // do not overlap (unless they started overlapped).
          const d = distanceAt(a, pa, qa, T, out.fraction, b, pb, qb);
          if (ref.fraction > 0) {
            expect(d).toBeGreaterThanOrEqual(0);
            expect(d).toBeLessThan(CAST_TARGET + CAST_TOLERANCE + 1e-9);
            // The normal is the target's surface normal facing the cast shape:
            // the motion runs into it.
            expect(dot(out.normal, T)).toBeLessThan(0);
            // The point lies on the target's surface (distance 0 to it).
            // (The smallest sphere a shape accepts, MIN_SHAPE_SIZE = 1e-6 m, is the probe: its radius adds to the tolerance.)
            const probe = new Sphere(1e-6);
            const q0 = { x: 0, y: 0, z: 0, w: 1 };
            expect(Math.abs(gjkDistance(probe, out.point, q0, b, pb, qb, scratch).distance)).toBeLessThan(2e-6);
          }
        }
        console.log(
          `[cast ${castKind}->${targetKind}] ${hits} hits, ${starts} starting overlapped, ${misses} misses; max |Δfraction| ${maxErr.toExponential(2)}, max lateness ${maxLate.toExponential(2)}`,
        );
        expect(hits).toBeGreaterThan(CASTS / 4);
        expect(misses).toBeGreaterThan(CASTS / 20);
        expect(starts).toBeGreaterThan(0);
      });
    }
  }

  it('starting overlapped: fraction 0 with the penetration normal (target → cast)', () => {
    const out = new ShapeCastPairHit();
    const q = { x: 0, y: 0, z: 0, w: 1 };
    // Sphere sunk 0.1 m into the top of a box, moving sideways.
    expect(shapeCastPair(new Sphere(0.5), v3(0.2, 0.9, 0), q, v3(3, 0, 0), new Box(v3(1, 0.5, 1)), v3(0, 0, 0), q, out)).toBe(true);
    expect(out.fraction).toBe(0);
    expect(out.normal.y).toBeCloseTo(1, 12);
    expect(out.point.y).toBeCloseTo(0.5, 12);
  });

  it('resting contact and moving away: no hit; moving in: fraction 0', () => {
    const out = new ShapeCastPairHit();
    const q = { x: 0, y: 0, z: 0, w: 1 };
    const box = new Box(v3(1, 0.5, 1));
    const s = new Sphere(0.5);
    // Touching within the tolerance (gap 1 µm).
    expect(shapeCastPair(s, v3(0, 1 + 1e-6, 0), q, v3(1, 0.5, 0), box, v3(0, 0, 0), q, out)).toBe(false);
    expect(shapeCastPair(s, v3(0, 1 + 1e-6, 0), q, v3(1, -0.5, 0), box, v3(0, 0, 0), q, out)).toBe(true);
    expect(out.fraction).toBe(0);
  });

  it('a capsule (r 0.3, half-height 0.6) at 100 m/s for 1/60 s never passes through a 1 cm box', () => {
    const rng = seeded(42, 'cast thin wall');
    const capsule = new Capsule(0.3, 0.6);
    const wall = new Box(v3(1, 0.005, 1));
    const out = new ShapeCastPairHit();
    const step = 100 / 60;
    let maxErr = 0;
    for (let i = 0; i < 1000; i++) {
      const qb = rng.quat();
      const pb = rng.vec3(-10, 10);
      const n = rot(qb, v3(0, 1, 0));
      const u = rot(qb, v3(1, 0, 0));
      const w = rot(qb, v3(0, 0, 1));
      // Start clear of the wall on its +n side (the capsule reaches 0.9 m
      // from its centre), offset within ±0.3 m in the wall's plane.
      const pa = add(add(pb, mul(n, rng.range(0.92, 1.2))), add(mul(u, rng.range(-0.3, 0.3)), mul(w, rng.range(-0.3, 0.3))));
      const qa = rng.quat();
      // Travel 1.667 m into the wall, tilted up to 20° from its normal: the
      // path always crosses the wall's face.
      const tilt = rng.range(0, (20 * Math.PI) / 180);
      const az = rng.range(0, 2 * Math.PI);
      const dir = add(mul(n, -Math.cos(tilt)), add(mul(u, Math.sin(tilt) * Math.cos(az)), mul(w, Math.sin(tilt) * Math.sin(az))));
      const T = mul(dir, step);
      const hit = shapeCastPair(capsule, pa, qa, T, wall, pb, qb, out);
      expect(hit).toBe(true);
      expect(out.fraction).toBeGreaterThan(0);
      expect(out.fraction).toBeLessThan(1);
      const end = add(pa, mul(T, out.fraction));
      // In front of the wall: not overlapping, within the contact tolerance,
      // centre on the starting side.
      const d = gjkDistance(capsule, end, qa, wall, pb, qb, scratch).distance;
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(1e-4);
      expect(dot(sub(end, pb), n)).toBeGreaterThan(0.005 + 0.3);
      const ref = referenceCast((t) => distanceAt(capsule, pa, qa, T, t, wall, pb, qb));
      expect(ref.fraction).not.toBeNull();
      expect(out.fraction).toBeLessThanOrEqual(ref.fraction! + 1e-9);
      maxErr = Math.max(maxErr, Math.abs(out.fraction - ref.fraction!) * step);
    }
    console.log(`[cast thin wall] 1000/1000 stopped in front; max |Δposition| ${maxErr.toExponential(2)} m`);
    expect(maxErr).toBeLessThan(1e-4);
  });
});
