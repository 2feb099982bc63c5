/**
 * Verlet cloth cost: a 64×64-particle cloth (63 segments, 10 iterations, about
 * 23.5k sticks + tethers) per world step at 1/60 s, hanging from its top row,
 * and the same cloth draped on a static sphere (collision projection every
 * iteration). Run: `npx vitest bench --run test/bench/verlet.bench.ts`.
 */
import { bench, describe } from 'vitest';
import { Sphere, World } from '../../src/index';
import { createCloth } from '../../src/verlet/index';

function clothWorld(onSphere: boolean): World {
  const world = new World();
  if (onSphere) world.createBody({ type: 'static', shape: new Sphere(0.8), position: { x: 0, y: 0, z: 0 } });
  createCloth(world, {
    width: 3, height: 3, segments: 63, iterations: 10,
    pinned: onSphere ? 'none' : 'top',
    position: { x: 0, y: onSphere ? 1 : 2, z: 0 },
    rotation: onSphere ? { x: -Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 } : { x: 0, y: 0, z: 0, w: 1 },
  });
  return world;
}

describe('verlet cloth 64×64', () => {
  let hanging: World | undefined;
  bench('hanging banner, 10 iterations', () => { hanging!.step(1 / 60); }, {
    time: 0, iterations: 200, warmupTime: 0, warmupIterations: 30, setup: () => { hanging ??= clothWorld(false); },
  });
  let draped: World | undefined;
  bench('draped on a sphere, 10 iterations', () => { draped!.step(1 / 60); }, {
    time: 0, iterations: 200, warmupTime: 0, warmupIterations: 30, setup: () => { draped ??= clothWorld(true); },
  });
});
