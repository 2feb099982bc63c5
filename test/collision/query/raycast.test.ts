// Ray casts against single shapes vs references written in world space
// (no local frame): hit distances within 1e-9 m, normals within 1e-9.
import { describe, expect, it } from 'vitest';
import { raycastShape, ShapeRayHit } from '../../../src/collision/query/raycast';
import type { Quat } from '../../../src/math/quat';
import { rotate } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import { Sphere } from '../../../src/shapes/sphere';
import { TriangleMesh } from '../../../src/shapes/triangle-mesh';
import { type Random, seeded } from '../../helpers/random';

const RAYS = 2000;
const TOL = 1e-9;

const v3 = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const sub = (a: Vec3, b: Vec3): Vec3 => v3(a.x - b.x, a.y - b.y, a.z - b.z);
const add = (a: Vec3, b: Vec3): Vec3 => v3(a.x + b.x, a.y + b.y, a.z + b.z);
const mul = (a: Vec3, s: number): Vec3 => v3(a.x * s, a.y * s, a.z * s);
const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const cross = (a: Vec3, b: Vec3): Vec3 => v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
const len = (a: Vec3): number => Math.sqrt(dot(a, a));
const unit = (a: Vec3): Vec3 => mul(a, 1 / len(a));
const rot = (q: Quat, v: Vec3): Vec3 => rotate(v3(0, 0, 0), q, v);

interface RefHit {
  t: number;
  n: Vec3;
}

/** Entry root of |w + t d|² = r² for unit d (textbook form), or null. */
function sphereEntry(w: Vec3, d: Vec3, r: number): number | null {
  const b = dot(w, d);
  const c = dot(w, w) - r * r;
  const disc = b * b - c;
  if (disc < 0) return null;
  const t = -b - Math.sqrt(disc);
  return t >= 0 ? t : null;
}

function refSphere(center: Vec3, r: number, o: Vec3, d: Vec3): RefHit | null {
  const w = sub(o, center);
  if (dot(w, w) <= r * r) return { t: 0, n: mul(d, -1) };
  const t = sphereEntry(w, d, r);
  if (t === null) return null;
  return { t, n: unit(sub(add(o, mul(d, t)), center)) };
}

/** Each face plane of the box in world space; keep entries whose point lies on the face. */
function refBox(center: Vec3, q: Quat, h: Vec3, o: Vec3, d: Vec3): RefHit | null {
  const axes = [rot(q, v3(1, 0, 0)), rot(q, v3(0, 1, 0)), rot(q, v3(0, 0, 1))];
  const ext = [h.x, h.y, h.z];
  const local = axes.map((a) => dot(sub(o, center), a));
  if (local.every((l, i) => Math.abs(l) <= ext[i]!)) return { t: 0, n: mul(d, -1) };
  let best: RefHit | null = null;
  for (let i = 0; i < 3; i++) {
    for (const s of [-1, 1]) {
      const n = mul(axes[i]!, s);
      const dn = dot(d, n);
      if (dn >= 0) continue;
      const planeOffset = dot(center, n) + ext[i]!;
      const t = (planeOffset - dot(o, n)) / dn;
      if (t < 0) continue;
      const p = sub(add(o, mul(d, t)), center);
      let onFace = true;
      for (let j = 0; j < 3; j++) if (j !== i && Math.abs(dot(p, axes[j]!)) > ext[j]! + 1e-12) onFace = false;
      if (onFace && (best === null || t < best.t)) best = { t, n };
    }
  }
  return best;
}

function refCapsule(center: Vec3, q: Quat, r: number, h: number, o: Vec3, d: Vec3): RefHit | null {
  const u = rot(q, v3(0, 1, 0));
  const w = sub(o, center);
  const axial = Math.max(-h, Math.min(h, dot(w, u)));
  if (len(sub(w, mul(u, axial))) <= r) return { t: 0, n: mul(d, -1) };
  let best: RefHit | null = null;
  // Side of the cylinder: the components perpendicular to the axis.
  const wp = sub(w, mul(u, dot(w, u)));
  const dp = sub(d, mul(u, dot(d, u)));
  const a = dot(dp, dp);
  if (a > 1e-300) {
    const b = dot(wp, dp);
    const c = dot(wp, wp) - r * r;
    const disc = b * b - a * c;
    if (disc >= 0) {
      const t = (-b - Math.sqrt(disc)) / a;
      const p = add(w, mul(d, t));
      if (t >= 0 && Math.abs(dot(p, u)) <= h) best = { t, n: unit(sub(p, mul(u, dot(p, u)))) };
    }
  }
  for (const s of [-1, 1]) {
    const cs = add(center, mul(u, s * h));
    const t = sphereEntry(sub(o, cs), d, r);
    if (t !== null && (best === null || t < best.t)) best = { t, n: unit(sub(add(o, mul(d, t)), cs)) };
  }
  return best;
}

/** A ray from a shell around `center` aimed at a point near it (about 2/3 hit). */
function randomRay(rng: Random, center: Vec3, reach: number): { o: Vec3; d: Vec3 } {
  const o = add(center, mul(rng.unitVec3(), rng.range(2, 4)));
  const target = add(center, rng.vec3(-reach, reach));
  return { o, d: unit(sub(target, o)) };
}

function checkAgainst(
  label: string,
  rng: Random,
  cast: (o: Vec3, d: Vec3, maxD: number, out: ShapeRayHit) => boolean,
  ref: (o: Vec3, d: Vec3) => RefHit | null,
  center: Vec3,
  reach: number,
  inside: () => Vec3,
): void {
  const out = new ShapeRayHit();
  let hits = 0, misses = 0, clipped = 0, maxErr = 0, maxNormalErr = 0;
  for (let i = 0; i < RAYS; i++) {
    const { o, d } = randomRay(rng, center, reach);
    const r = ref(o, d);
    // Half the rays get a limit that cuts some hits off.
    const maxD = i % 2 === 0 ? 100 : rng.range(1, 5);
    const hit = cast(o, d, maxD, out);
    if (r === null || r.t > maxD) {
      if (r !== null) clipped++;
      else misses++;
      expect(hit).toBe(false);
      continue;
    }
    hits++;
    expect(hit).toBe(true);
    const err = Math.abs(out.distance - r.t);
    maxErr = Math.max(maxErr, err);
    expect(err).toBeLessThan(TOL);
    const nErr = len(sub(out.normal, r.n));
    maxNormalErr = Math.max(maxNormalErr, nErr);
    expect(nErr).toBeLessThan(1e-9);
    expect(len(sub(out.point, add(o, mul(d, r.t))))).toBeLessThan(TOL);
    expect(out.triangle).toBe(-1);
  }
  // From inside: distance 0, normal −direction.
  for (let i = 0; i < 200; i++) {
    const o = inside();
    const d = rng.unitVec3();
    expect(cast(o, d, 10, out)).toBe(true);
    expect(out.distance).toBe(0);
    expect(len(sub(out.normal, mul(d, -1)))).toBeLessThan(1e-15);
  }
  console.log(`[ray ${label}] ${hits} hits, ${misses} misses, ${clipped} beyond maxDistance; max |Δt| ${maxErr.toExponential(2)}, max |Δn| ${maxNormalErr.toExponential(2)}`);
  expect(hits).toBeGreaterThan(RAYS / 5);
  expect(misses).toBeGreaterThan(RAYS / 20);
  expect(clipped).toBeGreaterThan(0);
}

describe('raycastShape', () => {
  it('sphere: distance and normal vs the world-space quadratic', () => {
    const rng = seeded(11, 'ray sphere');
    for (let k = 0; k < 5; k++) {
      const r = rng.range(0.2, 1.2);
      const c = rng.vec3(-20, 20);
      const q = rng.quat();
      const s = new Sphere(r);
      checkAgainst(
        `sphere r=${r.toFixed(2)}`,
        rng,
        (o, d, m, out) => raycastShape(s, c, q, o, d, m, out),
        (o, d) => refSphere(c, r, o, d),
        c,
        1.2 * r,
        () => add(c, mul(rng.unitVec3(), r * rng.range(0, 0.999))),
      );
    }
  });

  it('box: distance and face normal vs intersecting the six face planes', () => {
    const rng = seeded(12, 'ray box');
    for (let k = 0; k < 5; k++) {
      const h = rng.vec3(0.1, 1.2);
      const c = rng.vec3(-20, 20);
      const q = rng.quat();
      const b = new Box(h);
      checkAgainst(
        'box',
        rng,
        (o, d, m, out) => raycastShape(b, c, q, o, d, m, out),
        (o, d) => refBox(c, q, h, o, d),
        c,
        1.1 * Math.max(h.x, h.y, h.z),
        () => add(c, rot(q, v3(h.x * rng.range(-0.999, 0.999), h.y * rng.range(-0.999, 0.999), h.z * rng.range(-0.999, 0.999)))),
      );
    }
  });

  it('capsule: distance and normal vs cylinder side + end spheres in world space', () => {
    const rng = seeded(13, 'ray capsule');
    for (let k = 0; k < 5; k++) {
      const r = rng.range(0.1, 0.6);
      const hh = rng.range(0.1, 1);
      const c = rng.vec3(-20, 20);
      const q = rng.quat();
      const cap = new Capsule(r, hh);
      checkAgainst(
        'capsule',
        rng,
        (o, d, m, out) => raycastShape(cap, c, q, o, d, m, out),
        (o, d) => refCapsule(c, q, r, hh, o, d),
        c,
        0.8 * (r + hh),
        () => add(c, add(rot(q, v3(0, rng.range(-hh, hh), 0)), mul(rng.unitVec3(), r * rng.range(0, 0.999)))),
      );
    }
  });

  it('axis-aligned rays (zero direction components) hit boxes and capsules exactly', () => {
    const out = new ShapeRayHit();
    const id = { x: 0, y: 0, z: 0, w: 1 };
    expect(raycastShape(new Box(v3(1, 2, 3)), v3(0, 0, 0), id, v3(5, 0.5, 0.5), v3(-1, 0, 0), 10, out)).toBe(true);
    expect(out.distance).toBe(4);
    expect(out.normal).toEqual({ x: 1, y: 0, z: 0 });
    expect(raycastShape(new Box(v3(1, 2, 3)), v3(0, 0, 0), id, v3(5, 2.5, 0), v3(-1, 0, 0), 10, out)).toBe(false);
    expect(raycastShape(new Capsule(0.5, 1), v3(0, 0, 0), id, v3(0, 5, 0), v3(0, -1, 0), 10, out)).toBe(true);
    expect(out.distance).toBeCloseTo(3.5, 12);
    expect(out.normal.y).toBeCloseTo(1, 12);
    expect(raycastShape(new Capsule(0.5, 1), v3(0, 0, 0), id, v3(3, 0.2, 0), v3(-1, 0, 0), 10, out)).toBe(true);
    expect(out.distance).toBeCloseTo(2.5, 12);
  });

  it('triangle mesh (10 000-triangle height field, posed, one-sided and double-sided): closest hit vs brute force over every triangle', () => {
    const rng = seeded(14, 'ray mesh');
    // 100 × 50 cells of 0.2 m, two triangles each; a rolling height field.
    const nx = 100, nz = 50, cell = 0.2;
    const positions: number[] = [];
    for (let j = 0; j <= nz; j++) {
      for (let i = 0; i <= nx; i++) {
        const x = i * cell - (nx * cell) / 2, z = j * cell - (nz * cell) / 2;
        positions.push(x, 0.6 * Math.sin(0.7 * x) * Math.cos(0.9 * z) + 0.05 * rng.range(-1, 1), z);
      }
    }
    const indices: number[] = [];
    for (let j = 0; j < nz; j++) {
      for (let i = 0; i < nx; i++) {
        const a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
        indices.push(a, c, b, b, c, d);
      }
    }
    const oneSided = new TriangleMesh(positions, indices);
    const doubleSided = new TriangleMesh(positions, indices, { doubleSided: true });
    const mesh = oneSided;
    expect(mesh.triangleCount).toBe(10000);
    const pos = v3(3, -1, 2);
    const q = rng.quat();
    // World-space triangles for the brute force.
    const tris: [Vec3, Vec3, Vec3][] = [];
    for (let t = 0; t < mesh.triangleCount; t++) {
      const a = v3(0, 0, 0), b = v3(0, 0, 0), c = v3(0, 0, 0);
      mesh.getTriangle(t, a, b, c);
      tris.push([add(pos, rot(q, a)), add(pos, rot(q, b)), add(pos, rot(q, c))]);
    }
    // Möller–Trumbore; det = −d·(e1 × e2) > 0 on the front face.
    const hitTri = (o: Vec3, d: Vec3, [a, b, c]: [Vec3, Vec3, Vec3], twoSided = true): number | null => {
      const e1 = sub(b, a), e2 = sub(c, a);
      const p = cross(d, e2);
      const det = dot(e1, p);
      if (twoSided ? Math.abs(det) < 1e-18 : det < 1e-18) return null;
      const inv = 1 / det;
      const s = sub(o, a);
      const u = dot(s, p) * inv;
      if (u < 0 || u > 1) return null;
      const qv = cross(s, e1);
      const v = dot(d, qv) * inv;
      if (v < 0 || u + v > 1) return null;
      const t = dot(e2, qv) * inv;
      return t >= 0 ? t : null;
    };
    const out = new ShapeRayHit();
    let hits = 0, misses = 0, maxErr = 0, backHits = 0;
    const up = rot(q, v3(0, 1, 0));
    for (let i = 0; i < 600; i++) {
      const m = i % 2 === 0 ? oneSided : doubleSided;
      // Rays from above the field (in its frame) at random slants, some grazing,
      // some in random directions; every other ray on each mesh goes up from below.
      const below = i % 4 >= 2;
      const local = v3(rng.range(-11, 11), below ? rng.range(-3, -1) : rng.range(-1, 3), rng.range(-6, 6));
      const o = add(pos, rot(q, local));
      const slant = mul(rng.unitVec3(), rng.range(0, 1.2));
      const d = i % 5 === 0 ? rng.unitVec3() : unit(add(mul(up, below ? 1 : -1), slant));
      const maxD = 30;
      let best = Infinity;
      for (const tri of tris) {
        const t = hitTri(o, d, tri, m.doubleSided);
        if (t !== null && t < best) best = t;
      }
      const hit = raycastShape(m, pos, q, o, d, maxD, out);
      if (best > maxD) {
        misses++;
        expect(hit).toBe(false);
        continue;
      }
      hits++;
      expect(hit).toBe(true);
      const err = Math.abs(out.distance - best);
      maxErr = Math.max(maxErr, err);
      expect(err).toBeLessThan(TOL);
      // The reported triangle is hit at that distance (ties on shared edges allowed).
      expect(Math.abs(hitTri(o, d, tris[out.triangle]!)! - best)).toBeLessThan(TOL);
      // Normal: the triangle's face normal, turned towards the ray origin.
      const [a, b, c] = tris[out.triangle]!;
      const fn = unit(cross(sub(b, a), sub(c, a)));
      const expected = dot(fn, d) > 0 ? mul(fn, -1) : fn;
      expect(len(sub(out.normal, expected))).toBeLessThan(1e-9);
      if (dot(fn, d) > 0) {
        expect(m.doubleSided).toBe(true);
        backHits++;
      }
    }
    console.log(`[ray mesh] ${backHits} of the hits on back faces (double-sided mesh only)`);
    expect(backHits).toBeGreaterThan(50);
    console.log(`[ray mesh] ${hits} hits, ${misses} misses, max |Δt| ${maxErr.toExponential(2)}`);
    expect(hits).toBeGreaterThan(100);
    expect(misses).toBeGreaterThan(5);
  });
});
