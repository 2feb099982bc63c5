/**
 * footing alone on `ragdolls-32` (test/scenes/ragdolls.ts): 32 ragdolls of 10
 * bodies and 9 ball joints each dropped in a pile. Same settings as the peer
 * table (10 velocity iterations, sleeping off), 60 warm-up steps, then 300
 * timed steps of 1/60 s (the pile lands and settles during them).
 * Run: `npx vitest bench --run test/bench/ragdolls.bench.ts`.
 */
import { bench, describe } from 'vitest';
import type { World } from '../../src/index';
import { buildFootingRagdolls } from '../scenes/build-footing-ragdolls';
import { ragdollsScene } from '../scenes/ragdolls';
import { COMPARABLE } from './peers/adapter';

describe('ragdolls-32', () => {
  const scene = ragdollsScene(32);
  let world: World | undefined;
  bench(
    `footing step, ${scene.bodies.length - 1} bodies, ${scene.joints.length} ball joints`,
    () => {
      world!.step(scene.dt);
    },
    {
      time: 0,
      iterations: 300,
      warmupTime: 0,
      warmupIterations: 60,
      setup: () => {
        world ??= buildFootingRagdolls(scene, {
          velocityIterations: COMPARABLE.velocityIterations,
          sleeping: COMPARABLE.sleeping,
        }).world;
      },
    },
  );
});
