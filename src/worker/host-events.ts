/**
 * The events the client subscribed to, gathered in a tick into one batch of
 * doubles (EVENT_STRIDE each, protocol.ts) and posted after the tick.
 */
import type { Joint } from '../joints/joint';
import type { ContactEvent, JointBreakEvent, SensorEvent } from '../world/events';
import type { World } from '../world/world';
import type { HostSlots } from './host-slots';
import {
  E_A, E_B, E_CHILD_A, E_CHILD_B, E_IMPULSE, E_NAME, E_NORMAL, E_POINT, E_STEP, EVENT_STRIDE, WORKER_EVENT_NAMES,
  type HostMessage, type WorkerEventName,
} from './protocol';

/** How the host's parts post to the client. */
export type PostToClient = (message: HostMessage, transfer?: Transferable[]) => void;

export class HostEvents {
  /** The world listeners of the events the client subscribed to (their unsubscribe functions). */
  private readonly subscriptions = new Map<WorkerEventName, () => void>();
  /** This tick's events, EVENT_STRIDE doubles each (protocol.ts), posted after the tick. */
  private eventData = new Float64Array(16 * EVENT_STRIDE);
  private eventCount = 0;
  /** Batches the client handed back: with them, a tick with events allocates nothing. */
  private readonly spareEvents: Float64Array<ArrayBuffer>[] = [];

  constructor(private readonly slots: HostSlots, private readonly jointHandleOf: Map<Joint, number>, private readonly post: PostToClient) {}

  /** Keeps a batch the client returned (at most two), to write a later tick's events into. */
  takeBack(data: unknown): void {
    if (!(data instanceof Float64Array)) {
      throw new TypeError(`data must be a Float64Array the worker sent (got ${data === null || typeof data !== 'object' ? String(data) : (data as object).constructor?.name ?? 'an object'})`);
    }
    if (data.buffer instanceof ArrayBuffer && data.length >= EVENT_STRIDE && this.spareEvents.length < 2) this.spareEvents.push(data as Float64Array<ArrayBuffer>);
  }

  subscribe(world: World, name: WorkerEventName, on: boolean): void {
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
        const o = this.claimEvent(code, world);
        const d = this.eventData;
        d[o + E_A] = this.jointHandleOf.get(e.joint) ?? -1;
        d[o + E_IMPULSE] = e.impulse;
      }));
    } else if (name === 'sensorEnter' || name === 'sensorExit') {
      this.subscriptions.set(name, world.on(name, (e: SensorEvent) => {
        const o = this.claimEvent(code, world);
        const d = this.eventData;
        d[o + E_A] = this.slots.eventHandle(e.sensor);
        d[o + E_B] = this.slots.eventHandle(e.body);
      }));
    } else {
      this.subscriptions.set(name, world.on(name, (e: ContactEvent) => {
        const o = this.claimEvent(code, world);
        const d = this.eventData;
        d[o + E_A] = this.slots.eventHandle(e.bodyA);
        d[o + E_B] = this.slots.eventHandle(e.bodyB);
        d[o + E_POINT] = e.point.x; d[o + E_POINT + 1] = e.point.y; d[o + E_POINT + 2] = e.point.z;
        d[o + E_NORMAL] = e.normal.x; d[o + E_NORMAL + 1] = e.normal.y; d[o + E_NORMAL + 2] = e.normal.z;
        d[o + E_IMPULSE] = e.impulse;
        d[o + E_CHILD_A] = e.childA;
        d[o + E_CHILD_B] = e.childB;
      }));
    }
  }

  /** Room for one more event in this tick's batch, zeroed and stamped; returns its offset. */
  private claimEvent(code: number, world: World): number {
    const need = (this.eventCount + 1) * EVENT_STRIDE;
    if (this.eventData.length < need) {
      const grown = new Float64Array(this.eventData.length * 2);
      grown.set(this.eventData);
      this.eventData = grown;
    }
    const o = this.eventCount * EVENT_STRIDE;
    this.eventData.fill(0, o, o + EVENT_STRIDE);
    this.eventData[o + E_NAME] = code;
    this.eventData[o + E_STEP] = world.stepCount;
    this.eventData[o + E_A] = -1;
    this.eventData[o + E_B] = -1;
    this.eventData[o + E_CHILD_A] = -1;
    this.eventData[o + E_CHILD_B] = -1;
    this.eventCount++;
    return o;
  }

  /** Posts this tick's events (the batch is transferred; the next one is written into a batch the client returned). */
  flushEvents(): void {
    if (this.eventCount === 0) return;
    const data = this.eventData;
    this.eventData = this.spareEvents.pop() ?? new Float64Array(data.length);
    const count = this.eventCount;
    this.eventCount = 0;
    this.post({ type: 'events', count, data }, [data.buffer]);
  }
}
