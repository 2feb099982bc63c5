/**
 * Builds a `JointedScene` (ragdolls.ts) in footing: the bodies through
 * `buildFootingWorld`, then one `BallJoint` per joint entry.
 */
import { BallJoint } from '../../src/index';
import { buildFootingWorld, type FootingScene, type FootingSceneOptions } from './build-footing';
import type { JointedScene } from './ragdolls';

export interface FootingJointedScene extends FootingScene {
  readonly joints: readonly BallJoint[];
}

export function buildFootingRagdolls(scene: JointedScene, options: FootingSceneOptions = {}): FootingJointedScene {
  const { world, bodies } = buildFootingWorld(scene, options);
  const joints: BallJoint[] = [];
  for (const j of scene.joints) {
    joints.push(world.addJoint(new BallJoint({ bodyA: bodies[j.bodyA]!, bodyB: bodies[j.bodyB]!, anchor: j.anchor })));
  }
  return { world, bodies, joints };
}
