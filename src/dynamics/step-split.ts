/**
 * How many parts a step is split into. The narrowphase finds a body's
 * contact points once per part, at its start pose: a thin body that turns
 * through a large angle, or a pair that closes fast, brings other parts of
 * the shapes to the surface, which no point holds. Each part runs the whole
 * pipeline (docs/contact-energy.md).
 */
import type { Contact } from './contact';
import type { RigidBody } from './body';
import type { StepContext } from './step-context';

/** What stepParts reads of a joint (dynamics/ does not import joints/). */
export interface JointedPair {
  readonly bodyA: RigidBody | null;
  readonly bodyB: RigidBody | null;
}

/** largestSpin's result, |ω|² (in an array: a double returned from a call V8 does not inline is boxed). */
const SPIN = /* @__PURE__ */ new Float64Array(1);

/** The largest |ω|² of an awake dynamic body at least SPLIT_ELONGATION long in `pairs`, into SPIN[0]. */
function largestSpin(pairs: readonly JointedPair[]): void {
  let most = 0;
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i]!;
    for (let k = 0; k < 2; k++) {
      const b = k === 0 ? p.bodyA! : p.bodyB!;
      if (!(b.isDynamic && b.awake && b.elongation >= SPLIT_ELONGATION)) continue;
      const w = b.angularVelocity;
      const t = w.x * w.x + w.y * w.y + w.z * w.z;
      if (t > most) most = t;
    }
  }
  SPIN[0] = most;
}

/** Most parts a step is split into. */
export const MAX_STEP_PARTS = 16;
/**
 * Only bodies at least this elongated (RigidBody.elongation) split a step:
 * a turning ball or block brings no new part of itself within reach of its
 * contact points, a stick does. Ragdoll limbs (3–4) stay below it.
 */
const SPLIT_ELONGATION = 5;
/**
 * Turn (rad) of an elongated jointed body per part. Looser than a contact's
 * maxTurnPerStep: a joint's limit axes go wrong only when the body turns by
 * radians within a sub-step, and splitting every jointed stick that swings
 * at 20 rad/s would multiply the cost of a ragdoll-heavy scene.
 */
const JOINT_TURN_PER_PART = 1;
/** Farthest the two bodies of a pair with points move relative to each other in one part (m). */
const MOVE_PER_PART = 1;

/**
 * Parts to split what is left of the step (ctx.stepLeft) into: ⌈θ / maxTurnPerStep⌉
 * for the largest turn θ = |ω|·dt of an awake dynamic body in a pair that is
 * at least SPLIT_ELONGATION long for its thickness, or ⌈d / MOVE_PER_PART⌉
 * for the largest relative motion d of a pair with points, at most MAX_STEP_PARTS.
 */
export function stepParts(
  ctx: StepContext, contacts: readonly Contact[], solving: readonly Contact[], solvingCount: number, joints: readonly JointedPair[],
): number {
  const dt = ctx.stepLeft;
  const limit = ctx.settings.maxTurnPerStep;
  // A joint's rows, like a contact's points, hold the axes of the part's
  // start: a rod spinning at a thousand rad/s turns its limit axes by radians
  // within a sub-step, and the limit then pushes along axes it has left.
  largestSpin(joints);
  const jointParts = Math.ceil(Math.sqrt(SPIN[0]!) * dt / JOINT_TURN_PER_PART);
  largestSpin(contacts);
  let parts = Math.max(Math.ceil(Math.sqrt(SPIN[0]!) * dt / limit), jointParts);
  // A pair with points moving fast relative to each other: its points are
  // those of the start pose, and the spin an impact starts turns the body
  // through the rest of the part.
  let fastest = 0;
  for (let i = 0; i < solvingCount; i++) {
    const c = solving[i]!;
    const a = c.bodyA!, b = c.bodyB!;
    if (!(a.isDynamic && a.awake) && !(b.isDynamic && b.awake)) continue;
    const va = a.linearVelocity, vb = b.linearVelocity;
    const dx = vb.x - va.x, dy = vb.y - va.y, dz = vb.z - va.z;
    const vv = dx * dx + dy * dy + dz * dz;
    if (vv > fastest) fastest = vv;
  }
  const moveParts = Math.ceil(Math.sqrt(fastest) * dt / MOVE_PER_PART);
  if (moveParts > parts) parts = moveParts;
  return parts > 1 ? Math.min(parts, MAX_STEP_PARTS) : 1;
}
