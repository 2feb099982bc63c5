/**
 * The public view of the world's internals: world.counters and
 * world.debugDraw. 60 Hz, default settings unless a test says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { BallJoint, Box, Sphere, World, type RigidBody } from '../../src/index';

const DT = 1 / 60;

/** Two separate 3-box stacks on a floor, 3 m apart; returns the world and its boxes. */
function twoStacks(): { world: World; boxes: RigidBody[] } {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  const boxes: RigidBody[] = [];
  for (const x of [-1.5, 1.5]) {
    for (let i = 0; i < 3; i++) boxes.push(world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x, y: 0.5 + i, z: 0 } }));
  }
  return { world, boxes };
}

describe('world.counters', () => {
  it('two resting 3-box stacks: 2 islands, 6 awake bodies, 6 touching contacts of 4 points, manifolds reused', () => {
    const { world } = twoStacks();
    world.sleeping.enabled = true;
    for (let i = 0; i < 20; i++) world.step(DT);
    const c = world.counters;
    console.log(`two stacks after 20 steps: ${JSON.stringify({ ...c, stageMs: undefined })}`);
    expect(c.islands).toBe(2);
    expect(c.awakeBodies).toBe(6);
    // Floor–box and box–box in each stack: 3 + 3 touching face contacts of 4 points each.
    expect(c.touchingContacts).toBe(6);
    expect(c.pairs).toBeGreaterThanOrEqual(6);
    expect(c.solverRows).toBe(24);
    expect(c.manifoldsReused + c.narrowphaseRuns + c.narrowphaseSkipped).toBe(c.pairs);
    expect(c.manifoldsReused).toBeGreaterThan(0);
    expect(c.stepParts).toBe(1);
    expect(c.stageMs.solver).toBe(0); // not measured unless asked
  });

  it('asleep: no awake bodies and no islands; per-stage times only with measureStages', () => {
    const { world } = twoStacks();
    for (let i = 0; i < 120; i++) world.step(DT);
    expect(world.counters.awakeBodies).toBe(0);
    expect(world.counters.islands).toBe(0);
    world.measureStages = true;
    world.bodies[3]!.applyImpulse({ x: 0, y: 1, z: 0 }, world.bodies[3]!.position);
    world.step(DT);
    const t = world.counters.stageMs;
    const total = t.broadphase + t.narrowphase + t.solver + t.islands + t.steppers + t.events;
    expect(total).toBeGreaterThan(0);
    for (const v of Object.values(t)) expect(v).toBeGreaterThanOrEqual(0);
    expect(() => { (world as unknown as { measureStages: unknown }).measureStages = 1; }).toThrow(/measureStages/);
  });
});

describe('world.debugDraw', () => {
  it('reports every contact, every point (depth within 1 mm of resting) and every joint with its anchors', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 0.5, z: 0 } });
    const hung = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: 3, y: 2, z: 0 } });
    const anchor = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 3, y: 3, z: 0 } });
    const joint = world.addJoint(new BallJoint({ bodyA: anchor, bodyB: hung, anchor: { x: 3, y: 3, z: 0 } }));
    for (let i = 0; i < 30; i++) world.step(DT);
    let contacts = 0, points = 0, pointsInContacts = 0, joints = 0;
    let deepest = -Infinity;
    world.debugDraw({
      contact: (c) => { contacts++; pointsInContacts += c.pointCount; },
      contactPoint: (p) => {
        points++;
        deepest = Math.max(deepest, p.depth);
        if (p.bodyA === ball || p.bodyB === ball) {
          expect(Math.abs(Math.abs(p.normal.y) - 1)).toBeLessThan(1e-9);
          expect(p.point.y).toBeCloseTo(0, 2);
          expect(p.normalImpulse).toBeGreaterThan(0);
        }
      },
      joint: (j) => {
        joints++;
        expect(j.joint).toBe(joint);
        expect(Math.hypot(j.anchorA.x - j.anchorB.x, j.anchorA.y - j.anchorB.y, j.anchorA.z - j.anchorB.z)).toBeCloseTo(joint.separation, 12);
        expect(j.anchorA.y).toBeCloseTo(3, 9);
      },
    });
    expect(contacts).toBe(world.counters.pairs);
    expect(points).toBe(pointsInContacts);
    expect(points).toBeGreaterThan(0);
    expect(deepest).toBeLessThan(0.001);
    expect(joints).toBe(1);
    expect(() => world.debugDraw(null as never)).toThrow(/sink/);
  });
});
