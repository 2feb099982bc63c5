/**
 * The messages between a PhysicsClient (main thread) and a PhysicsHost (the
 * worker), and the layout of the pose frames. Everything here is plain data
 * that survives structured cloning: shapes travel as descriptions and bodies
 * as numeric handles.
 */
import type { Vec3 } from '../math/vec3';
import type { Quat } from '../math/quat';
import type { BodyDesc, BodyType } from '../dynamics/body';
import type { SleepSettings, SolverSettings } from '../world/settings';
import type { WorldSnapshot } from '../world/snapshot';
import type { JointSolverSettings } from '../joints/joint-solver';
import type { JointDescBase } from '../joints/joint';
import type { BallJointDesc } from '../joints/ball';
import type { HingeJointDesc } from '../joints/hinge';
import type { ConeTwistJointDesc } from '../joints/cone-twist';
import type { FixedJointDesc } from '../joints/fixed';
import type { DistanceJointDesc } from '../joints/distance';
import type { SliderJointDesc } from '../joints/slider';
import type { SixDofJointDesc } from '../joints/six-dof';
import type { RagdollBoneDesc, RagdollOptions } from '../ragdoll/ragdoll';
import type { CharacterSettings } from '../../character/controller';
import type { WalkerSettings, WalkerSnapshot } from '../../character/walker';

/** A shape as data: what `new Box(…)`, `new Sphere(…)`, … take, tagged with its kind. */
export type ShapeDesc =
  | { kind: 'box'; halfExtents: Vec3 }
  | { kind: 'sphere'; radius: number }
  | { kind: 'capsule'; radius: number; halfHeight: number }
  | { kind: 'cylinder'; radius: number; halfHeight: number }
  /** Points (flat x, y, z or objects) of a ConvexHull; a described hull gives its local vertices. */
  | { kind: 'hull'; points: Float64Array | number[] | Vec3[]; maxVertices?: number }
  | { kind: 'mesh'; positions: Float32Array | Float64Array | number[]; indices: Uint32Array | Uint16Array | number[]; doubleSided?: boolean };

/**
 * Bumped whenever a message changes shape: a page and a worker built from
 * different footing versions refuse each other at `init` instead of
 * misreading messages.
 */
export const PROTOCOL_VERSION = 2;

/** `BodyDesc` with the shape as data. */
export interface BodyDescData extends Omit<BodyDesc, 'shape' | 'userData'> {
  shape: ShapeDesc;
  /**
   * Anything structured-cloneable (no functions, DOM nodes or class
   * behaviour): the page's client keeps the value itself for
   * `getUserData` and events, the worker's body a copy in `body.userData`.
   */
  userData?: unknown;
}

/** A character controller with a Walker, built in the worker. */
export interface CharacterDescData {
  radius?: number;
  halfHeight?: number;
  position?: Vec3;
  collisionGroup?: number;
  settings?: Partial<CharacterSettings>;
  walker?: Partial<Omit<WalkerSettings, 'gravity'>> & { gravity?: Vec3 };
  /** Structured-cloneable; kept by the client only (the character's body in the worker names its controller). */
  userData?: unknown;
}

/**
 * A character's tunable settings (`PhysicsClient.setCharacterSettings`):
 * the controller's (`settings`: slope limit, step height, snap distance,
 * push strength, …) and the walker's (`walker`: speed, acceleration, air
 * control and drag, jump speed, coyote time, gravity, turn speed), each
 * partial. Checked whole in the worker, applied all or nothing.
 */
export interface CharacterSettingsData {
  settings?: Partial<CharacterSettings>;
  walker?: Partial<WalkerSettings>;
}

/** Every setting of a character, and its capsule, as the worker answers. */
export interface CharacterSettingsState {
  settings: CharacterSettings;
  walker: WalkerSettings;
  radius: number;
  halfHeight: number;
}

/** One bone of a skeleton of your own, with its shape as data (a convex kind). */
export interface RagdollBoneData extends Omit<RagdollBoneDesc, 'shape'> {
  shape: ShapeDesc;
}

/**
 * A ragdoll the worker builds (`PhysicsClient.createRagdoll`): the options
 * of `createRagdoll` (the 12-bone humanoid), or with `bones` a skeleton of
 * your own (`createRagdollFromDescription`, placed at position and
 * rotation; `scale` and `joints` apply to the humanoid only).
 */
export interface RagdollDescData extends Omit<RagdollOptions, 'userData'> {
  bones?: RagdollBoneData[];
  /** Structured-cloneable; every bone's body gets it (the client keeps the value, the worker a copy). */
  userData?: unknown;
}

/** The ragdoll the worker built: its handle, and per bone (in build order, the root first) a body handle, name and shape. */
export interface RagdollData {
  handle: number;
  bodies: number[];
  names: string[];
  shapes: ShapeDesc[];
  /** Handles of its joints (odd, as `trackJoint`'s): `setJoint`, `removeJoint` and `jointBreak` events take them. */
  joints: number[];
}

/** The world the host builds. */
export interface WorldDescData {
  gravity?: Vec3;
  /** The worker's fixed step, seconds. Default 1/60. */
  fixedTimeStep?: number;
  /** Most steps per tick; time beyond them is dropped. Default 4. */
  maxStepsPerAdvance?: number;
  solverSettings?: Partial<SolverSettings>;
  /** @deprecated The old name of `solverSettings` (applied first when both are given). */
  solver?: Partial<SolverSettings>;
  sleeping?: Partial<SleepSettings>;
  jointSettings?: Partial<JointSolverSettings>;
}

/**
 * A change to the running world's settings (`PhysicsClient.setSettings`):
 * any subset of the fields, each settings object partial. The worker checks
 * the whole change first and applies all of it or nothing.
 */
export interface WorldSettingsData {
  gravity?: Vec3;
  solverSettings?: Partial<SolverSettings>;
  sleeping?: Partial<SleepSettings>;
  jointSettings?: Partial<JointSolverSettings>;
  fixedTimeStep?: number;
  maxStepsPerAdvance?: number;
}

/** Every setting of the worker's world, as `setSettings` and `getSettings` answer. */
export interface WorldSettingsState {
  gravity: Vec3;
  solverSettings: SolverSettings;
  sleeping: SleepSettings;
  jointSettings: JointSolverSettings;
  fixedTimeStep: number;
  maxStepsPerAdvance: number;
}

/** A joint description as data: the kind, the class's own fields, and the two bodies as handles. */
type JointData<K extends string, D> = { kind: K; bodyA: number; bodyB: number } & Omit<D, 'bodyA' | 'bodyB' | 'userData'>;

/** What `new BallJoint(…)`, `new HingeJoint(…)`, … take, with `kind` and body handles. */
export type JointDescData =
  | JointData<'ball', BallJointDesc>
  | JointData<'hinge', HingeJointDesc>
  | JointData<'coneTwist', ConeTwistJointDesc>
  | JointData<'fixed', FixedJointDesc>
  | JointData<'distance', DistanceJointDesc>
  | JointData<'slider', SliderJointDesc>
  | JointData<'sixDof', SixDofJointDesc>;

export type JointKindName = JointDescData['kind'];

/**
 * Fields of a joint that can change after creation (`PhysicsClient.setJoint`),
 * by kind: any joint's breakImpulse, frictionTorque and broken (false mends
 * it); a hinge's limits and motor; a slider's limits, motor and friction; a
 * cone-twist's swing and twist limits; a distance joint's lengths and spring;
 * a six-DOF joint's swingType and, per axis, its SixDofAxisDesc fields. A
 * field the joint's kind does not have is refused.
 */
export type JointChangesData = { broken?: boolean }
  & Partial<Pick<JointDescBase, 'breakImpulse' | 'frictionTorque'>>
  & Partial<Pick<HingeJointDesc, 'lowerAngle' | 'upperAngle' | 'motorSpeed' | 'maxMotorTorque' | 'motorMode' | 'targetAngle' | 'motorHertz' | 'motorDampingRatio'>>
  & Partial<Pick<SliderJointDesc, 'lowerLimit' | 'upperLimit' | 'limitHertz' | 'limitDampingRatio' | 'targetPosition' | 'maxMotorForce' | 'frictionForce'>>
  & Partial<Pick<ConeTwistJointDesc, 'swingLimitY' | 'swingLimitZ' | 'twistLower' | 'twistUpper'>>
  & Partial<Pick<DistanceJointDesc, 'length' | 'minLength' | 'maxLength' | 'frequency' | 'dampingRatio'>>
  & Partial<Pick<SixDofJointDesc, 'swingType' | 'linearX' | 'linearY' | 'linearZ' | 'angularX' | 'angularY' | 'angularZ'>>;
export const JOINT_KIND_NAMES: readonly JointKindName[] = ['ball', 'hinge', 'coneTwist', 'fixed', 'distance', 'slider', 'sixDof'];

/**
 * The worker's whole state (`PhysicsClient.snapshot`): the world's snapshot
 * and each character's walker with its controller. Typed arrays only, so it
 * travels by transfer; `restore` needs a world built the same way.
 */
export interface WorkerSnapshot {
  readonly world: WorldSnapshot;
  readonly characters: readonly { readonly handle: number; readonly walker: WalkerSnapshot }[];
}

// ---------------------------------------------------------------- events

/** The world events a client can subscribe to (`PhysicsClient.on`). */
export const WORKER_EVENT_NAMES = ['contactBegin', 'contactEnd', 'sensorEnter', 'sensorExit', 'jointBreak'] as const;
export type WorkerEventName = (typeof WORKER_EVENT_NAMES)[number];

/** A contact event with the bodies as handles (−1: a body the page has no handle for). */
export interface ContactEventData {
  /** The world's step count after the step that raised it (the frame's `step`). */
  step: number;
  bodyA: number;
  bodyB: number;
  point: Vec3;
  /** Unit normal from A to B. */
  normal: Vec3;
  /** Total normal impulse (N·s) of the manifold in that step. */
  impulse: number;
  childA: number;
  childB: number;
  /** The bodies' userData as the page gave it (set by the client from the handles; undefined for −1). */
  userDataA: unknown;
  userDataB: unknown;
}

export interface SensorEventData {
  step: number;
  sensor: number;
  body: number;
  /** The sensor's and the body's userData as the page gave it (set by the client). */
  sensorUserData: unknown;
  bodyUserData: unknown;
}

export interface JointBreakEventData {
  step: number;
  /** The joint's handle (−1: a joint neither the page created nor worker code tracked). */
  joint: number;
  /** The impulse that broke it (N·s). */
  impulse: number;
}

export interface WorkerEventMap {
  contactBegin: ContactEventData;
  contactEnd: ContactEventData;
  sensorEnter: SensorEventData;
  sensorExit: SensorEventData;
  jointBreak: JointBreakEventData;
}

export type WorkerListener<K extends WorkerEventName> = (event: WorkerEventMap[K]) => void;

/**
 * Events travel in batches, one Float64Array per tick, EVENT_STRIDE doubles
 * an event: the event's index in WORKER_EVENT_NAMES, the step, handle A
 * (sensor, joint), handle B (body), point x y z, normal x y z, impulse,
 * child A, child B.
 */
export const EVENT_STRIDE = 13;
export const E_NAME = 0, E_STEP = 1, E_A = 2, E_B = 3, E_POINT = 4, E_NORMAL = 7, E_IMPULSE = 10, E_CHILD_A = 11, E_CHILD_B = 12;

/** A raycast hit as data: the body by its handle (−1: a body the client did not create). */
export interface RaycastHitData {
  handle: number;
  point: Vec3;
  normal: Vec3;
  distance: number;
  fraction: number;
  triangle: number;
  /** Index of the Compound child hit, else −1. */
  child: number;
  /** The body's userData on the page (set by the client). */
  userData?: unknown;
}

/** A shape cast's first impact as data (`world.shapeCast`'s hit with the body as a handle). */
export interface ShapeCastHitData {
  handle: number;
  /** Time of impact as a fraction of the translation, in [0, 1]. */
  fraction: number;
  /** fraction · |translation|, metres travelled before the impact. */
  distance: number;
  point: Vec3;
  /** Surface normal of the hit body (unit, facing the cast shape). */
  normal: Vec3;
  triangle: number;
  child: number;
  userData?: unknown;
}

/** One contact of an overlap query (`world.overlap`'s entry with the body as a handle). */
export interface OverlapContactData {
  handle: number;
  point: Vec3;
  /** Unit normal from the body towards the query shape (the direction to push the query out). */
  normal: Vec3;
  /** Penetration depth, metres (> 0). */
  depth: number;
  child: number;
  userData?: unknown;
}

/** A body the worker created and tracks: what the page needs to draw it. */
export interface TrackedBodyData {
  type: BodyType;
  shape: ShapeDesc;
  /** Whatever the worker code passed to `track` (structured-cloneable), e.g. a bone name. */
  tag: unknown;
}

/**
 * The filter of raycast, shapeCast and overlap: the World's QueryOptions
 * with bodies as handles (`filter`, a function, cannot cross to the
 * worker; a list of handles to ignore covers its usual use).
 */
export interface QueryOptionsData {
  collisionGroup?: number;
  collisionMask?: number;
  /** Handle, or handles, of bodies (or characters) to ignore. */
  exclude?: number | readonly number[];
  includeSensors?: boolean;
}
export type RaycastOptionsData = QueryOptionsData;
export const QUERY_OPTION_NAMES: readonly (keyof QueryOptionsData)[] = ['collisionGroup', 'collisionMask', 'exclude', 'includeSensors'];

// ---------------------------------------------------------------- handles

/**
 * A handle is `slot + generation · SLOT_COUNT`: the slot is the body's row in
 * the pose frame, reused after removal; the generation tells a stale row
 * (written before the reuse reached the worker) from the new body's. The
 * client hands out the even slots, the host the odd ones (bodies that code
 * in the worker creates and `track`s), so neither waits for the other.
 */
export const SLOT_COUNT = 1 << 20;
export const slotOf = (handle: number): number => handle % SLOT_COUNT;
export const generationOf = (handle: number): number => Math.floor(handle / SLOT_COUNT);

// ---------------------------------------------------------------- frames

/**
 * A pose frame is a Float32Array of FRAME_STRIDE floats per slot:
 * position x y z, rotation x y z w, state, generation. State is one of the
 * STATE_* values (a character's walker state for characters).
 *
 * In shared-memory mode the SharedArrayBuffer holds two frames, the newest
 * and the one before, so the client always has two consecutive ticks to
 * interpolate between. Layout: SHARED_HEADER_BYTES of header, then the two
 * frames of `capacity` slots each. Header, as Int32: a sequence number (odd
 * while the host writes), the last input sequence number the steps had
 * applied, the index (0 or 1) of the newest frame, then each frame's step
 * count and slot count; as Float64 from byte 32, each frame's time (ms
 * since the epoch, `performance.timeOrigin + performance.now()`).
 */
export const FRAME_STRIDE = 9;
export const F_POSITION = 0;
export const F_ROTATION = 3;
export const F_STATE = 7;
export const F_GENERATION = 8;
/** Slot state: no body. */
export const STATE_EMPTY = 0;
export const STATE_AWAKE = 1;
export const STATE_SLEEPING = 2;
export const STATE_GROUNDED = 3;
export const STATE_AIRBORNE = 4;
export const STATE_SLIDING = 5;
export const SHARED_HEADER_BYTES = 48;
export const H_SEQUENCE = 0;
export const H_INPUT_SEQ = 1;
export const H_NEWEST = 2;
/** Int32 index of frame r's step count: H_STEP + r. */
export const H_STEP = 4;
/** Int32 index of frame r's slot count: H_SLOTS + r. */
export const H_SLOTS = 6;
/** Float64 index of frame r's time: H_TIME + r. */
export const H_TIME = 4;

/** Milliseconds since the epoch on a clock that a worker and the page share. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

// ---------------------------------------------------------------- messages

export type ClientMessage =
  | { type: 'init'; version: number; world: WorldDescData; shared: boolean; autoStart: boolean }
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'createBody'; handle: number; desc: BodyDescData }
  | { type: 'removeBody'; handle: number }
  | { type: 'createCharacter'; handle: number; desc: CharacterDescData }
  | { type: 'input'; handle: number; x: number; y: number; z: number; jump: boolean; seq: number }
  | { type: 'applyImpulse'; handle: number; impulse: Vec3; point?: Vec3 }
  | { type: 'setVelocity'; handle: number; linear?: Vec3; angular?: Vec3 }
  | { type: 'teleport'; handle: number; position: Vec3; rotation?: Quat }
  | { type: 'raycast'; id: number; from: Vec3; to: Vec3; options?: RaycastOptionsData }
  | { type: 'shapeCast'; id: number; shape: ShapeDesc; position: Vec3; rotation: Quat; translation: Vec3; options?: QueryOptionsData }
  | { type: 'overlap'; id: number; shape: ShapeDesc; position: Vec3; rotation: Quat; options?: QueryOptionsData }
  | { type: 'setKinematicTarget'; handle: number; position: Vec3; rotation?: Quat }
  | { type: 'setUserData'; handle: number; userData: unknown }
  | { type: 'setCharacter'; id: number; handle: number; change: CharacterSettingsData }
  | { type: 'getCharacter'; id: number; handle: number }
  | { type: 'setCharacterHeight'; id: number; handle: number; halfHeight: number }
  | { type: 'teleportCharacter'; id: number; handle: number; position: Vec3; yaw?: number }
  | { type: 'createRagdoll'; id: number; desc: RagdollDescData }
  | { type: 'removeRagdoll'; id: number; handle: number }
  | { type: 'returnFrame'; frame: Float32Array }
  /** An event batch handed back for reuse, as frames are. */
  | { type: 'returnEvents'; data: Float64Array }
  | { type: 'dispose' }
  | { type: 'subscribe'; event: WorkerEventName; on: boolean }
  | { type: 'createJoint'; id: number; handle: number; desc: JointDescData }
  | { type: 'removeJoint'; id: number; handle: number }
  | { type: 'setJoint'; id: number; handle: number; changes: JointChangesData }
  | { type: 'setSettings'; id: number; settings: WorldSettingsData }
  | { type: 'getSettings'; id: number }
  | { type: 'snapshot'; id: number }
  | { type: 'restore'; id: number; snapshot: WorkerSnapshot };

export type HostMessage =
  | { type: 'ready'; fixedTimeStep: number; shared: SharedArrayBuffer | null }
  | { type: 'frame'; step: number; time: number; slots: number; frame: Float32Array; inputSeq: number }
  | { type: 'shared'; buffer: SharedArrayBuffer }
  | { type: 'raycastResult'; id: number; hit: RaycastHitData | null }
  | { type: 'shapeCastResult'; id: number; hit: ShapeCastHitData | null }
  | { type: 'overlapResult'; id: number; contacts: OverlapContactData[] }
  | { type: 'character'; id: number; state: CharacterSettingsState }
  /** `setCharacterHeight`'s answer: false when the taller capsule would overlap geometry (nothing changed). */
  | { type: 'characterHeight'; id: number; changed: boolean }
  | { type: 'ragdoll'; id: number; ragdoll: RagdollData }
  /** Bodies removed before this tick's steps, sent after the tick's events: no later event names them. */
  | { type: 'retired'; handles: number[] }
  | { type: 'tracked'; handle: number; body: TrackedBodyData }
  | { type: 'untracked'; handle: number }
  /** A command with an `id` was carried out. */
  | { type: 'done'; id: number }
  | { type: 'settings'; id: number; settings: WorldSettingsState }
  | { type: 'snapshot'; id: number; snapshot: WorkerSnapshot }
  | { type: 'events'; count: number; data: Float64Array }
  /** `name` is the thrown error's class name (RangeError, TypeError, SnapshotError, …). */
  | { type: 'error'; command: string; handle: number; id: number; name: string; message: string };

/** What both ends talk through: a Worker, a worker's `self`, or a MessagePort. */
export interface MessagePortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  start?(): void;
}
