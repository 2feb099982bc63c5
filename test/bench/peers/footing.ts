import type { RigidBody } from '../../../src/index';
import { buildFootingWorld } from '../../scenes/build-footing';
import { buildFootingRagdolls } from '../../scenes/build-footing-ragdolls';
import type { JointedScene } from '../../scenes/ragdolls';
import type { Scene } from '../../scenes/scene';
import { COMPARABLE, JointErrorMeter, sceneJoints, type EngineAdapter, type EngineInstance, type EngineSettings } from './adapter';

export const footingAdapter: EngineAdapter = {
  name: 'footing',
  version: 'footing (this repo, the built bundle dist/footing.js)',
  notes: 'solver at its defaults: positionCorrection soft, 4 sub-steps × (2 biased + 1 relax) sweeps, 60 Hz contacts, ' +
    'shock propagation on (velocityIterations 10 is set but only used by ngs/baumgarte); sleeping.enabled false; ' +
    'ragdolls: BallJoint (collideConnected false), jointSettings at their defaults.',
  joints: true,
  async create(scene: Scene, settings: EngineSettings = COMPARABLE): Promise<EngineInstance> {
    const options = { velocityIterations: settings.velocityIterations, sleeping: settings.sleeping };
    const { world, bodies } = sceneJoints(scene).length > 0
      ? buildFootingRagdolls(scene as JointedScene, options)
      : buildFootingWorld(scene, options);
    const meter = new JointErrorMeter(scene);
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
      readPoses(out) {
        for (let i = 0; i < list.length; i++) {
          const p = list[i]!.position, q = list[i]!.rotation;
          out[7 * i] = p.x; out[7 * i + 1] = p.y; out[7 * i + 2] = p.z;
          out[7 * i + 3] = q.x; out[7 * i + 4] = q.y; out[7 * i + 5] = q.z; out[7 * i + 6] = q.w;
        }
      },
      dispose() {
        // Plain JS objects: the garbage collector frees the world.
      },
      maxJointError() {
        return meter.measure((i, out, o) => {
          const b = list[i]!;
          out[o] = b.position.x; out[o + 1] = b.position.y; out[o + 2] = b.position.z;
          out[o + 3] = b.rotation.x; out[o + 4] = b.rotation.y; out[o + 5] = b.rotation.z; out[o + 6] = b.rotation.w;
        });
      },
    };
  },
};
