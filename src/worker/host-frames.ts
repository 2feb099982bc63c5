/**
 * The pose frames the host publishes after every tick: a transferred
 * Float32Array (at most MAX_FRAMES_OUT in flight), or two frames in a
 * SharedArrayBuffer behind a sequence lock when the client asked for shared
 * memory and the worker has it.
 */
import type { World } from '../world/world';
import type { PostToClient } from './host-events';
import type { HostSlots } from './host-slots';
import {
  F_GENERATION, F_POSITION, F_ROTATION, F_STATE, FRAME_STRIDE, H_INPUT_SEQ, H_NEWEST, H_SEQUENCE, H_SLOTS, H_STEP, H_TIME, SHARED_HEADER_BYTES, SLOT_COUNT,
  STATE_AIRBORNE, STATE_AWAKE, STATE_EMPTY, STATE_GROUNDED, STATE_SLEEPING, STATE_SLIDING,
} from './protocol';

/** Transferred frames in flight at once: one being read, one on its way. */
const MAX_FRAMES_OUT = 2;

export class HostFrames {
  // transfer mode
  private readonly spare: Float32Array[] = [];
  private framesOut = 0;
  // shared mode
  shared: SharedArrayBuffer | null = null;
  private sharedHeader: Int32Array | null = null;
  private sharedTimes: Float64Array | null = null;
  private readonly sharedFrames: Float32Array[] = [];

  constructor(private readonly slots: HostSlots, private readonly now: () => number, private readonly post: PostToClient) {}

  /**
   * A frame the client has read and sent back: kept for a later tick when it
   * still fits. Anything but a transferable Float32Array is refused (the
   * next tick would post it, and postMessage throw), and no more frames are
   * kept than were sent.
   */
  takeBack(frame: Float32Array): void {
    if (!(frame instanceof Float32Array) || !(frame.buffer instanceof ArrayBuffer)) {
      throw new TypeError(`frame must be a Float32Array the worker sent (got ${frame === null || typeof frame !== 'object' ? String(frame) : frame.constructor?.name ?? 'an object'})`);
    }
    if (this.framesOut === 0) throw new RangeError('frame: more frames came back than the worker sent (each comes back once)');
    this.framesOut--;
    if (frame.length >= this.slots.slotCount * FRAME_STRIDE) this.spare.push(frame);
  }

  growShared(slots: number): void {
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

  publish(world: World, inputSeq: number): void {
    const n = this.slots.slotCount;
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
      this.writeFrame(this.sharedFrames[r]!, world);
      header[H_STEP + r] = world.stepCount;
      header[H_SLOTS + r] = n;
      this.sharedTimes![H_TIME + r] = time;
      header[H_INPUT_SEQ] = inputSeq;
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
    this.writeFrame(frame, world);
    this.framesOut++;
    this.post({ type: 'frame', step: world.stepCount, time, slots: n, frame, inputSeq: inputSeq }, [frame.buffer]);
  }

  private writeFrame(frame: Float32Array, world: World): void {
    for (let i = 0; i < this.slots.slotCount; i++) {
      const o = i * FRAME_STRIDE;
      let body = this.slots.bodies[i];
      if (body && body.world !== world) {
        // Worker code removed a tracked body from the world: it leaves the frames, and the client hears of it.
        this.slots.retire(body);
        const handle = i + this.slots.generations[i]! * SLOT_COUNT;
        this.slots.release(i);
        this.post({ type: 'untracked', handle });
        body = null;
      }
      const walker = this.slots.walkers[i];
      frame[o + F_GENERATION] = this.slots.generations[i]!;
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
}
