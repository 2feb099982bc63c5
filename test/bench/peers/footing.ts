import type { RigidBody } from '../../../src/index';
import { buildFootingWorld } from '../../scenes/build-footing';
import type { Scene } from '../../scenes/scene';
import { COMPARABLE, type EngineAdapter, type EngineInstance } from './adapter';

export const footingAdapter: EngineAdapter = {
  name: 'footing',
  version: 'footing (this repo, src/)',
  notes: 'solver.velocityIterations 10, other solver settings at their defaults; sleeping.enabled false.',
  async create(scene: Scene): Promise<EngineInstance> {
    const { world, bodies } = buildFootingWorld(scene, {
      velocityIterations: COMPARABLE.velocityIterations,
      sleeping: COMPARABLE.sleeping,
    });
    const list: readonly RigidBody[] = bodies;
    const dt = scene.dt;
    return {
      step() {
        world.step(dt);
      },
      readPositions(out) {
        for (let i = 0; i < list.length; i++) {
          const p = list[i]!.position;
          out[3 * i] = p.x;
          out[3 * i + 1] = p.y;
          out[3 * i + 2] = p.z;
        }
      },
      dispose() {
        // Plain JS objects: the garbage collector frees the world.
      },
    };
  },
};
