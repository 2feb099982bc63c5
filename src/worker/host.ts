/**
 * The worker side of `footing/worker`: owns the World, builds bodies and
 * characters from descriptions, steps at a fixed rate and publishes the
 * poses after every tick (a transferred Float32Array, or a
 * SharedArrayBuffer when the client asked for one and the worker has it).
 */
import { World } from '../world/world';
import type { RigidBody } from '../dynamics/body';
import type { Shape } from '../shapes/shape';
import { Box } from '../shapes/box';
import { Sphere } from '../shapes/sphere';
import { Capsule } from '../shapes/capsule';
import { Cylinder } from '../shapes/cylinder';
import { ConvexHull } from '../shapes/convex-hull';
import { TriangleMesh } from '../shapes/triangle-mesh';
import type { QueryOptions } from '../world/world';
import type { Joint } from '../joints/joint';
import { createRagdoll, createRagdollFromDescription, type Ragdoll, type RagdollBoneDesc, type RagdollWorld } from '../ragdoll/ragdoll';
import type { ConvexShape } from '../shapes/shape';
import type { ContactEvent, JointBreakEvent, SensorEvent } from '../world/events';
import { SnapshotError, snapshotTransferList, type WorldSnapshot } from '../world/snapshot';
import { CharacterController } from '../../character/controller';
import { Walker, type WalkerSnapshot } from '../../character/walker';
import { describeShape } from './describe';
import { changeJoint, jointFromDesc } from './joints';
import { applySettings, readSettings } from './settings';
import { applyCharacterSettings, readCharacter } from './character';
import {
  epochNow, SLOT_COUNT, F_GENERATION, F_POSITION, F_ROTATION, F_STATE, FRAME_STRIDE, generationOf, H_INPUT_SEQ, H_NEWEST, H_SEQUENCE, H_SLOTS, H_STEP, H_TIME,
  SHARED_HEADER_BYTES, slotOf,
  STATE_AIRBORNE, STATE_AWAKE, STATE_EMPTY, STATE_GROUNDED, STATE_SLEEPING, STATE_SLIDING,
  E_A, E_B, E_CHILD_A, E_CHILD_B, E_IMPULSE, E_NAME, E_NORMAL, E_POINT, E_STEP, EVENT_STRIDE, WORKER_EVENT_NAMES,
  PROTOCOL_VERSION, QUERY_OPTION_NAMES,
  type BodyDescData, type CharacterDescData, type TrackedBodyData, type ClientMessage, type HostMessage, type MessagePortLike, type RaycastHitData, type ShapeDesc,
  type WorkerEventName, type WorkerSnapshot, type QueryOptionsData, type ShapeCastHitData, type OverlapContactData, type RagdollDescData, type RagdollData,
} from './protocol';

/** Builds a footing shape from its description; throws a RangeError/TypeError naming the field. */
export function shapeFromDesc(desc: ShapeDesc): Shape {
  if (desc === null || typeof desc !== 'object') throw new TypeError(`shape must be a shape description object (got ${String(desc)})`);
  switch (desc.kind) {
    case 'box': return new Box(desc.halfExtents);
    case 'sphere': return new Sphere(desc.radius);
    case 'capsule': return new Capsule(desc.radius, desc.halfHeight);
    case 'cylinder': return new Cylinder(desc.radius, desc.halfHeight);
    case 'hull': return new ConvexHull(desc.points, { maxVertices: desc.maxVertices });
    case 'mesh': return new TriangleMesh(desc.positions, desc.indices, { doubleSided: desc.doubleSided ?? false });
    default: throw new TypeError(`shape.kind must be 'box', 'sphere', 'capsule', 'cylinder', 'hull' or 'mesh' (got ${String((desc as { kind: unknown }).kind)})`);
  }
}

export interface PhysicsHostOptions {
  /** Called once the world exists, before the first step: add joints, ragdolls or steppers here. */
  onWorld?: (world: World, host: PhysicsHost) => void;
  /** Clock in milliseconds, shared with the client's (frames carry its time). Default `epochNow`. */
  now?: () => number;
}

/** Transferred frames in flight at once: one being read, one on its way. */
const MAX_FRAMES_OUT = 2;

export class PhysicsHost {
  private worldValue: World | null = null;
  private readonly port: MessagePortLike;
  private readonly options: PhysicsHostOptions;
  private readonly now: () => number;
  private readonly bodies: (RigidBody | null)[] = [];
  private readonly walkers: (Walker | null)[] = [];
  private readonly generations: number[] = [];
  private readonly handleOf = new Map<RigidBody, number>();
  /** Bodies removed since the last step, with their handles: the World reports their contacts' end in the next step. */
  private readonly retired = new Map<RigidBody, number>();
  /** Odd slots (the host's) free for reuse, and the generation each slot's next body gets. */
  private readonly freeHostSlots: number[] = [];
  private nextHostSlot = 1;
  private readonly nextGeneration: number[] = [];
  private slotCount = 0;
  private inputSeq = 0;
  private fixedTimeStep = 1 / 60;
  private maxStepsPerAdvance = 4;
  private accumulator = 0;
  // transfer mode
  private readonly spare: Float32Array[] = [];
  private framesOut = 0;
  // shared mode
  private shared: SharedArrayBuffer | null = null;
  private sharedHeader: Int32Array | null = null;
  private sharedTimes: Float64Array | null = null;
  private readonly sharedFrames: Float32Array[] = [];
  // real-time loop
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastTime = 0;
  private readonly onMessage = (event: MessageEvent): void => this.handle(event.data as ClientMessage);
  /** Joints by handle: the client's even ones, `trackJoint`'s odd ones. */
  private readonly joints = new Map<number, Joint>();
  private readonly jointHandleOf = new Map<Joint, number>();
  private nextHostJoint = 1;
  /** The world listeners of the events the client subscribed to (their unsubscribe functions). */
  private readonly subscriptions = new Map<WorkerEventName, () => void>();
  /** This tick's events, EVENT_STRIDE doubles each (protocol.ts), posted after the tick. */
  private eventData = new Float64Array(16 * EVENT_STRIDE);
  private eventCount = 0;
  /** Batches the client handed back: with them, a tick with events allocates nothing. */
  private readonly spareEvents: Float64Array<ArrayBuffer>[] = [];
  /** Ragdolls the page created, by the handle `createRagdoll` answered with. */
  private readonly ragdolls = new Map<number, { ragdoll: Ragdoll; bodies: number[]; joints: number[] }>();
  private nextRagdoll = 1;

  /** Listens on `port` (the worker's `self`, or a MessagePort) for a client's `init`. */
  constructor(port: MessagePortLike, options: PhysicsHostOptions = {}) {
    this.port = port;
    this.options = options;
    this.now = options.now ?? epochNow;
    port.addEventListener('message', this.onMessage);
    port.start?.();
  }

  /** The world, once the client's `init` arrived (null before). */
  get world(): World | null { return this.worldValue; }

  /** The body behind a handle, for code running in the worker (null for characters and removed bodies). */
  getBody(handle: number): RigidBody | null {
    const slot = slotOf(handle);
    return this.generations[slot] === generationOf(handle) ? this.bodies[slot] ?? null : null;
  }

  /** The walker behind a character handle. */
  getWalker(handle: number): Walker | null {
    const slot = slotOf(handle);
    return this.generations[slot] === generationOf(handle) ? this.walkers[slot] ?? null : null;
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
    if (this.handleOf.has(body)) throw new Error(`track: the body already has handle ${this.handleOf.get(body)}`);
    const info: TrackedBodyData = { type: body.type, shape: describeShape(body.shape), tag };
    const handle = this.register(body);
    this.post({ type: 'tracked', handle, body: info });
    return handle;
  }

  /** Gives a body of the world a handle on one of the host's (odd) slots and its row in the frames. */
  private register(body: RigidBody): number {
    const slot = this.freeHostSlots.pop() ?? this.takeHostSlot();
    const generation = this.nextGeneration[slot] ?? 0;
    const handle = slot + generation * SLOT_COUNT;
    for (let i = this.slotCount; i <= slot; i++) {
      this.bodies[i] = null; this.walkers[i] = null; this.generations[i] = -1;
    }
    this.slotCount = Math.max(this.slotCount, slot + 1);
    this.bodies[slot] = body;
    this.generations[slot] = generation;
    this.handleOf.set(body, handle);
    return handle;
  }

  /** Stops streaming a tracked body (it stays in the world); the client hears of it through `onBodyRemoved`. */
  untrack(handle: number): void {
    const slot = slotOf(handle);
    if (slot % 2 !== 1 || this.generations[slot] !== generationOf(handle) || !this.bodies[slot]) throw new Error(`untrack: ${handle} is not a tracked body`);
    this.retire(this.bodies[slot]!);
    this.release(slot);
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

  private takeHostSlot(): number {
    const slot = this.nextHostSlot;
    if (slot >= SLOT_COUNT) throw new RangeError(`track: more than ${SLOT_COUNT / 2} tracked bodies`);
    this.nextHostSlot += 2;
    return slot;
  }

  /** Empties a slot; a host slot goes back to the free list with its next generation. */
  private release(slot: number): void {
    this.bodies[slot] = null;
    this.walkers[slot] = null;
    if (slot % 2 === 1) {
      this.nextGeneration[slot] = this.generations[slot]! + 1;
      this.generations[slot] = -1;
      this.freeHostSlots.push(slot);
    }
  }

  /** Steps whole fixed steps covering `seconds` (at most maxStepsPerAdvance; the rest is dropped) and publishes the poses. */
  tick(seconds: number): number {
    if (typeof seconds !== 'number' || !(seconds >= 0 && seconds < Infinity)) throw new RangeError(`tick: seconds must be a finite number ≥ 0 (got ${String(seconds)})`);
    const world = this.worldValue;
    if (!world) return 0;
    const h = this.fixedTimeStep;
    this.accumulator += seconds;
    let steps = 0;
    while (this.accumulator >= h && steps < this.maxStepsPerAdvance) {
      world.step(h);
      for (let i = 0; i < this.slotCount; i++) {
        const w = this.walkers[i];
        if (w) w.update(h);
      }
      this.accumulator -= h;
      steps++;
    }
    if (this.accumulator >= h) this.accumulator %= h;
    // Before the frame: a page that reads both sees the events of the steps the frame shows.
    this.flushEvents();
    if (steps > 0 && this.retired.size > 0) {
      // Their last events (a contact's end) were in this tick's batch: the page may forget them now.
      this.post({ type: 'retired', handles: [...this.retired.values()] });
      this.retired.clear();
    }
    if (steps > 0) this.publish();
    return steps;
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
        this.tick(elapsed);
      } catch (error) {
        this.report('step', -1, -1, error);
      }
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
      this.framesOut--;
      if (msg.frame.length >= this.slotCount * FRAME_STRIDE) this.spare.push(msg.frame);
      return;
    }
    if (msg.type === 'returnEvents') {
      const data = msg.data;
      if (data instanceof Float64Array && data.buffer instanceof ArrayBuffer && data.length >= EVENT_STRIDE && this.spareEvents.length < 2) this.spareEvents.push(data as Float64Array<ArrayBuffer>);
      return;
    }
    const world = this.worldValue;
    if (!world) throw new Error(`${msg.type}: the host has no world yet (send init first)`);
    switch (msg.type) {
      case 'start': return this.start();
      case 'stop': return this.stop();
      case 'dispose': return this.dispose();
      case 'createBody': {
        const slot = this.claimSlot(msg.handle);
        const d = msg.desc;
        const body = world.createBody({ ...d, shape: shapeFromDesc(d.shape) });
        this.bodies[slot] = body;
        this.handleOf.set(body, msg.handle);
        return;
      }
      case 'createCharacter': {
        const slot = this.claimSlot(msg.handle);
        const d: CharacterDescData = msg.desc ?? {};
        const controller = new CharacterController(world, {
          ...(d.settings ?? {}), radius: d.radius, halfHeight: d.halfHeight, position: d.position, collisionGroup: d.collisionGroup,
        });
        try {
          this.walkers[slot] = new Walker(controller, d.walker ?? {});
        } catch (error) {
          controller.dispose();
          throw error;
        }
        if (controller.body) this.handleOf.set(controller.body, msg.handle);
        return;
      }
      case 'removeBody': {
        const slot = this.requireSlot(msg.handle, msg.type);
        const body = this.bodies[slot];
        const walker = this.walkers[slot];
        if (body) {
          this.retire(body);
          world.removeBody(body);
        }
        if (walker) {
          if (walker.controller.body) this.retire(walker.controller.body);
          walker.controller.dispose();
        }
        this.release(slot);
        return;
      }
      case 'input': {
        const walker = this.walkers[this.requireSlot(msg.handle, msg.type)];
        if (!walker) throw new Error(`input: handle ${msg.handle} is not a character`);
        walker.setInput(msg.x, msg.y, msg.z);
        if (msg.jump) walker.jump();
        if (msg.seq > this.inputSeq) this.inputSeq = msg.seq;
        return;
      }
      case 'applyImpulse':
        return this.requireBody(msg.handle, msg.type).applyImpulse(msg.impulse, msg.point);
      case 'setVelocity': {
        const body = this.requireBody(msg.handle, msg.type);
        const { x, y, z } = body.linearVelocity;
        if (msg.linear) body.setLinearVelocity(msg.linear);
        try {
          if (msg.angular) body.setAngularVelocity(msg.angular);
        } catch (error) {
          // All or nothing: the linear velocity written above goes back.
          body.setLinearVelocity({ x, y, z });
          throw error;
        }
        return;
      }
      case 'setKinematicTarget':
        return this.requireBody(msg.handle, msg.type).setKinematicTarget(msg.position, msg.rotation);
      case 'setUserData':
        this.requireBody(msg.handle, msg.type).userData = msg.userData;
        return;
      case 'teleport': {
        const slot = this.requireSlot(msg.handle, msg.type);
        const walker = this.walkers[slot];
        const r = msg.rotation;
        if (walker) {
          if (r && !(Number.isFinite(r.x) && Number.isFinite(r.y) && Number.isFinite(r.z) && Number.isFinite(r.w))) {
            throw new RangeError(`rotation must be finite (got (${r.x}, ${r.y}, ${r.z}, ${r.w}))`);
          }
          return walker.teleport(msg.position, r && yawAbout(r, walker.controller.up));
        }
        const body = this.requireBody(msg.handle, msg.type);
        const { x, y, z, w } = body.rotation;
        if (r) body.setRotation(r);
        try {
          body.setPosition(msg.position);
        } catch (error) {
          // All or nothing: the rotation written above goes back.
          body.setRotation({ x, y, z, w });
          throw error;
        }
        return;
      }
      case 'raycast': {
        const hit = world.raycast(msg.from, msg.to, this.queryOptions(msg.options, msg.type));
        const data: RaycastHitData | null = hit && {
          handle: this.handleOf.get(hit.body) ?? -1,
          point: { x: hit.point.x, y: hit.point.y, z: hit.point.z },
          normal: { x: hit.normal.x, y: hit.normal.y, z: hit.normal.z },
          distance: hit.distance, fraction: hit.fraction, triangle: hit.triangle, child: hit.child ?? -1,
        };
        this.post({ type: 'raycastResult', id: msg.id, hit: data });
        return;
      }
      case 'shapeCast': {
        const shape = this.queryShape(msg.shape, msg.type);
        const hit = world.shapeCast(shape, msg.position, msg.rotation, msg.translation, this.queryOptions(msg.options, msg.type));
        const t = msg.translation;
        const data: ShapeCastHitData | null = hit && {
          handle: this.handleOf.get(hit.body) ?? -1,
          fraction: hit.fraction, distance: hit.fraction * Math.hypot(t.x, t.y, t.z),
          point: { x: hit.point.x, y: hit.point.y, z: hit.point.z },
          normal: { x: hit.normal.x, y: hit.normal.y, z: hit.normal.z },
          triangle: hit.triangle, child: hit.child ?? -1,
        };
        this.post({ type: 'shapeCastResult', id: msg.id, hit: data });
        return;
      }
      case 'overlap': {
        const shape = this.queryShape(msg.shape, msg.type);
        const contacts: OverlapContactData[] = world.overlap(shape, msg.position, msg.rotation, this.queryOptions(msg.options, msg.type)).map((c) => ({
          handle: this.handleOf.get(c.body) ?? -1,
          point: { x: c.point.x, y: c.point.y, z: c.point.z },
          normal: { x: c.normal.x, y: c.normal.y, z: c.normal.z },
          depth: c.depth, child: c.child,
        }));
        this.post({ type: 'overlapResult', id: msg.id, contacts });
        return;
      }
      case 'setCharacter': {
        const walker = this.requireWalker(msg.handle, msg.type);
        applyCharacterSettings(walker, msg.change);
        this.post({ type: 'character', id: msg.id, state: readCharacter(walker) });
        return;
      }
      case 'getCharacter':
        this.post({ type: 'character', id: msg.id, state: readCharacter(this.requireWalker(msg.handle, msg.type)) });
        return;
      case 'teleportCharacter':
        this.requireWalker(msg.handle, msg.type).teleport(msg.position, msg.yaw);
        return this.done(msg.id);
      case 'setCharacterHeight': {
        const controller = this.requireWalker(msg.handle, msg.type).controller;
        const before = controller.body;
        const changed = controller.setHalfHeight(msg.halfHeight);
        // The controller rebuilt its body for the new capsule: events name the new one by the character's handle.
        if (before && controller.body !== before) {
          this.retire(before);
          if (controller.body) this.handleOf.set(controller.body, msg.handle);
        }
        this.post({ type: 'characterHeight', id: msg.id, changed });
        return;
      }
      case 'createRagdoll': {
        const ragdoll = this.buildRagdoll(world, msg.desc);
        this.post({ type: 'ragdoll', id: msg.id, ragdoll });
        return;
      }
      case 'removeRagdoll': {
        const entry = this.ragdolls.get(msg.handle);
        if (!entry) throw new Error(`removeRagdoll: no ragdoll with handle ${String(msg.handle)}`);
        for (const body of entry.ragdoll.bodies) this.retire(body);
        entry.ragdoll.remove();
        for (const handle of entry.bodies) {
          const slot = slotOf(handle);
          if (this.generations[slot] === generationOf(handle) && this.bodies[slot]) {
            this.release(slot);
          }
        }
        for (const handle of entry.joints) {
          const joint = this.joints.get(handle);
          if (joint) this.jointHandleOf.delete(joint);
          this.joints.delete(handle);
        }
        this.ragdolls.delete(msg.handle);
        return this.done(msg.id);
      }
      case 'subscribe': return this.subscribe(world, msg.event, msg.on);
      case 'createJoint': {
        const handle = msg.handle;
        if (!Number.isInteger(handle) || handle < 0 || handle % 2 !== 0) throw new RangeError(`createJoint: handle must be an even integer ≥ 0 (got ${String(handle)})`);
        if (this.joints.has(handle)) throw new Error(`createJoint: joint handle ${handle} is in use`);
        // The constructor checks every field before the joint touches the world.
        const joint = jointFromDesc(msg.desc, (h, field) => this.requireBody(h, `createJoint: ${field}`));
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
    for (let i = 0; i < this.slotCount; i++) {
      const w = this.walkers[i];
      if (w) characters.push({ handle: i + this.generations[i]! * SLOT_COUNT, walker: w.snapshot() });
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
      const walker = slot >= 0 && this.generations[slot] === generationOf(c.handle) ? this.walkers[slot] : null;
      if (!walker) throw new SnapshotError(`restore: the snapshot's character ${String(c?.handle)} is not a live character`);
      if (walkers.includes(walker)) throw new SnapshotError(`restore: character ${c.handle} appears twice in the snapshot`);
      walkers.push(walker);
    }
    const live = this.walkers.reduce((n, w) => n + (w ? 1 : 0), 0);
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
    this.publish();
    this.publish();
  }

  private subscribe(world: World, name: WorkerEventName, on: boolean): void {
    const code = WORKER_EVENT_NAMES.indexOf(name);
    if (code < 0) throw new RangeError(`subscribe: unknown event ${String(name)} (events: ${WORKER_EVENT_NAMES.join(', ')})`);
    if (typeof on !== 'boolean') throw new TypeError(`subscribe: on must be a boolean (got ${String(on)})`);
    const off = this.subscriptions.get(name);
    if (!on) {
      off?.();
      this.subscriptions.delete(name);
      return;
    }
    if (off) return;
    if (name === 'jointBreak') {
      this.subscriptions.set(name, world.on('jointBreak', (e: JointBreakEvent) => {
        const o = this.claimEvent(code);
        const d = this.eventData;
        d[o + E_A] = this.jointHandleOf.get(e.joint) ?? -1;
        d[o + E_IMPULSE] = e.impulse;
      }));
    } else if (name === 'sensorEnter' || name === 'sensorExit') {
      this.subscriptions.set(name, world.on(name, (e: SensorEvent) => {
        const o = this.claimEvent(code);
        const d = this.eventData;
        d[o + E_A] = this.eventHandle(e.sensor);
        d[o + E_B] = this.eventHandle(e.body);
      }));
    } else {
      this.subscriptions.set(name, world.on(name, (e: ContactEvent) => {
        const o = this.claimEvent(code);
        const d = this.eventData;
        d[o + E_A] = this.eventHandle(e.bodyA);
        d[o + E_B] = this.eventHandle(e.bodyB);
        d[o + E_POINT] = e.point.x; d[o + E_POINT + 1] = e.point.y; d[o + E_POINT + 2] = e.point.z;
        d[o + E_NORMAL] = e.normal.x; d[o + E_NORMAL + 1] = e.normal.y; d[o + E_NORMAL + 2] = e.normal.z;
        d[o + E_IMPULSE] = e.impulse;
        d[o + E_CHILD_A] = e.childA;
        d[o + E_CHILD_B] = e.childB;
      }));
    }
  }

  /** Room for one more event in this tick's batch, zeroed and stamped; returns its offset. */
  private claimEvent(code: number): number {
    const need = (this.eventCount + 1) * EVENT_STRIDE;
    if (this.eventData.length < need) {
      const grown = new Float64Array(this.eventData.length * 2);
      grown.set(this.eventData);
      this.eventData = grown;
    }
    const o = this.eventCount * EVENT_STRIDE;
    this.eventData.fill(0, o, o + EVENT_STRIDE);
    this.eventData[o + E_NAME] = code;
    this.eventData[o + E_STEP] = this.worldValue!.stepCount;
    this.eventData[o + E_A] = -1;
    this.eventData[o + E_B] = -1;
    this.eventData[o + E_CHILD_A] = -1;
    this.eventData[o + E_CHILD_B] = -1;
    this.eventCount++;
    return o;
  }

  /** Posts this tick's events (the batch is transferred; the next one is written into a batch the client returned). */
  private flushEvents(): void {
    if (this.eventCount === 0) return;
    const data = this.eventData;
    this.eventData = this.spareEvents.pop() ?? new Float64Array(data.length);
    const count = this.eventCount;
    this.eventCount = 0;
    this.post({ type: 'events', count, data }, [data.buffer]);
  }

  private retire(body: RigidBody): void {
    const handle = this.handleOf.get(body);
    if (handle === undefined) return;
    this.handleOf.delete(body);
    this.retired.set(body, handle);
  }

  /** The handle events name a body by: its own, for a body removed since the last step too. */
  private eventHandle(body: RigidBody): number {
    return this.handleOf.get(body) ?? this.retired.get(body) ?? -1;
  }

  private done(id: number): void {
    this.post({ type: 'done', id });
  }

  private init(desc: ClientMessageInit['world'], shared: boolean, autoStart: boolean): void {
    if (this.worldValue) throw new Error('init: the host already has a world');
    if (desc === null || typeof desc !== 'object') throw new TypeError(`init: world must be a world description object (got ${String(desc)})`);
    const world = new World({
      gravity: desc.gravity, fixedTimeStep: desc.fixedTimeStep, maxStepsPerAdvance: desc.maxStepsPerAdvance,
      solver: desc.solver, solverSettings: desc.solverSettings, sleeping: desc.sleeping,
    });
    if (desc.jointSettings !== undefined) applySettings(world, { jointSettings: desc.jointSettings });
    this.fixedTimeStep = world.fixedTimeStep;
    this.maxStepsPerAdvance = world.maxStepsPerAdvance;
    this.worldValue = world;
    if (shared && typeof SharedArrayBuffer === 'function') this.growShared(64);
    this.options.onWorld?.(world, this);
    this.post({ type: 'ready', fixedTimeStep: this.fixedTimeStep, shared: this.shared });
    if (autoStart) this.start();
  }

  private claimSlot(handle: number): number {
    if (!Number.isInteger(handle) || handle < 0) throw new RangeError(`handle must be an integer ≥ 0 (got ${String(handle)})`);
    const slot = slotOf(handle);
    if (slot % 2 !== 0) throw new RangeError(`handle ${handle}: the client's handles have even slots (odd ones are the host's)`);
    if (this.bodies[slot] || this.walkers[slot]) throw new Error(`slot ${slot} is in use (handle ${handle})`);
    for (let i = this.slotCount; i <= slot; i++) {
      this.bodies[i] = null; this.walkers[i] = null; this.generations[i] = -1;
    }
    this.slotCount = Math.max(this.slotCount, slot + 1);
    this.generations[slot] = generationOf(handle);
    return slot;
  }

  private requireSlot(handle: number, command: string): number {
    const slot = slotOf(handle);
    if (!(slot < this.slotCount) || this.generations[slot] !== generationOf(handle) || !(this.bodies[slot] || this.walkers[slot])) {
      throw new Error(`${command}: no body or character with handle ${String(handle)}`);
    }
    return slot;
  }

  private requireWalker(handle: number, command: string): Walker {
    const walker = this.walkers[this.requireSlot(handle, command)];
    if (!walker) throw new Error(`${command}: handle ${handle} is a body, not a character`);
    return walker;
  }

  /** The World's QueryOptions for the page's filter, bodies by handle; refuses a field it does not know. */
  private queryOptions(o: QueryOptionsData | undefined, command: string): QueryOptions {
    if (o === undefined) return {};
    if (o === null || typeof o !== 'object') throw new TypeError(`${command}: options must be an object (got ${String(o)})`);
    for (const key of Object.keys(o)) {
      if (!(QUERY_OPTION_NAMES as readonly string[]).includes(key)) {
        throw new RangeError(`${command}: options.${key} is not a query option (options: ${QUERY_OPTION_NAMES.join(', ')})`);
      }
    }
    const options: QueryOptions = { collisionGroup: o.collisionGroup, collisionMask: o.collisionMask, includeSensors: o.includeSensors };
    const ex = o.exclude;
    if (ex === undefined) return options;
    const bodyOf = (handle: number, field: string): RigidBody | null => {
      const slot = this.requireSlot(handle, `${command}: ${field}`);
      return this.bodies[slot] ?? this.walkers[slot]?.controller.body ?? null;
    };
    if (typeof ex === 'number') {
      options.exclude = bodyOf(ex, 'options.exclude');
    } else if (Array.isArray(ex)) {
      const skip = new Set<RigidBody | null>(ex.map((h, i) => bodyOf(h, `options.exclude[${i}]`)));
      options.filter = (body) => !skip.has(body);
    } else {
      throw new TypeError(`${command}: options.exclude must be a handle or an array of handles (got ${String(ex)})`);
    }
    return options;
  }

  /** A query's shape from its description: convex kinds only, as the World's queries take. */
  private queryShape(desc: ShapeDesc, command: string): ConvexShape {
    const shape = shapeFromDesc(desc);
    if (!shape.isConvex) throw new TypeError(`${command}: shape must be a convex kind ('box', 'sphere', 'capsule', 'cylinder' or 'hull'; got '${desc.kind}')`);
    return shape as ConvexShape;
  }

  /**
   * Builds a ragdoll (the humanoid, or `desc.bones`), gives its bodies host
   * handles and its joints `trackJoint` handles. All or nothing: a
   * description refused half-way takes out what it had added.
   */
  private buildRagdoll(world: World, desc: RagdollDescData): RagdollData {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`desc must be a ragdoll description object (got ${String(desc)})`);
    for (const key of Object.keys(desc)) {
      if (!RAGDOLL_FIELDS.includes(key)) throw new RangeError(`${key} is not a ragdoll option (options: ${RAGDOLL_FIELDS.join(', ')})`);
    }
    const { bones, ...options } = desc;
    if (options.position === null || typeof options.position !== 'object') throw new TypeError(`position must be a { x, y, z } object (got ${String(options.position)})`);
    let skeleton: RagdollBoneDesc[] | null = null;
    if (bones !== undefined) {
      if (!Array.isArray(bones)) throw new TypeError(`bones must be an array of bone descriptions (got ${String(bones)})`);
      skeleton = bones.map((bone, i) => {
        if (bone === null || typeof bone !== 'object') throw new TypeError(`bones[${i}] must be a bone description object`);
        return { ...bone, shape: this.queryShape(bone.shape, `bones[${i}]`) };
      });
    }
    const added: RigidBody[] = [];
    const addedJoints: Joint[] = [];
    const recording: RagdollWorld = {
      createBody: (d) => { const b = world.createBody(d); added.push(b); return b; },
      removeBody: (b) => world.removeBody(b),
      addJoint: (j) => { world.addJoint(j); addedJoints.push(j); },
      removeJoint: (j) => world.removeJoint(j),
    };
    let ragdoll: Ragdoll;
    try {
      ragdoll = skeleton
        ? createRagdollFromDescription(recording, skeleton, { position: options.position, rotation: options.rotation }, options)
        : createRagdoll(recording, options);
    } catch (error) {
      for (let i = addedJoints.length - 1; i >= 0; i--) if (addedJoints[i]!.owner) world.removeJoint(addedJoints[i]!);
      for (let i = added.length - 1; i >= 0; i--) if (added[i]!.world) world.removeBody(added[i]!);
      throw error;
    }
    const data: RagdollData = { handle: this.nextRagdoll++, bodies: [], names: ragdoll.names.slice(), shapes: [], joints: [] };
    for (const body of ragdoll.bodies) {
      data.bodies.push(this.register(body));
      data.shapes.push(describeShape(body.shape));
    }
    for (const joint of ragdoll.joints) data.joints.push(this.trackJoint(joint));
    this.ragdolls.set(data.handle, { ragdoll, bodies: data.bodies, joints: data.joints });
    return data;
  }

  private requireBody(handle: number, command: string): RigidBody {
    const body = this.bodies[this.requireSlot(handle, command)];
    if (!body) throw new Error(`${command}: handle ${handle} is a character, not a body`);
    return body;
  }

  private growShared(slots: number): void {
    let capacity = 64;
    while (capacity < slots) capacity *= 2;
    const floats = capacity * FRAME_STRIDE;
    const buffer = new SharedArrayBuffer(SHARED_HEADER_BYTES + 2 * floats * 4);
    this.shared = buffer;
    this.sharedHeader = new Int32Array(buffer, 0, 8);
    this.sharedTimes = new Float64Array(buffer, 0, H_TIME + 2);
    this.sharedFrames[0] = new Float32Array(buffer, SHARED_HEADER_BYTES, floats);
    this.sharedFrames[1] = new Float32Array(buffer, SHARED_HEADER_BYTES + floats * 4, floats);
    // No frame yet: the first one written becomes frame 0.
    this.sharedHeader[H_NEWEST] = 1;
  }

  private publish(): void {
    const world = this.worldValue!;
    const n = this.slotCount;
    const time = this.now();
    if (this.shared) {
      if (this.sharedFrames[0]!.length < n * FRAME_STRIDE) {
        this.growShared(n);
        this.post({ type: 'shared', buffer: this.shared });
      }
      const header = this.sharedHeader!;
      const r = 1 - header[H_NEWEST]!;
      // Sequence lock: odd while writing, so a reader that saw an odd or changed number reads again.
      Atomics.add(header, H_SEQUENCE, 1);
      this.writeFrame(this.sharedFrames[r]!);
      header[H_STEP + r] = world.stepCount;
      header[H_SLOTS + r] = n;
      this.sharedTimes![H_TIME + r] = time;
      header[H_INPUT_SEQ] = this.inputSeq;
      header[H_NEWEST] = r;
      Atomics.add(header, H_SEQUENCE, 1);
      return;
    }
    let frame = this.spare.pop();
    if (!frame) {
      // The client holds every frame sent: it is behind, so this tick's poses are skipped (the next tick sends).
      if (this.framesOut >= MAX_FRAMES_OUT) return;
      let capacity = 64;
      while (capacity < n) capacity *= 2;
      frame = new Float32Array(capacity * FRAME_STRIDE);
    }
    this.writeFrame(frame);
    this.framesOut++;
    this.post({ type: 'frame', step: world.stepCount, time, slots: n, frame, inputSeq: this.inputSeq }, [frame.buffer]);
  }

  private writeFrame(frame: Float32Array): void {
    for (let i = 0; i < this.slotCount; i++) {
      const o = i * FRAME_STRIDE;
      let body = this.bodies[i];
      if (body && body.world !== this.worldValue) {
        // Worker code removed a tracked body from the world: it leaves the frames, and the client hears of it.
        this.retire(body);
        const handle = i + this.generations[i]! * SLOT_COUNT;
        this.release(i);
        this.post({ type: 'untracked', handle });
        body = null;
      }
      const walker = this.walkers[i];
      frame[o + F_GENERATION] = this.generations[i]!;
      if (body) {
        const p = body.position, q = body.rotation;
        frame[o + F_POSITION] = p.x; frame[o + F_POSITION + 1] = p.y; frame[o + F_POSITION + 2] = p.z;
        frame[o + F_ROTATION] = q.x; frame[o + F_ROTATION + 1] = q.y; frame[o + F_ROTATION + 2] = q.z; frame[o + F_ROTATION + 3] = q.w;
        frame[o + F_STATE] = body.isSleeping ? STATE_SLEEPING : STATE_AWAKE;
      } else if (walker) {
        const p = walker.controller.position, up = walker.controller.up;
        const s = Math.sin(walker.yaw / 2);
        frame[o + F_POSITION] = p.x; frame[o + F_POSITION + 1] = p.y; frame[o + F_POSITION + 2] = p.z;
        frame[o + F_ROTATION] = up.x * s; frame[o + F_ROTATION + 1] = up.y * s; frame[o + F_ROTATION + 2] = up.z * s; frame[o + F_ROTATION + 3] = Math.cos(walker.yaw / 2);
        frame[o + F_STATE] = walker.state === 'grounded' ? STATE_GROUNDED : walker.state === 'airborne' ? STATE_AIRBORNE : STATE_SLIDING;
      } else {
        frame[o + F_STATE] = STATE_EMPTY;
      }
    }
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

const RAGDOLL_FIELDS = [
  'position', 'rotation', 'scale', 'joints', 'bones', 'density', 'friction', 'angularDamping', 'linearDamping', 'collisionGroup', 'collisionMask',
  'jointFriction', 'linearVelocity', 'userData',
];

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
