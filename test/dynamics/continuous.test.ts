/**
 * Motion the contact points did not foresee (issue 16 §1): continuous
 * collision against static bodies (dynamics/continuous.ts) and contacts
 * with immovable bodies having the last word on position
 * (ngs.ts pushOutOfImmovables). dt 1/60, default settings.
 */
import { describe, expect, it } from 'vitest';
import { BallJoint, Box, HingeJoint, Sphere, TriangleMesh, World, type RigidBody } from '../../src/index';

const DT = 1 / 60;

function meshFloor(world: World): void {
  world.createBody({ type: 'static', shape: new TriangleMesh([-50, 0, -50, 50, 0, -50, 50, 0, 50, -50, 0, 50], [0, 2, 1, 0, 3, 2]) });
}

/** Lowest point of a box body (half extents h). */
function boxBottom(b: RigidBody, h: { x: number; y: number; z: number }): number {
  const q = b.rotation;
  // World y of the local axes: the second row of the rotation matrix.
  const yx = 2 * (q.x * q.y + q.w * q.z), yy = 1 - 2 * (q.x * q.x + q.z * q.z), yz = 2 * (q.y * q.z - q.w * q.x);
  return b.position.y - Math.abs(yx) * h.x - Math.abs(yy) * h.y - Math.abs(yz) * h.z;
}

/**
 * A 2 m paddle 2 cm thick, hinged at its end 0.5 m over a one-sided mesh
 * floor and lying level, is spun up by a 100 rad/s motor from rest: its
 * contact points were found with it at rest, and one step turns it 1.7 rad,
 * through the floor.
 */
function paddle(continuous: boolean): { deepest: number; steps: number } {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  world.solverSettings.continuousCollision = continuous;
  meshFloor(world);
  const h = { x: 1, y: 0.01, z: 0.1 };
  const hub = world.createBody({ type: 'static', shape: new Sphere(0.05), position: { x: 0, y: 0.5, z: 0 }, collisionMask: 0 });
  const blade = world.createBody({ type: 'dynamic', shape: new Box(h), mass: 2, position: { x: 1, y: 0.5, z: 0 } });
  world.addJoint(new HingeJoint({ bodyA: hub, bodyB: blade, anchor: { x: 0, y: 0.5, z: 0 }, axis: { x: 0, y: 0, z: 1 }, motorSpeed: -100, maxMotorTorque: 1e5 }));
  let deepest = 0;
  for (let i = 0; i < 120; i++) {
    world.step(DT);
    deepest = Math.max(deepest, -boxBottom(blade, h));
  }
  return { deepest, steps: 120 };
}

describe('continuous collision against static bodies', () => {
  it('a motor-driven 2 cm paddle swung into a mesh floor stops on it (without the sweep it passes through)', () => {
    const on = paddle(true), off = paddle(false);
    console.log(`[continuous] paddle: deepest point under the floor ${on.deepest.toFixed(4)} m with the sweep, ${off.deepest.toFixed(3)} m without`);
    // The check the fuzz applies: no deeper than the body's thickness.
    expect(on.deepest).toBeLessThan(0.02);
    expect(off.deepest).toBeGreaterThan(0.1);
  });

  it('a ball resting on a mesh floor rolls across its triangle edges at 20 m/s without being stopped', () => {
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    // A floor of many small triangles: the ball crosses an edge every few steps.
    const n = 40, size = 2, pos: number[] = [], idx: number[] = [];
    for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) pos.push(-40 + i * size, 0, -40 + j * size);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
      idx.push(a, b, d, a, d, c);
    }
    world.createBody({ type: 'static', shape: new TriangleMesh(pos, idx), friction: 0 });
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.1), mass: 1, position: { x: -30, y: 0.1, z: 0.3 }, linearVelocity: { x: 20, y: 0, z: 0 }, friction: 0 });
    for (let i = 0; i < 60; i++) world.step(DT);
    const travelled = ball.position.x + 30;
    console.log(`[continuous] ball at 20 m/s over a 2 m triangle grid: ${travelled.toFixed(3)} m in 1 s, height ${ball.position.y.toFixed(4)} m, ${(world as unknown as { stepSolver: { continuous: { swept: number } } }).stepSolver.continuous.swept} swept last step`);
    expect(travelled).toBeGreaterThan(19.9);
    expect(travelled).toBeLessThan(20.1);
    expect(Math.abs(ball.position.y - 0.1)).toBeLessThan(0.01);
  });
});

describe('contacts with immovable bodies win over joints', () => {
  it('a 0.2 kg ball on the floor, ball-jointed to a kinematic body that collides with nothing and sinks at 2 m/s: the ball stays on the floor and the joint opens', () => {
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
    const r = 0.1;
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(r), mass: 0.2, position: { x: 0, y: r, z: 0 } });
    const ghost = world.createBody({ type: 'kinematic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 1, z: 0 }, linearVelocity: { x: 0, y: -2, z: 0 }, collisionMask: 0 });
    world.addJoint(new BallJoint({ bodyA: ghost, bodyB: ball, anchor: { x: 0, y: r, z: 0 } }));
    let lowest = Infinity, fastest = 0;
    for (let i = 0; i < 120; i++) {
      world.step(DT);
      lowest = Math.min(lowest, ball.position.y - r);
      const v = ball.linearVelocity;
      fastest = Math.max(fastest, Math.hypot(v.x, v.y, v.z));
    }
    const gap = Math.hypot(ghost.position.x - ball.position.x, ghost.position.y - 0.9 - ball.position.y, ghost.position.z - ball.position.z);
    console.log(`[continuous] ghost drag: ball's lowest point ${lowest.toFixed(4)} m, ghost at y ${ghost.position.y.toFixed(2)} m, joint gap ${gap.toFixed(2)} m, ball's top speed ${fastest.toFixed(2)} m/s`);
    // Tolerated overlap of a jointed body: its thinnest half size (the radius), 0.1 m; without the push-out it sinks with the joint to −4 m.
    expect(lowest).toBeGreaterThan(-0.101);
    expect(ghost.position.y).toBeLessThan(-2.9);
    expect(gap).toBeGreaterThan(3.5);
    expect(Number.isFinite(fastest)).toBe(true);
  });
});
