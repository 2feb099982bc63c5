/**
 * The worker side of `footing/worker`: owns the World, builds bodies and
 * characters from descriptions, steps at a fixed rate and publishes the
 * poses after every tick (a transferred Float32Array, or a
 * SharedArrayBuffer when the client asked for one and the worker has it).
 * Its parts: the handles (host-slots.ts), the frames (host-frames.ts), the
 * event batches (host-events.ts), the queries (host-queries.ts) and the
 * ragdolls (host-ragdolls.ts).
 */
import { World } from '../world/world';
import type { RigidBody } from '../dynamics/body';
import type { Joint } from '../joints/joint';
import { SnapshotError, snapshotTransferList, type WorldSnapshot } from '../world/snapshot';
import { Walker, type WalkerSnapshot } from '../../character/walker';
import { MAX_ANGULAR_SPEED, MAX_LINEAR_SPEED, requireFiniteQuat, requireFiniteVec, requireMagnitude, requirePosition } from '../math/validate';
import { describeShape, shapeFromDesc } from './describe';
import { HostEvents } from './host-events';
import { HostFrames } from './host-frames';
import { answerQuery } from './host-queries';
import { HostRagdolls } from './host-ragdolls';
import { describeValue, HostSlots } from './host-slots';
import { changeJoint, jointFromDesc } from './joints';
import { applySettings, readSettings } from './settings';
import { applyCharacterSettings, buildCharacter, readCharacter } from './character';
import {
  epochNow, SLOT_COUNT, generationOf, slotOf, PROTOCOL_VERSION,
  type TrackedBodyData, type ClientMessage, type HostMessage, type MessagePortLike, type WorkerSnapshot,
} from './protocol';

export { shapeFromDesc };

export interface PhysicsHostOptions {
  /** Called once the world exists, before the first step: add joints, ragdolls or steppers here. */
  onWorld?: (world: World, host: PhysicsHost) => void;
  /** Clock in milliseconds, shared with the client's (frames carry its time). Default `epochNow`. */
  now?: () => number;
}

export class PhysicsHost {
  private worldValue: World | null = null;
  private readonly port: MessagePortLike;
  private readonly options: PhysicsHostOptions;
  private readonly now: () => number;
  private readonly slots = new HostSlots();
  private inputSeq = 0;
  private fixedTimeStep = 1 / 60;
  private maxStepsPerAdvance = 4;
  private accumulator = 0;
  /** What threw during the tick in progress: a walker's update (its character's handle) or the world's step (−1). */
  private readonly tickErrors: { handle: number; error: unknown }[] = [];
  // real-time loop
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastTime = 0;
  private readonly onMessage = (event: MessageEvent): void => this.handle(event.data as ClientMessage);
  /** Joints by handle: the client's even ones, `trackJoint`'s odd ones. */
  private readonly joints = new Map<number, Joint>();
  private readonly jointHandleOf = new Map<Joint, number>();
  private nextHostJoint = 1;
  private readonly events: HostEvents;
  private readonly frames: HostFrames;
  private readonly ragdolls: HostRagdolls;

  /** Listens on `port` (the worker's `self`, or a MessagePort) for a client's `init`. */
  constructor(port: MessagePortLike, options: PhysicsHostOptions = {}) {
    this.port = port;
    this.options = options;
    this.now = options.now ?? epochNow;
    const post = (message: HostMessage, transfer?: Transferable[]): void => this.post(message, transfer);
    this.events = new HostEvents(this.slots, this.jointHandleOf, post);
    this.frames = new HostFrames(this.slots, this.now, post);
    this.ragdolls = new HostRagdolls(this.slots, this.joints, this.jointHandleOf, (joint) => this.trackJoint(joint));
    port.addEventListener('message', this.onMessage);
    port.start?.();
  }

  /** The world, once the client's `init` arrived (null before). */
  get world(): World | null { return this.worldValue; }

  /** The body behind a handle, for code running in the worker (null for characters and removed bodies). */
  getBody(handle: number): RigidBody | null {
    return this.slots.getBody(handle);
  }

  /** The walker behind a character handle. */
  getWalker(handle: number): Walker | null {
    return this.slots.getWalker(handle);
  }

  /**
   * Gives a body that code in the worker created (in `onWorld`, or later) a
   * handle and its row in the pose frames; the client hears of it through
   * `onBodyAdded` with the body's type, its shape as data and `tag`, so the
   * page can make a mesh for it.
   */
  track(body: RigidBody, tag?: unknown): number {
    const world = this.worldValue;
    if (!world || !world.bodies.includes(body)) throw new Error('track: the body is not in this host\'s world');
    if (this.slots.handleOf.has(body)) throw new Error(`track: the body already has handle ${this.slots.handleOf.get(body)}`);
    const info: TrackedBodyData = { type: body.type, shape: describeShape(body.shape), tag };
    const handle = this.slots.register(body);
    this.post({ type: 'tracked', handle, body: info });
    return handle;
  }


  /** Stops streaming a tracked body (it stays in the world); the client hears of it through `onBodyRemoved`. */
  untrack(handle: number): void {
    const slot = slotOf(handle);
    if (slot % 2 !== 1 || this.slots.generations[slot] !== generationOf(handle) || !this.slots.bodies[slot]) throw new Error(`untrack: ${handle} is not a tracked body`);
    this.slots.retire(this.slots.bodies[slot]!);
    this.slots.release(slot);
    this.post({ type: 'untracked', handle });
  }

  /**
   * Gives a joint that code in the worker added (a ragdoll's, say) a handle,
   * so that its `jointBreak` events name it; the client's joint handles are
   * even, these odd.
   */
  trackJoint(joint: Joint): number {
    const world = this.worldValue;
    if (!world || !world.joints.includes(joint)) throw new Error('trackJoint: the joint is not in this host\'s world');
    const known = this.jointHandleOf.get(joint);
    if (known !== undefined) return known;
    const handle = this.nextHostJoint;
    this.nextHostJoint += 2;
    this.joints.set(handle, joint);
    this.jointHandleOf.set(joint, handle);
    return handle;
  }

  /** The joint behind a joint handle (null when unknown or removed). */
  getJoint(handle: number): Joint | null {
    return this.joints.get(handle) ?? null;
  }



  /**
   * Steps whole fixed steps covering `seconds` (at most maxStepsPerAdvance;
   * the rest is dropped), updates every walker after each step and
   * publishes the poses. A walker or a world listener that throws does not
   * stop the tick: the other walkers are updated, the time is used up and
   * the frame published, then the errors are thrown (an AggregateError when
   * there are several), each once.
   */
  tick(seconds: number): number {
    const steps = this.advance(seconds);
    const errors = this.takeTickErrors();
    if (errors === null) return steps;
    throw errors.length === 1 ? errors[0]!.error : new AggregateError(errors.map((e) => e.error), `tick: ${errors.length} errors (walkers or world listeners); the tick is complete`);
  }

  /** tick's work; what throws in it is kept in tickErrors for the caller to throw or report. */
  private advance(seconds: number): number {
    if (typeof seconds !== 'number' || !(seconds >= 0 && seconds < Infinity)) throw new RangeError(`tick: seconds must be a finite number ≥ 0 (got ${String(seconds)})`);
    const world = this.worldValue;
    if (!world) return 0;
    const h = this.fixedTimeStep;
    const errors = this.tickErrors;
    this.accumulator += seconds;
    let steps = 0;
    while (this.accumulator >= h && steps < this.maxStepsPerAdvance) {
      const stepCount = world.stepCount;
      try {
        world.step(h);
      } catch (error) {
        errors.push({ handle: -1, error });
        // A step the world refused did not happen: neither do the walkers' updates, nor later steps that would refuse as well.
        if (world.stepCount === stepCount) break;
      }
      for (let i = 0; i < this.slots.slotCount; i++) {
        const w = this.slots.walkers[i];
        if (!w) continue;
        const handle = i + this.slots.generations[i]! * SLOT_COUNT;
        // A walker that threw would most likely throw again at the next step: once per tick.
        if (errors.length > 0 && errors.some((e) => e.handle === handle)) continue;
        try {
          w.update(h);
        } catch (error) {
          errors.push({ handle, error });
        }
      }
      this.accumulator -= h;
      steps++;
    }
    // Also after a refused step: time left in the accumulator would make start's loop wait 0 ms.
    if (this.accumulator >= h) this.accumulator %= h;
    // Before the frame: a page that reads both sees the events of the steps the frame shows.
    this.events.flushEvents();
    if (steps > 0 && this.slots.retired.size > 0) {
      // Their last events (a contact's end) were in this tick's batch: the page may forget them now.
      this.post({ type: 'retired', handles: [...this.slots.retired.values()] });
      this.slots.retired.clear();
    }
    if (steps > 0) this.frames.publish(world, this.inputSeq);
    return steps;
  }

  /** The errors of the last tick (null for none), forgotten here so that each is thrown or reported once. */
  private takeTickErrors(): { handle: number; error: unknown }[] | null {
    if (this.tickErrors.length === 0) return null;
    const errors = this.tickErrors.slice();
    this.tickErrors.length = 0;
    return errors;
  }

  /** Steps in real time (setTimeout at the step boundaries) until `stop`. */
  start(): void {
    if (this.timer !== null || !this.worldValue) return;
    this.lastTime = this.now();
    const loop = (): void => {
      const t = this.now();
      const elapsed = Math.min(t - this.lastTime, 250) / 1000;
      this.lastTime = t;
      try {
        this.advance(elapsed);
      } catch (error) {
        this.report('step', -1, -1, error);
      }
      // One report per error, naming the character whose walker threw.
      const errors = this.takeTickErrors();
      if (errors !== null) for (const e of errors) this.report('step', e.handle, -1, e.error);
      const wait = Math.max(0, (this.fixedTimeStep - this.accumulator) * 1000);
      this.timer = setTimeout(loop, wait);
    };
    this.timer = setTimeout(loop, this.fixedTimeStep * 1000);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Stops and stops listening. */
  dispose(): void {
    this.stop();
    this.port.removeEventListener('message', this.onMessage);
  }

  private handle(msg: ClientMessage): void {
    if (msg === null || typeof msg !== 'object') {
      this.report('message', -1, -1, new TypeError(`a message must be an object with a type (got ${String(msg)})`));
      return;
    }
    try {
      this.dispatch(msg);
    } catch (error) {
      const handle = 'handle' in msg && typeof msg.handle === 'number' ? msg.handle : -1;
      const id = 'id' in msg && typeof msg.id === 'number' ? msg.id : -1;
      this.report(String(msg.type), handle, id, error);
    }
  }

  private dispatch(msg: ClientMessage): void {
    if (msg.type === 'init') {
      if (msg.version !== PROTOCOL_VERSION) {
        throw new Error(`the page speaks footing/worker protocol ${String(msg.version)}, this worker ${PROTOCOL_VERSION} (build both from the same footing)`);
      }
      return this.init(msg.world, msg.shared, msg.autoStart);
    }
    if (msg.type === 'returnFrame') {
      this.frames.takeBack(msg.frame);
      return;
    }
    if (msg.type === 'returnEvents') {
      this.events.takeBack(msg.data);
      return;
    }
    const world = this.worldValue;
    if (!world) throw new Error(`${msg.type}: the host has no world yet (send init first)`);
    switch (msg.type) {
      case 'start': return this.start();
      case 'stop': return this.stop();
      case 'dispose': return this.dispose();
      case 'createBody': {
        const slot = this.slots.newSlot(msg.handle);
        const d = msg.desc;
        if (d === null || typeof d !== 'object') throw new TypeError(`desc must be a body description object (got ${String(d)})`);
        const body = world.createBody({ ...d, shape: shapeFromDesc(d.shape) });
        this.slots.claimSlot(slot, msg.handle);
        this.slots.bodies[slot] = body;
        this.slots.handleOf.set(body, msg.handle);
        return;
      }
      case 'createCharacter': {
        const slot = this.slots.newSlot(msg.handle);
        const walker = buildCharacter(world, msg.desc);
        this.slots.claimSlot(slot, msg.handle);
        this.slots.walkers[slot] = walker;
        if (walker.controller.body) this.slots.handleOf.set(walker.controller.body, msg.handle);
        return;
      }
      case 'removeBody': {
        const slot = this.slots.requireSlot(msg.handle, msg.type);
        const body = this.slots.bodies[slot];
        const walker = this.slots.walkers[slot];
        if (body) {
          this.slots.retire(body);
          world.removeBody(body);
        }
        if (walker) {
          if (walker.controller.body) this.slots.retire(walker.controller.body);
          walker.controller.dispose();
        }
        this.slots.release(slot);
        return;
      }
      case 'input': {
        const walker = this.slots.walkers[this.slots.requireSlot(msg.handle, msg.type)];
        if (!walker) throw new Error(`input: handle ${msg.handle} is not a character`);
        // Checked before the input is applied; the frames carry seq in an Int32 (the shared header), and one too large would stick.
        if (typeof msg.seq !== 'number' || !Number.isInteger(msg.seq) || msg.seq < 0 || msg.seq > 0x7fffffff) {
          throw new RangeError(`seq must be an integer in [0, 2^31 - 1] (got ${describeValue(msg.seq)})`);
        }
        if (typeof msg.jump !== 'boolean') throw new TypeError(`jump must be a boolean (got ${describeValue(msg.jump)})`);
        walker.setInput(msg.x, msg.y, msg.z);
        if (msg.jump) walker.jump();
        if (msg.seq > this.inputSeq) this.inputSeq = msg.seq;
        return;
      }
      case 'applyImpulse': {
        const body = this.slots.requireBody(msg.handle, msg.type);
        const point = optional(msg.point);
        // The body takes a falsy point (NaN, 0) for none: only null and undefined mean none here.
        if (point !== undefined) requireFiniteVec(point, 'point');
        return body.applyImpulse(msg.impulse, point);
      }
      case 'setVelocity': {
        const body = this.slots.requireBody(msg.handle, msg.type);
        const linear = optional(msg.linear), angular = optional(msg.angular);
        // Both checked before either is written: undoing a written one would still have woken the body.
        if (linear !== undefined) requireMagnitude(linear, MAX_LINEAR_SPEED, 'MAX_LINEAR_SPEED', 'm/s', 'linearVelocity');
        if (angular !== undefined) requireMagnitude(angular, MAX_ANGULAR_SPEED, 'MAX_ANGULAR_SPEED', 'rad/s', 'angularVelocity');
        if (linear !== undefined) body.setLinearVelocity(linear);
        if (angular !== undefined) body.setAngularVelocity(angular);
        return;
      }
      case 'setKinematicTarget': {
        const body = this.slots.requireBody(msg.handle, msg.type);
        const r = optional(msg.rotation);
        if (r !== undefined) requireFiniteQuat(r, 'rotation');
        return body.setKinematicTarget(msg.position, r);
      }
      case 'setUserData':
        this.slots.requireBody(msg.handle, msg.type).userData = msg.userData;
        return;
      case 'teleport': {
        const slot = this.slots.requireSlot(msg.handle, msg.type);
        const walker = this.slots.walkers[slot];
        const r = optional(msg.rotation);
        // The pose is checked before anything is written: undoing a written rotation would still change the body (its previous pose, its sleep).
        if (r !== undefined) requireFiniteQuat(r, 'rotation');
        if (walker) return walker.teleport(msg.position, r && yawAbout(r, walker.controller.up));
        const body = this.slots.requireBody(msg.handle, msg.type);
        requirePosition(msg.position, 'position');
        if (r !== undefined) body.setRotation(r);
        body.setPosition(msg.position);
        return;
      }
      case 'raycast':
      case 'shapeCast':
      case 'overlap':
        return this.post(answerQuery(world, this.slots, msg));
      case 'setCharacter': {
        const walker = this.slots.requireWalker(msg.handle, msg.type);
        applyCharacterSettings(walker, msg.change);
        this.post({ type: 'character', id: msg.id, state: readCharacter(walker) });
        return;
      }
      case 'getCharacter':
        this.post({ type: 'character', id: msg.id, state: readCharacter(this.slots.requireWalker(msg.handle, msg.type)) });
        return;
      case 'teleportCharacter':
        this.slots.requireWalker(msg.handle, msg.type).teleport(msg.position, msg.yaw);
        return this.done(msg.id);
      case 'setCharacterHeight': {
        const controller = this.slots.requireWalker(msg.handle, msg.type).controller;
        const before = controller.body;
        const changed = controller.setHalfHeight(msg.halfHeight);
        // The controller rebuilt its body for the new capsule: events name the new one by the character's handle.
        if (before && controller.body !== before) {
          this.slots.retire(before);
          if (controller.body) this.slots.handleOf.set(controller.body, msg.handle);
        }
        this.post({ type: 'characterHeight', id: msg.id, changed });
        return;
      }
      case 'createRagdoll': {
        const ragdoll = this.ragdolls.build(world, msg.desc);
        this.post({ type: 'ragdoll', id: msg.id, ragdoll });
        return;
      }
      case 'removeRagdoll':
        this.ragdolls.remove(msg.handle);
        return this.done(msg.id);
      case 'subscribe': return this.events.subscribe(world, msg.event, msg.on);
      case 'createJoint': {
        const handle = msg.handle;
        if (!Number.isSafeInteger(handle) || handle < 0 || handle % 2 !== 0) throw new RangeError(`createJoint: handle must be an even integer ≥ 0 (got ${String(handle)})`);
        if (this.joints.has(handle)) throw new Error(`createJoint: joint handle ${handle} is in use`);
        // The constructor checks every field before the joint touches the world.
        const joint = jointFromDesc(msg.desc, (h, field) => this.slots.requireBody(h, `createJoint: ${field}`));
        world.addJoint(joint);
        this.joints.set(handle, joint);
        this.jointHandleOf.set(joint, handle);
        return this.done(msg.id);
      }
      case 'removeJoint': {
        const joint = this.joints.get(msg.handle);
        if (!joint) throw new Error(`removeJoint: no joint with handle ${String(msg.handle)}`);
        // Removing one of its bodies has already taken the joint out of the world.
        if (world.joints.includes(joint)) world.removeJoint(joint);
        this.joints.delete(msg.handle);
        this.jointHandleOf.delete(joint);
        return this.done(msg.id);
      }
      case 'setJoint': {
        const joint = this.joints.get(msg.handle);
        if (!joint || !world.joints.includes(joint)) throw new Error(`setJoint: no joint with handle ${String(msg.handle)} in the world`);
        changeJoint(joint, msg.changes);
        return this.done(msg.id);
      }
      case 'setSettings': {
        applySettings(world, msg.settings);
        this.fixedTimeStep = world.fixedTimeStep;
        this.maxStepsPerAdvance = world.maxStepsPerAdvance;
        this.post({ type: 'settings', id: msg.id, settings: readSettings(world) });
        return;
      }
      case 'getSettings':
        this.post({ type: 'settings', id: msg.id, settings: readSettings(world) });
        return;
      case 'snapshot': {
        const snapshot = this.snapshot();
        this.post({ type: 'snapshot', id: msg.id, snapshot }, workerSnapshotTransferList(snapshot));
        return;
      }
      case 'restore': {
        this.restore(msg.snapshot);
        return this.done(msg.id);
      }
      default:
        throw new TypeError(`unknown message type ${String((msg as { type: unknown }).type)}`);
    }
  }

  /** The world's snapshot and every character's walker (see WorkerSnapshot). */
  snapshot(): WorkerSnapshot {
    const world = this.worldValue;
    if (!world) throw new Error('snapshot: the host has no world yet');
    const characters: { handle: number; walker: WalkerSnapshot }[] = [];
    for (let i = 0; i < this.slots.slotCount; i++) {
      const w = this.slots.walkers[i];
      if (w) characters.push({ handle: i + this.slots.generations[i]! * SLOT_COUNT, walker: w.snapshot() });
    }
    return { world: world.snapshot(), characters };
  }

  /**
   * Restores `snapshot()`'s state: the world and every character. All or
   * nothing: a snapshot that does not fit (another world, a character
   * missing or unknown, a bad array) throws a SnapshotError and the world
   * and the characters are as they were. Then publishes the restored poses
   * as two frames, so that the page does not interpolate across the jump.
   */
  restore(snapshot: WorkerSnapshot): void {
    const world = this.worldValue;
    if (!world) throw new Error('restore: the host has no world yet');
    if (snapshot === null || typeof snapshot !== 'object' || !Array.isArray(snapshot.characters)) {
      throw new SnapshotError('restore: not a worker snapshot ({ world, characters })');
    }
    const walkers: Walker[] = [];
    for (const c of snapshot.characters) {
      const slot = c !== null && typeof c === 'object' && Number.isInteger(c.handle) && c.handle >= 0 ? slotOf(c.handle) : -1;
      const walker = slot >= 0 && this.slots.generations[slot] === generationOf(c.handle) ? this.slots.walkers[slot] : null;
      if (!walker) throw new SnapshotError(`restore: the snapshot's character ${String(c?.handle)} is not a live character`);
      if (walkers.includes(walker)) throw new SnapshotError(`restore: character ${c.handle} appears twice in the snapshot`);
      walkers.push(walker);
    }
    const live = this.slots.walkers.reduce((n, w) => n + (w ? 1 : 0), 0);
    if (walkers.length !== live) throw new SnapshotError(`restore: the snapshot has ${walkers.length} characters, the worker ${live}`);
    // World.restore and Walker.restore each check everything first; across them, a later refusal rolls back the earlier ones.
    const worldBefore: WorldSnapshot = world.snapshot();
    const walkersBefore = walkers.map((w) => w.snapshot());
    world.restore(snapshot.world);
    let k = 0;
    try {
      for (; k < walkers.length; k++) walkers[k]!.restore(snapshot.characters[k]!.walker);
    } catch (error) {
      world.restore(worldBefore);
      for (let i = 0; i < k; i++) walkers[i]!.restore(walkersBefore[i]!);
      throw error;
    }
    this.frames.publish(world, this.inputSeq);
    this.frames.publish(world, this.inputSeq);
  }






  private done(id: number): void {
    this.post({ type: 'done', id });
  }

  private init(desc: ClientMessageInit['world'], shared: boolean, autoStart: boolean): void {
    if (this.worldValue) throw new Error('init: the host already has a world');
    if (desc === null || typeof desc !== 'object') throw new TypeError(`init: world must be a world description object (got ${String(desc)})`);
    for (const key of Object.keys(desc)) {
      if (!WORLD_DESC_FIELDS.includes(key)) throw new RangeError(`init: world.${key} is not a world field (fields: ${WORLD_DESC_FIELDS.join(', ')})`);
    }
    if (typeof shared !== 'boolean') throw new TypeError(`init: shared must be a boolean (got ${describeValue(shared)})`);
    if (typeof autoStart !== 'boolean') throw new TypeError(`init: autoStart must be a boolean (got ${describeValue(autoStart)})`);
    const world = new World({
      gravity: desc.gravity, fixedTimeStep: desc.fixedTimeStep, maxStepsPerAdvance: desc.maxStepsPerAdvance,
      solver: desc.solver, solverSettings: desc.solverSettings, sleeping: desc.sleeping,
    });
    if (desc.jointSettings !== undefined) applySettings(world, { jointSettings: desc.jointSettings });
    this.fixedTimeStep = world.fixedTimeStep;
    this.maxStepsPerAdvance = world.maxStepsPerAdvance;
    this.worldValue = world;
    if (shared && typeof SharedArrayBuffer === 'function') this.frames.growShared(64);
    this.options.onWorld?.(world, this);
    this.post({ type: 'ready', fixedTimeStep: this.fixedTimeStep, shared: this.frames.shared });
    if (autoStart) this.start();
  }











  private report(command: string, handle: number, id: number, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const name = error instanceof Error ? error.name : 'Error';
    this.post({ type: 'error', command, handle, id, name, message });
  }

  private post(message: HostMessage, transfer?: Transferable[]): void {
    this.port.postMessage(message, transfer);
  }
}

type ClientMessageInit = Extract<ClientMessage, { type: 'init' }>;
/** WorldDescData's fields: a misspelt one is refused rather than ignored. */
const WORLD_DESC_FIELDS = ['gravity', 'fixedTimeStep', 'maxStepsPerAdvance', 'solverSettings', 'solver', 'sleeping', 'jointSettings'];


/** An optional field of a message: null (a page's `point ?? null`) and undefined are absent; anything else is checked as given. */
function optional<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}

/** The angle of `q`'s twist about the unit axis `up` (the yaw a character's frame rotation carries). */
function yawAbout(q: { x: number; y: number; z: number; w: number }, up: { x: number; y: number; z: number }): number {
  return 2 * Math.atan2(q.x * up.x + q.y * up.y + q.z * up.z, q.w);
}

/** The ArrayBuffers of a WorkerSnapshot, to post it without a copy. */
export function workerSnapshotTransferList(s: WorkerSnapshot): ArrayBuffer[] {
  const out = snapshotTransferList(s.world);
  const add = (a: Float64Array | Int32Array): void => { if (out.indexOf(a.buffer as ArrayBuffer) < 0) out.push(a.buffer as ArrayBuffer); };
  for (const c of s.characters) {
    add(c.walker.f64); add(c.walker.i32); add(c.walker.controller.f64); add(c.walker.controller.i32);
  }
  return out;
}

/**
 * Runs a physics host on the worker's own scope (or on `options.port`): the
 * whole worker script is `import { hostPhysics } from 'footing/worker'; hostPhysics();`.
 */
export function hostPhysics(options: PhysicsHostOptions & { port?: MessagePortLike } = {}): PhysicsHost {
  return new PhysicsHost(options.port ?? (globalThis as unknown as MessagePortLike), options);
}
