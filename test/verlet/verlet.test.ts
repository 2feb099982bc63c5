/**
 * Verlet particles (Jakobsen). Time step 1/60 s; 10 relaxation iterations
 * unless a test says otherwise; tolerances stated per assertion.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, TriangleMesh, World, type RigidBody } from '../../src/index';
import { createCloth, createParticleBody, createRope, ParticleSystem } from '../../src/verlet/index';
import { seeded } from '../helpers/random';

const DT = 1 / 60;
const HALF_TURN_X = { x: -Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }; // local +Y → world −Z: cloth lies flat

function steps(world: World, seconds: number, each?: () => void): void {
  const n = Math.round(seconds / DT);
  for (let i = 0; i < n; i++) { world.step(DT); each?.(); }
}

/** Signed distance from a world point to an oriented box (negative inside). */
function boxDistance(body: RigidBody, h: { x: number; y: number; z: number }, x: number, y: number, z: number): number {
  const q = body.rotation, c = body.position;
  const vx = x - c.x, vy = y - c.y, vz = z - c.z;
  const qx = -q.x, qy = -q.y, qz = -q.z;
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  const lx = vx + q.w * tx + (qy * tz - qz * ty), ly = vy + q.w * ty + (qz * tx - qx * tz), lz = vz + q.w * tz + (qx * ty - qy * tx);
  const dx = Math.abs(lx) - h.x, dy = Math.abs(ly) - h.y, dz = Math.abs(lz) - h.z;
  const out = Math.hypot(Math.max(dx, 0), Math.max(dy, 0), Math.max(dz, 0));
  return out > 0 ? out : Math.max(dx, dy, dz);
}

describe('rope', () => {
  it('a pinned 20-segment rope keeps its length within 1 % after 5 s (10 iterations)', () => {
    const world = new World();
    // Starts horizontal, so it swings down and keeps swinging: the hardest case for stretch.
    const rope = createRope(world, { from: { x: 0, y: 5, z: 0 }, to: { x: 2, y: 5, z: 0 }, segments: 20, iterations: 10, pinned: 'start' });
    let worst = 0;
    steps(world, 5, () => { worst = Math.max(worst, Math.abs(rope.length() - 2) / 2); });
    expect(Math.abs(rope.length() - 2) / 2).toBeLessThan(0.01);
    expect(worst).toBeLessThan(0.05);
    // It has swung down: the free end is below the pin.
    expect(rope.system.positions[3 * 20 + 1]!).toBeLessThan(4.5);
  });

  it('a rope hanging at rest: length within 1 % and the free end straight below the pin', () => {
    const world = new World();
    const rope = createRope(world, { from: { x: 0, y: 5, z: 0 }, to: { x: 0, y: 3, z: 0 }, segments: 20, iterations: 10 });
    steps(world, 5);
    expect(Math.abs(rope.length() - 2) / 2).toBeLessThan(0.01);
    expect(rope.system.positions[3 * 20]!).toBeCloseTo(0, 9);
    expect(rope.system.positions[3 * 20 + 1]!).toBeCloseTo(3, 1);
  });

  it('without tethers plain Gauss-Seidel leaves the hanging rope measurably long (documents why tethers are on)', () => {
    const world = new World();
    const rope = createRope(world, { from: { x: 0, y: 5, z: 0 }, to: { x: 0, y: 3, z: 0 }, segments: 20, iterations: 10, tethers: false });
    steps(world, 5);
    const stretch = (rope.length() - 2) / 2;
    expect(stretch).toBeGreaterThan(0.01);
    expect(stretch).toBeLessThan(0.05);
  });

  it('a slack rope (length > span) is not stretched to the span', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const rope = createRope(world, { from: { x: 0, y: 0, z: 0 }, to: { x: 1, y: 0, z: 0 }, segments: 10, length: 2, pinned: 'both' });
    steps(world, 1);
    // Limits 0 ≤ |d| ≤ 0.2 are all satisfied by the straight 1 m line: nothing moves.
    expect(rope.length()).toBeCloseTo(1, 9);
  });
});

describe('stick projection', () => {
  it('masses 1 and 3: the ends move 3:1 and the length is restored exactly', () => {
    const s = new ParticleSystem({ gravity: { x: 0, y: 0, z: 0 }, iterations: 1, damping: 0 });
    const a = s.addParticle({ x: 0, y: 0, z: 0 }, 1);
    const b = s.addParticle({ x: 1.4, y: 0, z: 0 }, 1 / 3);
    s.addStick(a, b, 1, 1);
    s.step(DT);
    const moveA = s.positions[0]! - 0, moveB = 1.4 - s.positions[3]!;
    expect(moveA).toBeCloseTo(0.3, 12);
    expect(moveB).toBeCloseTo(0.1, 12);
    expect(moveA / moveB).toBeCloseTo(3, 9);
    expect(s.positions[3]! - s.positions[0]!).toBeCloseTo(1, 12);
  });

  it('the square-root-free stick shortens a stretched stick and lengthens a compressed one, converging to the rest length', () => {
    for (const start of [1.5, 0.6]) {
      const s = new ParticleSystem({ gravity: { x: 0, y: 0, z: 0 }, iterations: 1, damping: 1 - 1e-12, approximateSqrt: true });
      const a = s.addParticle({ x: 0, y: 0, z: 0 });
      const b = s.addParticle({ x: start, y: 0, z: 0 });
      s.addStick(a, b, 1, 1);
      s.step(DT);
      const after1 = s.positions[3]! - s.positions[0]!;
      expect(Math.abs(after1 - 1)).toBeLessThan(Math.abs(start - 1));
      for (let i = 0; i < 20; i++) s.step(DT);
      expect(s.positions[3]! - s.positions[0]!).toBeCloseTo(1, 6);
    }
  });
});

describe("the seed's box constraint (C1)", () => {
  it('particles stay inside [0, 1000]³ and lose the wall-normal velocity on contact (restitution 0)', () => {
    const rnd = seeded(6001, 'verlet box');
    const rng = (): number => rnd.next();
    const s = new ParticleSystem({ gravity: { x: 0, y: 0, z: 0 }, damping: 0, radius: 0, bounds: { min: { x: 0, y: 0, z: 0 }, max: { x: 1000, y: 1000, z: 1000 } } });
    for (let i = 0; i < 50; i++) {
      const p = s.addParticle({ x: 1000 * rng(), y: 1000 * rng(), z: 1000 * rng() });
      // Initial velocity up to 3000 m/s per axis: every particle meets walls within the run.
      s.previousPositions[3 * p] = s.positions[3 * p]! - 50 * (rng() * 2 - 1);
      s.previousPositions[3 * p + 1] = s.positions[3 * p + 1]! - 50 * (rng() * 2 - 1);
      s.previousPositions[3 * p + 2] = s.positions[3 * p + 2]! - 50 * (rng() * 2 - 1);
    }
    // The seed's rod: two particles 100 apart.
    const r0 = s.addParticle({ x: 500, y: 500, z: 500 });
    const r1 = s.addParticle({ x: 600, y: 500, z: 500 });
    s.previousPositions[3 * r0] = 520; s.previousPositions[3 * r1] = 620;
    s.addStick(r0, r1);
    let outside = 0;
    for (let k = 0; k < 300; k++) {
      s.step(DT);
      for (let i = 0; i < 3 * s.count; i++) outside = Math.max(outside, -s.positions[i]!, s.positions[i]! - 1000);
      for (let i = 0; i < 3 * s.count; i++) {
        const x = s.positions[i]!, v = x - s.previousPositions[i]!;
        // On a wall: no velocity into it.
        if (x === 0) expect(v).toBeGreaterThanOrEqual(0);
        if (x === 1000) expect(v).toBeLessThanOrEqual(0);
      }
    }
    expect(outside).toBeLessThanOrEqual(0);
    // After everything has hit walls with restitution 0, a particle on a wall has exactly zero normal velocity.
    const v = { x: 0, y: 0, z: 0 };
    let onWall = 0;
    for (let i = 0; i < 50; i++) {
      s.getVelocity(v, i);
      const p = s.positions;
      if (p[3 * i] === 0 || p[3 * i] === 1000) { expect(v.x).toBe(0); onWall++; }
      if (p[3 * i + 1] === 0 || p[3 * i + 1] === 1000) { expect(v.y).toBe(0); onWall++; }
    }
    expect(onWall).toBeGreaterThan(10);
    const rod = Math.hypot(s.positions[3 * r1]! - s.positions[3 * r0]!, s.positions[3 * r1 + 1]! - s.positions[3 * r0 + 1]!, s.positions[3 * r1 + 2]! - s.positions[3 * r0 + 2]!);
    expect(Math.abs(rod - 100)).toBeLessThan(1);
  });

  it('a particle hitting a wall head-on keeps its tangential velocity and has zero normal velocity the same step', () => {
    const s = new ParticleSystem({ gravity: { x: 0, y: 0, z: 0 }, damping: 0, radius: 0, bounds: { min: { x: 0, y: 0, z: 0 }, max: { x: 1000, y: 1000, z: 1000 } } });
    s.addParticle({ x: 990, y: 500, z: 500 });
    s.previousPositions[0] = 975; s.previousPositions[1] = 495; // 15 m/step into +x, 5 m/step along y
    s.step(DT);
    const v = s.getVelocity({ x: 0, y: 0, z: 0 }, 0);
    expect(s.positions[0]).toBe(1000);
    expect(v.x).toBe(0);
    expect(v.y).toBeCloseTo(5 / DT, 9);
  });
});

describe('collision with world shapes', () => {
  const R = 0.02;
  it('cloth draped over a sphere: no particle deeper than 1 mm at any step', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Sphere(0.5), position: { x: 0, y: 0, z: 0 } });
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -1.5, z: 0 } });
    const cloth = createCloth(world, { width: 1.6, height: 1.6, segments: 20, pinned: 'none', position: { x: 0, y: 0.7, z: 0 }, rotation: HALF_TURN_X, radius: R, friction: 0.8 });
    const x = cloth.system.positions;
    let worst = 0;
    steps(world, 3, () => {
      for (let i = 0; i < cloth.system.count; i++) {
        const d = Math.hypot(x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!) - (0.5 + R);
        worst = Math.max(worst, -d);
      }
    });
    expect(worst).toBeLessThan(1e-3);
    // Draped: the middle rests on top of the sphere and the edges hang below its equator.
    const mid = cloth.index(10, 10);
    expect(x[3 * mid + 1]!).toBeGreaterThan(0.45);
    let lowest = Infinity;
    for (let i = 0; i < cloth.system.count; i++) lowest = Math.min(lowest, x[3 * i + 1]!);
    expect(lowest).toBeLessThan(0);
  });

  it('cloth over a (rotated) box edge: no particle deeper than 1 mm', () => {
    const world = new World();
    const h = { x: 0.5, y: 0.5, z: 0.5 };
    const yaw = 0.3;
    const box = world.createBody({ type: 'static', shape: new Box(h), position: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: Math.sin(yaw / 2), z: 0, w: Math.cos(yaw / 2) } });
    const cloth = createCloth(world, { width: 1.2, height: 1.2, segments: 16, pinned: 'none', position: { x: 0.45, y: 0.6, z: 0 }, rotation: HALF_TURN_X, radius: R });
    const x = cloth.system.positions;
    let worst = 0;
    steps(world, 2, () => {
      for (let i = 0; i < cloth.system.count; i++) worst = Math.max(worst, R - boxDistance(box, h, x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!));
    });
    expect(worst).toBeLessThan(1e-3);
    let lowest = Infinity;
    for (let i = 0; i < cloth.system.count; i++) lowest = Math.min(lowest, x[3 * i + 1]!);
    expect(lowest).toBeLessThan(0); // it folded over the edge
  });

  it('particles rest on a triangle-mesh floor within 1 mm', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new TriangleMesh([-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5], [0, 2, 1, 0, 3, 2]), position: { x: 0, y: 0, z: 0 } });
    const cloth = createCloth(world, { width: 1, height: 1, segments: 10, pinned: 'none', position: { x: 0.1, y: 0.3, z: 0.2 }, rotation: HALF_TURN_X, radius: R });
    steps(world, 2);
    for (let i = 0; i < cloth.system.count; i++) expect(Math.abs(cloth.system.positions[3 * i + 1]! - R)).toBeLessThan(1e-3);
  });

  it("a moving kinematic capsule (the character's body) pushes a hanging cloth aside", () => {
    const world = new World();
    const capsule = world.createBody({ type: 'kinematic', shape: new Capsule(0.3, 0.6), position: { x: 0, y: 1, z: -1 } });
    const cloth = createCloth(world, { width: 1.5, height: 1.5, segments: 15, pinned: 'top', position: { x: 0, y: 1.2, z: 0 }, radius: R });
    const x = cloth.system.positions;
    let worst = 0;
    for (let k = 0; k < 90; k++) {
      capsule.setPosition({ x: 0, y: 1, z: -1 + (1.5 * (k + 1)) / 90 }); // walks 1.5 m through the banner at 1 m/s
      world.step(DT);
      const c = capsule.position;
      for (let i = 0; i < cloth.system.count; i++) {
        const ty = Math.max(-0.6, Math.min(0.6, x[3 * i + 1]! - c.y));
        const d = Math.hypot(x[3 * i]! - c.x, x[3 * i + 1]! - c.y - ty, x[3 * i + 2]! - c.z) - (0.3 + R);
        worst = Math.max(worst, -d);
      }
    }
    expect(worst).toBeLessThan(1e-3);
    // The middle of the banner was carried forward (+z) in front of the capsule.
    expect(x[3 * cloth.index(7, 10) + 2]!).toBeGreaterThan(0.2);
  });

  it('particles push a light dynamic body: momentum is conserved within 5 %', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 }, sleeping: { enabled: false } });
    const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 1, y: 0, z: 0 }, mass: 1 });
    const s = new ParticleSystem({ damping: 0, radius: 0.02 });
    s.addParticle({ x: 0, y: 0, z: 0 }, 10); // 0.1 kg
    s.previousPositions[0] = -2 * DT; // 2 m/s towards the box
    world.addStepper(s);
    steps(world, 1.5);
    const vp = s.getVelocity({ x: 0, y: 0, z: 0 }, 0);
    const p = 0.1 * vp.x + 1 * box.linearVelocity.x;
    expect(box.linearVelocity.x).toBeGreaterThan(0.1);
    expect(Math.abs(p - 0.2) / 0.2).toBeLessThan(0.05);
  });
});

describe('pins and particle bodies', () => {
  it('a particle pinned to a body local point follows the body', () => {
    const world = new World();
    const body = world.createBody({ type: 'kinematic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0, y: 2, z: 0 } });
    body.setAngularVelocity({ x: 0, y: 2, z: 0 });
    body.setLinearVelocity({ x: 1, y: 0, z: 0 });
    const rope = createRope(world, { from: { x: 0.2, y: 2, z: 0 }, to: { x: 0.2, y: 1, z: 0 }, segments: 10, startBody: body, pinned: 'none' });
    steps(world, 1);
    const q = body.rotation;
    // Local (0.2, 0, 0) rotated by q: x' = 0.2 (1 − 2(y² + z²)), z' = 0.2 · 2(xz − wy).
    const ex = body.position.x + 0.2 * (1 - 2 * (q.y * q.y + q.z * q.z));
    const ez = body.position.z + 0.2 * 2 * (q.x * q.z - q.w * q.y);
    expect(rope.system.positions[0]!).toBeCloseTo(ex, 9);
    expect(rope.system.positions[2]!).toBeCloseTo(ez, 9);
    expect(rope.system.positions[1]!).toBeCloseTo(2, 9);
  });

  it('a 4-particle, 6-stick body falls onto the ground and keeps its shape within 1 %', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const pb = createParticleBody(world, { position: { x: 0, y: 1, z: 0 }, size: 0.3, radius: 0.02 });
    const s = pb.system;
    const rest = 0.3 * Math.sqrt(8 / 3); // edge of a regular tetrahedron with circumradius 0.3
    steps(world, 2);
    for (let i = 0; i < s.sticks.count; i++) {
      const a = s.sticks.particleA[i]!, b = s.sticks.particleB[i]!;
      const l = Math.hypot(s.positions[3 * b]! - s.positions[3 * a]!, s.positions[3 * b + 1]! - s.positions[3 * a + 1]!, s.positions[3 * b + 2]! - s.positions[3 * a + 2]!);
      expect(Math.abs(l - rest) / rest).toBeLessThan(0.01);
    }
    let lowest = Infinity;
    for (let i = 0; i < 4; i++) lowest = Math.min(lowest, s.positions[3 * i + 1]!);
    expect(lowest).toBeGreaterThan(0.02 - 1e-3);
    expect(lowest).toBeLessThan(0.02 + 1e-3);
  });
});
