/**
 * Thin, fast bodies landing on a one-sided TriangleMesh floor: a 100 × 100 m
 * quad (two triangles, diagonal seam along x = z) facing up, at y = 0.
 *
 * A capsule lying flat or tilted a few degrees over the mesh gets a point at
 * each end, as over a Box floor, whenever the end is within the speculative
 * margin: the world's margin grows with the relative speed × dt, so a fast
 * body's points may be up to a metre apart from the floor. Tolerances: depths
 * 1e-6 m of the analytic ones, positions 1e-6 m; in the world, "never deeper
 * than the body's smallest size" and "rests within 1 mm".
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import { Box, Capsule, Sphere, TriangleMesh, World, type ConvexShape, type Quat, type RigidBody, type Vec3 } from '../../../src/index';
import { multiply, rotate } from '../../../src/math/quat';
import { seeded } from '../../helpers/random';

const DT = 1 / 60;
const ORIGIN: Vec3 = { x: 0, y: 0, z: 0 };
const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };

function floorMesh(half = 50): TriangleMesh {
  return new TriangleMesh([-half, 0, -half, half, 0, -half, half, 0, half, -half, 0, half], [0, 2, 1, 0, 3, 2]);
}

function axisAngle(x: number, y: number, z: number, angle: number): Quat {
  const s = Math.sin(angle / 2);
  return { x: x * s, y: y * s, z: z * s, w: Math.cos(angle / 2) };
}

/** A capsule lying along the heading (radians about y, 0 = along x), then its +y end raised by `tilt` radians. */
function lying(heading: number, tilt: number): Quat {
  // Local y → x (−90° about z), raised by tilt, then turned to the heading.
  const down = axisAngle(0, 0, 1, -Math.PI / 2 + tilt);
  return multiply({ x: 0, y: 0, z: 0, w: 1 }, axisAngle(0, 1, 0, heading), down);
}

/** Height of the body's lowest point above y = 0. */
function lowest(body: RigidBody): number {
  const shape = body.shape;
  const q = body.rotation, p = body.position;
  if (shape instanceof Capsule) {
    const a = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: shape.halfHeight, z: 0 });
    return p.y - Math.abs(a.y) - shape.radius;
  }
  if (shape instanceof Box) {
    const h = shape.halfExtents;
    const ux = rotate({ x: 0, y: 0, z: 0 }, q, { x: h.x, y: 0, z: 0 });
    const uy = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: h.y, z: 0 });
    const uz = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: 0, z: h.z });
    return p.y - Math.abs(ux.y) - Math.abs(uy.y) - Math.abs(uz.y);
  }
  return p.y - (shape as Sphere).radius;
}

/** Smallest size of the body: a capsule's or sphere's diameter, a box's thinnest side. */
function smallest(shape: ConvexShape): number {
  if (shape instanceof Capsule) return 2 * shape.radius;
  if (shape instanceof Box) return 2 * Math.min(shape.halfExtents.x, shape.halfExtents.y, shape.halfExtents.z);
  return 2 * (shape as Sphere).radius;
}

describe('capsule on a mesh floor: both ends within the margin', () => {
  const mesh = floorMesh();
  const boxFloor = new Box({ x: 50, y: 0.5, z: 50 });
  const boxPos: Vec3 = { x: 0, y: -0.5, z: 0 };
  const m = new Manifold();
  const mb = new Manifold();
  const shapes = [
    { name: 'thin r 0.0275 hh 2.254', capsule: new Capsule(0.0275, 2.254) },
    { name: 'r 0.3 hh 0.6', capsule: new Capsule(0.3, 0.6) },
    { name: 'thin r 0.05 hh 1', capsule: new Capsule(0.05, 1) },
  ];
  // Headings across the seam x = z (π/4 runs along it), tilts of a few degrees.
  const headings = [-Math.PI / 4, 0, 0.3, Math.PI / 4, 1.2, 2.5];
  const tilts = [0, 0.005, 0.03, 0.05, 0.1];
  const gaps = [-0.01, 0, 0.004, 0.05, 0.3, 1];

  it('2 points at the ends over the seam, analytic depths, the same as over a Box floor', () => {
    let cases = 0;
    for (const { capsule } of shapes) {
      const r = capsule.radius, hh = capsule.halfHeight;
      for (const heading of headings) {
        for (const tilt of tilts) {
          for (const gap of gaps) {
            // Centre over the seam, a little off the origin.
            const q = lying(heading, tilt);
            const a = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: hh, z: 0 });
            const c = { x: 0.37, y: gap + r + Math.abs(a.y), z: 0.37 };
            const ends = [{ x: c.x - a.x, y: c.y - a.y, z: c.z - a.z }, { x: c.x + a.x, y: c.y + a.y, z: c.z + a.z }];
            // The capsule's lowest point under each end: the ball's bottom under
            // the lower end, the cylinder's under the upper one (r / cos tilt).
            const sinT = Math.abs(a.y) / hh;
            const lowI = ends[0]!.y <= ends[1]!.y ? 0 : 1;
            const depths = ends.map((e, i) => (i === lowI ? r : r / Math.sqrt(1 - sinT * sinT)) - e.y);
            const margin = Math.max(0.02, -Math.min(...depths) + 0.02);
            collide(capsule, c, q, mesh, ORIGIN, ID, margin, m);
            expect(m.pointCount).toBe(2);
            for (let i = 0; i < 2; i++) {
              const p = m.points[i]!;
              expect(p.normal.y).toBeCloseTo(-1, 12);
              // The end this point belongs to: the nearer one horizontally.
              const k = Math.hypot(p.position.x - ends[0]!.x, p.position.z - ends[0]!.z) < Math.hypot(p.position.x - ends[1]!.x, p.position.z - ends[1]!.z) ? 0 : 1;
              const e = ends[k]!;
              expect(Math.abs(p.position.x - e.x)).toBeLessThan(1e-6);
              expect(Math.abs(p.position.z - e.z)).toBeLessThan(1e-6);
              // Midpoint convention: the floor point is position − normal·depth/2, on y = 0.
              expect(Math.abs(p.position.y + 0.5 * p.depth)).toBeLessThan(1e-9);
              expect(Math.abs(p.depth - depths[k]!)).toBeLessThan(1e-6);
            }
            expect(m.points[0]!.position.x).not.toBeCloseTo(m.points[1]!.position.x, 3);
            // As over a box floor (capsule B, box A: normals opposite).
            collide(boxFloor, boxPos, ID, capsule, c, q, margin, mb);
            expect(mb.pointCount).toBe(2);
            const dm = [m.points[0]!.depth, m.points[1]!.depth].sort((x, y) => x - y);
            const db = [mb.points[0]!.depth, mb.points[1]!.depth].sort((x, y) => x - y);
            expect(Math.abs(dm[0]! - db[0]!)).toBeLessThan(1e-6);
            expect(Math.abs(dm[1]! - db[1]!)).toBeLessThan(1e-6);
            // Tilted, a margin short of the upper end keeps the lower end only
            // (flat, the clipped part within the margin has its points).
            if (sinT > 0.02 && depths[1 - lowI]! < depths[lowI]! - 0.01) {
              collide(capsule, c, q, mesh, ORIGIN, ID, -depths[1 - lowI]! - 0.005, m);
              expect(m.pointCount).toBe(1);
              expect(Math.abs(m.points[0]!.depth - depths[lowI]!)).toBeLessThan(1e-6);
            }
            cases++;
          }
        }
      }
    }
    console.log(`capsule over the seam: ${cases} poses, 2 points each`);
  });

  it('a capsule lying across the seam with one end through the floor keeps both ends (centre in front)', () => {
    // The low end 5 mm under the floor (its segment end), the other 0.2 m above it.
    for (const heading of headings) {
      const capsule = new Capsule(0.0275, 2.254);
      const r = capsule.radius, hh = capsule.halfHeight;
      const tilt = Math.asin(0.205 / (2 * hh));
      const q = lying(heading, tilt);
      const a = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: hh, z: 0 });
      const c = { x: 0.2, y: -0.005 + Math.abs(a.y), z: 0.2 };
      const yLow = c.y - Math.abs(a.y), yHigh = c.y + Math.abs(a.y);
      const sinT = Math.abs(a.y) / hh;
      collide(capsule, c, q, mesh, ORIGIN, ID, 0.5, m);
      expect(m.pointCount).toBe(2);
      const d = [m.points[0]!.depth, m.points[1]!.depth].sort((x, y) => x - y);
      expect(Math.abs(d[0]! - (r / Math.sqrt(1 - sinT * sinT) - yHigh))).toBeLessThan(1e-6);
      expect(Math.abs(d[1]! - (r - yLow))).toBeLessThan(1e-6);
      for (let i = 0; i < 2; i++) expect(m.points[i]!.normal.y).toBeCloseTo(-1, 12);
    }
  });
});

describe('thin fast bodies dropped on a mesh floor (world, 60 Hz, default settings)', () => {
  it('the 4.5 m capsule at 66 m/s that went 0.68 m through the floor lands on it and rests on top', () => {
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    world.createBody({ type: 'static', shape: floorMesh(500) });
    const capsule = new Capsule(0.027535492967581378, 2.254246866912581);
    const body = world.createBody({
      type: 'dynamic', shape: capsule, position: { x: 0, y: 4.251238835626282, z: 0 },
      rotation: { x: -0.23893838259691746, y: -0.465084060382823, z: -0.10930185873541252, w: -0.8453746919424425 },
      mass: 469.3516065699514, restitution: 0.3488677851855755, friction: 0.8248586703557521,
    });
    body.setLinearVelocity({ x: 1.9772893217605547, y: -64.33643494529282, z: -17.663778608302923 });
    body.setAngularVelocity({ x: 14.83030804875627, y: 24.66954877577736, z: 0.974205638096084 });
    // It lands at 0.07 s (the step that went 0.68 m through), tumbles and
    // bounces (its spin, turned into bounce at each landing, makes the
    // path chaotic), and ends up lying on the 1 km floor rolling about its
    // own axis (the landings' friction turned its sideways speed into spin):
    // the rest is checked over the last 4 s of 20.
    let deepest = 0;
    let restLow = Infinity, restHigh = -Infinity, restVy = 0;
    for (let i = 0; i < 1200; i++) {
      world.step(DT);
      const low = lowest(body);
      if (Math.abs(body.position.x) < 499 && Math.abs(body.position.z) < 499) deepest = Math.max(deepest, -low);
      if (i >= 960) {
        restLow = Math.min(restLow, low);
        restHigh = Math.max(restHigh, low);
        restVy = Math.max(restVy, Math.abs(body.linearVelocity.y));
      }
    }
    console.log(`landing capsule: deepest ${deepest.toFixed(4)} m under the floor (diameter ${(2 * capsule.radius).toFixed(4)}), lowest point from 16 s to 20 s in [${restLow.toFixed(5)}, ${restHigh.toFixed(5)}] m, |v_y| ≤ ${restVy.toExponential(2)} m/s`);
    expect(deepest).toBeLessThan(2 * capsule.radius);
    expect(Math.max(Math.abs(restLow), Math.abs(restHigh))).toBeLessThan(1e-3);
    // (It rolls about its own axis at a few hundred rad/s and slides: about
    // 0.1 m/s of wobble in the velocity, 0.1 mm in the position.)
    expect(restVy).toBeLessThan(0.15);
  });

  it('thin and normal capsules lying flat or tilted a few degrees, hitting the seam at 50 m/s, stop on the floor', () => {
    let worst = 0;
    let worstRest = 0;
    for (const capsule of [new Capsule(0.0275, 2.254), new Capsule(0.05, 1), new Capsule(0.3, 0.6)]) {
      const r = capsule.radius, hh = capsule.halfHeight;
      for (const heading of [-Math.PI / 4, 0, 0.4, Math.PI / 4, 1.3]) {
        // (Up to 3.4°: the raised end of the 4.5 m capsule is then within the
        // 0.86 m margin of the first contact step.)
        for (const tilt of [0, 0.02, 0.04, 0.06]) {
          const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
          world.createBody({ type: 'static', shape: floorMesh() });
          const q = lying(heading, tilt);
          const a = rotate({ x: 0, y: 0, z: 0 }, q, { x: 0, y: hh, z: 0 });
          // Lowest point 0.5 m above the floor, centre on the seam.
          const body = world.createBody({ type: 'dynamic', shape: capsule, position: { x: 1, y: 0.5 + r + Math.abs(a.y), z: 1 }, rotation: q, friction: 0.5 });
          body.setLinearVelocity({ x: 0, y: -50, z: 0 });
          let deepest = 0;
          for (let i = 0; i < 180; i++) {
            world.step(DT);
            deepest = Math.max(deepest, -lowest(body));
          }
          worst = Math.max(worst, deepest / (2 * r));
          worstRest = Math.max(worstRest, Math.abs(lowest(body)));
          expect(deepest, `r ${r} heading ${heading} tilt ${tilt}`).toBeLessThan(2 * r);
          expect(Math.abs(lowest(body)), `r ${r} heading ${heading} tilt ${tilt}`).toBeLessThan(1e-3);
        }
      }
    }
    console.log(`capsules at 50 m/s onto the seam: deepest ${worst.toFixed(3)} of the diameter, at rest within ${(1000 * worstRest).toFixed(3)} mm of the floor`);
  });

  it('100 thin capsules and boxes at up to 100 m/s and 60 rad/s never sink deeper than their smallest size (seeded)', () => {
    const rng = seeded(5227, 'thin bodies on a mesh floor');
    const mesh = floorMesh();
    let worst = -Infinity;
    let worstLabel = '';
    for (let k = 0; k < 100; k++) {
      const thin = rng.range(0.025, 0.1);
      const long = rng.range(0.25, 1.5); // half length: 0.5-3 m long
      const shape: ConvexShape = k % 2 === 0 ? new Capsule(thin, long) : new Box({ x: thin, y: long, z: rng.range(thin, long) });
      const rotation = rng.quat();
      const dir = rng.unitVec3();
      const speed = rng.range(0, 100);
      const spin = rng.unitVec3();
      const w = rng.range(0, 60);
      const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
      world.createBody({ type: 'static', shape: mesh });
      const body = world.createBody({
        type: 'dynamic', shape, position: { x: rng.range(-5, 5), y: 2 * long + rng.range(0.5, 3), z: rng.range(-5, 5) },
        rotation, mass: rng.range(0.1, 1000), restitution: rng.range(0, 1), friction: rng.range(0, 1),
      });
      body.setLinearVelocity({ x: dir.x * speed * 0.3, y: -Math.abs(dir.y) * speed - 1, z: dir.z * speed * 0.3 });
      body.setAngularVelocity({ x: spin.x * w, y: spin.y * w, z: spin.z * w });
      let deepest = -Infinity;
      for (let i = 0; i < 120; i++) {
        world.step(DT);
        // (A body that left the 100 m floor sideways falls past it by right.)
        if (Math.max(Math.abs(body.position.x), Math.abs(body.position.z)) > 50 - 2 * long) break;
        deepest = Math.max(deepest, -lowest(body));
      }
      const ratio = deepest / smallest(shape);
      if (ratio > worst) {
        worst = ratio;
        worstLabel = `#${k} ${shape instanceof Capsule ? 'capsule' : 'box'} ${deepest.toFixed(4)} m under, smallest size ${smallest(shape).toFixed(4)}`;
      }
      expect(deepest, `body ${k}`).toBeLessThan(smallest(shape));
    }
    console.log(`thin bodies: worst depth / smallest size ${worst.toFixed(3)} (${worstLabel})`);
  });
});
