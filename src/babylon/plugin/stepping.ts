// Stage: the world's clock. Gravity, the time step and the velocity limits;
// per frame, the forces applied since the last one, the fixed steps (or the
// frame's delta in steps) with the targets of ANIMATED bodies reached in equal
// parts, and the interpolation factor the node sync uses.
import { Quaternion, type Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { MAX_ANGULAR_SPEED, MAX_LINEAR_SPEED, MAX_TIME_STEP, type Quat, type RigidBody, type Vec3, type World } from '../../index';
import { driveToPose, requireFinite, requireVector } from './pose';
import type { BodyRecords } from './body-records';

/**
 * A frame's delta as executeStep uses it: NaN, ±Infinity and a negative delta
 * count as 0 s. Babylon calls executeStep from the render loop every frame,
 * so a bad delta neither throws there nor reaches the accumulator, which
 * would never step again once it held NaN (docs/babylon-plugin.md, the time step).
 */
export function frameSeconds(delta: number): number {
  return typeof delta === 'number' && delta >= 0 && delta < Infinity ? delta : 0;
}

export class FrameStepper {
  private timeStep = 1 / 60;
  private readonly maxStepsPerAdvance: number;
  private accumulator = 0;
  // HavokPlugin's defaults (m/s, rad/s), so a scene behaves the same on both.
  private maxLinearVelocity = 200;
  private maxAngularVelocity = 100;
  private readonly tmpQ = new Quaternion();
  private readonly tmpQ2 = new Quaternion();
  private readonly tmpVec: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly tmpQuat: Quat = { x: 0, y: 0, z: 0, w: 1 };

  /** `maxSubSteps` is the deprecated name of `maxStepsPerAdvance`, used when that is not given. */
  constructor(private readonly world: World, private readonly records: BodyRecords, options: { maxStepsPerAdvance?: number; maxSubSteps?: number }) {
    const field = options.maxStepsPerAdvance !== undefined ? 'maxStepsPerAdvance' : 'maxSubSteps';
    const n = options.maxStepsPerAdvance ?? options.maxSubSteps ?? 4;
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new RangeError(`FootingPlugin: options.${field} must be an integer in [1, 1000] (got ${String(n)})`);
    this.maxStepsPerAdvance = n;
  }

  setGravity(gravity: Vector3): void {
    requireFinite(gravity.x, 'gravity.x'); requireFinite(gravity.y, 'gravity.y'); requireFinite(gravity.z, 'gravity.z');
    this.world.gravity.x = gravity.x; this.world.gravity.y = gravity.y; this.world.gravity.z = gravity.z;
    for (const d of this.records.all) d.rigid?.wakeUp();
  }

  setTimeStep(timeStep: number): void {
    if (typeof timeStep !== 'number' || !(timeStep > 0 && timeStep <= MAX_TIME_STEP)) {
      throw new RangeError(`FootingPlugin.setTimeStep: timeStep must be in (0, ${MAX_TIME_STEP}] s (got ${String(timeStep)})`);
    }
    this.timeStep = timeStep;
  }
  getTimeStep(): number { return this.timeStep; }

  setVelocityLimits(maxLinearVelocity: number, maxAngularVelocity: number): void {
    if (!(maxLinearVelocity > 0) || !(maxAngularVelocity > 0)) {
      throw new RangeError(`FootingPlugin.setVelocityLimits: both limits must be > 0 (got ${String(maxLinearVelocity)}, ${String(maxAngularVelocity)})`);
    }
    this.maxLinearVelocity = Math.min(maxLinearVelocity, MAX_LINEAR_SPEED);
    this.maxAngularVelocity = Math.min(maxAngularVelocity, MAX_ANGULAR_SPEED);
  }
  getMaxLinearVelocity(): number { return this.maxLinearVelocity; }
  getMaxAngularVelocity(): number { return this.maxAngularVelocity; }

  /**
   * Steps the world for a frame of `delta` seconds (finite, ≥ 0: see
   * frameSeconds) and returns where the nodes go between the last two steps
   * (1: the last step's pose).
   */
  advance(delta: number, useDeltaForWorldStep: boolean, interpolate: boolean): number {
    const h = this.timeStep;
    let alpha = 1;
    if (useDeltaForWorldStep) {
      // A frame of no time takes no step (World.step refuses dt = 0).
      if (!(delta > 0)) return alpha;
      const n = Math.min(Math.max(1, Math.ceil(delta / MAX_TIME_STEP - 1e-9)), this.maxStepsPerAdvance);
      this.beginTargets();
      // Past maxStepsPerAdvance steps of MAX_TIME_STEP, the rest of the frame is dropped.
      const dt = Math.min(delta / n, MAX_TIME_STEP);
      for (let i = 0; i < n; i++) this.subStep(dt, i, n);
    } else {
      // The world runs up to one step ahead of the frame's time and nodes are
      // placed between the last two steps at the frame's time: never
      // extrapolated, and with frames of exactly one step, the current pose.
      this.accumulator += delta;
      let n = Math.max(0, Math.ceil(this.accumulator / h - 1e-9));
      if (n > this.maxStepsPerAdvance) {
        n = this.maxStepsPerAdvance;
        this.accumulator = n * h;
      }
      if (n > 0) this.beginTargets();
      for (let i = 0; i < n; i++) this.subStep(h, i, n);
      this.accumulator -= n * h;
      alpha = interpolate ? Math.min(Math.max(1 + this.accumulator / h, 0), 1) : 1;
    }
    return alpha;
  }

  private beginTargets(): void {
    for (const d of this.records.all) {
      if (!d.hasTarget || !d.rigid) continue;
      const p = d.rigid.position, q = d.rigid.rotation;
      d.targetStartPosition.x = p.x; d.targetStartPosition.y = p.y; d.targetStartPosition.z = p.z;
      d.targetStartRotation.x = q.x; d.targetStartRotation.y = q.y; d.targetStartRotation.z = q.z; d.targetStartRotation.w = q.w;
    }
  }

  /** Step i of n this frame: targets are reached at the frame's last step, in equal parts. */
  private subStep(dt: number, i: number, n: number): void {
    const t = (i + 1) / n;
    for (const d of this.records.all) {
      if (!d.hasTarget || !d.rigid) continue;
      const s = d.targetStartPosition, e = d.targetPosition;
      this.tmpVec.x = s.x + (e.x - s.x) * t; this.tmpVec.y = s.y + (e.y - s.y) * t; this.tmpVec.z = s.z + (e.z - s.z) * t;
      this.tmpQ.set(d.targetStartRotation.x, d.targetStartRotation.y, d.targetStartRotation.z, d.targetStartRotation.w);
      this.tmpQ2.set(d.targetRotation.x, d.targetRotation.y, d.targetRotation.z, d.targetRotation.w);
      Quaternion.SlerpToRef(this.tmpQ, this.tmpQ2, t, this.tmpQ);
      this.tmpQuat.x = this.tmpQ.x; this.tmpQuat.y = this.tmpQ.y; this.tmpQuat.z = this.tmpQ.z; this.tmpQuat.w = this.tmpQ.w;
      const r = d.rigid;
      if (r.isKinematic || r.isDynamic) {
        if (this.beyondReach(r, dt)) {
          // The core refuses a step that would move a body faster than MAX_LINEAR_SPEED or
          // MAX_ANGULAR_SPEED, and a kinematic target it refused stayed set, so every later
          // frame threw too. Such a target is a teleport: the body is put on it, at rest.
          r.setPosition(this.tmpVec);
          r.setRotation(this.tmpQuat);
          r.setLinearVelocity(ZERO);
          r.setAngularVelocity(ZERO);
        } else if (r.isKinematic) r.setKinematicTarget(this.tmpVec, this.tmpQuat);
        else driveToPose(r, this.tmpVec, this.tmpQuat, dt);
      }
      if (i === n - 1) d.hasTarget = false;
    }
    this.world.step(dt);
    this.clampVelocities();
  }

  /** Whether reaching (tmpVec, tmpQuat) from r's pose in dt takes more than the core's speed limits (with 0.1 % to spare for rounding). */
  private beyondReach(r: RigidBody, dt: number): boolean {
    const p = r.position, t = this.tmpVec;
    const dx = t.x - p.x, dy = t.y - p.y, dz = t.z - p.z;
    const reach = 0.999 * MAX_LINEAR_SPEED * dt;
    if (dx * dx + dy * dy + dz * dz > reach * reach) return true;
    // The turn from r's rotation to the target's: 2 atan2(|v|, |w|) of target · conjugate(rotation).
    const q = r.rotation, u = this.tmpQuat;
    const w = u.w * q.w + u.x * q.x + u.y * q.y + u.z * q.z;
    const x = -u.w * q.x + u.x * q.w - u.y * q.z + u.z * q.y;
    const y = -u.w * q.y + u.y * q.w - u.z * q.x + u.x * q.z;
    const z = -u.w * q.z + u.z * q.w - u.x * q.y + u.y * q.x;
    return 2 * Math.atan2(Math.sqrt(x * x + y * y + z * z), Math.abs(w)) > 0.999 * MAX_ANGULAR_SPEED * dt;
  }

  private clampVelocities(): void {
    const maxV = this.maxLinearVelocity, maxW = this.maxAngularVelocity;
    if (maxV >= MAX_LINEAR_SPEED && maxW >= MAX_ANGULAR_SPEED) return;
    for (const d of this.records.all) {
      const r = d.rigid;
      if (!r || !r.isDynamic || r.isSleeping) continue;
      const v = r.linearVelocity, w = r.angularVelocity;
      // Squared speeds first: the square root only for the rare body over a limit.
      const sv2 = v.x * v.x + v.y * v.y + v.z * v.z, sw2 = w.x * w.x + w.y * w.y + w.z * w.z;
      if (sv2 > maxV * maxV) { const k = maxV / Math.sqrt(sv2); this.tmpVec.x = v.x * k; this.tmpVec.y = v.y * k; this.tmpVec.z = v.z * k; r.setLinearVelocity(this.tmpVec); }
      if (sw2 > maxW * maxW) { const k = maxW / Math.sqrt(sw2); this.tmpVec.x = w.x * k; this.tmpVec.y = w.y * k; this.tmpVec.z = w.z * k; r.setAngularVelocity(this.tmpVec); }
    }
  }

  /** Accumulated here, applied as an impulse over the next frame by applyFrameForces. */
  applyForce(body: PhysicsBody, force: Vector3, location: Vector3, instanceIndex?: number): void {
    requireVector(force, 'applyForce force');
    requireVector(location, 'applyForce location');
    this.records.apply(body, instanceIndex, (d) => {
      const r = d.rigid;
      if (!r || !r.isDynamic) return;
      const rx = location.x - r.position.x, ry = location.y - r.position.y, rz = location.z - r.position.z;
      d.force.x += force.x; d.force.y += force.y; d.force.z += force.z;
      d.torque.x += ry * force.z - rz * force.y; d.torque.y += rz * force.x - rx * force.z; d.torque.z += rx * force.y - ry * force.x;
      d.hasForce = true;
    });
  }

  applyTorque(body: PhysicsBody, torque: Vector3, instanceIndex?: number): void {
    requireVector(torque, 'applyTorque torque');
    this.records.apply(body, instanceIndex, (d) => {
      if (!d.rigid || !d.rigid.isDynamic) return;
      d.torque.x += torque.x; d.torque.y += torque.y; d.torque.z += torque.z;
      d.hasForce = true;
    });
  }

  /**
   * Forces and torques of the frame as impulses over the time it steps: its
   * delta, but no more than maxStepsPerAdvance steps (the rest of a long
   * frame is dropped, and so is its share of the forces). An impulse that
   * would pass MAX_LINEAR_SPEED or MAX_ANGULAR_SPEED is scaled down to reach
   * it: thrown from here, it would stop the frame with some bodies pushed.
   */
  applyFrameForces(delta: number, useDeltaForWorldStep: boolean): void {
    const t = Math.min(delta, this.maxStepsPerAdvance * (useDeltaForWorldStep ? MAX_TIME_STEP : this.timeStep));
    const v = this.tmpVec;
    for (const d of this.records.all) {
      if (!d.hasForce) continue;
      const r = d.rigid;
      if (r && r.isDynamic) {
        v.x = finiteImpulse(d.force.x * t); v.y = finiteImpulse(d.force.y * t); v.z = finiteImpulse(d.force.z * t);
        r.applyImpulseClamped(v);
        v.x = finiteImpulse(d.torque.x * t); v.y = finiteImpulse(d.torque.y * t); v.z = finiteImpulse(d.torque.z * t);
        r.applyAngularImpulseClamped(v);
      }
      d.force.x = 0; d.force.y = 0; d.force.z = 0; d.torque.x = 0; d.torque.y = 0; d.torque.z = 0;
      d.hasForce = false;
    }
  }
}

const ZERO: Readonly<Vec3> = Object.freeze({ x: 0, y: 0, z: 0 });

/** Bound for an impulse component: forces each finite can add up past the largest double (or to ∞ − ∞). */
const IMPULSE_BOUND = 1e300;

function finiteImpulse(x: number): number {
  return x > IMPULSE_BOUND ? IMPULSE_BOUND : x < -IMPULSE_BOUND ? -IMPULSE_BOUND : x === x ? x : 0;
}
