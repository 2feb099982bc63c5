// The public barrel of `footing`: explicit named exports only.
export type { Vec3 } from './math/vec3';
export type { Quat } from './math/quat';
export type { Mat3 } from './math/mat3';
export type { Aabb } from './collision/aabb';
export {
  MAX_TIME_STEP, MIN_SHAPE_SIZE, MAX_SHAPE_SIZE, MAX_POSITION, MAX_LINEAR_SPEED, MAX_ANGULAR_SPEED, MAX_ACCELERATION, MAX_ANGULAR_ACCELERATION, MAX_GRAVITY, MAX_GRAVITY_SCALE,
  MAX_BODY_STATE, MAX_FRICTION,
} from './math/validate';
export { Shape, ConvexShape, ShapeKind, type MassProperties } from './shapes/shape';
export { Sphere } from './shapes/sphere';
export { Box } from './shapes/box';
export { Capsule } from './shapes/capsule';
export { Cylinder } from './shapes/cylinder';
export { ConvexHull, DEFAULT_HULL_VERTICES, MAX_HULL_VERTICES, type ConvexHullOptions } from './shapes/convex-hull';
export { massFromDensity, massFromMass } from './shapes/mass';
export { Manifold, ManifoldPoint, MAX_MANIFOLD_POINTS } from './collision/narrowphase/manifold';
export { TriangleMesh, MeshRayHit, type TriangleMeshOptions } from './shapes/triangle-mesh';
export { Compound, MAX_COMPOUND_CHILDREN, type CompoundChild, type CompoundChildDesc } from './shapes/compound';
export { HeightField, type HeightFieldOptions } from './shapes/height-field';
export { RigidBody, type BodyDesc, type BodyType, type CombineMode } from './dynamics/body';
export { STATIC_SLIP_SPEED } from './dynamics/contact';
export { World, type WorldStepper, type WorldOptions } from './world/world';
export {
  OverlapCollector, QueryRegion, type QueryOptions, type RaycastHit, type RaycastOptions, type ShapeCastHit, type ShapeCastOptions,
  type OverlapContact, type OverlapOptions,
} from './world/queries';
export type { WorldCounters, StageTimes } from './world/counters';
export type { DebugDrawSink, ContactView, ContactPointView, JointView } from './world/debug-draw';
export { SnapshotError, SNAPSHOT_VERSION, snapshotTransferList, type WorldSnapshot, type StepperSnapshot } from './world/snapshot';
export type { SolverSettings, SleepSettings, FrictionModel, PositionCorrection } from './world/settings';
export type { ContactEvent, SensorEvent, WorldEventMap, WorldEventName, WorldListener } from './world/events';
export { collide } from './collision/narrowphase/collide-table';
export * as vec3 from './math/vec3';
export * as quat from './math/quat';
export { Joint, JointKind, MAX_JOINT_TORQUE, MAX_MOTOR_SPEED, MAX_JOINT_LENGTH, type JointDescBase } from './joints/joint';
export { BallJoint, type BallJointDesc } from './joints/ball';
export { HingeJoint, type HingeJointDesc } from './joints/hinge';
export { SliderJoint, type SliderJointDesc } from './joints/slider';
export { SixDofJoint, type SixDofJointDesc } from './joints/six-dof';
export { SixDofAxis, SixDofAxisIndex, MAX_SWING_LIMIT, type SixDofAxisDesc, type SixDofAxisMode, type JointMotorMode } from './joints/six-dof-settings';
export { ConeTwistJoint, type ConeTwistJointDesc } from './joints/cone-twist';
export { FixedJoint, type FixedJointDesc } from './joints/fixed';
export { DistanceJoint, type DistanceJointDesc } from './joints/distance';
export type { JointSolverSettings } from './joints/joint-solver';
export type { JointBreakEvent } from './world/events';
export {
  createRagdoll, createRagdollFromDescription, humanoidDescription, Ragdoll,
  type RagdollWorld, type RagdollJointDesc, type RagdollBoneDesc, type RagdollTransform, type RagdollBodyOptions, type RagdollOptions,
} from './ragdoll/ragdoll';
export { GjkResult, gjkDistance } from './collision/narrowphase/gjk';
export { epaPenetration } from './collision/narrowphase/epa';
export { ShapeRayHit, raycastShape } from './collision/query/raycast';
export { ShapeCastPairHit, shapeCastPair } from './collision/query/shape-cast';
export {
  ParticleSystem, type ParticleSystemOptions, createCloth, type Cloth, type ClothOptions,
  createRope, type Rope, type RopeOptions, createParticleBody, type ParticleBody, type ParticleBodyOptions,
  DistanceConstraints, PinConstraints, solveDistanceConstraints, solveBounds,
} from './verlet/index';
