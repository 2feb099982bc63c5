/**
 * Joint test helpers: the World owns joints (world.addJoint), so these are
 * thin wrappers kept for the tests' readability.
 */
import type { World } from '../../src/index';
import type { Joint } from '../../src/joints/joint';
import type { RagdollWorld } from '../../src/ragdoll/ragdoll';

export function addJoint(world: World, joint: Joint): Joint {
  world.addJoint(joint);
  return joint;
}

/** The World as the ragdoll builder sees it. */
export function jointWorld(world: World): RagdollWorld {
  return world;
}
