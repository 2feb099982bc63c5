/**
 * The main-thread side of `footing/worker`: sends commands to a PhysicsHost
 * in a worker, receives its pose frames and interpolates between the last
 * two for rendering. Imports no physics code, so a game's main bundle does
 * not carry the engine. The frames are kept in client-poses.ts, the event
 * listeners in client-events.ts, the requests waiting for answers in
 * client-requests.ts.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import {
  epochNow, generationOf, SLOT_COUNT, slotOf,
  type BodyDescData, type CharacterDescData, type TrackedBodyData, type ClientMessage, type HostMessage, type MessagePortLike, type RaycastHitData, type RaycastOptionsData,
  type WorldDescData, type JointDescData, type JointChangesData, type WorldSettingsData, type WorldSettingsState, type WorkerSnapshot, type WorkerEventName, type WorkerListener,
  PROTOCOL_VERSION, type QueryOptionsData, type ShapeDesc, type ShapeCastHitData, type OverlapContactData, type CharacterSettingsData, type CharacterSettingsState,
  type RagdollDescData, type RagdollData,
} from './protocol';
import type { BodyType } from '../dynamics/body';
import { copyFiniteQuat, copyFiniteVec, copyQuat, copyVec, requireCloneable, requireFiniteQuat, requireFiniteVec, transferListOf, unsendable } from './client-checks';
import { ClientEvents } from './client-events';
import { ClientPoses } from './client-poses';
import { ClientRequests } from './client-requests';

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

/** A port as an EventTarget of any event type, for its 'close' (not in MessagePortLike: a Worker has none to fire). */
interface ClosablePort {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
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
  private readonly poses = new ClientPoses();
  /** Even slots (the client's) free for reuse. */
  private readonly freeSlots: number[] = [];
  private nextSlot = 0;
  private readonly generations: number[] = [];
  private inputSeq = 0;
  private readonly requests = new ClientRequests((message, transfer) => this.post(message, transfer));
  private disposed = false;
  private isReady = false;
  /** Why every command is refused (no answer would come): disposed, or the worker refused the world. Null while open. */
  private closed: string | null = null;
  /** Joint handles the client hands out (even; the host's `trackJoint` gives odd ones), never reused. */
  private nextJoint = 0;
  private readonly liveJoints = new Set<number>();
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
  // After dispose a listener can still be removed (cleanup code often runs late): the worker, stopped, is not told.
  private readonly events = new ClientEvents(this.userData, this.retiredUserData, (message) => { if (this.closed === null) this.send(message); });
  private readonly onMessage = (event: MessageEvent): void => this.receive(event.data as HostMessage);
  /** The other end of a MessagePort closed (its worker gone): nothing waiting will be answered. */
  private readonly onClose = (): void => {
    if (this.closed === null) this.closed = 'the worker is gone (its port closed)';
    const error = new Error(`footing worker: ${this.closed}`);
    this.readyReject(error);
    this.requests.rejectAll(error);
  };

  /** Connects to a host on `port` (a Worker or a MessagePort) and asks it to build `world`. */
  constructor(port: MessagePortLike, world: WorldDescData = {}, options: PhysicsClientOptions = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`PhysicsClient: options must be an object (got ${String(options)})`);
    for (const key of ['shared', 'autoStart'] as const) {
      const value = options[key];
      if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`PhysicsClient: options.${key} must be a boolean (got ${String(value)})`);
    }
    if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError(`PhysicsClient: options.now must be a function returning milliseconds (got ${String(options.now)})`);
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
    // A MessagePort fires 'close' when its other end is gone (Node, recent browsers); a Worker never does (dispose after terminate).
    (port as unknown as ClosablePort).addEventListener('close', this.onClose);
    port.start?.();
    this.send({ type: 'init', version: PROTOCOL_VERSION, world, shared: shared && typeof SharedArrayBuffer === 'function', autoStart: options.autoStart ?? true });
  }

  /** Creates a body in the worker; returns its handle at once (its pose is the description's until the worker reports it). */
  createBody(desc: BodyDescData): number {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`createBody: desc must be a body description object (got ${String(desc)})`);
    // What the page needs before the worker answers (the shape is sent, the pose shown): the worker checks the numbers.
    if (desc.shape === null || typeof desc.shape !== 'object') throw new TypeError(`createBody: desc.shape must be a shape description object (got ${String(desc.shape)})`);
    if (desc.position != null) requireFiniteVec(desc.position, 'createBody: desc.position');
    if (desc.rotation != null) requireFiniteQuat(desc.rotation, 'createBody: desc.rotation');
    if (desc.userData !== undefined) requireCloneable(desc.userData, 'createBody: userData');
    const handle = this.claimHandle(desc.position, desc.rotation);
    this.sendNew({ type: 'createBody', handle, desc });
    this.kinds.set(handle, desc.type);
    if (desc.userData !== undefined) this.userData.set(handle, desc.userData);
    return handle;
  }

  /** Creates a character controller with a Walker in the worker; its frame rotation is the walker's yaw about up. */
  createCharacter(desc: CharacterDescData = {}): number {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`createCharacter: desc must be a character description object (got ${String(desc)})`);
    const { userData, ...rest } = desc;
    if (desc.position != null) requireFiniteVec(desc.position, 'createCharacter: desc.position');
    if (userData !== undefined) requireCloneable(userData, 'createCharacter: userData');
    const handle = this.claimHandle(desc.position, undefined);
    this.sendNew({ type: 'createCharacter', handle, desc: rest });
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

  /** A handle whose body or character the worker refused to build: dead, its slot free again if it is still the page's. */
  private refused(handle: number): void {
    const slot = slotOf(handle);
    if (!Number.isSafeInteger(handle) || handle < 0 || slot % 2 !== 0 || this.generations[slot] !== generationOf(handle)) return;
    this.forget(handle);
    this.userData.delete(handle);
    this.retiredUserData.delete(handle);
    this.freeSlots.push(slot);
  }

  /** Marks a handle dead; its userData stays for the events the worker may still send about it. */
  private forget(handle: number): void {
    const slot = slotOf(handle);
    if (this.generations[slot] === generationOf(handle)) this.generations[slot] = generationOf(handle) + 1;
    this.poses.initial.delete(handle);
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
    if (typeof jump !== 'boolean') throw new TypeError(`setCharacterInput: jump must be a boolean (got ${String(jump)})`);
    if (this.kinds.get(handle) !== 'character') throw new TypeError(`setCharacterInput: handle ${handle} is not a character`);
    const seq = ++this.inputSeq;
    this.send({ type: 'input', handle, x, y, z, jump, seq });
    return seq;
  }

  applyImpulse(handle: number, impulse: Vec3, point?: Vec3): void {
    this.requireBody(handle, 'applyImpulse');
    this.send({ type: 'applyImpulse', handle, impulse: copyFiniteVec(impulse, 'applyImpulse: impulse'), point: point == null ? undefined : copyFiniteVec(point, 'applyImpulse: point') });
  }

  setVelocity(handle: number, linear?: Vec3, angular?: Vec3): void {
    this.requireBody(handle, 'setVelocity');
    this.send({ type: 'setVelocity', handle, linear: linear == null ? undefined : copyFiniteVec(linear, 'setVelocity: linear'), angular: angular == null ? undefined : copyFiniteVec(angular, 'setVelocity: angular') });
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
    this.send({ type: 'setKinematicTarget', handle, position: copyFiniteVec(position, 'setKinematicTarget: position'), rotation: rotation == null ? undefined : copyFiniteQuat(rotation, 'setKinematicTarget: rotation') });
  }

  /**
   * Moves a body to a new pose; a character is teleported as
   * `Walker.teleport` does (velocity and carried ground velocity zeroed,
   * airborne until the next step finds the ground, a pending jump dropped),
   * its yaw set from the rotation's twist about up when one is given.
   */
  teleport(handle: number, position: Vec3, rotation?: Quat): void {
    this.requireHandle(handle);
    this.send({ type: 'teleport', handle, position: copyFiniteVec(position, 'teleport: position'), rotation: rotation == null ? undefined : copyFiniteQuat(rotation, 'teleport: rotation') });
  }

  /**
   * A ray from `from` to `to`, answered by the worker between steps. The
   * options filter as the World's (`exclude` a handle or a list of them).
   */
  raycast(from: Vec3, to: Vec3, options?: RaycastOptionsData): Promise<RaycastHitData | null> {
    // Copied before the request: a bad argument throws here, naming it, and leaves no request waiting.
    const a = copyVec(from, 'raycast: from'), b = copyVec(to, 'raycast: to');
    return this.requests.send<RaycastHitData | null>((id) => ({ type: 'raycast', id, from: a, to: b, options })).then((hit) => this.withUserData(hit));
  }

  /**
   * Sweeps a convex shape, given as data, from `position` along
   * `translation` (`world.shapeCast`), answered by the worker between
   * steps: the first impact with its `fraction` and `distance` along the
   * translation, or null. Rejects with the field named for a bad shape,
   * pose or option (throws at once for a pose that is not an object).
   */
  shapeCast(shape: ShapeDesc, position: Vec3, rotation: Quat, translation: Vec3, options?: QueryOptionsData): Promise<ShapeCastHitData | null> {
    const p = copyVec(position, 'shapeCast: position'), q = copyQuat(rotation, 'shapeCast: rotation'), t = copyVec(translation, 'shapeCast: translation');
    return this.requests.send<ShapeCastHitData | null>((id) => ({
      type: 'shapeCast', id, shape, position: p, rotation: q, translation: t, options,
    })).then((hit) => this.withUserData(hit));
  }

  /**
   * Every body a convex shape, given as data, overlaps at a pose
   * (`world.overlap`): one entry per contact point, with the normal that
   * pushes the shape out and the depth.
   */
  overlap(shape: ShapeDesc, position: Vec3, rotation: Quat, options?: QueryOptionsData): Promise<OverlapContactData[]> {
    const p = copyVec(position, 'overlap: position'), q = copyQuat(rotation, 'overlap: rotation');
    return this.requests.send<OverlapContactData[]>((id) => ({ type: 'overlap', id, shape, position: p, rotation: q, options })).then((contacts) => {
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
    return this.requests.send((id) => ({ type: 'setCharacter', id, handle, change }));
  }

  /** Every setting of a character, and its capsule's radius and halfHeight. */
  getCharacterSettings(handle: number): Promise<CharacterSettingsState> {
    this.requireCharacter(handle, 'getCharacterSettings');
    return this.requests.send((id) => ({ type: 'getCharacter', id, handle }));
  }

  /**
   * Changes the capsule's half-height keeping the feet in place (crouch,
   * stand up): resolves false, and nothing changes, when the taller capsule
   * would overlap geometry (a low ceiling).
   */
  setCharacterHeight(handle: number, halfHeight: number): Promise<boolean> {
    this.requireCharacter(handle, 'setCharacterHeight');
    return this.requests.send((id) => ({ type: 'setCharacterHeight', id, handle, halfHeight }));
  }

  /**
   * Teleports and resets a character (`Walker.teleport`): velocity zeroed,
   * airborne until the next step finds the ground, a pending jump dropped,
   * `yaw` (radians about up) set when given. Rejects with the field named
   * for a position out of range or a non-finite yaw; nothing changes then.
   */
  teleportCharacter(handle: number, position: Vec3, yaw?: number): Promise<void> {
    this.requireCharacter(handle, 'teleportCharacter');
    const p = copyVec(position, 'teleportCharacter: position');
    return this.requests.send((id) => ({ type: 'teleportCharacter', id, handle, position: p, yaw }));
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
    return this.requests.send<RagdollData>((id) => ({ type: 'createRagdoll', id, desc })).then((ragdoll) => {
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
    return this.requests.send((id) => ({ type: 'removeRagdoll', id, handle }));
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
    // Live once sent: a desc that cannot be cloned throws here and leaves no handle behind.
    const done = this.requests.send<void>((id) => ({ type: 'createJoint', id, handle, desc }));
    this.liveJoints.add(handle);
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
    return this.requests.send((id) => ({ type: 'removeJoint', id, handle }));
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
    return this.requests.send((id) => ({ type: 'setJoint', id, handle, changes }));
  }

  /**
   * Changes the running world's settings: gravity, solverSettings,
   * sleeping, jointSettings (each partial), fixedTimeStep,
   * maxStepsPerAdvance. The worker checks the whole change and applies all
   * of it before its next step, or none of it and rejects with the field
   * named. Resolves with every setting as it now is.
   */
  setSettings(settings: WorldSettingsData): Promise<WorldSettingsState> {
    return this.requests.send<WorldSettingsState>((id) => ({ type: 'setSettings', id, settings })).then((state) => {
      this.fixedTimeStep = state.fixedTimeStep;
      return state;
    });
  }

  /** Every setting of the worker's world. */
  getSettings(): Promise<WorldSettingsState> {
    return this.requests.send((id) => ({ type: 'getSettings', id }));
  }

  /**
   * The worker's whole state between two steps: the world's snapshot and
   * each character's walker, as typed arrays transferred from the worker
   * (no copy). Keep it to `restore` later, or to save.
   */
  snapshot(): Promise<WorkerSnapshot> {
    return this.requests.send((id) => ({ type: 'snapshot', id }));
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
    if (options === null || typeof options !== 'object') throw new TypeError(`restore: options must be an object (got ${String(options)})`);
    const transfer = options.transfer === true ? transferListOf(snapshot) : undefined;
    return this.requests.send((id) => ({ type: 'restore', id, snapshot }), transfer);
  }

  /**
   * Subscribes to a world event in the worker: contactBegin, contactEnd,
   * sensorEnter, sensorExit, jointBreak, with bodies and joints as handles.
   * The worker sends each tick's events in one batch, before the tick's
   * frame, and only the kinds that have a listener here. The event object
   * is reused: copy what you keep. Returns a function that unsubscribes.
   */
  on<K extends WorkerEventName>(name: K, listener: WorkerListener<K>): () => void {
    if (this.closed !== null) throw new Error(`footing worker: on('${String(name)}'): ${this.closed}`);
    this.events.add(name, listener);
    return () => this.off(name, listener);
  }

  /** Unsubscribes a listener; the worker stops sending a kind when its last listener goes. */
  off<K extends WorkerEventName>(name: K, listener: WorkerListener<K>): void {
    this.events.remove(name, listener);
  }

  start(): void { this.send({ type: 'start' }); }
  stop(): void { this.send({ type: 'stop' }); }

  /**
   * Stops the host and stops listening; the requests still waiting reject.
   * Every later command throws (its answer would never come); a second
   * dispose does nothing. Poses already received can still be read.
   */
  dispose(): void {
    if (this.disposed) return;
    if (this.closed === null) this.send({ type: 'dispose' });
    this.disposed = true;
    this.closed = 'the client is disposed';
    this.port.removeEventListener('message', this.onMessage);
    (this.port as unknown as ClosablePort).removeEventListener('close', this.onClose);
    this.requests.rejectAll(new Error('footing worker: client disposed'));
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
    this.poses.take();
    const c = this.poses.curr, p = this.poses.prev;
    this.step = c.step;
    this.appliedInputSeq = c.inputSeq;
    const span = c.time - p.time;
    this.alpha = p.slots > 0 && span > 0 ? Math.min(1, Math.max(0, (now - c.time) / span)) : 1;
  }

  /** Whether the handle's body has appeared in a frame yet. */
  has(handle: number): boolean {
    return this.poses.has(handle);
  }

  /** The interpolated position of a body or character (its creation pose before the worker reports it). */
  getPosition(handle: number, out: Vec3): Vec3 {
    this.requireHandle(handle);
    if (out === null || typeof out !== 'object') throw new TypeError(`getPosition: out must be a { x, y, z } object to write into (got ${String(out)})`);
    return this.poses.position(handle, out, this.alpha);
  }

  /** The interpolated rotation (normalised lerp along the shorter arc). */
  getRotation(handle: number, out: Quat): Quat {
    this.requireHandle(handle);
    if (out === null || typeof out !== 'object') throw new TypeError(`getRotation: out must be a { x, y, z, w } object to write into (got ${String(out)})`);
    return this.poses.rotation(handle, out, this.alpha);
  }

  /** The newest frame's state of a handle (STATE_* in protocol: awake, sleeping, or a character's walker state). */
  getState(handle: number): number {
    this.requireHandle(handle);
    return this.poses.state(handle);
  }

  private receive(msg: HostMessage): void {
    switch (msg.type) {
      case 'ready':
        this.isReady = true;
        this.fixedTimeStep = msg.fixedTimeStep;
        if (msg.shared) this.attachShared(msg.shared);
        this.readyResolve();
        return;
      case 'shared':
        this.attachShared(msg.buffer);
        return;
      case 'frame': {
        // Copied at once and the buffer sent straight back, so the host always has one to write the next tick into.
        this.poses.receive(msg.frame, msg.slots, msg.step, msg.time, msg.inputSeq);
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
        return this.requests.answer(msg.id, msg.hit);
      case 'overlapResult':
        return this.requests.answer(msg.id, msg.contacts);
      case 'character':
        return this.requests.answer(msg.id, msg.state);
      case 'characterHeight':
        return this.requests.answer(msg.id, msg.changed);
      case 'ragdoll':
        return this.requests.answer(msg.id, msg.ragdoll);
      case 'done':
        return this.requests.answer(msg.id, undefined);
      case 'settings':
        return this.requests.answer(msg.id, msg.settings);
      case 'snapshot':
        return this.requests.answer(msg.id, msg.snapshot);
      case 'events':
        try {
          this.events.deliver(msg.data, msg.count);
        } finally {
          // Back to the worker, which writes a later tick's events into it.
          this.port.postMessage({ type: 'returnEvents', data: msg.data } satisfies ClientMessage, [msg.data.buffer]);
        }
        return;
      case 'error': {
        const error = new PhysicsWorkerError(msg.command, msg.handle, msg.message, msg.name);
        if (msg.command === 'init') {
          if (!this.isReady && this.closed === null) {
            // No world of this client's: every later command would only come back as an error, and what
            // else arrives is another client's (frames whose buffers that client sends back).
            this.closed = `the worker refused the world (${msg.message})`;
            this.port.removeEventListener('message', this.onMessage);
            (this.port as unknown as ClosablePort).removeEventListener('close', this.onClose);
            this.requests.rejectAll(error);
          }
          this.readyReject(error);
          this.onError(error);
        } else if (!this.requests.fail(msg.id, error)) {
          // The worker built nothing: the handle dies here too, so later calls with it throw at once.
          if ((msg.command === 'createBody' || msg.command === 'createCharacter') && msg.handle !== undefined) this.refused(msg.handle);
          this.onError(error);
        }
        return;
      }
    }
  }

  private attachShared(buffer: SharedArrayBuffer): void {
    this.sharedMemory = true;
    this.poses.attachShared(buffer);
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
    this.poses.initial.set(handle, {
      // A plain copy: copyVec would throw with the slot already taken (the worker refuses a bad position, naming it).
      position: position ? { x: position.x, y: position.y, z: position.z } : { x: 0, y: 0, z: 0 },
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

  /** A live handle that is not a character's (impulses and velocities are the walker's business there). */
  private requireBody(handle: number, command: string): void {
    this.requireHandle(handle);
    if (this.kinds.get(handle) === 'character') throw new TypeError(`${command}: handle ${handle} is a character, not a body`);
  }

  private requireCharacter(handle: number, command: string): void {
    this.requireHandle(handle);
    if (this.kinds.get(handle) !== 'character') throw new TypeError(`${command}: handle ${handle} is not a character`);
  }

  private send(message: ClientMessage): void {
    this.post(message);
  }

  /** Sends the message that creates `message.handle`; when it cannot be sent, the handle goes back unused. */
  private sendNew(message: Extract<ClientMessage, { type: 'createBody' | 'createCharacter' }>): void {
    try {
      this.post(message);
    } catch (error) {
      // The worker never heard of the handle: the slot is the next one claimed, with the same generation.
      this.freeSlots.push(slotOf(message.handle));
      this.poses.initial.delete(message.handle);
      throw error;
    }
  }

  private post(message: ClientMessage, transfer?: Transferable[]): void {
    if (this.closed !== null) throw new Error(`footing worker: ${message.type}: ${this.closed}`);
    try {
      this.port.postMessage(message, transfer);
    } catch (error) {
      throw unsendable(message, error);
    }
  }
}

