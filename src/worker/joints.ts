/** Joints from descriptions (`PhysicsClient.createJoint`), built in the worker. */
import type { RigidBody } from '../dynamics/body';
import type { Joint } from '../joints/joint';
import { BallJoint } from '../joints/ball';
import { HingeJoint } from '../joints/hinge';
import { ConeTwistJoint } from '../joints/cone-twist';
import { FixedJoint } from '../joints/fixed';
import { DistanceJoint } from '../joints/distance';
import { SliderJoint } from '../joints/slider';
import { SixDofJoint } from '../joints/six-dof';
import { JOINT_KIND_NAMES, type JointDescData } from './protocol';

/**
 * Builds the joint `desc` describes, with its bodies looked up by handle
 * (`body` throws for a handle that is not a live body). The joint classes
 * check every field and throw a TypeError/RangeError naming it; nothing is
 * added to the world here.
 */
export function jointFromDesc(desc: JointDescData, body: (handle: number, field: string) => RigidBody): Joint {
  if (desc === null || typeof desc !== 'object') throw new TypeError(`joint must be a joint description object (got ${String(desc)})`);
  const { kind, bodyA: a, bodyB: b, ...rest } = desc;
  if (!JOINT_KIND_NAMES.includes(kind)) {
    throw new TypeError(`joint.kind must be ${JOINT_KIND_NAMES.map((k) => `'${k}'`).join(', ')} (got ${String(kind)})`);
  }
  const bodies = { bodyA: body(a, 'bodyA'), bodyB: body(b, 'bodyB') };
  switch (desc.kind) {
    case 'ball': return new BallJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
    case 'hinge': return new HingeJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
    case 'coneTwist': return new ConeTwistJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
    case 'fixed': return new FixedJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
    case 'distance': return new DistanceJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
    case 'slider': return new SliderJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
    case 'sixDof': return new SixDofJoint({ ...(rest as Omit<typeof desc, 'kind' | 'bodyA' | 'bodyB'>), ...bodies });
  }
}
