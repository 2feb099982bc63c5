// The plugin's record of one Babylon body (or thin instance), and Havok's
// event mask bits.
import type { Observable } from '@babylonjs/core/Misc/observable';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { IBasePhysicsCollisionEvent, IPhysicsCollisionEvent, PhysicsMassProperties, PhysicsMotionType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { Quat, RigidBody, Vec3 } from '../../index';
import type { ShapeData, ShapeGeometry } from './shapes';

/** Havok's event mask bits (PhysicsBody.setEventMask takes the same numbers). */
export const FootingEventMask = {
  COLLISION_STARTED: 1,
  COLLISION_CONTINUED: 2,
  COLLISION_FINISHED: 4,
  TRIGGER_ENTERED: 8,
  TRIGGER_EXITED: 16,
} as const;
export const COLLISION_EVENTS = FootingEventMask.COLLISION_STARTED | FootingEventMask.COLLISION_CONTINUED | FootingEventMask.COLLISION_FINISHED;

/** What a body record asks of a constraint attached to it (constraints.ts's ConstraintData). */
export interface BodyConstraint {
  /** The record's footing body was replaced: make the joints again. */
  rebuild(): void;
  /** The record is going away: drop the pairs that use it. */
  detach(d: BodyData): void;
}

/** The plugin's data behind one Babylon body, or one thin instance of it. */
export class BodyData {
  rigid: RigidBody | null = null;
  shape: ShapeData | null = null;
  /** Pose of the Babylon node (world) while there is no footing body. */
  readonly position: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  linearDamping = 0;
  angularDamping = 0.1;
  gravityFactor = 1;
  eventMask = 0;
  userMass: PhysicsMassProperties | null = null;
  /** The shape frame the footing body was created with (the shape's may have changed since). */
  rigidGeometry: ShapeGeometry | null = null;
  /** World pose the node had after the last sync (a moved node is teleported by the prestep). */
  readonly syncedPosition = new Vector3(NaN, NaN, NaN);
  readonly syncedRotation = new Quaternion(NaN, NaN, NaN, NaN);
  hasTarget = false;
  readonly targetPosition: Vec3 = { x: 0, y: 0, z: 0 };
  readonly targetRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly targetStartPosition: Vec3 = { x: 0, y: 0, z: 0 };
  readonly targetStartRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  collisionObservable: Observable<IPhysicsCollisionEvent> | null = null;
  collisionEndedObservable: Observable<IBasePhysicsCollisionEvent> | null = null;
  readonly constraints = new Set<BodyConstraint>();
  /** Force (N) and torque about the centre of mass (N·m) applied since the last frame. */
  readonly force: Vec3 = { x: 0, y: 0, z: 0 };
  readonly torque: Vec3 = { x: 0, y: 0, z: 0 };
  hasForce = false;
  disposed = false;
  constructor(readonly plugin: { rebuildBody(d: BodyData): void }, readonly body: PhysicsBody, readonly index: number, public motionType: PhysicsMotionType) {}
  rebuild(): void {
    this.plugin.rebuildBody(this);
  }
}


