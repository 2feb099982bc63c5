import { describe, expect, it } from 'vitest';
import { aabb, type Aabb } from '../../src/collision/aabb';
import { MeshRayHit, TriangleMesh } from '../../src/shapes/triangle-mesh';
import { seeded, type Random } from '../helpers/random';

/** A cols × rows heightfield-like grid over [0, cols·cell] × [0, rows·cell], normals up. */
function grid(cols: number, rows: number, cell: number, height: (i: number, j: number) => number, doubleSided = false): TriangleMesh {
  const positions: number[] = [];
  for (let j = 0; j <= rows; j++) {
    for (let i = 0; i <= cols; i++) positions.push(i * cell, height(i, j), j * cell);
  }
  const indices: number[] = [];
  const id = (i: number, j: number): number => j * (cols + 1) + i;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      indices.push(id(i, j), id(i, j + 1), id(i + 1, j));
      indices.push(id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
    }
  }
  return new TriangleMesh(positions, indices, { doubleSided });
}

function bruteQuery(mesh: TriangleMesh, box: Aabb): number[] {
  const a = { x: 0, y: 0, z: 0 }, b = { x: 0, y: 0, z: 0 }, c = { x: 0, y: 0, z: 0 };
  const out: number[] = [];
  for (let t = 0; t < mesh.triangleCount; t++) {
    mesh.getTriangle(t, a, b, c);
    if (Math.min(a.x, b.x, c.x) > box.max.x || Math.max(a.x, b.x, c.x) < box.min.x) continue;
    if (Math.min(a.y, b.y, c.y) > box.max.y || Math.max(a.y, b.y, c.y) < box.min.y) continue;
    if (Math.min(a.z, b.z, c.z) > box.max.z || Math.max(a.z, b.z, c.z) < box.min.z) continue;
    out.push(t);
  }
  return out;
}

/**
 * Independent ray test: plane intersection (front faces only, d·n < 0,
 * unless the mesh is double-sided), then the point-in-triangle test by edge signs.
 */
function bruteRay(mesh: TriangleMesh, o: { x: number; y: number; z: number }, d: { x: number; y: number; z: number }, maxT: number): { t: number; tri: number } {
  const a = { x: 0, y: 0, z: 0 }, b = { x: 0, y: 0, z: 0 }, c = { x: 0, y: 0, z: 0 }, n = { x: 0, y: 0, z: 0 };
  let best = Infinity;
  let tri = -1;
  for (let i = 0; i < mesh.triangleCount; i++) {
    mesh.getTriangle(i, a, b, c);
    mesh.getTriangleNormal(i, n);
    const denom = n.x * d.x + n.y * d.y + n.z * d.z;
    if (denom === 0 || (denom > 0 && !mesh.doubleSided)) continue;
    const t = (n.x * (a.x - o.x) + n.y * (a.y - o.y) + n.z * (a.z - o.z)) / denom;
    if (t < 0 || t > maxT) continue;
    const p = { x: o.x + d.x * t, y: o.y + d.y * t, z: o.z + d.z * t };
    let inside = true;
    for (const [u, v] of [[a, b], [b, c], [c, a]] as const) {
      const ex = v.x - u.x, ey = v.y - u.y, ez = v.z - u.z;
      const fx = p.x - u.x, fy = p.y - u.y, fz = p.z - u.z;
      const s = (ey * fz - ez * fy) * n.x + (ez * fx - ex * fz) * n.y + (ex * fy - ey * fx) * n.z;
      if (s < -1e-12) inside = false;
    }
    if (inside && t < best) {
      best = t;
      tri = i;
    }
  }
  return { t: best, tri };
}

function randomBox(rng: Random, lo: number, hi: number, maxSize: number): Aabb {
  const box = aabb();
  box.min.x = rng.range(lo, hi); box.min.y = rng.range(-2, 2); box.min.z = rng.range(lo, hi);
  box.max.x = box.min.x + rng.range(0, maxSize); box.max.y = box.min.y + rng.range(0, maxSize); box.max.z = box.min.z + rng.range(0, maxSize);
  return box;
}

describe('TriangleMesh construction', () => {
  const tri = [0, 0, 0, 0, 0, 1, 1, 0, 0];

  it('names the field in validation errors', () => {
    expect(() => new TriangleMesh([0, 0, 0, 1], [0, 0, 0])).toThrow(/TriangleMesh\.positions length/);
    expect(() => new TriangleMesh([0, 0, 0, 0, NaN, 1, 1, 0, 0], [0, 1, 2])).toThrow(/TriangleMesh\.positions\[4\]/);
    expect(() => new TriangleMesh([0, 0, 0, 0, 0, 1, Infinity, 0, 0], [0, 1, 2])).toThrow(/TriangleMesh\.positions\[6\]/);
    expect(() => new TriangleMesh(tri, [0, 1, 2, 0])).toThrow(/TriangleMesh\.indices length/);
    expect(() => new TriangleMesh(tri, [0, 1, 3])).toThrow(/TriangleMesh\.indices\[2\]/);
    expect(() => new TriangleMesh(tri, [0, 1.5, 2])).toThrow(/TriangleMesh\.indices\[1\]/);
    expect(() => new TriangleMesh(tri, [-1, 1, 2])).toThrow(/TriangleMesh\.indices\[0\]/);
    expect(() => new TriangleMesh(tri, [0, 1, 1])).toThrow(/degenerate mesh/);
    expect(() => new TriangleMesh([0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 2])).toThrow(/degenerate mesh/);
    expect(() => new TriangleMesh([], [])).toThrow(RangeError);
  });

  it('drops zero-area triangles and keeps the rest in input order', () => {
    const positions = new Float32Array([0, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0, 0, 3, 0, 0, 1, 0, 1]);
    const indices = new Uint16Array([0, 0, 1, /* repeated */ 0, 3, 4, /* collinear */ 0, 1, 2, 2, 1, 5]);
    const mesh = new TriangleMesh(positions, indices);
    expect(mesh.triangleCount).toBe(2);
    expect(Array.from(mesh.indices)).toEqual([0, 1, 2, 2, 1, 5]);
    const a = { x: 0, y: 0, z: 0 }, b = { x: 0, y: 0, z: 0 }, c = { x: 0, y: 0, z: 0 }, n = { x: 0, y: 0, z: 0 };
    mesh.getTriangle(1, a, b, c);
    expect(a.x).toBeCloseTo(1, 12);
    expect(c.x).toBeCloseTo(1, 12);
    expect(c.z).toBeCloseTo(1, 12);
    mesh.getTriangleNormal(0, n);
    expect(n.y).toBeCloseTo(1, 12); // (b − a) × (c − a) = z × x = +y
    expect(mesh.volume()).toBe(0);
  });

  it('marks flat and concave edges inactive, convex and open edges active', () => {
    const flat = grid(2, 2, 1, () => 0);
    // Triangle 0 of cell (0,0): corners (0,0,0) (0,0,1) (1,0,0). Edge 1 (b→c) is the cell diagonal (internal),
    // edges 0 and 2 are on the outer boundary.
    expect(flat.featureFlags[0]! & 7).toBe(0b101);
    // Triangle of cell (1,1) upper-left: every edge of triangle 6 (cell (1,1) first) is internal except none on
    // the boundary? Cell (1,1) first triangle: (1,1)(1,2)(2,1): edge 0 on x = 1 (internal), edge 1 diagonal, edge 2 on z = 1.
    expect(flat.featureFlags[6]! & 7).toBe(0);
    expect((flat.featureFlags[6]! >> 3) & 7).toBe(0);
    // Ridge (height peaks at i = 1) → the edges on x = 1 are convex; valley → concave.
    const ridge = grid(2, 1, 1, (i) => (i === 1 ? 0.5 : 0));
    const valley = grid(2, 1, 1, (i) => (i === 1 ? -0.5 : 0));
    // Triangle 1 of cell (0,0): (1,0)(0,1)(1,1): edge 2 runs (1,1)→(1,0), on the line x = 1.
    expect((ridge.featureFlags[1]! >> 2) & 1).toBe(1);
    expect((valley.featureFlags[1]! >> 2) & 1).toBe(0);
  });

  it('welds duplicated vertices so seams of unindexed meshes are still internal', () => {
    const indexed = grid(4, 4, 1, () => 0);
    const positions: number[] = [];
    const indices: number[] = [];
    for (let k = 0; k < indexed.indices.length; k++) {
      const v = indexed.indices[k]!;
      positions.push(indexed.vertices[3 * v]!, indexed.vertices[3 * v + 1]!, indexed.vertices[3 * v + 2]!);
      indices.push(k);
    }
    const soup = new TriangleMesh(positions, indices);
    expect(Array.from(soup.featureFlags)).toEqual(Array.from(indexed.featureFlags));
  });

  it('computes world bounds of the rotated mesh', () => {
    const mesh = grid(2, 2, 1, () => 0); // [0,2] × {0} × [0,2]
    const out = aabb();
    const s = Math.SQRT1_2;
    mesh.computeAabb(out, { x: 1, y: 2, z: 3 }, { x: 0, y: s, z: 0, w: s }); // 90° about +y: (x, z) → (z, −x)
    expect(out.min.x).toBeCloseTo(1, 12);
    expect(out.max.x).toBeCloseTo(3, 12);
    expect(out.min.z).toBeCloseTo(1, 12);
    expect(out.max.z).toBeCloseTo(3, 12);
    expect(out.min.y).toBeCloseTo(2, 12);
    expect(out.max.y).toBeCloseTo(2, 12);
  });
});

describe('TriangleMesh BVH', () => {
  const rng = seeded(7001, 'triangle-mesh bvh');
  const heights = new Float64Array(101 * 51);
  for (let k = 0; k < heights.length; k++) heights[k] = rng.range(-0.5, 0.5);
  const mesh = grid(100, 50, 0.5, (i, j) => heights[j * 101 + i]!);
  const doubleSided = grid(100, 50, 0.5, (i, j) => heights[j * 101 + i]!, true);

  it('builds a 10 000-triangle grid with ≤ 4 triangles per leaf', () => {
    expect(mesh.triangleCount).toBe(10_000);
    // A binary tree with leaves of ≤ 4 triangles has at least 2·(n/4) − 1 nodes and at most 2n − 1.
    expect(mesh.nodeTotal).toBeGreaterThanOrEqual(2 * 2500 - 1);
    expect(mesh.nodeTotal).toBeLessThanOrEqual(2 * 10_000 - 1);
  });

  it('queryAabb agrees with brute force over 1000 random boxes', () => {
    const out: number[] = [];
    let total = 0;
    for (let k = 0; k < 1000; k++) {
      const box = randomBox(rng, -2, 52, k % 10 === 0 ? 20 : 3);
      out.length = 0;
      out.push(-1); // appends after existing content
      const n = mesh.queryAabb(box, out);
      expect(out.length).toBe(n + 1);
      const got = out.slice(1).sort((a, b) => a - b);
      const want = bruteQuery(mesh, box);
      expect(got).toEqual(want);
      total += n;
    }
    expect(total).toBeGreaterThan(1000);
  });

  it('raycastLocal agrees with brute force over 1000 random rays on each of a one-sided and a double-sided mesh', () => {
    const hit = new MeshRayHit();
    let hits = 0, backHits = 0;
    for (let k = 0; k < 2000; k++) {
      const m = k % 2 === 0 ? doubleSided : mesh;
      const o = { x: rng.range(-5, 55), y: rng.range(-3, 3), z: rng.range(-5, 30) };
      const d = k % 4 === 0 ? { x: rng.range(-1, 1), y: -1, z: rng.range(-1, 1) } : rng.unitVec3();
      const len = rng.range(0.5, 3);
      d.x *= len; d.y *= len; d.z *= len;
      const maxT = k % 5 === 0 ? rng.range(0, 2) : 100;
      const want = bruteRay(m, o, d, maxT);
      const got = m.raycastLocal(o, d, maxT, hit);
      expect(got).toBe(want.tri >= 0);
      if (!got) continue;
      hits++;
      expect(Math.abs(hit.t - want.t)).toBeLessThan(1e-9);
      if (hit.triangle !== want.tri) expect(Math.abs(hit.t - want.t)).toBeLessThan(1e-12);
      const n = hit.normal;
      expect(Math.hypot(n.x, n.y, n.z)).toBeCloseTo(1, 12);
      expect(n.x * d.x + n.y * d.y + n.z * d.z).toBeLessThanOrEqual(0);
      // a back face hit: the reported normal (turned to face the ray) is the reverse of the triangle's
      const tn = m.getTriangleNormal(hit.triangle, { x: 0, y: 0, z: 0 });
      if (tn.x * n.x + tn.y * n.y + tn.z * n.z < 0) {
        expect(m.doubleSided).toBe(true);
        backHits++;
      }
    }
    console.log(`raycastLocal: ${hits} hits of 2000 rays, ${backHits} of them back faces of the double-sided mesh`);
    expect(hits).toBeGreaterThan(300);
    expect(backHits).toBeGreaterThan(30);
  });

  it('raycastLocal handles axis-aligned rays (zero direction components)', () => {
    const hit = new MeshRayHit();
    for (let k = 0; k < 200; k++) {
      const o = { x: rng.range(0, 50), y: 3, z: rng.range(0, 25) };
      const d = { x: 0, y: -2, z: 0 };
      const want = bruteRay(mesh, o, d, 10);
      expect(mesh.raycastLocal(o, d, 10, hit)).toBe(true);
      expect(Math.abs(hit.t - want.t)).toBeLessThan(1e-9);
      expect(hit.normal.y).toBeGreaterThan(0);
    }
  });

  it('builds a 100 000-triangle terrain whose rays land on its vertices within 1e-5 m (build time: test/bench/mesh.bench.ts)', () => {
    const height = (i: number, j: number): number => Math.sin(i * 0.3) * Math.cos(j * 0.2);
    const big = grid(250, 200, 0.25, height);
    expect(big.triangleCount).toBe(100_000);
    const hit = new MeshRayHit();
    let worst = 0;
    for (const [i, j] of [[0, 0], [17, 3], [100, 80], [249, 199], [250, 200], [125, 1]] as const) {
      expect(big.raycastLocal({ x: i * 0.25, y: 10, z: j * 0.25 }, { x: 0, y: -1, z: 0 }, 20, hit)).toBe(true);
      worst = Math.max(worst, Math.abs(10 - hit.t - height(i, j)));
    }
    console.log(`[triangle-mesh] 100k triangles: worst ray height error ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-5);
  });
});
