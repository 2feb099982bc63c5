/**
 * Hand-built configurations for every convex pair: resting, touching,
 * separated (beyond and within the margin), deep and rotated, with the depth,
 * normal and point count worked out by hand; the flat cases (box on box: 4
 * points; capsule on box and on capsule: 2 points) and id persistence under
 * 1e-4 jitter.
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import { fromAxisAngle } from '../../../src/math/quat';
import type { Quat } from '../../../src/math/quat';
import type { Vec3 } from '../../../src/math/vec3';
import { Box } from '../../../src/shapes/box';
import { Capsule } from '../../../src/shapes/capsule';
import type { Shape } from '../../../src/shapes/shape';
import { Sphere } from '../../../src/shapes/sphere';
import { seeded } from '../../helpers/random';
import { maxDepth, surfaceErrors, symmetryError } from './sdf';

const MARGIN = 0.02;
const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
const Z90: Quat = fromAxisAngle({ x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: 0, z: 1 }, Math.PI / 2);
const tilt = (angle: number, axis: Vec3 = { x: 1, y: 0, z: 0 }): Quat => fromAxisAngle({ x: 0, y: 0, z: 0, w: 1 }, axis, angle);

const ground = new Box({ x: 5, y: 0.5, z: 5 }); // top face at y = 0 when centred at y = −0.5
const crate = new Box({ x: 0.5, y: 0.5, z: 0.5 });
const ball = new Sphere(0.5);
const pill = new Capsule(0.3, 0.6);
const GROUND_AT = { position: { x: 0, y: -0.5, z: 0 }, rotation: ID };

/** Lowest point of B above the ground top (y = 0) for each shape resting upright. */
function restingHeight(s: Shape, rotation: Quat): number {
  if (s instanceof Sphere) return s.radius;
  if (s instanceof Box) return s.halfExtents.y;
  if (s instanceof Capsule) return rotation === Z90 ? s.radius : s.radius + s.halfHeight;
  return 0;
}

function run(a: Shape, pa: Vec3, qa: Quat, b: Shape, pb: Vec3, qb: Quat): Manifold {
  const m = new Manifold();
  collide(a, pa, qa, b, pb, qb, MARGIN, m);
  const r = new Manifold();
  collide(b, pb, qb, a, pa, qa, MARGIN, r);
  expect(symmetryError(m, r)).toBeLessThan(1e-9);
  if (m.pointCount > 0) {
    expect(surfaceErrors(m, a, { position: pa, rotation: qa }, b, { position: pb, rotation: qb }).worstSurfaceError).toBeLessThan(1e-9);
  }
  return m;
}

describe('each shape on a ground box (A = ground, normal +Y)', () => {
  const shapes: [string, Shape, Quat, number][] = [
    ['sphere', ball, ID, 1],
    ['box', crate, ID, 4],
    ['capsule upright', pill, ID, 1],
    ['capsule lying', pill, Z90, 2],
  ];
  for (const [name, shape, rot, points] of shapes) {
    const h = restingHeight(shape, rot);
    it(`${name}: resting 1 mm deep, touching, within and beyond the margin, deep`, () => {
      for (const [gapY, expectedDepth, count] of [
        [-0.001, 0.001, points],
        [0, 0, points],
        [0.015, -0.015, points],
        [0.05, 0, 0],
        [-0.2, 0.2, points],
      ] as const) {
        const m = run(ground, GROUND_AT.position, ID, shape, { x: 0.3, y: h + gapY, z: -0.2 }, rot);
        expect(m.pointCount).toBe(count);
        for (let i = 0; i < m.pointCount; i++) {
          const p = m.points[i]!;
          expect(p.depth).toBeCloseTo(expectedDepth, 9);
          expect(p.normal.y).toBeCloseTo(1, 12);
          // On the ground plane (midpoint between surfaces at y = −depth/2).
          expect(p.position.y).toBeCloseTo(-expectedDepth / 2, 9);
        }
      }
    });
  }

  it('box on box: the 4 points are the crate corners', () => {
    const m = run(ground, GROUND_AT.position, ID, crate, { x: 1, y: 0.49, z: 2 }, ID);
    expect(m.pointCount).toBe(4);
    const xs = [...m.points].map((p) => p.position.x).sort((u, v) => u - v);
    const zs = [...m.points].map((p) => p.position.z).sort((u, v) => u - v);
    expect(xs[0]).toBeCloseTo(0.5, 12);
    expect(xs[3]).toBeCloseTo(1.5, 12);
    expect(zs[0]).toBeCloseTo(1.5, 12);
    expect(zs[3]).toBeCloseTo(2.5, 12);
  });

  it('lying capsule: the 2 points are the segment ends, and stay 2 when tilted by 1°', () => {
    let m = run(ground, GROUND_AT.position, ID, pill, { x: 0, y: 0.29, z: 0 }, Z90);
    const xs = [m.points[0]!.position.x, m.points[1]!.position.x].sort((u, v) => u - v);
    expect(xs[0]).toBeCloseTo(-0.6, 12);
    expect(xs[1]).toBeCloseTo(0.6, 12);
    // Tilted 1° about z: the low end is 0.6·sin 1° deeper than the centre.
    const q = tilt(Math.PI / 2 + Math.PI / 180, { x: 0, y: 0, z: 1 });
    m = run(ground, GROUND_AT.position, ID, pill, { x: 0, y: 0.3, z: 0 }, q);
    expect(m.pointCount).toBe(2);
    expect(maxDepth(m)).toBeCloseTo(0.6 * Math.sin(Math.PI / 180), 9);
    // Overhanging the ground's edge: clipped to the face.
    m = run(ground, GROUND_AT.position, ID, pill, { x: 5.2, y: 0.29, z: 0 }, Z90);
    expect(m.pointCount).toBe(2);
    const ends = [m.points[0]!.position.x, m.points[1]!.position.x].sort((u, v) => u - v);
    expect(ends[0]).toBeCloseTo(4.6, 12);
    expect(ends[1]).toBeCloseTo(5, 12);
  });

  it('rotated crate standing on an edge gives 2 points, on a corner 1', () => {
    const edge = tilt(Math.PI / 4, { x: 0, y: 0, z: 1 });
    let m = run(ground, GROUND_AT.position, ID, crate, { x: 0, y: Math.SQRT1_2 * 1 - 0.01, z: 0 }, edge);
    expect(m.pointCount).toBe(2);
    expect(maxDepth(m)).toBeCloseTo(0.01, 9);
    // Corner down: rotate so the body diagonal is vertical.
    const corner = { x: 0, y: 0, z: 0, w: 1 };
    const q1 = tilt(Math.PI / 4, { x: 0, y: 0, z: 1 });
    const q2 = tilt(Math.atan(Math.SQRT1_2), { x: 1, y: 0, z: 0 });
    corner.x = q2.w * q1.x + q2.x * q1.w + q2.y * q1.z - q2.z * q1.y;
    corner.y = q2.w * q1.y - q2.x * q1.z + q2.y * q1.w + q2.z * q1.x;
    corner.z = q2.w * q1.z + q2.x * q1.y - q2.y * q1.x + q2.z * q1.w;
    corner.w = q2.w * q1.w - q2.x * q1.x - q2.y * q1.y - q2.z * q1.z;
    m = run(ground, GROUND_AT.position, ID, crate, { x: 0, y: Math.sqrt(3) * 0.5 - 0.01, z: 0 }, corner);
    expect(m.pointCount).toBe(1);
    expect(m.points[0]!.depth).toBeCloseTo(0.01, 9);
  });
});

describe('box resting on box: ids persist under jitter', () => {
  it('4 points, depth = overlap, ids identical over 100 frames of 1e-4 jitter', () => {
    const rng = seeded(7, 'box-box jitter');
    const m = new Manifold();
    collide(ground, GROUND_AT.position, ID, crate, { x: 0, y: 0.495, z: 0 }, ID, MARGIN, m);
    expect(m.pointCount).toBe(4);
    const ids = [...m.points].map((p) => p.id).sort((u, v) => u - v);
    expect(new Set(ids).size).toBe(4);
    for (let frame = 0; frame < 100; frame++) {
      const q = tilt(rng.range(-1e-4, 1e-4), rng.unitVec3());
      const p = { x: rng.range(-1e-4, 1e-4), y: 0.495 + rng.range(-1e-4, 1e-4), z: rng.range(-1e-4, 1e-4) };
      collide(ground, GROUND_AT.position, ID, crate, p, q, MARGIN, m);
      expect(m.pointCount).toBe(4);
      expect([...m.points].map((pt) => pt.id).sort((u, v) => u - v)).toEqual(ids);
      for (const pt of m.points) expect(pt.depth).toBeCloseTo(0.005, 3);
    }
  });

  it('two equal crates stacked: 4 points, depth 1 mm, over 100 jittered frames', () => {
    // Equal faces: a jittered corner may fall just outside the other face and
    // be clipped, so ids of equal-sized faces are not asserted here (see report).
    const rng = seeded(8, 'crate stack jitter');
    const m = new Manifold();
    for (let frame = 0; frame < 100; frame++) {
      const qa = tilt(rng.range(-1e-4, 1e-4), rng.unitVec3());
      const qb = tilt(rng.range(-1e-4, 1e-4), rng.unitVec3());
      collide(crate, { x: rng.range(-1e-4, 1e-4), y: 0.5, z: 0 }, qa, crate, { x: rng.range(-1e-4, 1e-4), y: 1.499, z: rng.range(-1e-4, 1e-4) }, qb, MARGIN, m);
      expect(m.pointCount).toBe(4);
      for (const pt of m.points) expect(pt.depth).toBeCloseTo(0.001, 3);
    }
  });
});

describe('round pairs by hand', () => {
  it('sphere–sphere: touching, speculative, beyond margin, deep, concentric', () => {
    const s = new Sphere(0.5), t = new Sphere(0.25);
    const at = (d: number): Manifold => run(s, { x: 1, y: 2, z: 3 }, ID, t, { x: 1 + d * 0.6, y: 2 + d * 0.8, z: 3 }, ID);
    expect(at(0.75).points[0]!.depth).toBeCloseTo(0, 12);
    expect(at(0.76).points[0]!.depth).toBeCloseTo(-0.01, 12);
    expect(at(0.8).pointCount).toBe(0);
    const deep = at(0.3);
    expect(deep.points[0]!.depth).toBeCloseTo(0.45, 12);
    expect(deep.points[0]!.normal.x).toBeCloseTo(0.6, 12);
    // Concentric: any normal is a minimum (+Y is picked), so no symmetry check.
    const m = new Manifold();
    collide(s, { x: 1, y: 2, z: 3 }, ID, t, { x: 1, y: 2, z: 3 }, ID, MARGIN, m);
    expect(m.points[0]!.depth).toBeCloseTo(0.75, 12);
  });

  it('sphere–box: face, edge and corner regions; centre inside exits through the nearest face', () => {
    const box = new Box({ x: 1, y: 0.5, z: 0.25 });
    const s = new Sphere(0.2);
    expect(run(s, { x: 0, y: 0.69, z: 0 }, ID, box, { x: 0, y: 0, z: 0 }, ID).points[0]!.depth).toBeCloseTo(0.01, 12);
    const edge = run(s, { x: 1.1, y: 0.6, z: 0 }, ID, box, { x: 0, y: 0, z: 0 }, ID).points[0]!;
    expect(edge.depth).toBeCloseTo(0.2 - Math.SQRT2 * 0.1, 12);
    expect(edge.normal.x).toBeCloseTo(-Math.SQRT1_2, 12);
    const corner = run(s, { x: 1.05, y: 0.55, z: 0.3 }, ID, box, { x: 0, y: 0, z: 0 }, ID).points[0]!;
    expect(corner.depth).toBeCloseTo(0.2 - Math.sqrt(3) * 0.05, 12);
    // Inside, 0.1 below the +z face (the nearest): pushed out along +z.
    const inside = run(s, { x: 0.3, y: 0.1, z: 0.15 }, ID, box, { x: 0, y: 0, z: 0 }, ID).points[0]!;
    expect(inside.depth).toBeCloseTo(0.3, 12);
    expect(inside.normal.z).toBeCloseTo(-1, 12);
    // Rotated box: the same configuration turned 30° about y.
    const q = tilt(Math.PI / 6, { x: 0, y: 1, z: 0 });
    const c = { x: Math.cos(Math.PI / 6) * 1.1, y: 0.6, z: -Math.sin(Math.PI / 6) * 1.1 };
    expect(run(s, c, ID, box, { x: 0, y: 0, z: 0 }, q).points[0]!.depth).toBeCloseTo(0.2 - Math.SQRT2 * 0.1, 12);
  });

  it('sphere–capsule: side, cap, on the axis', () => {
    const s = new Sphere(0.2);
    const rot = tilt(0.7, { x: 0.6, y: 0, z: 0.8 });
    const side = run(s, { x: 0.45, y: 0.3, z: 0 }, ID, pill, { x: 0, y: 0, z: 0 }, ID).points[0]!;
    expect(side.depth).toBeCloseTo(0.05, 12);
    const cap = run(s, { x: 0, y: 1.05, z: 0 }, ID, pill, { x: 0, y: 0, z: 0 }, ID).points[0]!;
    expect(cap.depth).toBeCloseTo(0.05, 12);
    expect(cap.normal.y).toBeCloseTo(-1, 12);
    expect(run(s, { x: 0, y: 0.2, z: 0 }, ID, pill, { x: 0, y: 0, z: 0 }, ID).points[0]!.depth).toBeCloseTo(0.5, 12);
    expect(run(s, { x: 0.51, y: 0, z: 0 }, rot, pill, { x: 0, y: 0, z: 0 }, ID).points[0]!.depth).toBeCloseTo(-0.01, 12);
    expect(run(s, { x: 0.53, y: 0, z: 0 }, rot, pill, { x: 0, y: 0, z: 0 }, ID).pointCount).toBe(0);
  });

  it('capsule–capsule: crossing, parallel (2 points over the overlap), 2° apart, beyond margin', () => {
    const other = new Capsule(0.2, 1);
    const crossing = run(pill, { x: 0, y: 0, z: 0 }, ID, other, { x: 0, y: 0.1, z: 0.45 }, Z90);
    expect(crossing.pointCount).toBe(1);
    expect(crossing.points[0]!.depth).toBeCloseTo(0.05, 12);
    expect(crossing.points[0]!.normal.z).toBeCloseTo(1, 12);
    // Both lying along x, B shifted by 0.8: overlap x ∈ [−0.2, 0.6].
    const par = run(pill, { x: 0, y: 0, z: 0 }, Z90, other, { x: 0.8, y: 0.49, z: 0 }, Z90);
    expect(par.pointCount).toBe(2);
    const xs = [par.points[0]!.position.x, par.points[1]!.position.x].sort((u, v) => u - v);
    expect(xs[0]).toBeCloseTo(-0.2, 12);
    expect(xs[1]).toBeCloseTo(0.6, 12);
    for (const p of par.points.slice(0, 2)) expect(p.depth).toBeCloseTo(0.01, 12);
    const twoDeg = run(pill, { x: 0, y: 0, z: 0 }, Z90, other, { x: 0.8, y: 0.49, z: 0 }, tilt(Math.PI / 2 + Math.PI / 90, { x: 0, y: 0, z: 1 }));
    expect(twoDeg.pointCount).toBeGreaterThanOrEqual(2);
    expect(run(pill, { x: 0, y: 0, z: 0 }, Z90, other, { x: 0.8, y: 0.53, z: 0 }, Z90).pointCount).toBe(0);
  });
});

describe('dispatch', () => {
  it('mesh–mesh throws a named error', async () => {
    const { TriangleMesh } = await import('../../../src/shapes/triangle-mesh');
    // Counter-clockwise seen from +Y, so the face normal is +Y.
    const mesh = new TriangleMesh([0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 2, 1]);
    const m = new Manifold();
    expect(() => collide(mesh, { x: 0, y: 0, z: 0 }, ID, mesh, { x: 0, y: 0, z: 0 }, ID, MARGIN, m)).toThrow('no collision routine for shape kinds 3 and 3');
    // A sphere resting 1 cm into a one-triangle floor, in both orders.
    collide(ball, { x: 0.2, y: 0.49, z: 0.2 }, ID, mesh, { x: 0, y: 0, z: 0 }, ID, MARGIN, m);
    expect(m.pointCount).toBe(1);
    expect(m.points[0]!.depth).toBeCloseTo(0.01, 9);
    expect(m.points[0]!.normal.y).toBeCloseTo(-1, 9);
    collide(mesh, { x: 0, y: 0, z: 0 }, ID, ball, { x: 0.2, y: 0.49, z: 0.2 }, ID, MARGIN, m);
    expect(m.points[0]!.normal.y).toBeCloseTo(1, 9);
  });
});
