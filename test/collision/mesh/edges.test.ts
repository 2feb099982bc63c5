/**
 * Real edges still collide: a 90° ridge (convex), a 90° valley (concave) and
 * a closed cube (back faces). Mesh at the identity pose unless stated;
 * tolerances 1e-6 on normals, 1e-6 on depths of analytic cases.
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import type { Quat } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import { Sphere } from '../../../src/shapes/sphere';
import { TriangleMesh } from '../../../src/shapes/triangle-mesh';
import { seeded } from '../../helpers/random';

const MARGIN = 0.02;
const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
const ORIGIN: Vec3 = { x: 0, y: 0, z: 0 };
const S = Math.SQRT1_2;

/**
 * Two faces meeting along the z axis at y = 0, each sloping 45° down (ridge,
 * sign = 1) or up (valley, sign = −1), 2 triangles per face, L = 2.
 */
function roof(sign: number): TriangleMesh {
  const L = 2;
  const positions = [
    0, 0, -L, 0, 0, L, // ridge line: 0, 1
    L, -sign * L, -L, L, -sign * L, L, // right eave: 2, 3
    -L, -sign * L, -L, -L, -sign * L, L, // left eave: 4, 5
  ];
  // Right face normal (sign, 1, 0)/√2 and left face (−sign, 1, 0)/√2, both pointing up.
  const indices = [0, 1, 2, 1, 3, 2, 0, 4, 1, 1, 4, 5];
  return new TriangleMesh(positions, indices);
}

function cube(): TriangleMesh {
  const positions: number[] = [];
  for (let k = 0; k < 8; k++) positions.push(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5);
  // Outward CCW faces: -x, +x, -y, +y, -z, +z.
  const indices = [0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6];
  return new TriangleMesh(positions, indices);
}

function normalOf(m: Manifold, i: number): Vec3 {
  return m.points[i]!.normal;
}

describe('convex ridge (90°)', () => {
  const ridge = roof(1);
  const m = new Manifold();

  it('marks the ridge edge active', () => {
    // Edge 0 of triangle 0 runs along the ridge (0 → 1).
    expect(ridge.featureFlags[0]! & 1).toBe(1);
  });

  it('a sphere over the ridge gets the edge normal, not a face normal', () => {
    const sphere = new Sphere(0.3);
    collide(sphere, { x: 0, y: 0.29, z: 0.3 }, ID, ridge, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    const n = normalOf(m, 0);
    expect(Math.abs(n.x)).toBeLessThan(1e-6);
    expect(Math.abs(n.y + 1)).toBeLessThan(1e-6);
    expect(m.points[0]!.depth).toBeCloseTo(0.01, 9);
    // Slightly off the ridge the normal blends: it points from the centre to the ridge line.
    collide(sphere, { x: 0.05, y: 0.28, z: 0 }, ID, ridge, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    const len = Math.hypot(0.05, 0.28);
    expect(normalOf(m, 0).x).toBeCloseTo(-0.05 / len, 9);
    expect(normalOf(m, 0).y).toBeCloseTo(-0.28 / len, 9);
    expect(m.points[0]!.depth).toBeCloseTo(0.3 - len, 9);
    // Well over one face: that face's normal.
    collide(sphere, { x: 1 + 0.29 * S, y: -1 + 0.29 * S, z: 0 }, ID, ridge, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    expect(normalOf(m, 0).x).toBeCloseTo(-S, 9);
    expect(normalOf(m, 0).y).toBeCloseTo(-S, 9);
    expect(m.points[0]!.depth).toBeCloseTo(0.01, 9);
  });

  it('a capsule lying across the ridge rests on it with the edge normal', () => {
    const capsule = new Capsule(0.2, 0.6);
    const across: Quat = { x: 0, y: 0, z: S, w: S }; // local Y → world −X
    collide(capsule, { x: 0.1, y: 0.19, z: 0.5 }, across, ridge, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBeGreaterThanOrEqual(1);
    let deepest = -Infinity;
    for (let i = 0; i < m.pointCount; i++) {
      const n = normalOf(m, i);
      if (m.points[i]!.depth > deepest) {
        deepest = m.points[i]!.depth;
        expect(Math.abs(n.x)).toBeLessThan(1e-6);
        expect(Math.abs(n.y + 1)).toBeLessThan(1e-6);
      }
    }
    expect(deepest).toBeCloseTo(0.01, 9);
  });

  it('a flat box over the ridge is held by the ridge line (box-face normal, 2 points)', () => {
    const box = new Box({ x: 0.5, y: 0.5, z: 0.4 });
    collide(box, { x: 0.1, y: 0.49, z: 0.2 }, ID, ridge, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(2);
    for (let i = 0; i < 2; i++) {
      const p = m.points[i]!;
      expect(Math.abs(p.normal.x)).toBeLessThan(1e-6);
      expect(Math.abs(p.normal.y + 1)).toBeLessThan(1e-6);
      expect(p.depth).toBeCloseTo(0.01, 9);
      expect(Math.abs(p.position.x)).toBeLessThan(1e-9);
      expect(Math.abs(Math.abs(p.position.z - 0.2) - 0.4)).toBeLessThan(1e-9);
    }
  });

  it('a box edge crossing the ridge gives an edge-edge contact', () => {
    // Box rotated 45° about x: its lowest edge runs along x, crossing the ridge (along z) at right angles.
    const box = new Box({ x: 0.5, y: 0.3, z: 0.3 });
    const q: Quat = { x: Math.sin(Math.PI / 8), y: 0, z: 0, w: Math.cos(Math.PI / 8) };
    const drop = 0.3 * S + 0.3 * S;
    collide(box, { x: 0, y: drop - 0.01, z: 0.1 }, q, ridge, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBeGreaterThanOrEqual(1);
    let deepest = -Infinity;
    for (let i = 0; i < m.pointCount; i++) deepest = Math.max(deepest, m.points[i]!.depth);
    expect(deepest).toBeCloseTo(0.01, 6);
    for (let i = 0; i < m.pointCount; i++) {
      const p = m.points[i]!;
      if (p.depth < deepest - 1e-9) continue;
      expect(Math.abs(p.normal.y + 1)).toBeLessThan(1e-6);
      expect(Math.abs(p.position.x)).toBeLessThan(1e-6);
    }
  });
});

describe('concave valley (90°)', () => {
  const valley = roof(-1);
  const m = new Manifold();

  it('marks the valley edge inactive and a sphere in the groove touches both faces', () => {
    // Triangle 0 is (0, 1, 2): edge 0 is the valley line, edge 2 (2 → 0) is open.
    expect(valley.featureFlags[0]! & 1).toBe(0);
    expect((valley.featureFlags[0]! >> 2) & 1).toBe(1);
    const n = { x: 0, y: 0, z: 0 };
    expect(valley.getTriangleNormal(0, n).x).toBeCloseTo(-S, 12);
    const sphere = new Sphere(0.3);
    // Centre on the bisector at distance 0.29 from each face.
    collide(sphere, { x: 0, y: 0.29 / S, z: 0.1 }, ID, valley, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(2);
    const nxs = [normalOf(m, 0).x, normalOf(m, 1).x].sort((a, b) => a - b);
    expect(nxs[0]).toBeCloseTo(-S, 9);
    expect(nxs[1]).toBeCloseTo(S, 9);
    for (let i = 0; i < 2; i++) {
      expect(normalOf(m, i).y).toBeCloseTo(-S, 9);
      expect(m.points[i]!.depth).toBeCloseTo(0.01, 9);
    }
  });
});

describe('closed cube (back faces)', () => {
  const box = cube();
  const m = new Manifold();
  const sphere = new Sphere(0.2);

  it('a sphere sunk inside leaves through the nearest face', () => {
    collide(sphere, { x: 0.1, y: 0.4, z: 0.2 }, ID, box, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    expect(normalOf(m, 0).y).toBeCloseTo(-1, 9);
    expect(m.points[0]!.depth).toBeCloseTo(0.3, 9);
  });

  it('a sphere resting near the rim is not pushed sideways by the side faces', () => {
    collide(sphere, { x: 0.45, y: 0.69, z: 0 }, ID, box, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    expect(normalOf(m, 0).y).toBeCloseTo(-1, 9);
    expect(m.points[0]!.depth).toBeCloseTo(0.01, 9);
  });

  it('a sphere over the rim edge gets the edge normal', () => {
    collide(sphere, { x: 0.6, y: 0.6, z: 0 }, ID, box, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    expect(normalOf(m, 0).x).toBeCloseTo(-S, 9);
    expect(normalOf(m, 0).y).toBeCloseTo(-S, 9);
    expect(m.points[0]!.depth).toBeCloseTo(0.2 - 0.1 * Math.SQRT2, 9);
  });

  it('a box sunk into the top leaves through it with 4 points', () => {
    const b = new Box({ x: 0.2, y: 0.2, z: 0.2 });
    collide(b, { x: 0, y: 0.4, z: 0 }, ID, box, ORIGIN, ID, MARGIN, m);
    expect(m.pointCount).toBe(4);
    for (let i = 0; i < 4; i++) {
      expect(normalOf(m, i).y).toBeCloseTo(-1, 9);
      expect(m.points[i]!.depth).toBeCloseTo(0.3, 9);
    }
  });

  it('random poses never give non-finite or out-of-margin points', () => {
    const rng = seeded(8201, 'mesh cube random');
    const cap = new Capsule(0.15, 0.3);
    const b = new Box({ x: 0.2, y: 0.3, z: 0.25 });
    let points = 0;
    for (let k = 0; k < 300; k++) {
      const p = rng.vec3(-1, 1);
      const q = rng.quat();
      for (let shape = 0; shape < 3; shape++) {
        if (shape === 0) collide(sphere, p, q, box, ORIGIN, ID, MARGIN, m);
        else if (shape === 1) collide(b, p, q, box, ORIGIN, ID, MARGIN, m);
        else collide(cap, p, q, box, ORIGIN, ID, MARGIN, m);
        points += m.pointCount;
        for (let i = 0; i < m.pointCount; i++) {
          const pt = m.points[i]!;
          expect(Math.hypot(pt.normal.x, pt.normal.y, pt.normal.z)).toBeCloseTo(1, 9);
          expect(pt.depth).toBeGreaterThanOrEqual(-MARGIN - 1e-9);
          expect(Number.isFinite(pt.position.x + pt.position.y + pt.position.z)).toBe(true);
        }
      }
    }
    expect(points).toBeGreaterThan(100);
  });
});
