/**
 * One side or two: a TriangleMesh collides with the front of its triangles by
 * default and with both sides when built with `{ doubleSided: true }`.
 * Bodies are dropped on a ground whose triangles face DOWN (wound clockwise
 * seen from above): one-sided they fall through it, double-sided they rest on
 * it. 60 Hz, default settings; rest heights within 1 cm (the contact slop is
 * 5 mm), "rolls smoothly" = the rolling ball's height stays within 2 mm.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, TriangleMesh, World, type ConvexShape, type Quat, type Vec3 } from '../../../src/index';
import { seeded } from '../../helpers/random';

const DT = 1 / 60;
const REST_TOL = 0.01;

/**
 * A size × size ground of n × n cells at y = 0 centred on the origin. `facing`
 * −1 winds every triangle facing down, +1 up; 0 alternates cell by cell (a
 * mesh of inconsistent winding).
 */
function ground(size: number, n: number, facing: -1 | 0 | 1, height = (_x: number, _z: number): number => 0): TriangleMesh {
  const positions: number[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const x = (i / n - 0.5) * size, z = (j / n - 0.5) * size;
      positions.push(x, height(x, z), z);
    }
  }
  return new TriangleMesh(positions, groundIndices(n, facing), { doubleSided: false });
}

function groundIndices(n: number, facing: -1 | 0 | 1): number[] {
  const indices: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      // (a, c, b) turns counter-clockwise seen from +y: its normal (c − a) × (b − a) is +y.
      const up = facing === 1 || (facing === 0 && (i + j) % 2 === 0);
      if (up) indices.push(a, c, b, b, c, d);
      else indices.push(a, b, c, b, d, c);
    }
  }
  return indices;
}

function withSides(mesh: TriangleMesh, doubleSided: boolean): TriangleMesh {
  return new TriangleMesh(mesh.vertices, mesh.indices, { doubleSided });
}

function drop(mesh: TriangleMesh, shape: ConvexShape, position: Vec3, rotation: Quat = { x: 0, y: 0, z: 0, w: 1 }, seconds = 2): number {
  const world = new World();
  world.createBody({ type: 'static', shape: mesh });
  const body = world.createBody({ type: 'dynamic', shape, position, rotation, friction: 0.6 });
  for (let i = 0; i < Math.round(seconds / DT); i++) world.step(DT);
  return body.position.y;
}

const LYING: Quat = { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }; // capsule axis along z
const cases: { name: string; shape: () => ConvexShape; rotation?: Quat; rest: number }[] = [
  { name: 'sphere r 0.4', shape: () => new Sphere(0.4), rest: 0.4 },
  { name: 'standing capsule r 0.3, half height 0.5', shape: () => new Capsule(0.3, 0.5), rest: 0.8 },
  { name: 'lying capsule r 0.3', shape: () => new Capsule(0.3, 0.5), rotation: LYING, rest: 0.3 },
  { name: 'box 0.5 × 0.25 × 0.4', shape: () => new Box({ x: 0.5, y: 0.25, z: 0.4 }), rest: 0.25 },
];

describe('TriangleMesh doubleSided', () => {
  const down = ground(10, 5, -1);

  for (const c of cases) {
    it(`${c.name} dropped on a ground facing down: falls through one-sided, rests on top double-sided`, () => {
      const oneSided = drop(withSides(down, false), c.shape(), { x: 0.3, y: 2, z: -0.2 }, c.rotation);
      const twoSided = drop(withSides(down, true), c.shape(), { x: 0.3, y: 2, z: -0.2 }, c.rotation);
      console.log(`${c.name}: one-sided y = ${oneSided.toFixed(3)}, double-sided y = ${twoSided.toFixed(4)} (rest ${c.rest})`);
      expect(oneSided).toBeLessThan(-2);
      expect(Math.abs(twoSided - c.rest)).toBeLessThan(REST_TOL);
    });
  }

  it('a ball rolls smoothly across the tessellated back of a double-sided ground, and across one of inconsistent winding', () => {
    for (const facing of [-1, 0] as const) {
      const mesh = withSides(ground(12, 24, facing), true);
      const world = new World();
      world.createBody({ type: 'static', shape: mesh });
      const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: -5, y: 0.3, z: -0.13 }, linearVelocity: { x: 4, y: 0, z: 1 } });
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < 120; i++) {
        world.step(DT);
        lo = Math.min(lo, ball.position.y);
        hi = Math.max(hi, ball.position.y);
      }
      console.log(`rolling ball, ${facing === -1 ? 'all faces down' : 'alternating winding'}: y in [${lo.toFixed(5)}, ${hi.toFixed(5)}], x = ${ball.position.x.toFixed(2)}`);
      expect(ball.position.x).toBeGreaterThan(0); // it crossed more than 5 m, 10 cells
      expect(hi - lo).toBeLessThan(0.002);
      expect(Math.abs(lo - 0.3)).toBeLessThan(REST_TOL);
    }
  });

  it('a closed box mesh: one-sided a ball inside touching no face falls out through the bottom; double-sided it stays inside', () => {
    // A 2 m cube, faces out (counter-clockwise seen from outside).
    const p = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1];
    const quads = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [3, 7, 6, 2], [0, 4, 7, 3], [1, 2, 6, 5]];
    const indices: number[] = [];
    for (const [a, b, c, d] of quads) indices.push(a!, b!, c!, a!, c!, d!);
    const oneSided = drop(new TriangleMesh(p, indices), new Sphere(0.3), { x: 0.1, y: 0, z: 0.1 });
    const twoSided = drop(new TriangleMesh(p, indices, { doubleSided: true }), new Sphere(0.3), { x: 0.1, y: 0, z: 0.1 });
    console.log(`ball inside a closed box: one-sided y = ${oneSided.toFixed(3)}, double-sided y = ${twoSided.toFixed(4)}`);
    expect(oneSided).toBeLessThan(-2);
    expect(Math.abs(twoSided - (-1 + 0.3))).toBeLessThan(REST_TOL);
  });

  it('random drops on a bumpy double-sided ground facing down rest on its surface (seeded)', () => {
    const seed = 1616;
    const rng = seeded(seed, 'double-sided bumps');
    console.log(`double-sided bumps seed=${seed}`);
    const h = (x: number, z: number): number => 0.25 * Math.sin(0.8 * x) * Math.cos(0.6 * z);
    const mesh = withSides(ground(24, 60, -1, h), true);
    let worst = 0;
    for (let k = 0; k < 6; k++) {
      const world = new World();
      world.createBody({ type: 'static', shape: mesh });
      const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.35), position: { x: rng.range(-3, 3), y: 2, z: rng.range(-3, 3) }, friction: 0.6 });
      for (let i = 0; i < 240; i++) world.step(DT);
      // resting in a hollow or rolling in one: the centre stays 0.35 m from the surface below it
      const below = world.raycast({ x: ball.position.x, y: 5, z: ball.position.z }, { x: ball.position.x, y: -5, z: ball.position.z }, { exclude: ball });
      expect(below).not.toBeNull();
      const gap = ball.position.y - below!.point.y;
      worst = Math.max(worst, Math.abs(gap - 0.35));
      expect(gap).toBeGreaterThan(0.3);
      expect(gap).toBeLessThan(0.4);
    }
    console.log(`double-sided bumps: worst |centre − surface − r| along the vertical ${worst.toFixed(4)} m`);
  });
});
