// A pair whose narrowphase found the shapes apart by more than its margin is
// not tested again until the bodies could have closed that gap (each body's
// odometer: translation plus the turn's chord at its bounding radius, from
// steps and from setters). The test of soundness: after every step, each
// pair the world holds with no point is collided afresh at the base
// speculative distance, and must give no point either. Scenes where only a
// turn closes the gap (a rod spinning in place into a post: its odometer
// would not move without the turn), where a setter does (a teleport next to
// a resting body), and a heap of tumbling ragdolls.
import { describe, expect, it } from 'vitest';
import { Box, Capsule, createRagdoll, World, type RigidBody } from '../../src/index';
import { Manifold } from '../../src/collision/narrowphase/manifold';
import { collide } from '../../src/collision/narrowphase/dispatch';
import { seeded } from '../helpers/random';
import { DT } from '../helpers/world';

interface PairRecord { bodyA: RigidBody; bodyB: RigidBody; pointCount: number }

/** Every contact of `world` (pairs whose fat boxes overlap), copied from world.debugDraw. */
function pairsOf(world: World): PairRecord[] {
  const out: PairRecord[] = [];
  world.debugDraw({ contact: (c) => { out.push({ bodyA: c.bodyA, bodyB: c.bodyB, pointCount: c.pointCount }); } });
  return out;
}

interface Pose { p: { x: number; y: number; z: number }; q: { x: number; y: number; z: number; w: number } }

/** Every body's pose now: the poses the next step's narrowphase will see. */
function poses(world: World): Map<RigidBody, Pose> {
  const out = new Map<RigidBody, Pose>();
  for (const b of world.bodies) out.set(b, { p: { ...b.position }, q: { ...b.rotation } });
  return out;
}

/**
 * Pairs the last step left empty although a fresh narrowphase, at the poses
 * that step started from (`before`), finds a point within the base margin.
 */
function missedPairs(world: World, before: Map<RigidBody, Pose>, scratch: Manifold): number {
  const contacts = pairsOf(world);
  let missed = 0;
  for (const c of contacts) {
    if (c.pointCount > 0 || !c.bodyA.shape.isConvex || !c.bodyB.shape.isConvex) continue;
    const a = before.get(c.bodyA)!, b = before.get(c.bodyB)!;
    collide(c.bodyA.shape, a.p, a.q, c.bodyB.shape, b.p, b.q, world.solver.speculativeDistance, scratch);
    if (scratch.pointCount > 0) missed++;
  }
  return missed;
}

/** One step of `world`; the pairs it left empty although they had a point (missedPairs). */
function stepCountingMissed(world: World, scratch: Manifold): number {
  const before = poses(world);
  world.step(DT);
  return missedPairs(world, before, scratch);
}

describe('skipping the narrowphase of pairs that are apart', () => {
  it('a rod spinning in place into a post is stopped at it (the turn counts, not only the translation)', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    // A 2 m rod at 45°; the post sits in the empty corner of the rod's
    // bounding box, so the pair exists from the start with a 0.7 m gap that
    // only the turn closes (the rod's centre barely moves before the hit).
    const post = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.5 }), position: { x: -0.6, y: 0.6, z: 0 } });
    const s = Math.sin(Math.PI / 8), c = Math.cos(Math.PI / 8);
    const rod = world.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 0.05, z: 0.05 }), rotation: { x: 0, y: 0, z: s, w: c } });
    rod.setAngularVelocity({ x: 0, y: 0, z: 3 });
    const scratch = new Manifold();
    let missed = 0, deepest = 0;
    for (let i = 0; i < 90; i++) {
      missed += stepCountingMissed(world, scratch);
      collide(rod.shape, rod.position, rod.rotation, post.shape, post.position, post.rotation, 0, scratch);
      for (let k = 0; k < scratch.pointCount; k++) deepest = Math.max(deepest, scratch.points[k]!.depth);
    }
    console.log(`rod into post: missed pairs ${missed}, deepest ${(deepest * 1000).toFixed(2)} mm, rod centre moved to (${rod.position.x.toFixed(3)}, ${rod.position.y.toFixed(3)})`);
    expect(missed).toBe(0);
    expect(deepest).toBeLessThan(0.005);
    // It hit the post: the push moved its centre away.
    expect(Math.hypot(rod.position.x, rod.position.y)).toBeGreaterThan(0.05);
  });

  it('a body set next to a resting one is collided on the next step', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const a = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.3, y: 0.3, z: 0.3 }), position: { x: 0, y: 0.3, z: 0 } });
    // 4 cm to the side: the fat boxes overlap, the shapes are beyond the margin.
    const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.3, y: 0.3, z: 0.3 }), position: { x: 0.64, y: 0.3, z: 0 } });
    const scratch = new Manifold();
    for (let i = 0; i < 30; i++) world.step(DT);
    b.setPosition({ x: 0.595, y: 0.3, z: 0 });
    const missed = stepCountingMissed(world, scratch);
    const contacts = pairsOf(world);
    const pair = contacts.find((c) => (c.bodyA === a && c.bodyB === b) || (c.bodyA === b && c.bodyB === a));
    console.log(`teleport: missed ${missed}, pair points ${pair?.pointCount ?? 'no pair'}`);
    expect(missed).toBe(0);
    expect(pair?.pointCount ?? 0).toBeGreaterThan(0);
  });

  it('16 tumbling ragdolls: no pair is left empty while its shapes are within the margin', () => {
    const rng = seeded(4711, 'skip ragdolls');
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
    for (let i = 0; i < 16; i++) {
      createRagdoll(world, { position: { x: rng.range(-0.6, 0.6), y: 1.2 + 0.6 * i, z: rng.range(-0.6, 0.6) }, rotation: rng.quat() });
    }
    const scratch = new Manifold();
    let missed = 0, emptyPairs = 0;
    for (let i = 0; i < 300; i++) {
      missed += stepCountingMissed(world, scratch);
      emptyPairs += pairsOf(world).filter((c) => c.pointCount === 0).length;
    }
    console.log(`ragdolls: ${emptyPairs} empty pair-steps checked, missed ${missed}`);
    expect(emptyPairs).toBeGreaterThan(10000);
    expect(missed).toBe(0);
  });
});
