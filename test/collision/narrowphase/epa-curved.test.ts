/**
 * EPA with a curved core (a Cylinder) on either side of the pair. Its polytope
 * is inscribed in the Minkowski difference D, so its depth is a lower bound of
 * the true depth, and the support height of D along the normal it returns,
 * h_D(n), is an upper bound: the two agreeing brackets the true depth.
 * EPA once under-reported with the cylinder as B (up to the whole depth, in
 * about a third of the sphere–cylinder poses): a rotated cap's coplanar rim
 * points read as visible or not by the sign of round-off, which tore the
 * polytope.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, ConvexHull, Cylinder, epaPenetration, GjkResult, quat, Sphere, type ConvexShape, type Quat, type Vec3 } from '../../../src/index';
import { seeded } from '../../helpers/random';

const res = new GjkResult();

function dot(a: Vec3, b: Vec3): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/** World support point of a shape at a pose along world direction d. */
function support(s: ConvexShape, p: Vec3, q: Quat, d: Vec3): Vec3 {
  const local = s.support({ x: 0, y: 0, z: 0 }, quat.inverseRotate({ x: 0, y: 0, z: 0 }, q, d));
  const w = quat.rotate({ x: 0, y: 0, z: 0 }, q, local);
  return { x: w.x + p.x, y: w.y + p.y, z: w.z + p.z };
}

/** h_D(n) for D = A − B: how far B must move along n to clear A. */
function heightAlong(a: ConvexShape, pa: Vec3, qa: Quat, b: ConvexShape, pb: Vec3, qb: Quat, n: Vec3): number {
  const m = { x: -n.x, y: -n.y, z: -n.z };
  return dot(support(a, pa, qa, n), n) + dot(support(b, pb, qb, m), m);
}

const cube = new ConvexHull([-0.5, 0.5].flatMap((x) => [-0.5, 0.5].flatMap((y) => [-0.5, 0.5].map((z) => ({ x, y, z })))));

describe('EPA with a curved core', () => {
  it('a hull cube pressed into a cylinder side (random rotations, the face flush), both orders: the exact depth within 1 µm', () => {
    const rng = seeded(1931, 'cube into cylinder side');
    const cyl = new Cylinder(0.5, 1);
    let worstDepth = 0, worstNormal = 0, cases = 0;
    for (let i = 0; i < 200; i++) {
      const depth = rng.range(0.005, 0.2);
      const q = rng.quat();
      const origin = rng.vec3(-3, 3);
      // Cylinder-local: the cube's face flush with the side line at x = r, pushed in by depth.
      const local = { x: 0.5 + 0.5 - depth, y: rng.range(-0.3, 0.3), z: 0 };
      const off = quat.rotate({ x: 0, y: 0, z: 0 }, q, local);
      const pc = { x: origin.x + off.x, y: origin.y + off.y, z: origin.z + off.z };
      const side = quat.rotate({ x: 0, y: 0, z: 0 }, q, { x: 1, y: 0, z: 0 });
      // The cube also turned about the side's normal: its face stays flush.
      const t = rng.range(-Math.PI, Math.PI);
      const qc = quat.multiply({ x: 0, y: 0, z: 0, w: 1 }, q, { x: Math.sin(t / 2), y: 0, z: 0, w: Math.cos(t / 2) });
      // Cube as A (the curved core is B), then the cylinder as A.
      epaPenetration(cube, pc, qc, cyl, origin, q, res);
      worstDepth = Math.max(worstDepth, Math.abs(-res.distance - depth));
      worstNormal = Math.max(worstNormal, 1 + dot(res.normal, side));
      epaPenetration(cyl, origin, q, cube, pc, qc, res);
      worstDepth = Math.max(worstDepth, Math.abs(-res.distance - depth));
      worstNormal = Math.max(worstNormal, 1 - dot(res.normal, side));
      cases += 2;
    }
    console.log(`[epa cube-cylinder] ${cases} cases: worst depth error ${worstDepth.toExponential(2)} m, worst 1 − cos(normal) ${worstNormal.toExponential(2)}`);
    expect(worstDepth).toBeLessThan(1e-6);
    expect(worstNormal).toBeLessThan(1e-9);
  });

  it('a sphere whose centre is inside a cylinder (random rotations), both orders: depth r + the distance to the nearer of side and cap, within 1 µm', () => {
    const rng = seeded(1932, 'sphere inside cylinder');
    const cyl = new Cylinder(0.5, 0.4);
    const ball = new Sphere(0.3);
    let worst = 0, cases = 0;
    for (let i = 0; i < 300; i++) {
      const q = rng.quat();
      const origin = rng.vec3(-3, 3);
      // Cylinder-local centre: radius ρ < R, height |y| < h.
      const rho = rng.range(0, 0.49), phi = rng.range(0, 2 * Math.PI), y = rng.range(-0.39, 0.39);
      const off = quat.rotate({ x: 0, y: 0, z: 0 }, q, { x: rho * Math.cos(phi), y, z: rho * Math.sin(phi) });
      const pc = { x: origin.x + off.x, y: origin.y + off.y, z: origin.z + off.z };
      const exact = 0.3 + Math.min(0.5 - rho, 0.4 - Math.abs(y));
      const qs = rng.quat();
      epaPenetration(ball, pc, qs, cyl, origin, q, res);
      worst = Math.max(worst, Math.abs(-res.distance - exact));
      epaPenetration(cyl, origin, q, ball, pc, qs, res);
      worst = Math.max(worst, Math.abs(-res.distance - exact));
      cases += 2;
    }
    console.log(`[epa sphere-in-cylinder] ${cases} cases: worst depth error ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-6);
  });

  const partners: [string, ConvexShape][] = [
    ['hull cube', cube],
    ['box', new Box({ x: 0.4, y: 0.3, z: 0.5 })],
    ['sphere', new Sphere(0.3)],
    ['capsule', new Capsule(0.2, 0.3)],
    ['cylinder', new Cylinder(0.3, 0.2)],
  ];
  for (const [k, [name, other]] of partners.entries()) {
    it(`${name} and a cylinder at random overlapping poses, both orders: depth bracketed within 2 µm`, () => {
      const rng = seeded(1940 + k, `epa curved ${name}`);
      const cyl = new Cylinder(0.5, 0.5);
      let worst = 0, overlaps = 0;
      for (let i = 0; i < 300; i++) {
        const qa = rng.quat(), qb = rng.quat();
        const pa = rng.vec3(-2, 2);
        const d = rng.vec3(-0.4, 0.4);
        const pb = { x: pa.x + d.x, y: pa.y + d.y, z: pa.z + d.z };
        for (const flip of [false, true]) {
          const [a, b] = flip ? [cyl, other] : [other, cyl];
          epaPenetration(a, pa, qa, b, pb, qb, res);
          if (res.distance > 0) continue;
          overlaps++;
          // EPA's depth ≤ true depth ≤ h_D(EPA's normal).
          const upper = heightAlong(a, pa, qa, b, pb, qb, res.normal);
          worst = Math.max(worst, upper - -res.distance);
        }
      }
      console.log(`[epa curved ${name}] ${overlaps} overlapping cases: worst h_D(n) − depth ${worst.toExponential(2)} m`);
      expect(overlaps).toBeGreaterThan(300);
      expect(worst).toBeLessThan(2e-6);
    });
  }
});
