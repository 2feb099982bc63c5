// Ray casts against Cylinder and ConvexHull: analytic cases, and random rays
// aimed at interior points compared with a bisection on the shapes' inside
// tests (the entry is the one crossing between the outside origin and the
// interior target). Distances within 1e-9 m, normals within 1e-9.
import { describe, expect, it } from 'vitest';
import { ConvexHull, Cylinder, quat, raycastShape, ShapeRayHit, type Quat, type Vec3 } from '../../../src/index';
import { seeded } from '../../helpers/random';

const TOL = 1e-9;
const toLocal = (p: Vec3, c: Vec3, q: Quat): Vec3 => quat.inverseRotate({ x: 0, y: 0, z: 0 }, q, { x: p.x - c.x, y: p.y - c.y, z: p.z - c.z });
const at = (o: Vec3, d: Vec3, t: number): Vec3 => ({ x: o.x + d.x * t, y: o.y + d.y * t, z: o.z + d.z * t });

function bisect(inside: (p: Vec3) => boolean, o: Vec3, d: Vec3, tInside: number): number {
  let lo = 0, hi = tInside;
  for (let i = 0; i < 200 && hi - lo > 1e-13; i++) {
    const mid = 0.5 * (lo + hi);
    if (inside(at(o, d, mid))) hi = mid; else lo = mid;
  }
  return 0.5 * (lo + hi);
}

describe('raycast Cylinder', () => {
  const cyl = new Cylinder(0.5, 1);
  const c = { x: 1, y: 2, z: 3 };
  const q = quat.normalize(quat.quat(), { x: 0.3, y: 0.1, z: -0.2, w: 0.9 });
  it('analytic: side, cap, miss, inside', () => {
    const hit = new ShapeRayHit();
    const side = quat.rotate({ x: 0, y: 0, z: 0 }, q, { x: 1, y: 0, z: 0 });
    const up = quat.rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: 1, z: 0 });
    // From 5 m out along local +X, towards the centre: t = 5 − r, normal +X.
    expect(raycastShape(cyl, c, q, at(c, side, 5), at({ x: 0, y: 0, z: 0 }, side, -1), 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(4.5, 12);
    expect(hit.normal.x).toBeCloseTo(side.x, 12); expect(hit.normal.y).toBeCloseTo(side.y, 12);
    // From 4 m above along local Y: t = 4 − h, normal +Y.
    expect(raycastShape(cyl, c, q, at(c, up, 4), at({ x: 0, y: 0, z: 0 }, up, -1), 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(3, 12);
    expect(hit.normal.y).toBeCloseTo(up.y, 12); expect(hit.normal.z).toBeCloseTo(up.z, 12);
    // Just past the rim (r + 1 mm) parallel to the axis: a miss; too short a ray: a miss.
    expect(raycastShape(cyl, c, q, at(at(c, up, 4), side, 0.501), at({ x: 0, y: 0, z: 0 }, up, -1), 10, hit)).toBe(false);
    expect(raycastShape(cyl, c, q, at(c, side, 5), at({ x: 0, y: 0, z: 0 }, side, -1), 4.49, hit)).toBe(false);
    // Starting inside: distance 0.
    expect(raycastShape(cyl, c, q, c, side, 10, hit)).toBe(true);
    expect(hit.distance).toBe(0);
  });
  it('2000 random rays at interior points match bisection', () => {
    const rng = seeded(1904, 'ray cylinder');
    const hit = new ShapeRayHit();
    const inside = (p: Vec3): boolean => { const l = toLocal(p, c, q); return Math.abs(l.y) <= 1 && l.x * l.x + l.z * l.z <= 0.25; };
    for (let i = 0; i < 2000; i++) {
      const ang = rng.range(0, 2 * Math.PI), rr = 0.5 * Math.sqrt(rng.next());
      const target = at(c, quat.rotate({ x: 0, y: 0, z: 0 }, q, { x: rr * Math.cos(ang), y: rng.range(-1, 1), z: rr * Math.sin(ang) }), 1);
      const dir = rng.unitVec3();
      const o = at(target, dir, -rng.range(2, 6));
      const dist = Math.hypot(target.x - o.x, target.y - o.y, target.z - o.z);
      expect(raycastShape(cyl, c, q, o, dir, 100, hit)).toBe(true);
      expect(Math.abs(hit.distance - bisect(inside, o, dir, dist))).toBeLessThan(TOL);
      // The normal is the outward normal of the surface at the hit.
      const l = toLocal(hit.point, c, q);
      const ln = quat.inverseRotate({ x: 0, y: 0, z: 0 }, q, hit.normal);
      if (Math.abs(Math.abs(l.y) - 1) < 1e-9) expect(Math.abs(ln.y)).toBeCloseTo(1, 9);
      else {
        expect(Math.hypot(l.x, l.z)).toBeCloseTo(0.5, 9);
        expect(ln.x).toBeCloseTo(l.x / 0.5, 9); expect(ln.z).toBeCloseTo(l.z / 0.5, 9);
      }
    }
  });
});

describe('raycast ConvexHull', () => {
  it("a cube hull answers like the box: t = distance − 1, face normal", () => {
    const h = new ConvexHull([-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => ({ x, y, z })))));
    const hit = new ShapeRayHit();
    expect(raycastShape(h, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, { x: 0.3, y: 5, z: -0.2 }, { x: 0, y: -1, z: 0 }, 10, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(4, 12);
    expect(hit.normal.y).toBeCloseTo(1, 12);
    expect(raycastShape(h, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, { x: 1.01, y: 5, z: 0 }, { x: 0, y: -1, z: 0 }, 10, hit)).toBe(false);
    expect(raycastShape(h, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: 5, z: 0 }, { x: 0, y: 1, z: 0 }, 10, hit)).toBe(false);
  });
  it('2000 random rays at interior points of a random hull match bisection; the hit lies on the reported face', () => {
    const rng = seeded(1905, 'ray hull');
    const pts: Vec3[] = [];
    for (let i = 0; i < 60; i++) pts.push(rng.vec3(-1, 1));
    const h = new ConvexHull(pts);
    const c = { x: -2, y: 0.5, z: 4 };
    const q = rng.quat();
    const hit = new ShapeRayHit();
    const insideLocal = (l: Vec3): boolean => {
      for (let f = 0; f < h.faceCount; f++) {
        if (h.faceNormals[3 * f]! * l.x + h.faceNormals[3 * f + 1]! * l.y + h.faceNormals[3 * f + 2]! * l.z > h.faceOffsets[f]!) return false;
      }
      return true;
    };
    const inside = (p: Vec3): boolean => insideLocal(toLocal(p, c, q));
    for (let i = 0; i < 2000; i++) {
      // An interior point: a random convex combination of three vertices and the centre.
      const w = [rng.next(), rng.next(), rng.next(), rng.next()];
      const sum = w[0]! + w[1]! + w[2]! + w[3]!;
      let lx = 0, ly = 0, lz = 0;
      for (let k = 0; k < 3; k++) {
        const v = rng.int(0, h.vertexCount);
        lx += (w[k]! / sum) * h.vertices[3 * v]!; ly += (w[k]! / sum) * h.vertices[3 * v + 1]!; lz += (w[k]! / sum) * h.vertices[3 * v + 2]!;
      }
      const target = at(c, quat.rotate({ x: 0, y: 0, z: 0 }, q, { x: lx, y: ly, z: lz }), 1);
      const dir = rng.unitVec3();
      const o = at(target, dir, -rng.range(3, 6));
      const dist = Math.hypot(target.x - o.x, target.y - o.y, target.z - o.z);
      expect(raycastShape(h, c, q, o, dir, 100, hit)).toBe(true);
      expect(Math.abs(hit.distance - bisect(inside, o, dir, dist))).toBeLessThan(TOL);
      const l = toLocal(hit.point, c, q);
      const ln = quat.inverseRotate({ x: 0, y: 0, z: 0 }, q, hit.normal);
      let onFace = false;
      for (let f = 0; f < h.faceCount; f++) {
        const nx = h.faceNormals[3 * f]!, ny = h.faceNormals[3 * f + 1]!, nz = h.faceNormals[3 * f + 2]!;
        if (Math.abs(nx * ln.x + ny * ln.y + nz * ln.z - 1) < 1e-9 && Math.abs(nx * l.x + ny * l.y + nz * l.z - h.faceOffsets[f]!) < 1e-9) onFace = true;
      }
      expect(onFace).toBe(true);
    }
  });
});
