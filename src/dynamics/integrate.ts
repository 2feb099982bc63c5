/**
 * Integration and write-back: kinematic targets turned into velocities;
 * velocities from gravity, forces and damping;
 * poses from velocities; then the solver's slots back into the bodies and
 * their fat boxes into the broadphase.
 */
import type { BroadPhase } from '../collision/broadphase/broadphase';
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import { MAX_ANGULAR_SPEED, MAX_LINEAR_SPEED } from '../math/validate';
import type { Vec3 } from '../math/vec3';
import type { RigidBody } from './body';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
import type { StepContext } from './step-context';

/** Metres the broadphase's fat boxes reach beyond the shapes (and the predicted motion); wider than the speculative distance. */
export const FAT_MARGIN = 0.03;

/** Kinematic targets become the velocities that reach them in dt (the write-back lands the body on its target). */
export function prepareKinematicTargets(bodies: readonly RigidBody[], dt: number, ctx: StepContext): void {
  const inv = 1 / dt;
  // All targets are checked before any body takes its velocity: a target
  // reached at more than the speeds setLinearVelocity and setAngularVelocity
  // allow (a far target, or a tiny dt) would fling what it touches to NaN.
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    if (b.hasKinematicTarget) requireReachable(b, dt, ctx);
  }
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    b.endsOnKinematicTarget = b.hasKinematicTarget;
    if (!b.hasKinematicTarget) continue;
    b.hasKinematicTarget = false;
    const v = b.linearVelocity as Vec3;
    v.x = (b.kinematicTargetPosition.x - b.position.x) * inv;
    v.y = (b.kinematicTargetPosition.y - b.position.y) * inv;
    v.z = (b.kinematicTargetPosition.z - b.position.z) * inv;
    // Δq = target · q*; ω = axis · angle / dt
    const dq = quat.multiply(ctx.quat, b.kinematicTargetRotation, quat.conjugate(ctx.quat2, b.rotation));
    if (dq.w < 0) { dq.x = -dq.x; dq.y = -dq.y; dq.z = -dq.z; dq.w = -dq.w; }
    const s = Math.sqrt(dq.x * dq.x + dq.y * dq.y + dq.z * dq.z);
    const w = b.angularVelocity as Vec3;
    if (s < 1e-12) {
      w.x = 0; w.y = 0; w.z = 0;
    } else {
      const angle = 2 * Math.atan2(s, dq.w);
      const k = (angle / s) * inv;
      w.x = dq.x * k; w.y = dq.y * k; w.z = dq.z * k;
    }
    b.awake = true;
    b.sleepTime = 0;
  }
}

/** Throws a RangeError naming b if its kinematic target is beyond MAX_LINEAR_SPEED·dt, or its turn beyond MAX_ANGULAR_SPEED·dt. */
function requireReachable(b: RigidBody, dt: number, ctx: StepContext): void {
  const t = b.kinematicTargetPosition, p = b.position;
  const d = Math.sqrt((t.x - p.x) ** 2 + (t.y - p.y) ** 2 + (t.z - p.z) ** 2);
  if (d > MAX_LINEAR_SPEED * dt) {
    throw new RangeError(`body ${b.id}'s kinematic target is ${d} m away: reaching it in a step of ${dt} s takes ${d / dt} m/s, above MAX_LINEAR_SPEED (${MAX_LINEAR_SPEED} m/s); set a target within reach, or teleport the body onto it with setPosition`);
  }
  const dq = quat.multiply(ctx.quat, b.kinematicTargetRotation, quat.conjugate(ctx.quat2, b.rotation));
  const angle = 2 * Math.atan2(Math.sqrt(dq.x * dq.x + dq.y * dq.y + dq.z * dq.z), Math.abs(dq.w));
  if (angle > MAX_ANGULAR_SPEED * dt) {
    throw new RangeError(`body ${b.id}'s kinematic target rotation is ${angle} rad away: turning there in a step of ${dt} s takes ${angle / dt} rad/s, above MAX_ANGULAR_SPEED (${MAX_ANGULAR_SPEED} rad/s); set a rotation within reach, or turn the body onto it with setRotation`);
  }
}

/**
 * v += h (g·gravityScale + F/m), ω += h I⁻¹ τ, then damping v *= 1/(1 + h c).
 * The gyroscopic term −ω × Iω is left out: integrated explicitly it adds
 * energy to spinning thin bodies (Box2D and Jolt omit it too).
 */
export function integrateVelocities(B: SolverBodies, h: number): void {
  // The accelerations were read from the bodies when their slots were added
  // (SolverBodies.add), so this loop touches only the store.
  const V = B.vel;
  for (let i = 0; i < B.count; i++) {
    if (B.dynamic[i] === 0) continue;
    const ld = 1 / (1 + h * B.linearDamping[i]!);
    const ad = 1 / (1 + h * B.angularDamping[i]!);
    const o = i * VELOCITY_STRIDE;
    V[o] = (V[o]! + h * B.lax[i]!) * ld;
    V[o + 1] = (V[o + 1]! + h * B.lay[i]!) * ld;
    V[o + 2] = (V[o + 2]! + h * B.laz[i]!) * ld;
    V[o + 3] = (V[o + 3]! + h * B.aax[i]!) * ad;
    V[o + 4] = (V[o + 4]! + h * B.aay[i]!) * ad;
    V[o + 5] = (V[o + 5]! + h * B.aaz[i]!) * ad;
  }
}

/** x += h v; q += ½ h (ω, 0) ⊗ q, normalised (SolverBodies.moveSlot). */
export function integratePositions(B: SolverBodies, h: number): void {
  const hh = 0.5 * h;
  for (let i = 0; i < B.count; i++) {
    if (B.moves[i] === 0) continue;
    const d = B.delta;
    const V = B.vel, o = i * VELOCITY_STRIDE;
    d[0] = h * V[o]!; d[1] = h * V[o + 1]!; d[2] = h * V[o + 2]!;
    d[3] = V[o + 3]! * hh; d[4] = V[o + 4]! * hh; d[5] = V[o + 5]! * hh;
    B.moveSlot(i);
  }
}

/**
 * ctx.box = the shape's box at its pose, grown for a fast turn: a body whose
 * farthest point swings further than the fat margin in ctx.sweepDt
 * (|ω|·R·dt, the arc it can sweep) gets its box grown by that swing, or its
 * pair with the floor could come a step late. (The linear motion is the
 * broadphase's prediction, from the displacement.)
 */
export function sweptShapeBox(b: RigidBody, ctx: StepContext): void {
  b.shape.computeAabb(ctx.box, b.position, b.rotation);
  const w = b.angularVelocity;
  const swing = Math.sqrt(w.x * w.x + w.y * w.y + w.z * w.z) * b.boundingRadius * ctx.sweepDt;
  if (swing > FAT_MARGIN) {
    const bx = ctx.box;
    bx.min.x -= swing; bx.min.y -= swing; bx.min.z -= swing;
    bx.max.x += swing; bx.max.y += swing; bx.max.z += swing;
  }
}

/**
 * Bodies created, pushed or given a velocity since the last step get fat
 * boxes that hold this step's motion before the pairs are found (the
 * write-back does the same for the bodies a step moved): otherwise a fast
 * body created next to a wall passes through it in its first step.
 */
export function refitStaleProxies(bodies: readonly RigidBody[], dt: number, ctx: StepContext, broadphase: BroadPhase): void {
  ctx.sweepDt = dt;
  const d = ctx.displacement;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    if (!b.proxyStale) continue;
    b.proxyStale = false;
    if (b.isStatic || !b.awake) continue;
    const v = b.linearVelocity;
    sweptShapeBox(b, ctx);
    d.x = v.x * dt; d.y = v.y * dt; d.z = v.z * dt;
    // Only grow (a no-op for a body whose motion nobody changed since the
    // last step; a box setPosition stretched ahead must not shrink).
    broadphase.moveProxy(b.proxy, ctx.box, d, 1, true);
  }
}

/**
 * The solver's slots back into the bodies (a kinematic body with a target
 * lands on it in the step's last part), forces cleared, and each moved
 * body's fat box refitted to hold the next whole step's motion (ctx.stepDt:
 * a split step's parts are shorter).
 */
export function writeBack(B: SolverBodies, ctx: StepContext, broadphase: BroadPhase): void {
  const dt = ctx.stepDt;
  ctx.sweepDt = dt;
  const d = ctx.displacement;
  for (let i = 0; i < B.count; i++) {
    const b = B.bodies[i]!;
    if (b.isStatic || !b.awake) continue;
    const p = b.position as Vec3, r = b.rotation as Quat, v = b.linearVelocity as Vec3, w = b.angularVelocity as Vec3;
    if (b.endsOnKinematicTarget && ctx.finalPart) {
      b.endsOnKinematicTarget = false;
      const tp = b.kinematicTargetPosition, tq = b.kinematicTargetRotation;
      p.x = tp.x; p.y = tp.y; p.z = tp.z;
      r.x = tq.x; r.y = tq.y; r.z = tq.z; r.w = tq.w;
    } else {
      p.x = B.px[i]!; p.y = B.py[i]!; p.z = B.pz[i]!;
      r.x = B.qx[i]!; r.y = B.qy[i]!; r.z = B.qz[i]!; r.w = B.qw[i]!;
    }
    b.odometer += motionBound(b, b.previousPosition, b.previousRotation);
    if (b.isDynamic) {
      const V = B.vel, o = i * VELOCITY_STRIDE;
      v.x = V[o]!; v.y = V[o + 1]!; v.z = V[o + 2]!;
      w.x = V[o + 3]!; w.y = V[o + 4]!; w.z = V[o + 5]!;
      b.updateInertia();
    }
    b.force.x = 0; b.force.y = 0; b.force.z = 0;
    b.torque.x = 0; b.torque.y = 0; b.torque.z = 0;
    sweptShapeBox(b, ctx);
    // Predictive fat box: it must hold the next step's motion (one step
    // ahead, not two: docs/world.md).
    d.x = v.x * dt; d.y = v.y * dt; d.z = v.z * dt;
    broadphase.moveProxy(b.proxy, ctx.box, d);
  }
}

/**
 * How far any point of `body`'s shape can have moved from the pose (from,
 * fromRotation) to its current one: the translation plus the chord of the
 * turn at the bounding radius. A turn by θ moves a point at distance r by
 * 2r·sin(θ/2) ≤ 2r·|q − q0| (q0's sign chosen nearer q, where |q − q0| =
 * 2 sin(θ/4)). Small enough to be inlined, so its result is not boxed
 * (checked by the allocation test).
 */
export function motionBound(body: RigidBody, from: Readonly<Vec3>, fromRotation: Readonly<Quat>): number {
  const p = body.position, q = body.rotation;
  const dx = p.x - from.x, dy = p.y - from.y, dz = p.z - from.z;
  const s = q.x * fromRotation.x + q.y * fromRotation.y + q.z * fromRotation.z + q.w * fromRotation.w < 0 ? -1 : 1;
  const ex = q.x - s * fromRotation.x, ey = q.y - s * fromRotation.y, ez = q.z - s * fromRotation.z, ew = q.w - s * fromRotation.w;
  return Math.sqrt(dx * dx + dy * dy + dz * dz) + 2 * body.boundingRadius * Math.sqrt(ex * ex + ey * ey + ez * ez + ew * ew);
}
