import { describe, expect, it } from 'vitest';
import { aabb } from '../../src/collision/aabb';
import { ConvexHull, Cylinder, massFromDensity } from '../../src/index';
import * as q from '../../src/math/quat';
import { seeded } from '../helpers/random';

const CUBE = [
  { x: -1, y: -1, z: -1 }, { x: 1, y: -1, z: -1 }, { x: -1, y: 1, z: -1 }, { x: 1, y: 1, z: -1 },
  { x: -1, y: -1, z: 1 }, { x: 1, y: -1, z: 1 }, { x: -1, y: 1, z: 1 }, { x: 1, y: 1, z: 1 },
];

/** Is local point p inside the hull (all face planes) within tol? */
function inside(h: ConvexHull, x: number, y: number, z: number, tol: number): boolean {
  for (let f = 0; f < h.faceCount; f++) {
    const s = h.faceNormals[3 * f]! * x + h.faceNormals[3 * f + 1]! * y + h.faceNormals[3 * f + 2]! * z - h.faceOffsets[f]!;
    if (s > tol) return false;
  }
  return true;
}

/** Input point → hull local frame: conj(rotation)·(p − centerOfMass). */
function toLocal(h: ConvexHull, p: { x: number; y: number; z: number }): { x: number; y: number; z: number } {
  const v = { x: p.x - h.centerOfMass.x, y: p.y - h.centerOfMass.y, z: p.z - h.centerOfMass.z };
  return q.inverseRotate(v, h.rotation, v);
}

describe('Cylinder', () => {
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e7, 1e-7])('refuses size %s naming the field', (v) => {
    expect(() => new Cylinder(v, 1)).toThrow(/Cylinder\.radius/);
    expect(() => new Cylinder(1, v)).toThrow(/Cylinder\.halfHeight/);
  });
  it('mass properties: m = ρπr²L, I_y = m r²/2, I_x = m(3r² + L²)/12, and match a grid integration within 0.5 %', () => {
    const c = new Cylinder(0.3, 0.8);
    const p = massFromDensity(c, 2);
    const m = 2 * Math.PI * 0.09 * 1.6;
    expect(p.mass).toBeCloseTo(m, 12);
    expect(p.inertia.y).toBeCloseTo(m * 0.09 / 2, 12);
    expect(p.inertia.x).toBeCloseTo(m * (3 * 0.09 + 1.6 * 1.6) / 12, 12);
    expect(p.inertia.z).toBe(p.inertia.x);
    // Midpoint rule over the bounding box.
    const n = 80;
    let mm = 0, ix = 0;
    const hr = 0.6 / n, hh = 1.6 / n;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) {
      const x = -0.3 + (i + 0.5) * hr, y = -0.8 + (j + 0.5) * hh, z = -0.3 + (k + 0.5) * hr;
      if (x * x + z * z > 0.09) continue;
      const dm = 2 * hr * hh * hr;
      mm += dm; ix += dm * (y * y + z * z);
    }
    expect(Math.abs(ix / mm - p.inertia.x / p.mass) / (p.inertia.x / p.mass)).toBeLessThan(0.005);
  });
  it('support points lie on the surface and bound the shape along random directions; the AABB is tight', () => {
    const rng = seeded(1901, 'cylinder support');
    const c = new Cylinder(0.5, 1.2);
    const out = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < 200; i++) {
      const d = rng.unitVec3();
      c.support(out, d);
      expect(Math.hypot(out.x, out.z)).toBeCloseTo(0.5, 12);
      expect(Math.abs(out.y)).toBe(1.2);
      // h(d) = r |d_xz| + h |d_y|
      expect(out.x * d.x + out.y * d.y + out.z * d.z).toBeCloseTo(0.5 * Math.hypot(d.x, d.z) + 1.2 * Math.abs(d.y), 12);
      const rot = rng.quat();
      const box = c.computeAabb(aabb(), { x: 1, y: 2, z: 3 }, rot);
      // The AABB's +X face equals the support along world X.
      const dl = q.inverseRotate({ x: 0, y: 0, z: 0 }, rot, { x: 1, y: 0, z: 0 });
      c.support(out, dl);
      const w = q.rotate({ x: 0, y: 0, z: 0 }, rot, out);
      expect(box.max.x).toBeCloseTo(1 + w.x, 12);
    }
  });
});

describe('ConvexHull', () => {
  it('refuses degenerate input by name', () => {
    expect(() => new ConvexHull(CUBE.slice(0, 3))).toThrow(/at least 4 points/);
    expect(() => new ConvexHull([{ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 2, y: 0, z: 0 }, { x: 3, y: 0, z: 0 }])).toThrow(/collinear/);
    expect(() => new ConvexHull([{ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }, { x: 1, y: 0, z: 1 }, { x: 0.5, y: 1e-13, z: 0.5 }])).toThrow(/coplanar/);
    expect(() => new ConvexHull([...CUBE.slice(0, 7), { x: 1, y: Number.NaN, z: 1 }])).toThrow(/points\[7\]\.y must be a finite number/);
    expect(() => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Infinity])).toThrow(/points\[11\]/);
    expect(() => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2e6])).toThrow(/±1000000/);
    expect(() => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1])).toThrow(/multiple of 3/);
    expect(() => new ConvexHull(CUBE, { maxVertices: 3 })).toThrow(/maxVertices/);
    expect(() => new ConvexHull(CUBE.map(() => ({ x: 1, y: 1, z: 1 })))).toThrow(/coincide/);
    expect(() => new ConvexHull(null as never)).toThrow(TypeError);
  });
  it("a cube's 8 corners (with duplicates, face centres and edge midpoints) give 8 vertices, 6 square faces and Box's mass properties", () => {
    const pts = [...CUBE, ...CUBE, { x: 0, y: 1, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 0, z: -1 }, { x: 1, y: 1, z: 0 }, { x: 0, y: 0, z: 0 }];
    const h = new ConvexHull(pts);
    expect(h.vertexCount).toBe(8);
    expect(h.faceCount).toBe(6);
    for (let f = 0; f < 6; f++) {
      expect(h.faceStart[f + 1]! - h.faceStart[f]!).toBe(4);
      expect(h.faceOffsets[f]).toBeCloseTo(1, 12);
    }
    expect(h.volume()).toBeCloseTo(8, 12);
    expect(h.rotation.w).toBe(1);
    const p = massFromDensity(h, 3);
    // Box: I = m (b² + c²)/12 with b = c = 2 → 2m/3.
    expect(p.mass).toBeCloseTo(24, 10);
    expect(p.inertia.x).toBeCloseTo(16, 10);
    expect(p.inertia.y).toBeCloseTo(16, 10);
    expect(p.inertia.z).toBeCloseTo(16, 10);
  });
  it('an offset, rotated box cloud is re-centred on its centre of mass and turned to its principal axes', () => {
    const rot = q.normalize({ x: 0, y: 0, z: 0, w: 1 }, { x: 0.2, y: -0.4, z: 0.1, w: 0.9 });
    const pts = [];
    for (const c of CUBE) {
      const v = q.rotate({ x: 0, y: 0, z: 0 }, rot, { x: c.x * 0.5, y: c.y * 1, z: c.z * 2 });
      pts.push({ x: v.x + 3, y: v.y - 1, z: v.z + 0.5 });
    }
    const h = new ConvexHull(pts);
    expect(h.centerOfMass.x).toBeCloseTo(3, 10);
    expect(h.centerOfMass.y).toBeCloseTo(-1, 10);
    expect(h.centerOfMass.z).toBeCloseTo(0.5, 10);
    expect(h.volume()).toBeCloseTo(8 * 0.5 * 1 * 2, 10);
    // Principal moments are the box's (in some order): m(b² + c²)/3 with half sizes.
    const p = massFromDensity(h, 1);
    const got = [p.inertia.x, p.inertia.y, p.inertia.z].sort((a, b) => a - b);
    const m = 8;
    const want = [m * (0.25 + 1) / 3, m * (0.25 + 4) / 3, m * (1 + 4) / 3].sort((a, b) => a - b);
    for (let i = 0; i < 3; i++) expect(got[i]).toBeCloseTo(want[i]!, 9);
    // The local frame maps back onto the input points.
    for (const pt of pts) {
      const l = toLocal(h, pt);
      let best = Infinity;
      for (let k = 0; k < h.vertexCount; k++) best = Math.min(best, Math.hypot(h.vertices[3 * k]! - l.x, h.vertices[3 * k + 1]! - l.y, h.vertices[3 * k + 2]! - l.z));
      expect(best).toBeLessThan(1e-9);
    }
  });
  it('seeded random clouds: the hull contains every point and its volume matches a Monte Carlo estimate within 3 σ', () => {
    const rng = seeded(1902, 'hull clouds');
    for (let trial = 0; trial < 6; trial++) {
      const count = 20 + rng.int(0, 120);
      const pts = [];
      for (let i = 0; i < count; i++) {
        // Mixed clouds: a ball, plus some points snapped to a plane (coplanar) and duplicates.
        const d = rng.unitVec3();
        const r = Math.cbrt(rng.next());
        const p = { x: d.x * r * 1.5, y: d.y * r, z: d.z * r * 0.7 };
        if (i % 7 === 0) p.y = -0.5;
        pts.push(p);
        if (i % 11 === 0) pts.push({ ...p });
      }
      const h = new ConvexHull(pts, { maxVertices: 256 });
      expect(h.simplificationError).toBe(0);
      for (const p of pts) {
        const l = toLocal(h, p);
        expect(inside(h, l.x, l.y, l.z, 1e-9)).toBe(true);
      }
      // Every face is convex, planar and outward.
      for (let f = 0; f < h.faceCount; f++) {
        for (let k = h.faceStart[f]!; k < h.faceStart[f + 1]!; k++) {
          const v = h.faceVertices[k]!;
          const s = h.faceNormals[3 * f]! * h.vertices[3 * v]! + h.faceNormals[3 * f + 1]! * h.vertices[3 * v + 1]! + h.faceNormals[3 * f + 2]! * h.vertices[3 * v + 2]! - h.faceOffsets[f]!;
          expect(Math.abs(s)).toBeLessThan(1e-9);
        }
        expect(h.faceOffsets[f]).toBeGreaterThan(0);
      }
      // Monte Carlo in the input frame's bounding box: independent of the tetrahedral sum.
      let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
      for (const p of pts) {
        minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x); minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y); minZ = Math.min(minZ, p.z); maxZ = Math.max(maxZ, p.z);
      }
      const boxVolume = (maxX - minX) * (maxY - minY) * (maxZ - minZ);
      const N = 40000;
      let hits = 0;
      for (let i = 0; i < N; i++) {
        const l = toLocal(h, { x: rng.range(minX, maxX), y: rng.range(minY, maxY), z: rng.range(minZ, maxZ) });
        if (inside(h, l.x, l.y, l.z, 0)) hits++;
      }
      const frac = hits / N;
      const sigma = boxVolume * Math.sqrt(frac * (1 - frac) / N);
      expect(Math.abs(frac * boxVolume - h.volume())).toBeLessThan(3 * sigma);
    }
  });
  it('maxVertices simplifies a 2000-point sphere cloud: at most that many vertices, every dropped point within simplificationError', () => {
    const rng = seeded(1903, 'hull budget');
    const pts = [];
    for (let i = 0; i < 2000; i++) pts.push(rng.unitVec3());
    const h = new ConvexHull(pts, { maxVertices: 32 });
    expect(h.vertexCount).toBeLessThanOrEqual(32);
    expect(h.simplificationError).toBeGreaterThan(0);
    expect(h.simplificationError).toBeLessThan(0.25);
    for (const p of pts) {
      const l = toLocal(h, p);
      expect(inside(h, l.x, l.y, l.z, h.simplificationError + 1e-9)).toBe(true);
    }
    const full = new ConvexHull(pts, { maxVertices: 256 });
    expect(full.vertexCount).toBeLessThanOrEqual(256);
    expect(full.simplificationError).toBeLessThan(0.03);
  });
});
