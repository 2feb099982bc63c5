/**
 * A ragdoll lists only what is still in the world: a body removed on its own
 * (with the joints the world removes with it) or a joint removed on its own
 * is dropped from `bodies`, `names` and `joints`; `isIntact` turns false and
 * `remove()` removes the rest without throwing. Humanoid: 12 bodies, 11
 * joints (the pelvis holds 3: spine and both hips; a lower arm 1: the elbow).
 * 60 Hz, default settings, a static floor.
 */
import { describe, expect, it } from 'vitest';
import { Box, World } from '../../src/index';
import { createRagdoll } from '../../src/ragdoll/ragdoll';

const DT = 1 / 60;

function scene(): { world: World; ragdoll: ReturnType<typeof createRagdoll> } {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  const ragdoll = createRagdoll(world, { position: { x: 0, y: 1.2, z: 0 } });
  for (let i = 0; i < 20; i++) world.step(DT);
  return { world, ragdoll };
}

describe('a ragdoll whose parts were removed from the world', () => {
  it('drops a removed lower arm and its elbow joint; the array handed out earlier is updated in place', () => {
    const { world, ragdoll } = scene();
    const bodies = ragdoll.bodies;
    expect(bodies.length).toBe(12);
    expect(ragdoll.joints.length).toBe(11);
    expect(ragdoll.isIntact).toBe(true);
    const arm = ragdoll.body('lowerArmLeft')!;
    world.removeBody(arm);
    expect(ragdoll.bodies).toBe(bodies);
    expect(bodies.length).toBe(11);
    expect(bodies.indexOf(arm)).toBe(-1);
    expect(ragdoll.names.length).toBe(11);
    expect(ragdoll.names.indexOf('lowerArmLeft')).toBe(-1);
    expect(ragdoll.body('lowerArmLeft')).toBeUndefined();
    // names stay parallel to bodies after the shift.
    expect(ragdoll.body('upperLegRight')).toBe(bodies[ragdoll.names.indexOf('upperLegRight')]);
    expect(ragdoll.joints.length).toBe(10);
    for (const j of ragdoll.joints) expect(j.bodyA === arm || j.bodyB === arm).toBe(false);
    expect(ragdoll.isIntact).toBe(false);
    for (let i = 0; i < 30; i++) world.step(DT);
    for (const b of ragdoll.bodies) expect(Number.isFinite(b.position.y)).toBe(true);
  });

  it('removing the pelvis drops its 3 joints; remove() then removes the other 11 bodies and 8 joints without throwing', () => {
    const { world, ragdoll } = scene();
    world.removeBody(ragdoll.body('pelvis')!);
    expect(ragdoll.bodies.length).toBe(11);
    expect(ragdoll.joints.length).toBe(8);
    expect(world.joints.length).toBe(8);
    ragdoll.remove();
    expect(world.bodies.length).toBe(1);
    expect(world.joints.length).toBe(0);
    expect(ragdoll.bodies.length).toBe(0);
    expect(ragdoll.joints.length).toBe(0);
    expect(ragdoll.isIntact).toBe(false);
    ragdoll.remove();
    expect(world.bodies.length).toBe(1);
  });

  it('a joint removed on its own is dropped from joints; the bodies stay', () => {
    const { world, ragdoll } = scene();
    const neck = ragdoll.joints.find((j) => j.bodyB === ragdoll.body('head'))!;
    world.removeJoint(neck);
    expect(ragdoll.joints.length).toBe(10);
    expect(ragdoll.joints.indexOf(neck)).toBe(-1);
    expect(ragdoll.bodies.length).toBe(12);
    expect(ragdoll.isIntact).toBe(false);
    ragdoll.remove();
    expect(world.bodies.length).toBe(1);
    expect(world.joints.length).toBe(0);
  });

  it('a body removed by a stepper (deferred to the end of the step) is dropped once it is gone', () => {
    const { world, ragdoll } = scene();
    const head = ragdoll.body('head')!;
    const remover = { postStep: (): void => { world.removeBody(head); expect(ragdoll.bodies.length).toBe(12); } };
    world.addStepper(remover);
    world.step(DT);
    world.removeStepper(remover);
    expect(head.world).toBeNull();
    expect(ragdoll.bodies.length).toBe(11);
    expect(ragdoll.joints.length).toBe(10);
  });
});

describe('Ragdoll.remove where the world refuses', () => {
  it('inside a raycast filter: refused, nothing removed, still intact; removed once called outside', () => {
    const { world, ragdoll } = scene();
    const before = world.snapshot();
    let filterCalls = 0;
    const remove = (): boolean => { filterCalls++; ragdoll.remove(); return true; };
    expect(() => world.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 }, { filter: remove }))
      .toThrow("removeJoint: cannot change the world from inside a query's filter or collector");
    expect(filterCalls).toBe(1);
    expect(world.snapshot()).toEqual(before);
    expect(ragdoll.isIntact).toBe(true);
    expect(ragdoll.bodies.length).toBe(12);
    expect(ragdoll.joints.length).toBe(11);
    ragdoll.remove();
    expect(world.bodies.length).toBe(1);
    expect(world.joints.length).toBe(0);
    expect(ragdoll.bodies.length).toBe(0);
    expect(ragdoll.isIntact).toBe(false);
  });
});
