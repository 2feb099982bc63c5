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
  type BodyDescData, type CharacterDescData, type TrackedBodyData, type ClientMessage, type HostMessage, type MessagePortLike, type RaycastHitData, type RaycastOptionsData,
  type WorldDescData,
} from './protocol';

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

/** A command the worker refused (bad description, unknown handle, …). */
export class PhysicsWorkerError extends Error {
  constructor(readonly command: string, readonly handle: number, message: string) {
    super(`footing worker: ${command}: ${message}`);
    this.name = 'PhysicsWorkerError';
  }
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
  private readonly requests = new Map<number, { resolve: (hit: RaycastHitData | null) => void; reject: (error: Error) => void }>();
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
    this.send({ type: 'init', world, shared: shared && typeof SharedArrayBuffer === 'function', autoStart: options.autoStart ?? true });
  }

  /** Creates a body in the worker; returns its handle at once (its pose is the description's until the worker reports it). */
  createBody(desc: BodyDescData): number {
    const handle = this.claimHandle(desc.position, desc.rotation);
    this.send({ type: 'createBody', handle, desc });
    return handle;
  }

  /** Creates a character controller with a Walker in the worker; its frame rotation is the walker's yaw about up. */
  createCharacter(desc: CharacterDescData = {}): number {
    const handle = this.claimHandle(desc.position, undefined);
    this.send({ type: 'createCharacter', handle, desc });
    return handle;
  }

  /** Removes a body or character; its handle is dead from now on. */
  removeBody(handle: number): void {
    const slot = this.requireHandle(handle);
    this.send({ type: 'removeBody', handle });
    this.generations[slot] = generationOf(handle) + 1;
    this.initial.delete(handle);
    // Odd slots are the host's: it reuses them, and says so with 'tracked'.
    if (slot % 2 === 0) this.freeSlots.push(slot);
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

  /** Moves a body (or a character, whose velocity is zeroed) to a new pose. */
  teleport(handle: number, position: Vec3, rotation?: Quat): void {
    this.requireHandle(handle);
    this.send({ type: 'teleport', handle, position: copyVec(position), rotation: rotation && { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w } });
  }

  /** A ray from `from` to `to`, answered by the worker between steps. */
  raycast(from: Vec3, to: Vec3, options?: RaycastOptionsData): Promise<RaycastHitData | null> {
    const id = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.requests.set(id, { resolve, reject });
      this.send({ type: 'raycast', id, from: copyVec(from), to: copyVec(to), options });
    });
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
        this.onBodyAdded?.(msg.handle, msg.body);
        return;
      }
      case 'untracked': {
        const slot = slotOf(msg.handle);
        if (this.generations[slot] === generationOf(msg.handle)) this.generations[slot] = generationOf(msg.handle) + 1;
        this.onBodyRemoved?.(msg.handle);
        return;
      }
      case 'raycastResult': {
        const request = this.requests.get(msg.id);
        if (!request) return;
        this.requests.delete(msg.id);
        request.resolve(msg.hit);
        return;
      }
      case 'error': {
        const error = new PhysicsWorkerError(msg.command, msg.handle, msg.message);
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

  private send(message: ClientMessage): void {
    this.port.postMessage(message);
  }
}

function copyVec(v: Vec3): Vec3 {
  return { x: v.x, y: v.y, z: v.z };
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
