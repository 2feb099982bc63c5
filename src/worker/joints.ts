/** Joints from descriptions (`PhysicsClient.createJoint`), built in the worker. */
import type { RigidBody } from '../dynamics/body';
import { JointKind, type Joint } from '../joints/joint';
import { BallJoint } from '../joints/ball';
import { HingeJoint } from '../joints/hinge';
import { ConeTwistJoint } from '../joints/cone-twist';
import { FixedJoint } from '../joints/fixed';
import { DistanceJoint } from '../joints/distance';
import { SliderJoint } from '../joints/slider';
import { SixDofJoint } from '../joints/six-dof';
import { JOINT_KIND_NAMES, type JointChangesData, type JointDescData } from './protocol';

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

/** Limit pairs set together through the target's `setLimits(lower, upper)`, which checks lower ≤ upper on the pair. */
const LIMIT_PAIRS: readonly (readonly [string, string])[] = [['lowerAngle', 'upperAngle'], ['lowerLimit', 'upperLimit'], ['minLength', 'maxLength'], ['min', 'max']];
const SIX_DOF_AXES = ['linearX', 'linearY', 'linearZ', 'angularX', 'angularY', 'angularZ'];
/** By JointKind (a bundler renames classes, so not `constructor.name`). */
const CLASS_NAMES: readonly string[] = ['BallJoint', 'HingeJoint', 'ConeTwistJoint', 'FixedJoint', 'DistanceJoint', 'SliderJoint', 'SixDofJoint'];

interface Change {
  apply(): void;
  undo(): void;
}

/**
 * Writes `changes` into the joint through its checked setters (a six-DOF
 * joint's axes as nested objects: `{ angularX: { motorSpeed: 2 } }`), all
 * or nothing: a field the joint does not have, or a value its setter
 * refuses, throws and the fields already written go back, last first (each
 * write went from one valid state to another, so undoing them in reverse
 * order passes the same checks). Wakes both bodies.
 */
export function changeJoint(joint: Joint, changes: JointChangesData): void {
  if (changes === null || typeof changes !== 'object') throw new TypeError(`setJoint: changes must be an object (got ${String(changes)})`);
  const plan: Change[] = [];
  planChanges(joint, changes as Record<string, unknown>, CLASS_NAMES[joint.kind]!, joint.kind === JointKind.SixDof, plan);
  let done = 0;
  try {
    for (; done < plan.length; done++) plan[done]!.apply();
  } catch (error) {
    for (let k = done - 1; k >= 0; k--) plan[k]!.undo();
    throw error;
  }
  joint.bodyA.wakeUp();
  joint.bodyB.wakeUp();
}

function planChanges(target: object, changes: Record<string, unknown>, name: string, axes: boolean, plan: Change[]): void {
  const t = target as Record<string, unknown>;
  const paired = new Set<string>();
  for (const [lo, hi] of LIMIT_PAIRS) {
    if (!(lo in changes || hi in changes) || typeof t.setLimits !== 'function' || !setterOf(target, lo)) continue;
    paired.add(lo); paired.add(hi);
    const oldLo = t[lo], oldHi = t[hi];
    const newLo = lo in changes ? changes[lo] : oldLo, newHi = hi in changes ? changes[hi] : oldHi;
    const setLimits = t.setLimits as (a: unknown, b: unknown) => void;
    plan.push({ apply: () => setLimits.call(target, newLo, newHi), undo: () => setLimits.call(target, oldLo, oldHi) });
  }
  for (const key of Object.keys(changes)) {
    if (paired.has(key)) continue;
    const value = changes[key];
    if (axes && SIX_DOF_AXES.includes(key)) {
      if (value === null || typeof value !== 'object') throw new TypeError(`setJoint: ${name}.${key} must be an object of axis fields (got ${String(value)})`);
      planChanges(t[key] as object, value as Record<string, unknown>, `${name}.${key}`, false, plan);
      continue;
    }
    if (!setterOf(target, key)) throw new RangeError(`setJoint: ${name}.${key} is not a field that can be changed`);
    const old = t[key];
    plan.push({ apply: () => { t[key] = value; }, undo: () => { t[key] = old; } });
  }
}

/** Whether `key` is an accessor with a setter on the object's class chain (public settable fields are accessors with checks). */
function setterOf(target: object, key: string): boolean {
  for (let p = Object.getPrototypeOf(target) as object | null; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (d) return typeof d.set === 'function';
  }
  return false;
}
