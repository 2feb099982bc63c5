// Cylinder and ConvexHull in the world's services: shape casts (as the cast
// shape and as the target) with analytic fractions, contacts on a
// TriangleMesh, snapshots, and the character controller walking onto both.
// 60 Hz, default solver.
import { describe, expect, it } from 'vitest';
import { Box, ConvexHull, Cylinder, quat, SnapshotError, Sphere, TriangleMesh, World, type Vec3 } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, REST_Y, flatWorld, penetration } from '../character/helpers';
import { dist } from '../helpers/world';

const CUBE = [-0.5, 0.5].flatMap((x) => [-0.5, 0.5].flatMap((y) => [-0.5, 0.5].map((z) => ({ x, y, z }))));
const SIDEWAYS = quat.fromAxisAngle(quat.quat(), { x: 1, y: 0, z: 0 }, Math.PI / 2);
const ID = { x: 0, y: 0, z: 0, w: 1 };
/** CAST_TARGET (1e-6) + CAST_TOLERANCE (1e-6), as a fraction of a 10 m cast. */
const FRACTION_TOL = 3e-7;

describe('shape casts', () => {
  it('a cylinder and a hull cast down onto a box, and a sphere cast onto each: fraction = gap / length', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    // Cylinder on its end, bottom at 3 m: travels 3 m of a 10 m cast.
    let hit = world.shapeCast(new Cylinder(0.4, 1), { x: 0, y: 4, z: 0 }, ID, { x: 0, y: -10, z: 0 });
    expect(hit).not.toBeNull();
    expect(Math.abs(hit!.fraction - 0.3)).toBeLessThan(FRACTION_TOL);
    expect(hit!.normal.y).toBeCloseTo(1, 9);
    // On its side: lowest point r below the centre.
    hit = world.shapeCast(new Cylinder(0.4, 1), { x: 0, y: 2.4, z: 0 }, SIDEWAYS, { x: 0, y: -10, z: 0 });
    expect(Math.abs(hit!.fraction - 0.2)).toBeLessThan(FRACTION_TOL);
    hit = world.shapeCast(new ConvexHull(CUBE), { x: 0, y: 1.5, z: 0 }, ID, { x: 0, y: -10, z: 0 });
    expect(Math.abs(hit!.fraction - 0.1)).toBeLessThan(FRACTION_TOL);

    const targets = new World();
    const barrel = targets.createBody({ type: 'static', shape: new Cylinder(0.5, 1), position: { x: 0, y: 0, z: 0 } });
    const rock = targets.createBody({ type: 'static', shape: new ConvexHull(CUBE), position: { x: 10, y: 0, z: 0 } });
    // Sphere r = 0.25 from 5 m to the side of the barrel: gap 5 − 0.5 − 0.25.
    hit = targets.shapeCast(new Sphere(0.25), { x: -5, y: 0.3, z: 0 }, ID, { x: 10, y: 0, z: 0 });
    expect(hit!.body).toBe(barrel);
    expect(Math.abs(hit!.fraction - 0.425)).toBeLessThan(FRACTION_TOL);
    expect(hit!.normal.x).toBeCloseTo(-1, 9);
    // From above the barrel onto its cap: 4 − 1 − 0.25.
    hit = targets.shapeCast(new Sphere(0.25), { x: 0.2, y: 4, z: 0 }, ID, { x: 0, y: -10, z: 0 });
    expect(Math.abs(hit!.fraction - 0.275)).toBeLessThan(FRACTION_TOL);
    // A cylinder cast sideways into the hull: 10 − 4 − 0.5 − 0.5 of 10 m... start at x = 4.
    hit = targets.shapeCast(new Cylinder(0.5, 0.3), { x: 6, y: 0, z: 0 }, ID, { x: 10, y: 0, z: 0 });
    expect(hit!.body).toBe(rock);
    expect(Math.abs(hit!.fraction - 0.3)).toBeLessThan(FRACTION_TOL);
    expect(hit!.normal.x).toBeCloseTo(-1, 9);
    // A ray down onto the rock's top face.
    const ray = targets.raycast({ x: 10.1, y: 5, z: 0.2 }, { x: 10.1, y: -5, z: 0.2 });
    expect(ray!.body).toBe(rock);
    expect(ray!.point.y).toBeCloseTo(0.5, 12);
  });
});

describe('on a TriangleMesh', () => {
  /** A 20 m × 20 m floor at y = 0 of 2 × 2 m cells (internal edges everywhere). */
  function meshFloor(world: World): void {
    const n = 10, s = 2;
    const pos: number[] = [];
    const idx: number[] = [];
    for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) pos.push(-10 + i * s, 0, -10 + j * s);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
      idx.push(a, b, c, b, d, c);
    }
    world.createBody({ type: 'static', shape: new TriangleMesh(pos, idx) });
  }
  it('a barrel on its end, a barrel on its side across seams and a cube hull rest like on a box (drift < 1 mm in 5 s, heights within 5 mm)', () => {
    const world = new World({ sleeping: { enabled: false } });
    meshFloor(world);
    const end = world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.45), position: { x: 0.1, y: 0.46, z: 0.1 } });
    const side = world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.6), position: { x: 4, y: 0.31, z: 0 }, rotation: SIDEWAYS });
    const rock = world.createBody({ type: 'dynamic', shape: new ConvexHull(CUBE), position: { x: -4.2, y: 0.51, z: 2 } });
    for (let i = 0; i < 60; i++) world.step(DT);
    const p0 = [end, side, rock].map((b) => ({ ...b.position }));
    for (let i = 0; i < 300; i++) world.step(DT);
    const drift = [end, side, rock].map((b, k) => dist(b.position, p0[k]!));
    console.log(`mesh: heights ${[end, side, rock].map((b) => b.position.y.toFixed(5)).join(', ')}; drift mm ${drift.map((d) => (d * 1000).toFixed(4)).join(', ')}`);
    for (const d of drift) expect(d).toBeLessThan(0.001);
    expect(Math.abs(end.position.y - 0.45)).toBeLessThan(0.005);
    expect(Math.abs(side.position.y - 0.3)).toBeLessThan(0.005);
    expect(Math.abs(rock.position.y - 0.5)).toBeLessThan(0.005);
  });
  it('a wheel rolls straight across the seams of the mesh floor (heading change < 0.5°, no hop > 2 mm)', () => {
    const world = new World({ sleeping: { enabled: false } });
    meshFloor(world);
    const wheel = world.createBody({
      type: 'dynamic', shape: new Cylinder(0.35, 0.1), position: { x: -8, y: 0.35, z: 0.3 }, rotation: SIDEWAYS,
      linearVelocity: { x: 4, y: 0, z: 0 }, angularVelocity: { x: 0, y: 0, z: -4 / 0.35 }, friction: 1, angularDamping: 0,
    });
    let maxY = 0;
    for (let i = 0; i < 180; i++) {
      world.step(DT);
      maxY = Math.max(maxY, wheel.position.y);
    }
    const v = wheel.linearVelocity;
    const heading = Math.atan2(v.z, v.x) * 180 / Math.PI;
    console.log(`wheel across seams: x ${wheel.position.x.toFixed(3)}, z ${wheel.position.z.toFixed(4)}, heading ${heading.toFixed(4)}°, max y ${maxY.toFixed(5)}`);
    expect(wheel.position.x).toBeGreaterThan(3);
    expect(Math.abs(heading)).toBeLessThan(0.5);
    expect(maxY - 0.35).toBeLessThan(0.002);
  });
});

describe('snapshots', () => {
  it('restore replays a pile of cylinders and hulls bit for bit, and refuses a world whose shapes differ', () => {
    const build = (hullScale: number): World => {
      const world = new World();
      world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
      for (let i = 0; i < 6; i++) {
        world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.4), position: { x: 0.1 * i, y: 0.5 + 1.1 * i, z: 0 }, rotation: i % 2 ? SIDEWAYS : ID });
        world.createBody({ type: 'dynamic', shape: new ConvexHull(CUBE.map((p) => ({ x: p.x * hullScale, y: p.y, z: p.z }))), position: { x: 2, y: 0.5 + 1.1 * i, z: 0.05 * i } });
      }
      return world;
    };
    const world = build(1);
    for (let i = 0; i < 40; i++) world.step(DT);
    const snap = world.snapshot();
    for (let i = 0; i < 60; i++) world.step(DT);
    const after = world.bodies.map((b) => [b.position.x, b.position.y, b.position.z, b.rotation.w]);
    world.restore(snap);
    for (let i = 0; i < 60; i++) world.step(DT);
    const again = world.bodies.map((b) => [b.position.x, b.position.y, b.position.z, b.rotation.w]);
    expect(again).toEqual(after);
    const other = build(1.1);
    expect(() => other.restore(snap)).toThrow(SnapshotError);
  });
});

describe('character controller', () => {
  it('walks onto a low cylinder and a low hull (steps up 0.25 m), stands on top, grounded, penetration < 1 cm', () => {
    for (const kind of ['cylinder', 'hull'] as const) {
      const { world } = flatWorld();
      const shape = kind === 'cylinder'
        ? new Cylinder(1.5, 0.125)
        : new ConvexHull([
          { x: -1.5, y: 0, z: -1.5 }, { x: 1.5, y: 0, z: -1.5 }, { x: 1.5, y: 0, z: 1.5 }, { x: -1.5, y: 0, z: 1.5 },
          { x: -1.3, y: 0.25, z: -1.3 }, { x: 1.3, y: 0.25, z: -1.3 }, { x: 1.3, y: 0.25, z: 1.3 }, { x: -1.3, y: 0.25, z: 1.3 },
        ]);
      const centre = kind === 'cylinder' ? { x: 3, y: 0.125, z: 0 } : { x: 3 + (shape as ConvexHull).centerOfMass.x, y: (shape as ConvexHull).centerOfMass.y, z: 0 };
      world.createBody({ type: 'static', shape, position: centre });
      const c = new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } });
      const w = new Walker(c);
      w.setInput(1, 0, 0);
      let worst = 0;
      for (let i = 0; i < 60 && c.position.x < 3; i++) {
        w.update(DT);
        worst = Math.max(worst, penetration(world, c));
      }
      w.setInput(0, 0, 0);
      for (let i = 0; i < 60; i++) w.update(DT);
      console.log(`${kind}: character at x ${c.position.x.toFixed(3)}, y ${c.position.y.toFixed(4)} (top 0.25 + ${REST_Y}), state ${w.state}, worst penetration ${(worst * 1000).toFixed(2)} mm`);
      expect(c.position.x).toBeGreaterThan(2);
      expect(Math.abs(c.position.y - (0.25 + REST_Y))).toBeLessThan(0.01);
      expect(w.state).toBe('grounded');
      expect(worst).toBeLessThan(0.01);
    }
  });
});
