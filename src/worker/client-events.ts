/**
 * The client's event listeners and the delivery of the worker's event
 * batches to them, with the page's userData of the bodies named.
 */
import {
  E_A, E_B, E_CHILD_A, E_CHILD_B, E_IMPULSE, E_NAME, E_NORMAL, E_POINT, E_STEP, EVENT_STRIDE, WORKER_EVENT_NAMES,
  type ClientMessage, type ContactEventData, type JointBreakEventData, type SensorEventData, type WorkerEventName, type WorkerListener,
} from './protocol';

export class ClientEvents {
  private readonly listeners: { [K in WorkerEventName]: WorkerListener<K>[] } = {
    contactBegin: [], contactEnd: [], sensorEnter: [], sensorExit: [], jointBreak: [],
  };
  // One object per event kind, refilled for each event (as the World's events are: copy what you keep).
  private readonly contactEvent: ContactEventData = {
    step: 0, bodyA: -1, bodyB: -1, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, impulse: 0, childA: -1, childB: -1, userDataA: undefined, userDataB: undefined,
  };
  private readonly sensorEvent: SensorEventData = { step: 0, sensor: -1, body: -1, sensorUserData: undefined, bodyUserData: undefined };
  private readonly jointBreakEvent: JointBreakEventData = { step: 0, joint: -1, impulse: 0 };

  /** `userData` and `retiredUserData` are the client's maps (see PhysicsClient), read when an event names a body. */
  constructor(
    private readonly userData: Map<number, unknown>, private readonly retiredUserData: Map<number, unknown>,
    private readonly send: (message: ClientMessage) => void,
  ) {}

  /** Adds a listener; the first of a kind asks the worker to send that kind. */
  add<K extends WorkerEventName>(name: K, listener: WorkerListener<K>): void {
    const list = this.listenerList(name, 'on');
    if (typeof listener !== 'function') throw new TypeError(`on('${name}'): listener must be a function (got ${typeof listener})`);
    if (list.length === 0) this.send({ type: 'subscribe', event: name, on: true });
    (this.listeners as Record<string, unknown[]>)[name] = list.concat(listener);
  }

  /** Removes a listener; the last of a kind tells the worker to stop sending it. */
  remove<K extends WorkerEventName>(name: K, listener: WorkerListener<K>): void {
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

  /** Calls the listeners of each event in a batch; a listener that throws does not stop the others (the first error is rethrown after). */
  deliver(data: Float64Array, count: number): void {
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
}
