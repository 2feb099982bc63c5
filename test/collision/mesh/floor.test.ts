/**
 * Sphere, box and capsule on a flat floor of 20 × 20 cells (800 triangles,
 * 0.5 m cells over [-5, 5]², y = 0 in the mesh frame). The mesh sits at a
 * random world pose; results are read back in the mesh frame.
 * Tolerances: normals 1e-6, depths and surface distances 1e-4.
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import type { Quat } from '../../../src/math/quat';
import { inverseRotate, multiply, rotate } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import { Sphere } from '../../../src/shapes/sphere';
import { TriangleMesh } from '../../../src/shapes/triangle-mesh';
import { seeded, type Random } from '../../helpers/random';

const MARGIN = 0.02;
const CELL = 0.5;

function floor(): TriangleMesh {
  const n = 20;
  const positions: number[] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push(-5 + i * CELL, 0, -5 + j * CELL);
  const indices: number[] = [];
  const id = (i: number, j: number): number => j * (n + 1) + i;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      indices.push(id(i, j), id(i, j + 1), id(i + 1, j), id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
    }
  }
  return new TriangleMesh(positions, indices);
}

/** A horizontal position over the floor: random, on a vertex, on a grid line, or on a cell diagonal. */
function spot(rng: Random, k: number): { x: number; z: number } {
  const i = rng.int(-7, 8) * CELL;
  const j = rng.int(-7, 8) * CELL;
  switch (k % 4) {
    case 0: return { x: rng.range(-3.5, 3.5), z: rng.range(-3.5, 3.5) };
    case 1: return { x: i, z: j };
    case 2: return k % 8 === 2 ? { x: i, z: rng.range(-3.5, 3.5) } : { x: rng.range(-3.5, 3.5), z: j };
    default: {
      const u = rng.range(0, CELL);
      return { x: i + u, z: j + CELL - u };
    }
  }
}

function yaw(angle: number): Quat {
  return { x: 0, y: Math.sin(angle / 2), z: 0, w: Math.cos(angle / 2) };
}

/** The mesh's world pose and helpers to go between frames. */
class Scene {
  readonly mesh = floor();
  readonly posB: Vec3;
  readonly rotB: Quat;
  readonly manifold = new Manifold();
  readonly posA: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rotA: Quat = { x: 0, y: 0, z: 0, w: 1 };
  constructor(rng: Random) {
    this.posB = rng.vec3(-10, 10);
    this.rotB = rng.quat();
  }
  /** Places the convex at a mesh-local pose. */
  place(local: Vec3, localRot: Quat): void {
    rotate(this.posA, this.rotB, local);
    this.posA.x += this.posB.x; this.posA.y += this.posB.y; this.posA.z += this.posB.z;
    multiply(this.rotA, this.rotB, localRot);
  }
  /** Manifold point i in the mesh frame: position, normal, depth. */
  local(i: number): { p: Vec3; n: Vec3; depth: number; id: number } {
    const pt = this.manifold.points[i]!;
    const p = { x: pt.position.x - this.posB.x, y: pt.position.y - this.posB.y, z: pt.position.z - this.posB.z };
    inverseRotate(p, this.rotB, p);
    const n = inverseRotate({ x: 0, y: 0, z: 0 }, this.rotB, pt.normal);
    return { p, n, depth: pt.depth, id: pt.id };
  }
}

/** Checks every point: floor normal, B side on y = 0, A side on the convex (sdf in the mesh frame); returns the deepest depth. */
function checkPoints(scene: Scene, sdf: (p: Vec3) => number): number {
  let deepest = -Infinity;
  for (let i = 0; i < scene.manifold.pointCount; i++) {
    const { p, n, depth } = scene.local(i);
    expect(Math.abs(n.x)).toBeLessThan(1e-6);
    expect(Math.abs(n.y + 1)).toBeLessThan(1e-6);
    expect(Math.abs(n.z)).toBeLessThan(1e-6);
    expect(depth).toBeGreaterThanOrEqual(-MARGIN - 1e-9);
    const a = { x: p.x + n.x * depth * 0.5, y: p.y + n.y * depth * 0.5, z: p.z + n.z * depth * 0.5 };
    const b = { x: p.x - n.x * depth * 0.5, y: p.y - n.y * depth * 0.5, z: p.z - n.z * depth * 0.5 };
    expect(Math.abs(b.y)).toBeLessThan(1e-4);
    expect(Math.abs(sdf(a))).toBeLessThan(1e-4);
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

function boxSdf(c: Vec3, q: Quat, h: Vec3, p: Vec3): number {
  const d = inverseRotate({ x: 0, y: 0, z: 0 }, q, { x: p.x - c.x, y: p.y - c.y, z: p.z - c.z });
  const qx = Math.abs(d.x) - h.x, qy = Math.abs(d.y) - h.y, qz = Math.abs(d.z) - h.z;
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0));
  return outside + Math.min(Math.max(qx, qy, qz), 0);
}

function capsuleSdf(c: Vec3, q: Quat, r: number, hh: number, p: Vec3): number {
  const d = inverseRotate({ x: 0, y: 0, z: 0 }, q, { x: p.x - c.x, y: p.y - c.y, z: p.z - c.z });
  const y = Math.max(-hh, Math.min(hh, d.y));
  return Math.hypot(d.x, d.y - y, d.z) - r;
}

/** Lowest offset of a rotated box below its centre: Σ h_i |u_i·y|. */
function boxDrop(q: Quat, h: Vec3): number {
  const u0 = rotate({ x: 0, y: 0, z: 0 }, q, { x: 1, y: 0, z: 0 });
  const u1 = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: 1, z: 0 });
  const u2 = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: 0, z: 1 });
  return h.x * Math.abs(u0.y) + h.y * Math.abs(u1.y) + h.z * Math.abs(u2.y);
}

describe('sphere on a tessellated floor', () => {
  const rng = seeded(8101, 'mesh floor sphere');
  const scene = new Scene(rng);
  const sphere = new Sphere(0.3);
  const sdf = (c: Vec3) => (p: Vec3) => Math.hypot(p.x - c.x, p.y - c.y, p.z - c.z) - 0.3;

  it('resting anywhere (over faces, edges, vertices): floor normal only, exact depth', () => {
    for (let k = 0; k < 400; k++) {
      const { x, z } = spot(rng, k);
      const depth = rng.range(-0.015, 0.05);
      const c = { x, y: 0.3 - depth, z };
      scene.place(c, { x: 0, y: 0, z: 0, w: 1 });
      collide(sphere, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
      expect(scene.manifold.pointCount).toBe(1);
      expect(Math.abs(checkPoints(scene, sdf(c)) - depth)).toBeLessThan(1e-4);
    }
  });

  it('sliding across edges and vertices keeps the floor normal', () => {
    for (const angle of [0, Math.PI / 4, -Math.PI / 4, 0.3]) {
      for (let s = 0; s <= 300; s++) {
        const u = -3 + (6 * s) / 300;
        const c = { x: u * Math.cos(angle), y: 0.29, z: u * Math.sin(angle) };
        scene.place(c, { x: 0, y: 0, z: 0, w: 1 });
        collide(sphere, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
        expect(scene.manifold.pointCount).toBe(1);
        expect(Math.abs(checkPoints(scene, sdf(c)) - 0.01)).toBeLessThan(1e-4);
      }
    }
  });

  it('reports speculative points within the margin only', () => {
    scene.place({ x: 0.1, y: 0.3 + 0.015, z: 0.2 }, { x: 0, y: 0, z: 0, w: 1 });
    collide(sphere, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
    expect(scene.manifold.pointCount).toBe(1);
    expect(scene.manifold.points[0]!.depth).toBeCloseTo(-0.015, 9);
    scene.place({ x: 0.1, y: 0.3 + 0.025, z: 0.2 }, { x: 0, y: 0, z: 0, w: 1 });
    collide(sphere, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
    expect(scene.manifold.pointCount).toBe(0);
  });
});

describe('box on a tessellated floor', () => {
  const rng = seeded(8102, 'mesh floor box');
  const scene = new Scene(rng);
  const h = { x: 0.4, y: 0.25, z: 0.3 };
  const box = new Box(h);

  it('resting flat at any yaw: 4 points at the bottom corners, floor normal, exact depth', () => {
    for (let k = 0; k < 300; k++) {
      const { x, z } = spot(rng, k);
      const depth = rng.range(-0.015, 0.05);
      const q = yaw(k % 5 === 0 ? 0 : rng.range(-Math.PI, Math.PI));
      const c = { x, y: h.y - depth, z };
      scene.place(c, q);
      collide(box, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
      expect(scene.manifold.pointCount).toBe(4);
      const deepest = checkPoints(scene, (p) => boxSdf(c, q, h, p));
      expect(Math.abs(deepest - depth)).toBeLessThan(1e-4);
      // The four points are the four bottom corners.
      for (const [sx, sz] of [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const) {
        const corner = rotate({ x: 0, y: 0, z: 0 }, q, { x: sx * h.x, y: 0, z: sz * h.z });
        let found = false;
        for (let i = 0; i < 4; i++) {
          const { p } = scene.local(i);
          if (Math.hypot(p.x - c.x - corner.x, p.z - c.z - corner.z) < 1e-6) found = true;
        }
        expect(found).toBe(true);
      }
    }
  });

  it('resting on a corner or an edge at random orientations: floor normal only', () => {
    for (let k = 0; k < 300; k++) {
      const { x, z } = spot(rng, k);
      const depth = rng.range(0, 0.05);
      const q = rng.quat();
      const c = { x, y: boxDrop(q, h) - depth, z };
      scene.place(c, q);
      collide(box, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
      expect(scene.manifold.pointCount).toBeGreaterThanOrEqual(1);
      const deepest = checkPoints(scene, (p) => boxSdf(c, q, h, p));
      expect(Math.abs(deepest - depth)).toBeLessThan(1e-4);
    }
  });

  it('sliding flat and tilted across the seams keeps the floor normal', () => {
    const tilt = { x: Math.sin(0.2), y: 0, z: 0, w: Math.cos(0.2) };
    for (const angle of [0, Math.PI / 4, 0.7]) {
      for (const tilted of [false, true]) {
        const q = tilted ? multiply({ x: 0, y: 0, z: 0, w: 1 }, yaw(angle), tilt) : yaw(angle);
        for (let s = 0; s <= 200; s++) {
          const u = -3 + (6 * s) / 200;
          const c = { x: u * Math.cos(angle), y: boxDrop(q, h) - 0.01, z: u * Math.sin(angle) };
          scene.place(c, q);
          collide(box, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
          // Tilted: the low edge's two ends, plus points of the side edges still within the margin.
          if (tilted) expect(scene.manifold.pointCount).toBeGreaterThanOrEqual(2);
          else expect(scene.manifold.pointCount).toBe(4);
          expect(Math.abs(checkPoints(scene, (p) => boxSdf(c, q, h, p)) - 0.01)).toBeLessThan(1e-4);
        }
      }
    }
  });

  it('keeps its feature ids while resting', () => {
    const q = yaw(0.4);
    scene.place({ x: 0.3, y: h.y - 0.01, z: 0.1 }, q);
    collide(box, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
    const before = scene.manifold.points.slice(0, scene.manifold.pointCount).map((p) => p.id).sort((a, b) => a - b);
    scene.place({ x: 0.3002, y: h.y - 0.0105, z: 0.0999 }, q);
    collide(box, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
    const after = scene.manifold.points.slice(0, scene.manifold.pointCount).map((p) => p.id).sort((a, b) => a - b);
    expect(before.length).toBe(4);
    expect(new Set(before).size).toBe(4);
    expect(after).toEqual(before);
  });
});

describe('capsule on a tessellated floor', () => {
  const rng = seeded(8103, 'mesh floor capsule');
  const scene = new Scene(rng);
  const r = 0.25;
  const hh = 0.5;
  const capsule = new Capsule(r, hh);
  const lying = (a: number): Quat => multiply({ x: 0, y: 0, z: 0, w: 1 }, yaw(a), { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 });

  it('lying flat anywhere: 2 points at the ends, floor normal, exact depth', () => {
    for (let k = 0; k < 300; k++) {
      const { x, z } = spot(rng, k);
      const depth = rng.range(-0.015, 0.05);
      const q = lying(k % 5 === 0 ? 0 : rng.range(-Math.PI, Math.PI));
      const c = { x, y: r - depth, z };
      scene.place(c, q);
      collide(capsule, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
      expect(scene.manifold.pointCount).toBe(2);
      expect(Math.abs(checkPoints(scene, (p) => capsuleSdf(c, q, r, hh, p)) - depth)).toBeLessThan(1e-4);
      const axis = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: hh, z: 0 });
      const p0 = scene.local(0).p, p1 = scene.local(1).p;
      expect(Math.hypot(p0.x - p1.x, p0.z - p1.z)).toBeCloseTo(2 * Math.hypot(axis.x, axis.z), 6);
    }
  });

  it('at random orientations and while sliding: floor normal only, exact depth', () => {
    for (let k = 0; k < 300; k++) {
      const { x, z } = spot(rng, k);
      const depth = rng.range(0, 0.05);
      const q = rng.quat();
      const a = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: 1, z: 0 });
      const c = { x, y: Math.abs(a.y) * hh + r - depth, z };
      scene.place(c, q);
      collide(capsule, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
      expect(scene.manifold.pointCount).toBeGreaterThanOrEqual(1);
      expect(Math.abs(checkPoints(scene, (p) => capsuleSdf(c, q, r, hh, p)) - depth)).toBeLessThan(1e-4);
    }
    for (const angle of [0, Math.PI / 4, 1.1]) {
      const q = lying(angle + 0.5);
      for (let s = 0; s <= 200; s++) {
        const u = -3 + (6 * s) / 200;
        const c = { x: u * Math.cos(angle), y: r - 0.01, z: u * Math.sin(angle) };
        scene.place(c, q);
        collide(capsule, scene.posA, scene.rotA, scene.mesh, scene.posB, scene.rotB, MARGIN, scene.manifold);
        expect(scene.manifold.pointCount).toBe(2);
        expect(Math.abs(checkPoints(scene, (p) => capsuleSdf(c, q, r, hh, p)) - 0.01)).toBeLessThan(1e-4);
      }
    }
  });
});
