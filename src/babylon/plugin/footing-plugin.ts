// FootingPlugin: Babylon's Physics V2 plugin interface on a footing World, so
// a scene written for HavokPlugin runs on footing by changing the plugin
// passed to scene.enablePhysics. Design notes and the differences from Havok:
// docs/babylon-plugin.md.
//
// This file is the facade: each method hands its call to the module of its
// stage, and executeStep reads as the frame's stage list.
//   body-records.ts      records of Babylon bodies, rebuild, teleport, prestep
//   body-properties.ts   motion type, mass, damping, velocities, event masks
//   stepping.ts          gravity, time step, frame forces, fixed steps, targets
//   node-sync.ts         footing bodies back to Babylon nodes (interpolated)
//   events.ts            contact and sensor events as Babylon's observables
//   shape-properties.ts  filters, materials, density, triggers, containers
//   shapes.ts            Babylon shape parameters to footing shapes
//   constraint-records.ts, constraints.ts   Babylon constraints to footing joints
//   queries.ts           raycast
//   viewer-geometry.ts   what PhysicsViewer and the Inspector draw
//   body-data.ts, pose.ts   the record type; pose conversions and argument checks
import { Observable } from '@babylonjs/core/Misc/observable';
import type { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { BoundingBox } from '@babylonjs/core/Culling/boundingBox';
import {
  PhysicsEventType,
  type ConstrainedBodyPair, type PhysicsConstraintAxis, type PhysicsConstraintAxisLimitMode, type PhysicsConstraintMotorType, type IBasePhysicsCollisionEvent,
  type IPhysicsCollisionEvent, type IPhysicsEnginePluginV2, type PhysicsMassProperties, type PhysicsMotionType, type PhysicsShapeParameters, type PhysicsShapeType,
} from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { PhysicsConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import type { PhysicsMaterial } from '@babylonjs/core/Physics/v2/physicsMaterial';
import type { PhysicsRaycastResult, IRaycastQuery } from '@babylonjs/core/Physics/physicsRaycastResult';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Nullable } from '@babylonjs/core/types';
import { World } from '../../index';
import { shapeDataOf, shapeMass } from './pose';
import { COLLISION_EVENTS, FootingEventMask } from './body-data';
import { BodyRecords } from './body-records';
import * as bodyProps from './body-properties';
import { FrameStepper, frameSeconds } from './stepping';
import { NodeSync } from './node-sync';
import { PluginEvents } from './events';
import * as shapeProps from './shape-properties';
import { ConstraintRecords } from './constraint-records';
import { raycast } from './queries';
import { bodyBoundingBox, bodyGeometry, shapeBoundingBox } from './viewer-geometry';

export { FootingPluginUnsupportedError } from './shapes';
export { FootingEventMask } from './body-data';

export interface FootingPluginOptions {
  /**
   * Interpolate nodes between the last two fixed steps (default true). With
   * false, nodes show the last step's pose.
   */
  interpolate?: boolean;
  /**
   * Step with each frame's delta, as HavokPlugin does by default (split into
   * steps of at most the time step). Default false: fixed steps.
   */
  useDeltaForWorldStep?: boolean;
  /** Most fixed steps in one executeStep, integer in [1, 1000]; the rest is dropped. Default 4. (As World.maxStepsPerAdvance.) */
  maxStepsPerAdvance?: number;
  /** @deprecated The old name of `maxStepsPerAdvance`; used when that is not given. */
  maxSubSteps?: number;
}

/**
 * Babylon's Physics V2 plugin on footing: `scene.enablePhysics(gravity, new FootingPlugin())`.
 * `world` is the footing World it steps (pass your own to share it with
 * footing's API, e.g. its debug view or character controller).
 */
export class FootingPlugin implements IPhysicsEnginePluginV2 {
  readonly world: World;
  name = 'FootingPlugin';
  onCollisionObservable = new Observable<IPhysicsCollisionEvent>();
  onCollisionEndedObservable = new Observable<IBasePhysicsCollisionEvent>();
  onTriggerCollisionObservable = new Observable<IBasePhysicsCollisionEvent>();
  /** Interpolate nodes between fixed steps. */
  interpolate: boolean;
  /** Step with the frame's delta instead of fixed steps (HavokPlugin's default). */
  useDeltaForWorldStep: boolean;
  private readonly bodies: BodyRecords;
  private readonly stepper: FrameStepper;
  private readonly nodes = new NodeSync();
  private readonly events: PluginEvents;
  private readonly constraints: ConstraintRecords;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(world?: World, options: FootingPluginOptions = {}) {
    this.world = world ?? new World();
    this.interpolate = options.interpolate ?? true;
    this.useDeltaForWorldStep = options.useDeltaForWorldStep ?? false;
    this.bodies = new BodyRecords(this.world);
    this.stepper = new FrameStepper(this.world, this.bodies, options);
    this.constraints = new ConstraintRecords(this.world, this.bodies);
    const events = (this.events = new PluginEvents(this.world, this));
    this.unsubscribe.push(
      this.world.on('contactBegin', (e) => events.queueContact(e, PhysicsEventType.COLLISION_STARTED)),
      this.world.on('contactEnd', (e) => events.queueContact(e, PhysicsEventType.COLLISION_FINISHED)),
      this.world.on('sensorEnter', (e) => events.queueTrigger(e, PhysicsEventType.TRIGGER_ENTERED)),
      this.world.on('sensorExit', (e) => events.queueTrigger(e, PhysicsEventType.TRIGGER_EXITED)),
    );
  }

  // ---------------------------------------------------------------- world

  getPluginVersion(): number { return 2; }
  setGravity(gravity: Vector3): void { this.stepper.setGravity(gravity); }
  /** Seconds per fixed step, in (0, MAX_TIME_STEP = 0.05]. */
  setTimeStep(timeStep: number): void { this.stepper.setTimeStep(timeStep); }
  getTimeStep(): number { return this.stepper.getTimeStep(); }
  setVelocityLimits(maxLinearVelocity: number, maxAngularVelocity: number): void { this.stepper.setVelocityLimits(maxLinearVelocity, maxAngularVelocity); }
  getMaxLinearVelocity(): number { return this.stepper.getMaxLinearVelocity(); }
  getMaxAngularVelocity(): number { return this.stepper.getMaxAngularVelocity(); }

  /**
   * One frame: the prestep (nodes moved by the user teleport or drive their
   * bodies), as many fixed steps as the accumulated time allows, the sync of
   * the nodes (interpolated) and the events. A delta that is not a finite
   * number ≥ 0 counts as 0 s: nothing steps and the time already accumulated is kept.
   */
  executeStep(delta: number, bodies: Array<PhysicsBody>): void {
    const seconds = frameSeconds(delta);
    this.bodies.prestepAll(bodies);
    this.stepper.applyFrameForces(seconds, this.useDeltaForWorldStep);
    const alpha = this.stepper.advance(seconds, this.useDeltaForWorldStep, this.interpolate);
    this.nodes.syncAll(bodies, alpha);
    this.events.deliver();
  }

  // ---------------------------------------------------------------- bodies

  initBody(body: PhysicsBody, motionType: PhysicsMotionType, position: Vector3, orientation: Quaternion): void { this.bodies.init(body, motionType, position, orientation); }
  initBodyInstances(body: PhysicsBody, motionType: PhysicsMotionType, mesh: Mesh): void { this.bodies.initInstances(body, motionType, mesh); }
  updateBodyInstances(body: PhysicsBody, mesh: Mesh): void { this.bodies.updateInstances(body, mesh); }
  removeBody(body: PhysicsBody): void { this.bodies.remove(body); }
  disposeBody(body: PhysicsBody): void { this.bodies.dispose(body); }
  sync(body: PhysicsBody): void { this.syncTransform(body, body.transformNode); }
  syncTransform(body: PhysicsBody, transformNode: TransformNode): void { this.nodes.syncBody(body, 1, transformNode); }

  setShape(body: PhysicsBody, shape: Nullable<PhysicsShape>): void { bodyProps.setShape(this.bodies, body, shape); }
  getShape(body: PhysicsBody): Nullable<PhysicsShape> { return body.shape ?? null; }
  getShapeType(shape: PhysicsShape): PhysicsShapeType { return shapeDataOf(shape).type; }

  setEventMask(body: PhysicsBody, eventMask: number, instanceIndex?: number): void { this.bodies.apply(body, instanceIndex, (d) => { d.eventMask = eventMask >>> 0; }); }
  getEventMask(body: PhysicsBody, instanceIndex?: number): number { return this.bodies.record(body, instanceIndex).eventMask; }
  setMotionType(body: PhysicsBody, motionType: PhysicsMotionType, instanceIndex?: number): void { bodyProps.setMotionType(this.bodies, body, motionType, instanceIndex); }
  getMotionType(body: PhysicsBody, instanceIndex?: number): PhysicsMotionType { return this.bodies.record(body, instanceIndex).motionType; }

  computeMassProperties(body: PhysicsBody, instanceIndex?: number): PhysicsMassProperties { return shapeMass(this.bodies.record(body, instanceIndex).shape); }
  setMassProperties(body: PhysicsBody, massProps: PhysicsMassProperties, instanceIndex?: number): void { bodyProps.setMassProperties(this.bodies, body, massProps, instanceIndex); }
  getMassProperties(body: PhysicsBody, instanceIndex?: number): PhysicsMassProperties { return bodyProps.getMassProperties(this.bodies.record(body, instanceIndex)); }

  setLinearDamping(body: PhysicsBody, damping: number, instanceIndex?: number): void { bodyProps.setLinearDamping(this.bodies, body, damping, instanceIndex); }
  getLinearDamping(body: PhysicsBody, instanceIndex?: number): number { return this.bodies.record(body, instanceIndex).linearDamping; }
  setAngularDamping(body: PhysicsBody, damping: number, instanceIndex?: number): void { bodyProps.setAngularDamping(this.bodies, body, damping, instanceIndex); }
  getAngularDamping(body: PhysicsBody, instanceIndex?: number): number { return this.bodies.record(body, instanceIndex).angularDamping; }

  setLinearVelocity(body: PhysicsBody, linVel: Vector3, instanceIndex?: number): void { this.bodies.apply(body, instanceIndex, (d) => d.rigid?.setLinearVelocity(linVel)); }
  getLinearVelocityToRef(body: PhysicsBody, linVel: Vector3, instanceIndex?: number): void { bodyProps.getLinearVelocityToRef(this.bodies.record(body, instanceIndex), linVel); }
  setAngularVelocity(body: PhysicsBody, angVel: Vector3, instanceIndex?: number): void { this.bodies.apply(body, instanceIndex, (d) => d.rigid?.setAngularVelocity(angVel)); }
  getAngularVelocityToRef(body: PhysicsBody, angVel: Vector3, instanceIndex?: number): void { bodyProps.getAngularVelocityToRef(this.bodies.record(body, instanceIndex), angVel); }

  applyImpulse(body: PhysicsBody, impulse: Vector3, location: Vector3, instanceIndex?: number): void { this.bodies.apply(body, instanceIndex, (d) => d.rigid?.applyImpulse(impulse, location)); }
  applyAngularImpulse(body: PhysicsBody, angularImpulse: Vector3, instanceIndex?: number): void { this.bodies.apply(body, instanceIndex, (d) => d.rigid?.applyAngularImpulse(angularImpulse)); }
  /**
   * The force acts over the next frame's time (executeStep's delta, as far
   * as the frame steps), however many steps that takes; HavokPlugin applies
   * force × its time step at once.
   */
  applyForce(body: PhysicsBody, force: Vector3, location: Vector3, instanceIndex?: number): void { this.stepper.applyForce(body, force, location, instanceIndex); }
  applyTorque(body: PhysicsBody, torque: Vector3, instanceIndex?: number): void { this.stepper.applyTorque(body, torque, instanceIndex); }

  setGravityFactor(body: PhysicsBody, factor: number, instanceIndex?: number): void { bodyProps.setGravityFactor(this.bodies, body, factor, instanceIndex); }
  getGravityFactor(body: PhysicsBody, instanceIndex?: number): number { return this.bodies.record(body, instanceIndex).gravityFactor; }
  /** The body reaches this pose at the end of the next frame's steps (velocities set to get there). */
  setTargetTransform(body: PhysicsBody, position: Vector3, rotation: Quaternion, instanceIndex?: number): void { this.bodies.setTarget(body, position, rotation, instanceIndex); }

  getBodyGeometry(body: PhysicsBody): object { return bodyGeometry(this.bodies.record(body)); }
  getBodyBoundingBox(body: PhysicsBody): BoundingBox { return bodyBoundingBox(body); }

  setCollisionCallbackEnabled(body: PhysicsBody, enabled: boolean, instanceIndex?: number): void { bodyProps.setEventBits(this.bodies, body, COLLISION_EVENTS, enabled, instanceIndex); }
  setCollisionEndedCallbackEnabled(body: PhysicsBody, enabled: boolean, instanceIndex?: number): void { bodyProps.setEventBits(this.bodies, body, FootingEventMask.COLLISION_FINISHED, enabled, instanceIndex); }
  getCollisionObservable(body: PhysicsBody, instanceIndex?: number): Observable<IPhysicsCollisionEvent> { return bodyProps.collisionObservable(this.bodies.record(body, instanceIndex)); }
  getCollisionEndedObservable(body: PhysicsBody, instanceIndex?: number): Observable<IBasePhysicsCollisionEvent> { return bodyProps.collisionEndedObservable(this.bodies.record(body, instanceIndex)); }

  // ---------------------------------------------------------------- shapes

  initShape(shape: PhysicsShape, type: PhysicsShapeType, options: PhysicsShapeParameters): void { shapeProps.initShape(shape, type, options); }
  setShapeFilterMembershipMask(shape: PhysicsShape, membershipMask: number): void { shapeProps.setMembershipMask(shape, membershipMask); }
  getShapeFilterMembershipMask(shape: PhysicsShape): number { return shapeDataOf(shape).membership; }
  setShapeFilterCollideMask(shape: PhysicsShape, collideMask: number): void { shapeProps.setCollideMask(shape, collideMask); }
  getShapeFilterCollideMask(shape: PhysicsShape): number { return shapeDataOf(shape).collideWith; }
  setMaterial(shape: PhysicsShape, material: PhysicsMaterial): void { shapeProps.setMaterial(shape, material); }
  getMaterial(shape: PhysicsShape): PhysicsMaterial { return { ...shapeDataOf(shape).material }; }
  setDensity(shape: PhysicsShape, density: number): void { shapeProps.setDensity(this.bodies, shape, density); }
  getDensity(shape: PhysicsShape): number { return shapeDataOf(shape).density; }
  addChild(shape: PhysicsShape, newChild: PhysicsShape, translation?: Vector3, rotation?: Quaternion, scale?: Vector3): void { shapeProps.addChild(this.bodies, shape, newChild, translation, rotation, scale); }
  removeChild(shape: PhysicsShape, childIndex: number): void { shapeProps.removeChild(this.bodies, shape, childIndex); }
  getNumChildren(shape: PhysicsShape): number { return shapeDataOf(shape).children.length; }
  /** The shape's bounds in its body's frame. */
  getBoundingBox(shape: PhysicsShape): BoundingBox { return shapeBoundingBox(shape); }
  /** Bodies and containers using the shape keep it (as Havok's reference count does); the shape itself can no longer be used. */
  disposeShape(shape: PhysicsShape): void { shapeProps.disposeShape(shape); }
  setTrigger(shape: PhysicsShape, isTrigger: boolean): void { shapeProps.setTrigger(this.bodies, shape, isTrigger); }

  // ---------------------------------------------------------------- constraints

  initConstraint(constraint: PhysicsConstraint, body: PhysicsBody, childBody: PhysicsBody, instanceIndex?: number, childInstanceIndex?: number): void {
    this.constraints.attach(constraint, body, childBody, instanceIndex, childInstanceIndex);
  }
  addConstraint(body: PhysicsBody, childBody: PhysicsBody, constraint: PhysicsConstraint, instanceIndex?: number, childInstanceIndex?: number): void {
    this.initConstraint(constraint, body, childBody, instanceIndex, childInstanceIndex);
  }

  setEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void { this.constraints.of(constraint).setEnabled(isEnabled); }
  getEnabled(constraint: PhysicsConstraint): boolean { return this.constraints.of(constraint).enabled; }
  setCollisionsEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void { this.constraints.of(constraint).setCollisions(isEnabled); }
  getCollisionsEnabled(constraint: PhysicsConstraint): boolean { return this.constraints.of(constraint).collisions; }

  setAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, friction: number): void { this.constraints.of(constraint).setAxis(axis, 'friction', friction); }
  getAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraints.of(constraint).axis(axis, 'getAxisFriction').friction; }
  setAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limitMode: PhysicsConstraintAxisLimitMode): void { this.constraints.of(constraint).setAxis(axis, 'mode', limitMode); }
  getAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintAxisLimitMode> { return this.constraints.of(constraint).axis(axis, 'getAxisMode').mode; }
  setAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, minLimit: number): void { this.constraints.of(constraint).setAxis(axis, 'minLimit', minLimit); }
  getAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraints.of(constraint).axis(axis, 'getAxisMinLimit').minLimit; }
  setAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limit: number): void { this.constraints.of(constraint).setAxis(axis, 'maxLimit', limit); }
  getAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraints.of(constraint).axis(axis, 'getAxisMaxLimit').maxLimit; }
  setAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, motorType: PhysicsConstraintMotorType): void { this.constraints.of(constraint).setAxis(axis, 'motorType', motorType); }
  getAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintMotorType> { return this.constraints.of(constraint).axis(axis, 'getAxisMotorType').motorType; }
  setAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, target: number): void { this.constraints.of(constraint).setAxis(axis, 'motorTarget', target); }
  getAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraints.of(constraint).axis(axis, 'getAxisMotorTarget').motorTarget; }
  setAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, maxForce: number): void { this.constraints.of(constraint).setAxis(axis, 'motorMaxForce', maxForce); }
  getAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> { return this.constraints.of(constraint).axis(axis, 'getAxisMotorMaxForce').motorMaxForce; }

  disposeConstraint(constraint: PhysicsConstraint): void { this.constraints.dispose(constraint); }
  getBodiesUsingConstraint(constraint: PhysicsConstraint): ConstrainedBodyPair[] { return this.constraints.bodiesUsing(constraint); }

  // ---------------------------------------------------------------- queries

  /**
   * The closest hit (or, into an array, the hits in order of distance).
   * Filtering as Havok's: the query's membership against the shapes'
   * collide masks and its collideWith against their membership.
   */
  raycast(from: Vector3, to: Vector3, result: PhysicsRaycastResult | Array<PhysicsRaycastResult>, query?: IRaycastQuery): void { raycast(this.world, from, to, result, query); }

  dispose(): void {
    for (const d of [...this.bodies.all]) this.bodies.release(d);
    for (const off of this.unsubscribe.splice(0)) off();
    this.onCollisionObservable.clear();
    this.onCollisionEndedObservable.clear();
    this.onTriggerCollisionObservable.clear();
  }
}
