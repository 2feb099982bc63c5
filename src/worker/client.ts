/**
 * The main-thread side of `footing/worker`: sends commands to a PhysicsHost
 * in a worker, receives its pose frames and interpolates between the last
 * two for rendering. Imports no physics code, so a game's main bundle does
 * not carry the engine.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import {
  epochNow, F_GENERATION, F_POSITION, F_ROTATION, F_STATE, FRAME_STRIDE, generationOf, H_INPUT_SEQ, H_NEWEST, H_SEQUENCE, H_SLOTS, H_STEP, H_TIME,
  SHARED_HEADER_BYTES, SLOT_COUNT, slotOf, STATE_EMPTY,
  E_A, E_B, E_CHILD_A, E_CHILD_B, E_IMPULSE, E_NAME, E_NORMAL, E_POINT, E_STEP, EVENT_STRIDE, WORKER_EVENT_NAMES,
  type BodyDescData, type CharacterDescData, type TrackedBodyData, type ClientMessage, type HostMessage, type MessagePortLike, type RaycastHitData, type RaycastOptionsData,
  type WorldDescData, type JointDescData, type JointChangesData, type WorldSettingsData, type WorldSettingsState, type WorkerSnapshot, type WorkerEventName, type WorkerListener,
  type ContactEventData, type SensorEventData, type JointBreakEventData,
  PROTOCOL_VERSION, type QueryOptionsData, type ShapeDesc, type ShapeCastHitData, type OverlapContactData, type CharacterSettingsData, type CharacterSettingsState,
  type RagdollDescData, type RagdollData,
} from './protocol';
import type { BodyType } from '../dynamics/body';

export interface PhysicsClientOptions {
  /**
   * Ask for a SharedArrayBuffer for the poses (no message per frame). Default:
   * when the page is cross-origin isolated (`crossOriginIsolated`).
   */
  shared?: boolean;
  /** Start stepping as soon as the world exists. Default true. */
  autoStart?: boolean;
  /** Clock in milliseconds, the host's (frames carry its time). Default `epochNow`. */
  now?: () => number;
}

/**
 * A command the worker refused (bad description, unknown handle, …).
 * `errorName` is the class of the error the worker threw: RangeError and
 * TypeError for a bad field (the message names it), SnapshotError for a
 * snapshot that does not fit the world.
 */
export class PhysicsWorkerError extends Error {
  constructor(readonly command: string, readonly handle: number, message: string, readonly errorName = 'Error') {
    super(`footing worker: ${command}: ${message}`);
    this.name = 'PhysicsWorkerError';
  }
}

/** A request waiting for the worker's answer. */
interface PendingRequest {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

export class PhysicsClient {
  /** Resolves once the worker has built the world; rejects if it refused the description. */
  readonly ready: Promise<void>;
  /** The worker's fixed step, seconds (known once ready). */
  fixedTimeStep = 1 / 60;
  /** Whether poses come through shared memory. */
  sharedMemory = false;
  /** Step count of the newest frame taken by `update`. */
  step = 0;
  /** The last input sequence number the newest frame had applied (see `setCharacterInput`). */
  appliedInputSeq = 0;
  /** Interpolation fraction between the previous and the newest frame, set by `update`. */
  alpha = 1;
  /** Called when code in the worker tracks a body it created (`PhysicsHost.track`): make its mesh here. */
  onBodyAdded: ((handle: number, body: TrackedBodyData) => void) | null = null;
  /** Called when the worker stops tracking a body, or it was removed. */
  onBodyRemoved: ((handle: number) => void) | null = null;
  /** Called with every error the worker reports. Default: console.error. */
  onError: (error: PhysicsWorkerError) => void = (error) => console.error(error);

  private readonly port: MessagePortLike;
  private readonly now: () => number;
  private readonly readyResolve: () => void;
  private readonly readyReject: (error: Error) => void;
  /** The two newest frames `update` took: poses are interpolated from prev to curr. */
  private prev = new PoseFrame();
  private curr = new PoseFrame();
  /** The two newest frames received (transfer mode), copied in as they arrive; `update` takes them. */
  private receivedPrev = new PoseFrame();
  private receivedLatest = new PoseFrame();
  private received = 0;
  private taken = 0;
  private sharedHeader: Int32Array | null = null;
  private sharedTimes: Float64Array | null = null;
  private readonly sharedFrames: Float32Array[] = [];
  private lastSequence = 0;
  /** Even slots (the client's) free for reuse. */
  private readonly freeSlots: number[] = [];
  private nextSlot = 0;
  private readonly generations: number[] = [];
  /** Pose given at creation, shown until a frame has the body. */
  private readonly initial = new Map<number, { position: Vec3; rotation: Quat }>();
  private inputSeq = 0;
  private nextRequest = 1;
  private readonly requests = new Map<number, PendingRequest>();
  /** Joint handles the client hands out (even; the host's `trackJoint` gives odd ones), never reused. */
  private nextJoint = 0;
  private readonly liveJoints = new Set<number>();
  private readonly listeners: { [K in WorkerEventName]: WorkerListener<K>[] } = {
    contactBegin: [], contactEnd: [], sensorEnter: [], sensorExit: [], jointBreak: [],
  };
  // One object per event kind, refilled for each event (as the World's events are: copy what you keep).
  private readonly contactEvent: ContactEventData = {
    step: 0, bodyA: -1, bodyB: -1, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, impulse: 0, childA: -1, childB: -1, userDataA: undefined, userDataB: undefined,
  };
  private readonly sensorEvent: SensorEventData = { step: 0, sensor: -1, body: -1, sensorUserData: undefined, bodyUserData: undefined };
  /** The page's userData by handle: the value itself (the worker has a copy). */
  private readonly userData = new Map<number, unknown>();
  /**
   * userData of removed bodies: the worker's next events may still name
   * them (a contact's end). Dropped when the worker says 'retired', after
   * the events of the step that followed the removal.
   */
  private readonly retiredUserData = new Map<number, unknown>();
  /** What each live handle is: a body's type, or a character (the quick checks of kinematic commands). */
  private readonly kinds = new Map<number, BodyType | 'character'>();
  /** The bodies of each ragdoll the page created, by ragdoll handle. */
  private readonly ragdollBodies = new Map<number, readonly number[]>();
  private readonly jointBreakEvent: JointBreakEventData = { step: 0, joint: -1, impulse: 0 };
  private readonly onMessage = (event: MessageEvent): void => this.receive(event.data as HostMessage);

  /** Connects to a host on `port` (a Worker or a MessagePort) and asks it to build `world`. */
  constructor(port: MessagePortLike, world: WorldDescData = {}, options: PhysicsClientOptions = {}) {
    this.port = port;
    this.now = options.now ?? epochNow;
    const shared = options.shared ?? (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
    let resolveReady!: () => void, rejectReady!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
    this.readyResolve = resolveReady;
    this.readyReject = rejectReady;
    // The refusal also goes to onError: a page that never awaits `ready` should not get an unhandled rejection.
    this.ready.catch(() => {});
    port.addEventListener('message', this.onMessage);
    port.start?.();
    this.send({ type: 'init', version: PROTOCOL_VERSION, world, shared: shared && typeof SharedArrayBuffer === 'function', autoStart: options.autoStart ?? true });
  }

  /** Creates a body in the worker; returns its handle at once (its pose is the description's until the worker reports it). */
  createBody(desc: BodyDescData): number {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`createBody: desc must be a body description object (got ${String(desc)})`);
    if (desc.userData !== undefined) requireCloneable(desc.userData, 'createBody: userData');
    const handle = this.claimHandle(desc.position, desc.rotation);
    this.send({ type: 'createBody', handle, desc });
    this.kinds.set(handle, desc.type);
    if (desc.userData !== undefined) this.userData.set(handle, desc.userData);
    return handle;
  }

  /** Creates a character controller with a Walker in the worker; its frame rotation is the walker's yaw about up. */
  createCharacter(desc: CharacterDescData = {}): number {
    const { userData, ...rest } = desc;
    if (userData !== undefined) requireCloneable(userData, 'createCharacter: userData');
    const handle = this.claimHandle(desc.position, undefined);
    this.send({ type: 'createCharacter', handle, desc: rest });
    this.kinds.set(handle, 'character');
    if (userData !== undefined) this.userData.set(handle, userData);
    return handle;
  }

  /** Removes a body or character; its handle is dead from now on. */
  removeBody(handle: number): void {
    const slot = this.requireHandle(handle);
    this.send({ type: 'removeBody', handle });
    this.forget(handle);
    // Odd slots are the host's: it reuses them, and says so with 'tracked'.
    if (slot % 2 === 0) this.freeSlots.push(slot);
  }

  /** Marks a handle dead; its userData stays for the events the worker may still send about it. */
  private forget(handle: number): void {
    const slot = slotOf(handle);
    if (this.generations[slot] === generationOf(handle)) this.generations[slot] = generationOf(handle) + 1;
    this.initial.delete(handle);
    this.kinds.delete(handle);
    if (this.userData.has(handle)) this.retiredUserData.set(handle, this.userData.get(handle));
    this.userData.delete(handle);
  }

  /**
   * The userData the page gave a body or character (`createBody`,
   * `setUserData`; a tracked body's `tag`; a ragdoll's `userData`): the
   * value itself, not a copy. Undefined for a handle without any.
   */
  getUserData(handle: number): unknown {
    return this.userData.get(handle);
  }

  /**
   * Sets a body's userData: the client keeps `value`, the worker's body
   * gets a structured clone. Throws a TypeError at once, and changes
   * nothing, when `value` cannot be cloned (a function, a DOM node, …).
   */
  setUserData(handle: number, value: unknown): void {
    this.requireHandle(handle);
    requireCloneable(value, 'setUserData: value');
    // A character's body keeps its controller as userData in the worker: its userData lives on the page only.
    if (this.kinds.get(handle) !== 'character') this.send({ type: 'setUserData', handle, userData: value });
    if (value === undefined) this.userData.delete(handle);
    else this.userData.set(handle, value);
  }

  /**
   * Sets a character's walking input (world space, length ≤ 1) and requests a
   * jump; send it every frame. Returns the input's sequence number: the
   * frame whose `appliedInputSeq` reaches it is the first one moved by it.
   */
  setCharacterInput(handle: number, x: number, y: number, z: number, jump = false): number {
    this.requireHandle(handle);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new RangeError(`setCharacterInput: x, y and z must be finite numbers (got ${String(x)}, ${String(y)}, ${String(z)})`);
    }
    const seq = ++this.inputSeq;
    this.send({ type: 'input', handle, x, y, z, jump, seq });
    return seq;
  }

  applyImpulse(handle: number, impulse: Vec3, point?: Vec3): void {
    this.requireHandle(handle);
    this.send({ type: 'applyImpulse', handle, impulse: copyVec(impulse), point: point && copyVec(point) });
  }

  setVelocity(handle: number, linear?: Vec3, angular?: Vec3): void {
    this.requireHandle(handle);
    this.send({ type: 'setVelocity', handle, linear: linear && copyVec(linear), angular: angular && copyVec(angular) });
  }

  /**
   * Kinematic bodies: the pose reached at the end of the worker's next step
   * (`body.setKinematicTarget`: the world sets the velocities that get
   * there, so bodies resting on it are carried; the body keeps that
   * velocity until the next target). Send one per step for a scripted path.
   * Throws at once for a body that is not kinematic or a non-finite pose.
   */
  setKinematicTarget(handle: number, position: Vec3, rotation?: Quat): void {
    this.requireHandle(handle);
    const kind = this.kinds.get(handle);
    if (kind !== undefined && kind !== 'kinematic') throw new TypeError(`setKinematicTarget: handle ${handle} is a ${kind === 'character' ? 'character' : `${kind} body`}, not a kinematic body`);
    requireFiniteVec(position, 'setKinematicTarget: position');
    if (rotation !== undefined) requireFiniteQuat(rotation, 'setKinematicTarget: rotation');
    this.send({ type: 'setKinematicTarget', handle, position: copyVec(position), rotation: rotation && copyQuat(rotation) });
  }

  /**
   * Moves a body to a new pose; a character is teleported as
   * `Walker.teleport` does (velocity and carried ground velocity zeroed,
   * airborne until the next step finds the ground, a pending jump dropped),
   * its yaw set from the rotation's twist about up when one is given.
   */
  teleport(handle: number, position: Vec3, rotation?: Quat): void {
    this.requireHandle(handle);
    this.send({ type: 'teleport', handle, position: copyVec(position), rotation: rotation && { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w } });
  }

  /**
   * A ray from `from` to `to`, answered by the worker between steps. The
   * options filter as the World's (`exclude` a handle or a list of them).
   */
  raycast(from: Vec3, to: Vec3, options?: RaycastOptionsData): Promise<RaycastHitData | null> {
    return this.request<RaycastHitData | null>((id) => ({ type: 'raycast', id, from: copyVec(from), to: copyVec(to), options })).then((hit) => this.withUserData(hit));
  }

  /**
   * Sweeps a convex shape, given as data, from `position` along
   * `translation` (`world.shapeCast`), answered by the worker between
   * steps: the first impact with its `fraction` and `distance` along the
   * translation, or null. Rejects with the field named for a bad shape,
   * pose or option.
   */
  shapeCast(shape: ShapeDesc, position: Vec3, rotation: Quat, translation: Vec3, options?: QueryOptionsData): Promise<ShapeCastHitData | null> {
    return this.request<ShapeCastHitData | null>((id) => ({
      type: 'shapeCast', id, shape, position: copyVec(position), rotation: copyQuat(rotation), translation: copyVec(translation), options,
    })).then((hit) => this.withUserData(hit));
  }

  /**
   * Every body a convex shape, given as data, overlaps at a pose
   * (`world.overlap`): one entry per contact point, with the normal that
   * pushes the shape out and the depth.
   */
  overlap(shape: ShapeDesc, position: Vec3, rotation: Quat, options?: QueryOptionsData): Promise<OverlapContactData[]> {
    return this.request<OverlapContactData[]>((id) => ({ type: 'overlap', id, shape, position: copyVec(position), rotation: copyQuat(rotation), options })).then((contacts) => {
      for (const c of contacts) this.withUserData(c);
      return contacts;
    });
  }

  private withUserData<T extends { handle: number; userData?: unknown } | null>(hit: T): T {
    if (hit && this.userData.has(hit.handle)) hit.userData = this.userData.get(hit.handle);
    return hit;
  }

  /**
   * Changes a character's settings: the controller's (`settings`: slope
   * limit, step height, snap distance, push strength, …) and the walker's
   * (`walker`: speed, acceleration, air control and drag, jump speed,
   * coyote time, gravity, turn speed), each partial. The worker checks the
   * whole change and applies all of it before its next step, or none of it
   * and rejects with the field named. Resolves with every setting as it now is.
   */
  setCharacterSettings(handle: number, change: CharacterSettingsData): Promise<CharacterSettingsState> {
    this.requireCharacter(handle, 'setCharacterSettings');
    return this.request((id) => ({ type: 'setCharacter', id, handle, change }));
  }

  /** Every setting of a character, and its capsule's radius and halfHeight. */
  getCharacterSettings(handle: number): Promise<CharacterSettingsState> {
    this.requireCharacter(handle, 'getCharacterSettings');
    return this.request((id) => ({ type: 'getCharacter', id, handle }));
  }

  /**
   * Changes the capsule's half-height keeping the feet in place (crouch,
   * stand up): resolves false, and nothing changes, when the taller capsule
   * would overlap geometry (a low ceiling).
   */
  setCharacterHeight(handle: number, halfHeight: number): Promise<boolean> {
    this.requireCharacter(handle, 'setCharacterHeight');
    return this.request((id) => ({ type: 'setCharacterHeight', id, handle, halfHeight }));
  }

  /**
   * Teleports and resets a character (`Walker.teleport`): velocity zeroed,
   * airborne until the next step finds the ground, a pending jump dropped,
   * `yaw` (radians about up) set when given. Rejects with the field named
   * for a position out of range or a non-finite yaw; nothing changes then.
   */
  teleportCharacter(handle: number, position: Vec3, yaw?: number): Promise<void> {
    this.requireCharacter(handle, 'teleportCharacter');
    return this.request((id) => ({ type: 'teleportCharacter', id, handle, position: copyVec(position), yaw }));
  }

  /**
   * Builds a ragdoll in the worker: `createRagdoll`'s options (the humanoid)
   * or, with `bones`, a skeleton of your own whose shapes are data.
   * Resolves with its handle and, per bone, a body handle (draw it as any
   * body: `getPosition`, `getRotation`), its name and shape; its joints'
   * handles take `setJoint` and name `jointBreak` events. All or nothing:
   * a refused description rejects with the field named and adds nothing.
   */
  createRagdoll(desc: RagdollDescData): Promise<RagdollData> {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`createRagdoll: desc must be a ragdoll description object (got ${String(desc)})`);
    if (desc.userData !== undefined) requireCloneable(desc.userData, 'createRagdoll: userData');
    return this.request<RagdollData>((id) => ({ type: 'createRagdoll', id, desc })).then((ragdoll) => {
      for (const handle of ragdoll.bodies) {
        this.generations[slotOf(handle)] = generationOf(handle);
        this.kinds.set(handle, 'dynamic');
        if (desc.userData !== undefined) this.userData.set(handle, desc.userData);
      }
      this.ragdollBodies.set(ragdoll.handle, ragdoll.bodies);
      return ragdoll;
    });
  }

  /** Removes a ragdoll's bodies and joints that are still in the world; its body handles are dead from now on. */
  removeRagdoll(handle: number): Promise<void> {
    const bodies = this.ragdollBodies.get(handle);
    if (!bodies) throw new RangeError(`footing worker: ${String(handle)} is not a live ragdoll handle`);
    this.ragdollBodies.delete(handle);
    for (const body of bodies) if (this.generations[slotOf(body)] === generationOf(body)) this.forget(body);
    return this.request((id) => ({ type: 'removeRagdoll', id, handle }));
  }

  /**
   * Creates a joint in the worker between two bodies given by handle
   * (`{ kind: 'hinge', bodyA, bodyB, anchor, axis, … }`: the joint class's
   * own description). Resolves with the joint's handle once the joint is
   * in the world; rejects with a PhysicsWorkerError naming the field when
   * the worker refuses it (the world is left as it was). Throws at once for
   * a body handle that is not live.
   */
  createJoint(desc: JointDescData): Promise<number> {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`createJoint: desc must be a joint description object (got ${String(desc)})`);
    this.requireHandle(desc.bodyA);
    this.requireHandle(desc.bodyB);
    const handle = this.nextJoint;
    this.nextJoint += 2;
    this.liveJoints.add(handle);
    const done = this.request<void>((id) => ({ type: 'createJoint', id, handle, desc }));
    return done.then(() => handle, (error: Error) => {
      this.liveJoints.delete(handle);
      throw error;
    });
  }

  /**
   * Removes a joint, the page's or one worker code tracked (a no-op in the
   * worker when removing one of its bodies already did); its handle is dead
   * from now on. Resolves once done; rejects for an unknown tracked handle.
   */
  removeJoint(handle: number): Promise<void> {
    // Odd handles are the worker's (trackJoint): only the worker knows whether they are live.
    if (!this.liveJoints.delete(handle) && !(Number.isInteger(handle) && handle % 2 === 1)) throw new RangeError(`footing worker: ${String(handle)} is not a live joint handle`);
    return this.request((id) => ({ type: 'removeJoint', id, handle }));
  }

  /**
   * Changes a joint's limits, motor, spring or break threshold
   * (`{ motorSpeed: 2 }`; a six-DOF axis as `{ angularX: { motorSpeed: 2 } }`;
   * `{ broken: false }` mends a broken joint). All fields or none: a field
   * the joint's kind does not have, or a value out of range, rejects with
   * the field named and leaves the joint as it was. Wakes both bodies.
   */
  setJoint(handle: number, changes: JointChangesData): Promise<void> {
    if (!this.liveJoints.has(handle) && !(Number.isInteger(handle) && handle % 2 === 1)) throw new RangeError(`footing worker: ${String(handle)} is not a live joint handle`);
    return this.request((id) => ({ type: 'setJoint', id, handle, changes }));
  }

  /**
   * Changes the running world's settings: gravity, solverSettings,
   * sleeping, jointSettings (each partial), fixedTimeStep,
   * maxStepsPerAdvance. The worker checks the whole change and applies all
   * of it before its next step, or none of it and rejects with the field
   * named. Resolves with every setting as it now is.
   */
  setSettings(settings: WorldSettingsData): Promise<WorldSettingsState> {
    return this.request<WorldSettingsState>((id) => ({ type: 'setSettings', id, settings })).then((state) => {
      this.fixedTimeStep = state.fixedTimeStep;
      return state;
    });
  }

  /** Every setting of the worker's world. */
  getSettings(): Promise<WorldSettingsState> {
    return this.request((id) => ({ type: 'getSettings', id }));
  }

  /**
   * The worker's whole state between two steps: the world's snapshot and
   * each character's walker, as typed arrays transferred from the worker
   * (no copy). Keep it to `restore` later, or to save.
   */
  snapshot(): Promise<WorkerSnapshot> {
    return this.request((id) => ({ type: 'snapshot', id }));
  }

  /**
   * Restores a snapshot in the worker (same bodies, joints and characters
   * as when it was taken). The snapshot is copied to the worker, so it can
   * be restored again; `{ transfer: true }` moves its buffers instead (it is
   * unusable here afterwards). Rejects with a PhysicsWorkerError whose
   * `errorName` is 'SnapshotError' when it does not fit: the world and the
   * characters are then as they were. The restored poses come in the next
   * frames, without interpolation from the poses before.
   */
  restore(snapshot: WorkerSnapshot, options: { transfer?: boolean } = {}): Promise<void> {
    const transfer = options.transfer === true ? transferListOf(snapshot) : undefined;
    return this.request((id) => ({ type: 'restore', id, snapshot }), transfer);
  }

  /**
   * Subscribes to a world event in the worker: contactBegin, contactEnd,
   * sensorEnter, sensorExit, jointBreak, with bodies and joints as handles.
   * The worker sends each tick's events in one batch, before the tick's
   * frame, and only the kinds that have a listener here. The event object
   * is reused: copy what you keep. Returns a function that unsubscribes.
   */
  on<K extends WorkerEventName>(name: K, listener: WorkerListener<K>): () => void {
    const list = this.listenerList(name, 'on');
    if (typeof listener !== 'function') throw new TypeError(`on('${name}'): listener must be a function (got ${typeof listener})`);
    if (list.length === 0) this.send({ type: 'subscribe', event: name, on: true });
    (this.listeners as Record<string, unknown[]>)[name] = list.concat(listener);
    return () => this.off(name, listener);
  }

  /** Unsubscribes a listener; the worker stops sending a kind when its last listener goes. */
  off<K extends WorkerEventName>(name: K, listener: WorkerListener<K>): void {
    const list = this.listenerList(name, 'off');
    const i = list.indexOf(listener);
    if (i < 0) return;
    const next = list.slice();
    next.splice(i, 1);
    (this.listeners as Record<string, unknown[]>)[name] = next;
    if (next.length === 0) this.send({ type: 'subscribe', event: name, on: false });
  }

  /** A handle's userData, a body removed since the worker's last events included. */
  private userDataOf(handle: number): unknown {
    return this.userData.has(handle) ? this.userData.get(handle) : this.retiredUserData.get(handle);
  }

  private listenerList(name: unknown, caller: string): unknown[] {
    if (typeof name !== 'string' || !(WORKER_EVENT_NAMES as readonly string[]).includes(name)) {
      throw new RangeError(`${caller}: unknown event ${String(name)} (events: ${WORKER_EVENT_NAMES.join(', ')})`);
    }
    return (this.listeners as Record<string, unknown[]>)[name]!;
  }

  /** Sends the message `make(id)` builds and waits for the answer with that id. */
  private request<T>(make: (id: number) => ClientMessage, transfer?: Transferable[]): Promise<T> {
    const id = this.nextRequest++;
    return new Promise<T>((resolve, reject) => {
      this.requests.set(id, { resolve: resolve as (value: never) => void, reject });
      this.port.postMessage(make(id), transfer);
    });
  }

  /** Calls the listeners of each event in a batch; a listener that throws does not stop the others (the first error is rethrown after). */
  private deliver(data: Float64Array, count: number): void {
    let failure: unknown = null, failed = false;
    for (let i = 0; i < count; i++) {
      const o = i * EVENT_STRIDE;
      const name = WORKER_EVENT_NAMES[data[o + E_NAME]!];
      if (name === undefined) continue;
      const list = this.listeners[name] as ((event: unknown) => void)[];
      if (list.length === 0) continue;
      let event: ContactEventData | SensorEventData | JointBreakEventData;
      if (name === 'jointBreak') {
        const e = this.jointBreakEvent;
        e.step = data[o + E_STEP]!; e.joint = data[o + E_A]!; e.impulse = data[o + E_IMPULSE]!;
        event = e;
      } else if (name === 'sensorEnter' || name === 'sensorExit') {
        const e = this.sensorEvent;
        e.step = data[o + E_STEP]!; e.sensor = data[o + E_A]!; e.body = data[o + E_B]!;
        e.sensorUserData = this.userDataOf(e.sensor); e.bodyUserData = this.userDataOf(e.body);
        event = e;
      } else {
        const e = this.contactEvent;
        e.step = data[o + E_STEP]!; e.bodyA = data[o + E_A]!; e.bodyB = data[o + E_B]!;
        e.point.x = data[o + E_POINT]!; e.point.y = data[o + E_POINT + 1]!; e.point.z = data[o + E_POINT + 2]!;
        e.normal.x = data[o + E_NORMAL]!; e.normal.y = data[o + E_NORMAL + 1]!; e.normal.z = data[o + E_NORMAL + 2]!;
        e.impulse = data[o + E_IMPULSE]!; e.childA = data[o + E_CHILD_A]!; e.childB = data[o + E_CHILD_B]!;
        e.userDataA = this.userDataOf(e.bodyA); e.userDataB = this.userDataOf(e.bodyB);
        event = e;
      }
      for (const listener of list) {
        try {
          listener(event);
        } catch (error) {
          if (!failed) { failure = error; failed = true; }
        }
      }
    }
    if (failed) throw failure;
  }

  start(): void { this.send({ type: 'start' }); }
  stop(): void { this.send({ type: 'stop' }); }

  /** Stops the host and stops listening; pending raycasts reject. */
  dispose(): void {
    this.send({ type: 'dispose' });
    this.port.removeEventListener('message', this.onMessage);
    for (const request of this.requests.values()) request.reject(new Error('footing worker: client disposed'));
    this.requests.clear();
  }

  /**
   * Once per render frame, before reading poses: takes the two newest
   * frames and sets `alpha` so that the picture shows the simulation one
   * tick behind its newest state, `(now − newest.time) / (newest.time −
   * previous.time)`: it moves smoothly whatever the render rate, and trails
   * the worker by at most one tick.
   */
  update(): void {
    const now = this.now();
    if (this.sharedHeader) this.takeShared();
    else if (this.received !== this.taken) {
      this.taken = this.received;
      this.prev.copyFrom(this.receivedPrev);
      this.curr.copyFrom(this.receivedLatest);
    }
    const c = this.curr, p = this.prev;
    this.step = c.step;
    this.appliedInputSeq = c.inputSeq;
    const span = c.time - p.time;
    this.alpha = p.slots > 0 && span > 0 ? Math.min(1, Math.max(0, (now - c.time) / span)) : 1;
  }

  /** Whether the handle's body has appeared in a frame yet. */
  has(handle: number): boolean {
    return this.rowOf(this.curr, handle) >= 0;
  }

  /** The interpolated position of a body or character (its creation pose before the worker reports it). */
  getPosition(handle: number, out: Vec3): Vec3 {
    const c = this.rowOf(this.curr, handle);
    if (c < 0) {
      const init = this.initial.get(handle);
      out.x = init?.position.x ?? 0; out.y = init?.position.y ?? 0; out.z = init?.position.z ?? 0;
      return out;
    }
    const cur = this.curr.data;
    const p = this.rowOf(this.prev, handle);
    // A body new since the previous frame is shown where it is.
    const a = p < 0 ? 1 : this.alpha, b = 1 - a;
    const old = p < 0 ? cur : this.prev.data, o = p < 0 ? c : p;
    out.x = b * old[o + F_POSITION]! + a * cur[c + F_POSITION]!;
    out.y = b * old[o + F_POSITION + 1]! + a * cur[c + F_POSITION + 1]!;
    out.z = b * old[o + F_POSITION + 2]! + a * cur[c + F_POSITION + 2]!;
    return out;
  }

  /** The interpolated rotation (normalised lerp along the shorter arc). */
  getRotation(handle: number, out: Quat): Quat {
    const c = this.rowOf(this.curr, handle);
    if (c < 0) {
      const init = this.initial.get(handle);
      out.x = init?.rotation.x ?? 0; out.y = init?.rotation.y ?? 0; out.z = init?.rotation.z ?? 0; out.w = init?.rotation.w ?? 1;
      return out;
    }
    const q = this.curr.data;
    let x = q[c + F_ROTATION]!, y = q[c + F_ROTATION + 1]!, z = q[c + F_ROTATION + 2]!, w = q[c + F_ROTATION + 3]!;
    const p = this.rowOf(this.prev, handle);
    if (p >= 0 && this.alpha < 1) {
      const r = this.prev.data;
      const a = this.alpha;
      const sign = r[p + F_ROTATION]! * x + r[p + F_ROTATION + 1]! * y + r[p + F_ROTATION + 2]! * z + r[p + F_ROTATION + 3]! * w < 0 ? -1 : 1;
      const b = (1 - a) * sign;
      x = b * r[p + F_ROTATION]! + a * x; y = b * r[p + F_ROTATION + 1]! + a * y;
      z = b * r[p + F_ROTATION + 2]! + a * z; w = b * r[p + F_ROTATION + 3]! + a * w;
    }
    const len = Math.hypot(x, y, z, w) || 1;
    out.x = x / len; out.y = y / len; out.z = z / len; out.w = w / len;
    return out;
  }

  /** The newest frame's state of a handle (STATE_* in protocol: awake, sleeping, or a character's walker state). */
  getState(handle: number): number {
    const c = this.rowOf(this.curr, handle);
    return c < 0 ? STATE_EMPTY : this.curr.data[c + F_STATE]!;
  }

  private rowOf(frame: PoseFrame, handle: number): number {
    const slot = slotOf(handle);
    if (!(slot < frame.slots)) return -1;
    const o = slot * FRAME_STRIDE;
    if (frame.data[o + F_STATE] === STATE_EMPTY || frame.data[o + F_GENERATION] !== generationOf(handle)) return -1;
    return o;
  }

  private takeShared(): void {
    const header = this.sharedHeader!, times = this.sharedTimes!;
    for (let attempt = 0; attempt < 4; attempt++) {
      const sequence = Atomics.load(header, H_SEQUENCE);
      if (sequence === this.lastSequence) return;
      if (sequence % 2 === 1) continue;
      const r = header[H_NEWEST]!, o = 1 - r;
      // Into the receive frames first: a torn copy must not replace what is shown.
      this.receivedLatest.copyFromArray(this.sharedFrames[r]!, header[H_SLOTS + r]!, header[H_STEP + r]!, times[H_TIME + r]!, header[H_INPUT_SEQ]!);
      this.receivedPrev.copyFromArray(this.sharedFrames[o]!, header[H_SLOTS + o]!, header[H_STEP + o]!, times[H_TIME + o]!, 0);
      // A changed sequence means the host wrote while we copied: read again.
      if (Atomics.load(header, H_SEQUENCE) !== sequence) continue;
      this.lastSequence = sequence;
      this.prev.copyFrom(this.receivedPrev);
      this.curr.copyFrom(this.receivedLatest);
      return;
    }
  }

  private receive(msg: HostMessage): void {
    switch (msg.type) {
      case 'ready':
        this.fixedTimeStep = msg.fixedTimeStep;
        if (msg.shared) this.attachShared(msg.shared);
        this.readyResolve();
        return;
      case 'shared':
        this.attachShared(msg.buffer);
        return;
      case 'frame': {
        // Copied at once and the buffer sent straight back, so the host always has one to write the next tick into.
        const older = this.receivedPrev;
        this.receivedPrev = this.receivedLatest;
        this.receivedLatest = older;
        older.copyFromArray(msg.frame, msg.slots, msg.step, msg.time, msg.inputSeq);
        this.received++;
        this.port.postMessage({ type: 'returnFrame', frame: msg.frame } satisfies ClientMessage, [msg.frame.buffer]);
        return;
      }
      case 'tracked': {
        this.generations[slotOf(msg.handle)] = generationOf(msg.handle);
        this.kinds.set(msg.handle, msg.body.type);
        if (msg.body.tag !== undefined) this.userData.set(msg.handle, msg.body.tag);
        this.onBodyAdded?.(msg.handle, msg.body);
        return;
      }
      case 'untracked': {
        this.forget(msg.handle);
        this.onBodyRemoved?.(msg.handle);
        return;
      }
      case 'retired':
        for (const handle of msg.handles) this.retiredUserData.delete(handle);
        return;
      case 'raycastResult':
      case 'shapeCastResult':
        return this.answer(msg.id, msg.hit);
      case 'overlapResult':
        return this.answer(msg.id, msg.contacts);
      case 'character':
        return this.answer(msg.id, msg.state);
      case 'characterHeight':
        return this.answer(msg.id, msg.changed);
      case 'ragdoll':
        return this.answer(msg.id, msg.ragdoll);
      case 'done':
        return this.answer(msg.id, undefined);
      case 'settings':
        return this.answer(msg.id, msg.settings);
      case 'snapshot':
        return this.answer(msg.id, msg.snapshot);
      case 'events':
        try {
          this.deliver(msg.data, msg.count);
        } finally {
          // Back to the worker, which writes a later tick's events into it.
          this.port.postMessage({ type: 'returnEvents', data: msg.data } satisfies ClientMessage, [msg.data.buffer]);
        }
        return;
      case 'error': {
        const error = new PhysicsWorkerError(msg.command, msg.handle, msg.message, msg.name);
        const request = msg.id >= 0 ? this.requests.get(msg.id) : undefined;
        if (msg.command === 'init') {
          this.readyReject(error);
          this.onError(error);
        } else if (request) {
          this.requests.delete(msg.id);
          request.reject(error);
        } else {
          this.onError(error);
        }
        return;
      }
    }
  }

  private answer(id: number, value: unknown): void {
    const request = this.requests.get(id);
    if (!request) return;
    this.requests.delete(id);
    (request.resolve as (value: unknown) => void)(value);
  }

  private attachShared(buffer: SharedArrayBuffer): void {
    this.sharedMemory = true;
    const floats = (buffer.byteLength - SHARED_HEADER_BYTES) / 8;
    this.sharedHeader = new Int32Array(buffer, 0, 8);
    this.sharedTimes = new Float64Array(buffer, 0, H_TIME + 2);
    this.sharedFrames[0] = new Float32Array(buffer, SHARED_HEADER_BYTES, floats);
    this.sharedFrames[1] = new Float32Array(buffer, SHARED_HEADER_BYTES + floats * 4, floats);
    this.lastSequence = 0;
  }

  private claimHandle(position: Vec3 | undefined, rotation: Quat | undefined): number {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.nextSlot;
      this.nextSlot += 2;
    }
    if (slot >= SLOT_COUNT) throw new RangeError(`footing worker: more than ${SLOT_COUNT} bodies`);
    const generation = this.generations[slot] ?? 0;
    this.generations[slot] = generation;
    const handle = slot + generation * SLOT_COUNT;
    this.initial.set(handle, {
      position: position ? copyVec(position) : { x: 0, y: 0, z: 0 },
      rotation: rotation ? { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w } : { x: 0, y: 0, z: 0, w: 1 },
    });
    return handle;
  }

  private requireHandle(handle: number): number {
    const slot = slotOf(handle);
    if (!Number.isInteger(handle) || handle < 0 || this.generations[slot] !== generationOf(handle)) {
      throw new RangeError(`footing worker: ${String(handle)} is not a live body or character handle`);
    }
    return slot;
  }

  private requireCharacter(handle: number, command: string): void {
    this.requireHandle(handle);
    if (this.kinds.get(handle) !== 'character') throw new TypeError(`${command}: handle ${handle} is not a character`);
  }

  private send(message: ClientMessage): void {
    this.port.postMessage(message);
  }
}

function copyVec(v: Vec3): Vec3 {
  return { x: v.x, y: v.y, z: v.z };
}

function copyQuat(q: Quat): Quat {
  return { x: q.x, y: q.y, z: q.z, w: q.w };
}

function requireFiniteVec(v: Vec3, field: string): void {
  if (v === null || typeof v !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${String(v)})`);
  if (!Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) throw new RangeError(`${field} must be finite (got (${v.x}, ${v.y}, ${v.z}))`);
}

function requireFiniteQuat(q: Quat, field: string): void {
  if (q === null || typeof q !== 'object') throw new TypeError(`${field} must be a { x, y, z, w } object (got ${String(q)})`);
  if (!Number.isFinite(q.x) || !Number.isFinite(q.y) || !Number.isFinite(q.z) || !Number.isFinite(q.w)) {
    throw new RangeError(`${field} must be finite (got (${q.x}, ${q.y}, ${q.z}, ${q.w}))`);
  }
}

/**
 * Throws a TypeError naming `field` when `value` cannot cross to the worker,
 * before a handle is claimed (postMessage would throw a DataCloneError
 * naming neither the command nor the field).
 */
function requireCloneable(value: unknown, field: string): void {
  if (typeof structuredClone !== 'function') return;
  try {
    structuredClone(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${field} cannot be sent to the worker: it must be structured-cloneable (plain data, no functions or DOM nodes; ${reason})`);
  }
}

/** The ArrayBuffers of a WorkerSnapshot (the client imports no physics code, so not the World's snapshotTransferList). */
function transferListOf(s: WorkerSnapshot): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (a: ArrayBufferView | undefined): void => {
    if (a && a.buffer instanceof ArrayBuffer && out.indexOf(a.buffer) < 0) out.push(a.buffer);
  };
  const w = s.world;
  for (const a of [w.world, w.bodies, w.bodyInts, w.contacts, w.contactInts, w.broadphaseInts, w.broadphaseBounds, w.joints, w.jointInts]) add(a);
  for (const st of w.steppers) if (st) { add(st.f64); add(st.i32); }
  for (const c of s.characters) { add(c.walker.f64); add(c.walker.i32); add(c.walker.controller.f64); add(c.walker.controller.i32); }
  return out;
}

/** One pose frame as the client keeps it. */
class PoseFrame {
  data = new Float32Array(64 * FRAME_STRIDE);
  /** Slots written; 0: no frame. */
  slots = 0;
  step = 0;
  /** The host's clock when it wrote the frame, ms. */
  time = 0;
  inputSeq = 0;

  copyFromArray(src: Float32Array, slots: number, step: number, time: number, inputSeq: number): void {
    const need = slots * FRAME_STRIDE;
    if (this.data.length < need) this.data = new Float32Array(Math.max(need, this.data.length * 2));
    this.data.set(src.subarray(0, need));
    this.slots = slots; this.step = step; this.time = time; this.inputSeq = inputSeq;
  }

  copyFrom(other: PoseFrame): void {
    this.copyFromArray(other.data, other.slots, other.step, other.time, other.inputSeq);
  }
}
