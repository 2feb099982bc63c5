/**
 * footing alone on the shared benchmark scenes (test/scenes): one bench task
 * per scene, each iteration one `world.step(1/60)`. Same settings as footing's
 * row in the peer table (10 velocity iterations, sleeping off), 60 warm-up
 * steps, then 300 timed steps. Run: `npx vitest bench --run test/bench/dynamics.bench.ts`.
 */
import { bench, describe } from 'vitest';
import type { World } from '../../src/index';
import { BENCHMARK_SCENE_NAMES, benchmarkScene, buildFootingWorld, countDynamic } from '../scenes/index';
import { COMPARABLE } from './peers/adapter';

for (const name of BENCHMARK_SCENE_NAMES) {
  describe(name, () => {
    const scene = benchmarkScene(name);
    const dt = scene.dt;
    // Built on first setup (not at collection) so that filtering scenes skips their build.
    let world: World | undefined;
    bench(
      `footing step, ${countDynamic(scene)} dynamic bodies`,
      () => {
        world!.step(dt);
      },
      {
        time: 0,
        iterations: 300,
        warmupTime: 0,
        warmupIterations: 60,
        setup: () => {
          world ??= buildFootingWorld(scene, {
            velocityIterations: COMPARABLE.velocityIterations,
            sleeping: COMPARABLE.sleeping,
          }).world;
        },
      },
    );
  });
}
