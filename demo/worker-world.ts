// The demo's world as the worker builds it (worker mode): the level's
// colliders, the platforms and their motion, the props and the ragdolls,
// all from level-data.ts, with no Babylon. `track` hands each moving body to
// the host so that its pose streams to the page.
import { Box, TriangleMesh, createRagdoll, type RigidBody, type World, type WorldStepper } from '../src/index';
import {
  GROUND_HALF, LEVEL_FRICTION, PLATFORM_DATA, PLATFORM_FRICTION, PLATFORM_HEIGHT, PLATFORM_Y, Platforms, RAGDOLL_SPAWNS, TERRAIN,
  createPropBodies, levelBlocks, ragdollRotation, terrainGrid,
} from './level-data';
import type { WorkerBodyTag } from './worker-tags';

export function buildWorkerWorld(world: World, track: (body: RigidBody, tag: WorkerBodyTag) => void): void {
  world.createBody({ type: 'static', shape: new Box({ x: GROUND_HALF, y: 0.5, z: GROUND_HALF }), position: { x: 0, y: -0.5, z: 0 }, friction: LEVEL_FRICTION });
  for (const b of levelBlocks()) {
    world.createBody({
      type: 'static', shape: new Box({ x: b.width / 2, y: b.height / 2, z: b.depth / 2 }), position: b.position,
      rotation: b.rotation ?? undefined, friction: LEVEL_FRICTION,
    });
  }
  const platforms = PLATFORM_DATA.map((p) => {
    const body = world.createBody({
      type: 'kinematic', shape: new Box({ x: p.width / 2, y: PLATFORM_HEIGHT / 2, z: p.depth / 2 }), position: { x: p.x, y: PLATFORM_Y, z: p.z }, friction: PLATFORM_FRICTION,
    });
    track(body, { kind: 'platform', name: p.name });
    return body;
  });
  // Babylon's winding (level-data) turned into TriangleMesh's counter-clockwise front, as triangleMeshFromMeshes does.
  const grid = terrainGrid(TERRAIN.size, TERRAIN.n, TERRAIN.cx, TERRAIN.cz);
  const indices = grid.indices.slice();
  for (let i = 0; i < indices.length; i += 3) { const b = indices[i + 1]!; indices[i + 1] = indices[i + 2]!; indices[i + 2] = b; }
  world.createBody({ type: 'static', shape: new TriangleMesh(grid.positions, indices), friction: LEVEL_FRICTION });

  const motion = new Platforms(platforms[0]!, platforms[1]!);
  // Step k (stepCount k) ends at (k + 1)·h: the platforms take the poses for the coming step.
  const stepper: WorldStepper = { preStep: (w) => motion.update((w.stepCount + 1) * w.fixedTimeStep), postStep: () => {} };
  world.addStepper(stepper);

  for (const { body, material } of createPropBodies(world)) track(body, { kind: 'prop', material });
  for (const { at, yaw } of RAGDOLL_SPAWNS) {
    const ragdoll = createRagdoll(world, { position: at, rotation: ragdollRotation(yaw) });
    for (const body of ragdoll.bodies) track(body, { kind: 'prop', material: 'ragdoll' });
  }
}
