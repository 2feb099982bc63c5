// GJK distance and EPA penetration against closed-form references.
// Tolerance 1e-4 m on distances and depths (the brief's bound); the
// references below are exact (feature enumeration, SAT over all candidate
// axes), so the measured errors are ~1e-12 in practice.
import { describe, expect, it } from 'vitest';
import { epaPenetration } from '../../src/collision/narrowphase/epa';
import { GjkResult, gjkDistance } from '../../src/collision/narrowphase/gjk';
import { inverseRotate, rotate } from '../../src/math/quat';
import type { Quat } from '../../src/math/quat';
import type { Vec3 } from '../../src/math/vec3';
import { Box } from '../../src/shapes/box';
import { Capsule } from '../../src/shapes/capsule';
import type { ConvexShape } from '../../src/shapes/shape';
import { Sphere } from '../../src/shapes/sphere';
import { type Random, seeded } from '../helpers/random';

const POSES = 1000;
const TOL = 1e-4;

// ---------- exact references ----------

const v3 = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const sub = (a: Vec3, b: Vec3): Vec3 => v3(a.x - b.x, a.y - b.y, a.z - b.z);
const add = (a: Vec3, b: Vec3): Vec3 => v3(a.x + b.x, a.y + b.y, a.z + b.z);
const mul = (a: Vec3, s: number): Vec3 => v3(a.x * s, a.y * s, a.z * s);
const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const cross = (a: Vec3, b: Vec3): Vec3 => v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
const len = (a: Vec3): number => Math.sqrt(dot(a, a));
const rot = (q: Quat, v: Vec3): Vec3 => rotate(v3(0, 0, 0), q, v);
const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/** Closest points of segments p1q1 and p2q2 (Ericson §5.1.9), returns distance. */
function segmentSegmentDistance(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3): number {
  const d1 = sub(q1, p1), d2 = sub(q2, p2), r = sub(p1, p2);
  const a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  let s = 0, t = 0;
  if (a <= 1e-18 && e <= 1e-18) return len(r);
  if (a <= 1e-18) {
    t = clamp(f / e, 0, 1);
  } else {
    const c = dot(d1, r);
    if (e <= 1e-18) {
      s = clamp(-c / a, 0, 1);
    } else {
      const b = dot(d1, d2);
      const denom = a * e - b * b;
      s = denom > 1e-18 ? clamp((b * f - c * e) / denom, 0, 1) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp(-c / a, 0, 1);
      } else if (t > 1) {
        t = 1;
        s = clamp((b - c) / a, 0, 1);
      }
    }
  }
  return len(sub(add(p1, mul(d1, s)), add(p2, mul(d2, t))));
}

/** Distance from point p to segment pq. */
function pointSegmentDistance(p: Vec3, a: Vec3, b: Vec3): number {
  const ab = sub(b, a);
  const t = clamp(dot(sub(p, a), ab) / dot(ab, ab), 0, 1);
  return len(sub(p, add(a, mul(ab, t))));
}

/** Signed distance from p to a box (half extents h) at pose (c, q): < 0 inside. */
function pointBoxSignedDistance(p: Vec3, h: Vec3, c: Vec3, q: Quat): number {
  const l = inverseRotate(v3(0, 0, 0), q, sub(p, c));
  const dx = Math.abs(l.x) - h.x, dy = Math.abs(l.y) - h.y, dz = Math.abs(l.z) - h.z;
  if (dx <= 0 && dy <= 0 && dz <= 0) return Math.max(dx, dy, dz);
  return Math.hypot(Math.max(dx, 0), Math.max(dy, 0), Math.max(dz, 0));
}

function boxCorners(h: Vec3, c: Vec3, q: Quat): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < 8; i++) {
    out.push(add(c, rot(q, v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z))));
  }
  return out;
}

function boxEdges(h: Vec3, c: Vec3, q: Quat): [Vec3, Vec3][] {
  const k = boxCorners(h, c, q);
  const edges: [Vec3, Vec3][] = [];
  for (let i = 0; i < 8; i++) {
    for (let bit = 1; bit < 8; bit <<= 1) if (!(i & bit)) edges.push([k[i]!, k[i | bit]!]);
  }
  return edges;
}

/** Does segment ab intersect the box (slab test in the box frame)? */
function segmentHitsBox(a: Vec3, b: Vec3, h: Vec3, c: Vec3, q: Quat): boolean {
  const o = inverseRotate(v3(0, 0, 0), q, sub(a, c));
  const d = inverseRotate(v3(0, 0, 0), q, sub(b, a));
  let t0 = 0, t1 = 1;
  for (const [oi, di, hi] of [[o.x, d.x, h.x], [o.y, d.y, h.y], [o.z, d.z, h.z]] as const) {
    if (Math.abs(di) < 1e-15) {
      if (Math.abs(oi) > hi) return false;
      continue;
    }
    let ta = (-hi - oi) / di, tb = (hi - oi) / di;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

/** Exact distance between a box and a segment that does not intersect it. */
function boxSegmentDistance(h: Vec3, c: Vec3, q: Quat, a: Vec3, b: Vec3): number {
  let best = Math.min(pointBoxSignedDistance(a, h, c, q), pointBoxSignedDistance(b, h, c, q));
  for (const [e0, e1] of boxEdges(h, c, q)) best = Math.min(best, segmentSegmentDistance(e0, e1, a, b));
  return best;
}

/** Exact distance between two disjoint boxes: vertex–box both ways and edge–edge. */
function boxBoxDistance(hA: Vec3, cA: Vec3, qA: Quat, hB: Vec3, cB: Vec3, qB: Quat): number {
  let best = Infinity;
  for (const p of boxCorners(hA, cA, qA)) best = Math.min(best, pointBoxSignedDistance(p, hB, cB, qB));
  for (const p of boxCorners(hB, cB, qB)) best = Math.min(best, pointBoxSignedDistance(p, hA, cA, qA));
  const eb = boxEdges(hB, cB, qB);
  for (const [a0, a1] of boxEdges(hA, cA, qA)) for (const [b0, b1] of eb) best = Math.min(best, segmentSegmentDistance(a0, a1, b0, b1));
  return best;
}

function boxAxes(q: Quat): Vec3[] {
  return [rot(q, v3(1, 0, 0)), rot(q, v3(0, 1, 0)), rot(q, v3(0, 0, 1))];
}

/** Projection half-length of a box on unit axis n. */
function boxRadius(h: Vec3, axes: Vec3[], n: Vec3): number {
  return h.x * Math.abs(dot(axes[0]!, n)) + h.y * Math.abs(dot(axes[1]!, n)) + h.z * Math.abs(dot(axes[2]!, n));
}

/**
 * SAT penetration depth of two boxes: the minimum overlap over the 15
 * candidate axes (3 + 3 face normals, 9 edge cross products) — the face
 * normals of the Minkowski difference, so the minimum is the exact depth.
 * Returns a negative value when some axis separates them.
 */
function boxBoxSatDepth(hA: Vec3, cA: Vec3, qA: Quat, hB: Vec3, cB: Vec3, qB: Quat): number {
  const aA = boxAxes(qA), aB = boxAxes(qB);
  const axes: Vec3[] = [...aA, ...aB];
  for (const u of aA) for (const w of aB) axes.push(cross(u, w));
  const d = sub(cB, cA);
  let depth = Infinity;
  for (const raw of axes) {
    const l = len(raw);
    if (l < 1e-9) continue;
    const n = mul(raw, 1 / l);
    depth = Math.min(depth, boxRadius(hA, aA, n) + boxRadius(hB, aB, n) - Math.abs(dot(d, n)));
  }
  return depth;
}

/** SAT depth of a box and a segment (box faces, box edges × segment direction). */
function boxSegmentSatDepth(h: Vec3, c: Vec3, q: Quat, a: Vec3, b: Vec3): number {
  const ax = boxAxes(q);
  const s = sub(b, a);
  const axes: Vec3[] = [...ax, ...ax.map((u) => cross(u, s))];
  let depth = Infinity;
  for (const raw of axes) {
    const l = len(raw);
    if (l < 1e-9) continue;
    const n = mul(raw, 1 / l);
    const r = boxRadius(h, ax, n);
    const pa = dot(sub(a, c), n), pb = dot(sub(b, c), n);
    // Overlap of the intervals [−r, r] and [min(pa,pb), max(pa,pb)].
    depth = Math.min(depth, Math.min(r - Math.min(pa, pb), Math.max(pa, pb) + r));
  }
  return depth;
}

// ---------- pose generation ----------

interface Posed {
  shape: ConvexShape;
  pos: Vec3;
  rot: Quat;
}

function capsuleEnds(p: Posed): [Vec3, Vec3] {
  const c = p.shape as Capsule;
  const ax = rot(p.rot, v3(0, c.halfHeight, 0));
  return [sub(p.pos, ax), add(p.pos, ax)];
}

function randomShape(rng: Random, kind: 'sphere' | 'box' | 'capsule'): ConvexShape {
  if (kind === 'sphere') return new Sphere(rng.range(0.1, 0.8));
  if (kind === 'capsule') return new Capsule(rng.range(0.1, 0.5), rng.range(0.1, 0.8));
  return new Box(v3(rng.range(0.1, 0.8), rng.range(0.1, 0.8), rng.range(0.1, 0.8)));
}

function randomPose(rng: Random, shape: ConvexShape, spread: number, base: Vec3): Posed {
  return { shape, pos: add(base, rng.vec3(-spread, spread)), rot: rng.quat() };
}

/** Signed reference distance (negative = −depth) for any supported pair, or null when no exact reference applies. */
function referenceSigned(A: Posed, B: Posed): number | null {
  const ka = A.shape.kind, kb = B.shape.kind;
  if (ka > kb) return referenceSigned(B, A);
  const ra = A.shape.coreRadius, rb = B.shape.coreRadius;
  if (A.shape instanceof Sphere && B.shape instanceof Sphere) return len(sub(A.pos, B.pos)) - ra - rb;
  if (A.shape instanceof Sphere && B.shape instanceof Capsule) {
    const [b0, b1] = capsuleEnds(B);
    return pointSegmentDistance(A.pos, b0, b1) - ra - rb;
  }
  if (A.shape instanceof Capsule && B.shape instanceof Capsule) {
    const [a0, a1] = capsuleEnds(A);
    const [b0, b1] = capsuleEnds(B);
    return segmentSegmentDistance(a0, a1, b0, b1) - ra - rb;
  }
  if (A.shape instanceof Sphere && B.shape instanceof Box) {
    return pointBoxSignedDistance(A.pos, B.shape.halfExtents, B.pos, B.rot) - ra;
  }
  if (A.shape instanceof Box && B.shape instanceof Capsule) {
    const [b0, b1] = capsuleEnds(B);
    const h = A.shape.halfExtents;
    if (segmentHitsBox(b0, b1, h, A.pos, A.rot)) return -boxSegmentSatDepth(h, A.pos, A.rot, b0, b1) - rb;
    return boxSegmentDistance(h, A.pos, A.rot, b0, b1) - rb;
  }
  if (A.shape instanceof Box && B.shape instanceof Box) {
    const hA = A.shape.halfExtents, hB = B.shape.halfExtents;
    const sat = boxBoxSatDepth(hA, A.pos, A.rot, hB, B.pos, B.rot);
    if (sat > 0) return -sat;
    return boxBoxDistance(hA, A.pos, A.rot, hB, B.pos, B.rot);
  }
  return null;
}

/** Overlap of the two shapes' projections on n (support functions, exact). */
function overlapAlong(A: Posed, B: Posed, n: Vec3): number {
  const local = (p: Posed, d: Vec3): number => {
    const dl = inverseRotate(v3(0, 0, 0), p.rot, d);
    const s = p.shape.support(v3(0, 0, 0), dl);
    return dot(add(p.pos, rot(p.rot, s)), d);
  };
  return local(A, n) + local(B, mul(n, -1));
}

const PAIRS: ['sphere' | 'box' | 'capsule', 'sphere' | 'box' | 'capsule'][] = [
  ['sphere', 'sphere'],
  ['sphere', 'box'],
  ['box', 'sphere'],
  ['sphere', 'capsule'],
  ['capsule', 'capsule'],
  ['box', 'box'],
  ['box', 'capsule'],
  ['capsule', 'box'],
];

describe('gjkDistance', () => {
  for (const [ka, kb] of PAIRS) {
    it(`${ka}–${kb}: distance, normal and witnesses match the exact reference over ${POSES} poses`, () => {
      const rng = seeded(1000 + ka.length * 31 + kb.length * 7 + (ka === 'box' ? 3 : 0), `gjk ${ka}-${kb}`);
      const out = new GjkResult();
      let maxErr = 0;
      let tested = 0;
      let overlapping = 0;
      for (let i = 0; i < POSES; i++) {
        const A = randomPose(rng, randomShape(rng, ka), 0.5, v3(rng.range(-50, 50), 0, 0));
        const B = randomPose(rng, randomShape(rng, kb), 2, A.pos);
        gjkDistance(A.shape, A.pos, A.rot, B.shape, B.pos, B.rot, out);
        const ref = referenceSigned(A, B)!;
        // Cores overlapping: gjkDistance only bounds the distance (EPA's job).
        const coreOverlap = out.distance === -(A.shape.coreRadius + B.shape.coreRadius) && out.overlapping;
        if (coreOverlap) {
          expect(ref).toBeLessThanOrEqual(out.distance + TOL);
          continue;
        }
        tested++;
        if (out.overlapping) overlapping++;
        const err = Math.abs(out.distance - ref);
        maxErr = Math.max(maxErr, err);
        expect(err).toBeLessThan(TOL);
        expect(Math.abs(len(out.normal) - 1)).toBeLessThan(1e-9);
        // pointB − pointA = distance · normal; the shapes' projections on the
        // normal overlap by exactly −distance (the normal is the true axis).
        const gap = sub(out.pointB, out.pointA);
        expect(len(sub(gap, mul(out.normal, out.distance)))).toBeLessThan(TOL);
        expect(Math.abs(overlapAlong(A, B, out.normal) + out.distance)).toBeLessThan(TOL);
      }
      console.log(`[gjk ${ka}-${kb}] tested ${tested} (${overlapping} overlapping shapes), max |error| = ${maxErr.toExponential(2)}`);
      expect(tested).toBeGreaterThanOrEqual(POSES * 0.6);
    });
  }

  it('box–box far from the origin (1e4 m) keeps 1e-6 accuracy', () => {
    const rng = seeded(77, 'gjk far');
    const out = new GjkResult();
    let maxErr = 0;
    for (let i = 0; i < 200; i++) {
      const base = v3(1e4, -2e4, 5e3);
      const A = randomPose(rng, randomShape(rng, 'box'), 0.2, base);
      const B = randomPose(rng, randomShape(rng, 'box'), 2, A.pos);
      const ref = referenceSigned(A, B)!;
      if (ref <= 0) continue;
      gjkDistance(A.shape, A.pos, A.rot, B.shape, B.pos, B.rot, out);
      maxErr = Math.max(maxErr, Math.abs(out.distance - ref));
    }
    expect(maxErr).toBeLessThan(1e-6);
  });
});

describe('epaPenetration', () => {
  for (const [ka, kb] of PAIRS) {
    it(`${ka}–${kb}: signed depth matches the analytic depth over ${POSES} overlapping poses`, () => {
      const rng = seeded(2000 + ka.length * 31 + kb.length * 7 + (ka === 'box' ? 3 : 0), `epa ${ka}-${kb}`);
      const out = new GjkResult();
      let maxErr = 0;
      let deepCores = 0;
      let n = 0;
      let guard = 0;
      while (n < POSES && guard++ < 50 * POSES) {
        const A = randomPose(rng, randomShape(rng, ka), 0.5, v3(0, 0, 0));
        const B = randomPose(rng, randomShape(rng, kb), 0.6, A.pos);
        const ref = referenceSigned(A, B)!;
        if (ref >= -1e-6) continue;
        n++;
        epaPenetration(A.shape, A.pos, A.rot, B.shape, B.pos, B.rot, out);
        const err = Math.abs(out.distance - ref);
        maxErr = Math.max(maxErr, err);
        expect(err).toBeLessThan(TOL);
        expect(out.overlapping).toBe(true);
        expect(Math.abs(len(out.normal) - 1)).toBeLessThan(1e-9);
        // The normal is a minimum-translation direction: the projections on it
        // overlap by exactly the depth.
        expect(Math.abs(overlapAlong(A, B, out.normal) + out.distance)).toBeLessThan(TOL);
        // pointA − pointB = depth · normal.
        expect(len(sub(sub(out.pointA, out.pointB), mul(out.normal, -out.distance)))).toBeLessThan(TOL);
        if (-out.distance > A.shape.coreRadius + B.shape.coreRadius + 1e-9) deepCores++;
      }
      console.log(`[epa ${ka}-${kb}] ${n} poses, ${deepCores} with overlapping cores, max |error| = ${maxErr.toExponential(2)}`);
      expect(n).toBe(POSES);
    });
  }

  it('crossing capsule segments: depth rA + rB along the common perpendicular', () => {
    const a = new Capsule(0.3, 1);
    const b = new Capsule(0.2, 1);
    const out = new GjkResult();
    const qa = { x: 0, y: 0, z: 0, w: 1 };
    // B lies along X (rotated 90° about Z), crossing A's segment at the origin.
    const s = Math.SQRT1_2;
    const qb = { x: 0, y: 0, z: s, w: s };
    epaPenetration(a, v3(0, 0, 0), qa, b, v3(0, 0.1, 0), qb, out);
    expect(out.distance).toBeCloseTo(-0.5, 9);
    expect(Math.abs(out.normal.z)).toBeCloseTo(1, 9);
    // The contact is at the crossing point (0, 0.1, 0).
    expect(out.pointA.y).toBeCloseTo(0.1, 9);
  });

  it('random crossing capsule segments (cores overlap): depth rA + rB, normal ⟂ both axes', () => {
    const rng = seeded(2100, 'epa crossing capsules');
    const out = new GjkResult();
    let maxErr = 0;
    for (let i = 0; i < 500; i++) {
      const a = new Capsule(rng.range(0.1, 0.5), rng.range(0.2, 0.8));
      const b = new Capsule(rng.range(0.1, 0.5), rng.range(0.2, 0.8));
      const qa = rng.quat(), qb = rng.quat();
      const pa = rng.vec3(-5, 5);
      // B's segment passes through a point of A's segment.
      const onA = add(pa, rot(qa, v3(0, rng.range(-a.halfHeight, a.halfHeight), 0)));
      const pb = sub(onA, rot(qb, v3(0, rng.range(-b.halfHeight, b.halfHeight), 0)));
      epaPenetration(a, pa, qa, b, pb, qb, out);
      const err = Math.abs(out.distance + a.radius + b.radius);
      maxErr = Math.max(maxErr, err);
      expect(err).toBeLessThan(1e-6);
      expect(Math.abs(dot(out.normal, rot(qa, v3(0, 1, 0))))).toBeLessThan(1e-6);
      expect(Math.abs(dot(out.normal, rot(qb, v3(0, 1, 0))))).toBeLessThan(1e-6);
      expect(Math.abs(overlapAlong({ shape: a, pos: pa, rot: qa }, { shape: b, pos: pb, rot: qb }, out.normal) + out.distance)).toBeLessThan(1e-6);
    }
    console.log(`[epa crossing capsules] 500 poses, max |error| = ${maxErr.toExponential(2)}`);
  });

  it('concentric spheres: depth is the sum of the radii', () => {
    const out = new GjkResult();
    const q = { x: 0, y: 0, z: 0, w: 1 };
    epaPenetration(new Sphere(0.5), v3(1, 2, 3), q, new Sphere(0.25), v3(1, 2, 3), q, out);
    expect(out.distance).toBeCloseTo(-0.75, 12);
    expect(len(out.normal)).toBeCloseTo(1, 12);
  });

  it('separated shapes: epaPenetration reports the positive distance like GJK', () => {
    const out = new GjkResult();
    const q = { x: 0, y: 0, z: 0, w: 1 };
    epaPenetration(new Box(v3(0.5, 0.5, 0.5)), v3(0, 0, 0), q, new Sphere(0.25), v3(2, 0, 0), q, out);
    expect(out.distance).toBeCloseTo(1.25, 12);
    expect(out.overlapping).toBe(false);
    expect(out.normal.x).toBeCloseTo(1, 12);
  });
});
