/**
 * A body sunk under the seam of a shallow valley (fuzz seed 2724: a small
 * cylinder on the hill terrain). Below a concave seam the two faces' normals
 * fan apart, so a point straight under the seam projects along either
 * normal outside that face's triangle; every shape must still get a contact
 * as deep as its deepest point is under the faces' planes.
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import { fromAxisAngle, type Quat } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import { ConvexHull } from '../../../src/shapes/convex-hull';
import { Cylinder } from '../../../src/shapes/cylinder';
import type { ConvexShape } from '../../../src/shapes/shape';
import { Sphere } from '../../../src/shapes/sphere';
import { TriangleMesh } from '../../../src/shapes/triangle-mesh';

const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
const ORIGIN: Vec3 = { x: 0, y: 0, z: 0 };
const MARGIN = 0.02;
/** Each face rises this much (radians) from the seam, along the z axis at y = 0. */
const SLOPE = 5 * Math.PI / 180;
/** How far the shape's lowest point is under the seam (m). */
const SINK = 0.015;
/** How much shallower (m) than its lowest point a hull's clipped point under the seam may be (0.36 mm here). */
const CLIP_SHORTFALL = 0.0005;

function valley(): TriangleMesh {
  const L = 2, H = L * Math.tan(SLOPE);
  const positions = [0, 0, -L, 0, 0, L, L, H, -L, L, H, L, -L, H, -L, -L, H, L];
  // Counter-clockwise from above: both faces point up.
  const indices = [0, 1, 2, 1, 3, 2, 0, 4, 1, 1, 4, 5];
  return new TriangleMesh(positions, indices);
}

function rotate(q: Quat, v: Vec3): Vec3 {
  const tx = 2 * (q.y * v.z - q.z * v.y), ty = 2 * (q.z * v.x - q.x * v.z), tz = 2 * (q.x * v.y - q.y * v.x);
  return { x: v.x + q.w * tx + (q.y * tz - q.z * ty), y: v.y + q.w * ty + (q.z * tx - q.x * tz), z: v.z + q.w * tz + (q.x * ty - q.y * tx) };
}

/** The position that puts the shape's lowest point (turned by q) at (dx, −SINK, 0.3). */
function placeLowestAt(shape: ConvexShape, q: Quat, dx: number): Vec3 {
  const inv = { x: -q.x, y: -q.y, z: -q.z, w: q.w };
  const local = { x: 0, y: 0, z: 0 };
  shape.support(local, rotate(inv, { x: 0, y: -1, z: 0 }));
  const p = rotate(q, local);
  return { x: dx - p.x, y: -SINK - p.y, z: 0.3 - p.z };
}

const tilted = fromAxisAngle({ x: 0, y: 0, z: 0, w: 1 }, { x: 0.6, y: 0, z: 0.8 }, 0.7);
/** The cylinder's orientation in fuzz seed 2724 when its contact was lost. */
const fuzzPose: Quat = { x: 0.20806461939741275, y: 0.25323799006254194, z: 0.4084903713163463, w: -0.8518892246565439 };
const cases: [string, ConvexShape][] = [
  ['cylinder (the fuzz shape)', new Cylinder(0.044, 0.031)],
  ['convex hull (tetrahedron)', new ConvexHull([{ x: 0, y: -0.05, z: 0 }, { x: 0.06, y: 0.03, z: 0.01 }, { x: -0.05, y: 0.03, z: 0.04 }, { x: 0, y: 0.04, z: -0.06 }])],
  ['box', new Box({ x: 0.04, y: 0.03, z: 0.05 })],
  ['capsule', new Capsule(0.03, 0.05)],
  ['sphere', new Sphere(0.05)],
];

describe('a shape sunk under a shallow valley seam', () => {
  const mesh = valley();
  const m = new Manifold();
  for (const [name, shape] of cases) {
    it(`${name}: a contact at least as deep as the lowest point is under the faces`, () => {
      // Lowest point just beside the seam on either side, and on it.
      for (const [q, dx] of [[tilted, -0.001], [tilted, 0], [tilted, 0.001], [fuzzPose, -0.001], [fuzzPose, 0.001]] as [Quat, number][]) {
        const pos = placeLowestAt(shape, q, dx);
        collide(shape, pos, q, mesh, ORIGIN, ID, MARGIN, m);
        let deepest = -Infinity;
        for (let i = 0; i < m.pointCount; i++) {
          deepest = Math.max(deepest, m.points[i]!.depth);
          // The normal points down into the mesh (A → B).
          expect(m.points[i]!.normal.y).toBeLessThan(-0.99);
        }
        // The lowest point is SINK under the seam, so at least SINK·cos(SLOPE) − |dx|·sin(SLOPE) under either face's
        // plane. A hull's face clip that keeps some point keeps the point where its face crosses the triangle's prism,
        // up to CLIP_SHORTFALL shallower (the support point is added only when the clip keeps none; collision.md).
        expect(m.pointCount).toBeGreaterThan(0);
        const shortfall = shape instanceof ConvexHull ? CLIP_SHORTFALL : 0;
        expect(deepest).toBeGreaterThan(SINK * Math.cos(SLOPE) - 0.001 * Math.sin(SLOPE) - 1e-6 - shortfall);
        expect(deepest).toBeLessThan(SINK + 0.01);
      }
    });
  }
});

describe('a shape hanging over an open edge gets no point under the extended plane', () => {
  // A 2 × 2 ledge at y = 0; its edge at x = 1 is open (active). The
  // colliders take the edge's own normal here (EPA, or the SAT's edge
  // axis), so this checks the result, not beyondOnlyInactiveEdges: with that
  // guard always true these poses (3°, 8°, 20° tilts) still pass.
  const ledge = new TriangleMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], [0, 2, 1, 0, 3, 2]);
  const m = new Manifold();
  const tip = fromAxisAngle({ x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: 0, z: 1 }, 20 * Math.PI / 180);
  for (const [name, shape] of cases.slice(0, 3)) {
    it(`${name}: lowest point 2 cm past the edge, 1.5 cm under the plane`, () => {
      const p = placeLowestAt(shape, tip, 1.02);
      collide(shape, { x: p.x, y: p.y, z: 0 }, tip, ledge, ORIGIN, ID, MARGIN, m);
      // The shape crosses the edge at most 1.5 cm − 2 cm · tan 20° under the plane: lifting it that much frees it.
      const bound = SINK - 0.02 * Math.tan(20 * Math.PI / 180);
      for (let i = 0; i < m.pointCount; i++) expect(m.points[i]!.depth).toBeLessThan(bound + 1e-6);
    });
  }
});

describe('a large box tilted over an open edge: its deepest corner past the edge is not added', () => {
  // Here the face axis wins (the box is 0.6 m wide and tilted only 2°), the
  // clip keeps the points where the bottom face crosses the edge's prism
  // wall, and the corner 2 cm past the open edge is 0.7 mm deeper than they
  // are. This reaches beyondOnlyInactiveEdges: with that guard always true
  // the corner is added at 1.5 cm.
  const ledge = new TriangleMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], [0, 2, 1, 0, 3, 2]);
  const m = new Manifold();
  it('0.6 m box, 2° tilt, lowest edge 2 cm past the edge and 1.5 cm under the plane', () => {
    const a = 2 * Math.PI / 180, h = 0.3;
    const q = fromAxisAngle({ x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: 0, z: 1 }, -a);
    const box = new Box({ x: h, y: h, z: h });
    // The corner (h, −h, ·) turned by −a about z is the lowest; put it at (1.02, −SINK).
    const rx = h * Math.cos(a) - h * Math.sin(a), ry = -h * Math.sin(a) - h * Math.cos(a);
    collide(box, { x: 1.02 - rx, y: -SINK - ry, z: 0 }, q, ledge, ORIGIN, ID, MARGIN, m);
    const bound = SINK - 0.02 * Math.tan(a);
    expect(m.pointCount).toBeGreaterThanOrEqual(2);
    let deepest = -Infinity;
    for (let i = 0; i < m.pointCount; i++) {
      expect(m.points[i]!.normal.y).toBeLessThan(-0.9999);
      deepest = Math.max(deepest, m.points[i]!.depth);
    }
    expect(deepest).toBeLessThan(bound + 1e-6);
    expect(deepest).toBeGreaterThan(bound - 1e-4);
  });
});

describe('a shape straddling a shallow ridge leans no further than the faces', () => {
  // Two faces falling 3° away from a ridge along z at y = 0 (fuzz seed 2071:
  // a hull on a terrain cell's diagonal got a normal 60° off the vertical).
  const bend = 3 * Math.PI / 180, L = 2, H = L * Math.tan(bend);
  const ridge = new TriangleMesh([0, 0, -L, 0, 0, L, L, -H, -L, L, -H, L, -L, -H, -L, -L, -H, L], [0, 1, 2, 1, 3, 2, 0, 4, 1, 1, 4, 5]);
  const m = new Manifold();
  for (const [name, shape] of cases.slice(0, 3)) {
    it(`${name}: every normal within 3° of the vertical`, () => {
      // Sunk 1 cm, lowest point just beside the ridge on either side and on it.
      for (const dx of [-0.004, 0, 0.004]) {
        for (const q of [tilted, fuzzPose]) {
          const p = placeLowestAt(shape, q, dx);
          collide(shape, { x: p.x, y: p.y + SINK - 0.01, z: p.z }, q, ridge, ORIGIN, ID, MARGIN, m);
          expect(m.pointCount).toBeGreaterThan(0);
          for (let i = 0; i < m.pointCount; i++) expect(-m.points[i]!.normal.y).toBeGreaterThan(Math.cos(bend) - 1e-9);
        }
      }
    });
  }
});
