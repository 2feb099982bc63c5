/**
 * The pose frames the client keeps: the two newest received (copied as they
 * arrive, or read from shared memory under the host's sequence lock) and the
 * two `update` took, with the interpolation between those.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import {
  F_GENERATION, F_POSITION, F_ROTATION, F_STATE, FRAME_STRIDE, generationOf, H_INPUT_SEQ, H_NEWEST, H_SEQUENCE, H_SLOTS, H_STEP, H_TIME,
  SHARED_HEADER_BYTES, slotOf, STATE_EMPTY,
} from './protocol';

export class ClientPoses {
  /** The two newest frames `update` took: poses are interpolated from prev to curr. */
  prev = new PoseFrame();
  curr = new PoseFrame();
  /** The two newest frames received (transfer mode), copied in as they arrive; `take` takes them. */
  private receivedPrev = new PoseFrame();
  private receivedLatest = new PoseFrame();
  private received = 0;
  private taken = 0;
  private sharedHeader: Int32Array | null = null;
  private sharedTimes: Float64Array | null = null;
  private readonly sharedFrames: Float32Array[] = [];
  private lastSequence = 0;
  /** Pose given at creation, shown until a frame has the body. */
  readonly initial = new Map<number, { position: Vec3; rotation: Quat }>();

  /**
   * Copies a transferred frame in at once (the caller sends the buffer
   * straight back). A frame older than the newest received is dropped: the
   * host's clock never goes back (restore's two frames share one time), so
   * it arrived out of order and would show the bodies back in time.
   */
  receive(frame: Float32Array, slots: number, step: number, time: number, inputSeq: number): void {
    if (this.received > 0 && time < this.receivedLatest.time) return;
    const older = this.receivedPrev;
    this.receivedPrev = this.receivedLatest;
    this.receivedLatest = older;
    older.copyFromArray(frame, slots, step, time, inputSeq);
    this.received++;
  }

  /** Takes the two newest frames into prev and curr (from shared memory, or the ones received since the last take). */
  take(): void {
    if (this.sharedHeader) this.takeShared();
    else if (this.received !== this.taken) {
      this.taken = this.received;
      this.prev.copyFrom(this.receivedPrev);
      this.curr.copyFrom(this.receivedLatest);
    }
  }

  /** Whether the handle's body has appeared in a frame yet. */
  has(handle: number): boolean {
    return this.rowOf(this.curr, handle) >= 0;
  }

  /** The interpolated position of a body or character (its creation pose before the worker reports it). */
  position(handle: number, out: Vec3, alpha: number): Vec3 {
    const c = this.rowOf(this.curr, handle);
    if (c < 0) {
      const init = this.initial.get(handle);
      out.x = init?.position.x ?? 0; out.y = init?.position.y ?? 0; out.z = init?.position.z ?? 0;
      return out;
    }
    const cur = this.curr.data;
    const p = this.rowOf(this.prev, handle);
    // A body new since the previous frame is shown where it is.
    const a = p < 0 ? 1 : alpha, b = 1 - a;
    const old = p < 0 ? cur : this.prev.data, o = p < 0 ? c : p;
    out.x = b * old[o + F_POSITION]! + a * cur[c + F_POSITION]!;
    out.y = b * old[o + F_POSITION + 1]! + a * cur[c + F_POSITION + 1]!;
    out.z = b * old[o + F_POSITION + 2]! + a * cur[c + F_POSITION + 2]!;
    return out;
  }

  /** The interpolated rotation (normalised lerp along the shorter arc). */
  rotation(handle: number, out: Quat, alpha: number): Quat {
    const c = this.rowOf(this.curr, handle);
    if (c < 0) {
      const init = this.initial.get(handle);
      out.x = init?.rotation.x ?? 0; out.y = init?.rotation.y ?? 0; out.z = init?.rotation.z ?? 0; out.w = init?.rotation.w ?? 1;
      return out;
    }
    const q = this.curr.data;
    let x = q[c + F_ROTATION]!, y = q[c + F_ROTATION + 1]!, z = q[c + F_ROTATION + 2]!, w = q[c + F_ROTATION + 3]!;
    const p = this.rowOf(this.prev, handle);
    if (p >= 0 && alpha < 1) {
      const r = this.prev.data;
      const a = alpha;
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
  state(handle: number): number {
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

  attachShared(buffer: SharedArrayBuffer): void {
    const floats = (buffer.byteLength - SHARED_HEADER_BYTES) / 8;
    this.sharedHeader = new Int32Array(buffer, 0, 8);
    this.sharedTimes = new Float64Array(buffer, 0, H_TIME + 2);
    this.sharedFrames[0] = new Float32Array(buffer, SHARED_HEADER_BYTES, floats);
    this.sharedFrames[1] = new Float32Array(buffer, SHARED_HEADER_BYTES + floats * 4, floats);
    this.lastSequence = 0;
  }
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
