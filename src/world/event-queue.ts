/**
 * The event queue and the deferred removals. Events are queued during a
 * step (by the contact manager, the solver's joint breaks and removals) and
 * delivered after it, when no step is in progress; a body removed from
 * inside a step or a listener is removed here, between deliveries.
 */
import type { RigidBody } from '../dynamics/body';
import type { Contact } from '../dynamics/contact';
import { EVENT_BEGIN, EVENT_END, EVENT_SENSOR_ENTER, type ContactEventSink } from '../dynamics/contact-manager';
import type { JointBreakSink } from '../dynamics/solver';
import type { Joint } from '../joints/joint';
import type { Vec3 } from '../math/vec3';
import { contactChildA, contactChildB } from '../collision/narrowphase/compound-ids';
import type { ContactEvent, JointBreakEvent, SensorEvent, WorldEventName, WorldListener } from './events';

const EVENT_JOINT_BREAK = 4;

class QueuedEvent {
  type = 0;
  bodyA: RigidBody | null = null;
  bodyB: RigidBody | null = null;
  readonly point: Vec3 = { x: 0, y: 0, z: 0 };
  readonly normal: Vec3 = { x: 0, y: 0, z: 0 };
  impulse = 0;
  joint: Joint | null = null;
  childA = -1;
  childB = -1;
}

/** Removes one of its bodies at once (the world, which owns them). */
export interface BodyRemover {
  removeNow(body: RigidBody): void;
}

export class EventQueue implements ContactEventSink, JointBreakSink {
  /** True while listeners are being called. */
  dispatching = false;
  /** Bodies whose removal waits for the end of the step's delivery. */
  readonly pendingRemovals: RigidBody[] = [];
  private readonly events: QueuedEvent[] = [];
  private eventCount = 0;
  /** Each list is replaced, never mutated in place, so that a delivery in progress keeps its own list. */
  private readonly listeners: { [K in WorldEventName]: WorldListener<K>[] } = {
    contactBegin: [], contactEnd: [], sensorEnter: [], sensorExit: [], jointBreak: [],
  };
  private readonly contactEvent: ContactEvent = { bodyA: null as unknown as RigidBody, bodyB: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, impulse: 0, childA: -1, childB: -1 };
  private readonly jointEvent: JointBreakEvent = { joint: null as unknown as Joint, impulse: 0 };
  private readonly sensorEvent: SensorEvent = { sensor: null as unknown as RigidBody, body: null as unknown as RigidBody };
  /** Errors thrown by listeners during the current dispatch (null when none: no allocation in steady state). */
  private listenerErrors: unknown[] | null = null;

  constructor(private readonly joints: readonly Joint[], private readonly remover: BodyRemover) {}

  /** See World.on. */
  on<K extends WorldEventName>(name: K, listener: WorldListener<K>): void {
    const list = this.listenerList(name, 'on');
    if (typeof listener !== 'function') throw new TypeError(`on('${name}'): listener must be a function (got ${listener === null ? 'null' : typeof listener})`);
    (this.listeners as Record<string, unknown[]>)[name] = list.concat(listener);
  }

  /** See World.off. */
  off<K extends WorldEventName>(name: K, listener: WorldListener<K>): void {
    const list = this.listenerList(name, 'off');
    if (typeof listener !== 'function') throw new TypeError(`off('${name}'): listener must be a function (got ${listener === null ? 'null' : typeof listener})`);
    const i = list.indexOf(listener);
    if (i < 0) return;
    const next = list.slice();
    next.splice(i, 1);
    (this.listeners as Record<string, unknown[]>)[name] = next;
  }

  private listenerList(name: unknown, caller: string): unknown[] {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(this.listeners, name)) {
      throw new RangeError(`${caller}: unknown event ${typeof name === 'string' ? `'${name}'` : String(name)} (events: ${Object.keys(this.listeners).join(', ')})`);
    }
    return (this.listeners as Record<string, unknown[]>)[name]!;
  }

  /** The next queued-event slot, reused from earlier steps (a new one only while the queue grows). */
  private nextEvent(): QueuedEvent {
    let e = this.events[this.eventCount];
    if (!e) {
      e = new QueuedEvent();
      this.events.push(e);
    }
    this.eventCount++;
    return e;
  }

  /** Queues a jointBreak event for every joint that broke and was not reported yet. */
  queueJointBreaks(): void {
    for (let i = 0; i < this.joints.length; i++) {
      const j = this.joints[i]!;
      if (!j.broken || j.breakReported) continue;
      j.breakReported = true;
      if (this.listeners.jointBreak.length === 0) continue;
      const e = this.nextEvent();
      e.type = EVENT_JOINT_BREAK;
      e.joint = j;
      e.bodyA = j.bodyA;
      e.bodyB = j.bodyB;
      e.impulse = j.impulse;
    }
  }

  queueContactEvent(c: Contact, type: number): void {
    const hasListener =
      type === EVENT_BEGIN ? this.listeners.contactBegin.length > 0 :
      type === EVENT_END ? this.listeners.contactEnd.length > 0 :
      type === EVENT_SENSOR_ENTER ? this.listeners.sensorEnter.length > 0 : this.listeners.sensorExit.length > 0;
    if (!hasListener) return;
    const e = this.nextEvent();
    e.type = type;
    e.bodyA = c.bodyA;
    e.bodyB = c.bodyB;
    e.childA = -1;
    e.childB = -1;
    if (c.pointCount > 0) {
      c.pointPosition(0, e.point);
      c.pointNormal(0, e.normal);
      e.childA = contactChildA(c.pointId(0));
      e.childB = contactChildB(c.pointId(0));
    }
    e.impulse = c.totalNormalImpulse;
  }

  queueImpact(c: Contact): void {
    const i = this.eventCount;
    this.queueContactEvent(c, EVENT_BEGIN);
    if (this.eventCount === i || c.pointCount === 0) return;
    // The point is midway across the gap the narrowphase measured before the
    // solve; the moving body has since closed it onto an immovable one, so the
    // impact is on that one's surface (n points from A to B).
    const fixedA = !c.bodyA!.isDynamic, fixedB = !c.bodyB!.isDynamic;
    if (fixedA === fixedB) return;
    const e = this.events[i]!;
    const half = 0.5 * c.pointDepth(0);
    const s = fixedA ? half : -half;
    e.point.x += s * e.normal.x; e.point.y += s * e.normal.y; e.point.z += s * e.normal.z;
  }

  /**
   * Delivers the queued events in order, each to the listeners subscribed
   * when its delivery starts (see World.on). Removals deferred during the
   * step or by a listener are done here, and the contactEnd / sensorExit
   * events they queue are delivered in the same pass.
   */
  dispatch(): void {
    this.dispatching = true;
    try {
      // Begin events report the impulse of the step they happened in.
      let i = 0;
      for (;;) {
        for (; i < this.eventCount; i++) {
          const e = this.events[i]!;
          if (e.type === EVENT_JOINT_BREAK) {
            const ev = this.jointEvent;
            ev.joint = e.joint!;
            ev.impulse = e.impulse;
            this.deliver('jointBreak', ev);
            e.joint = null;
          } else if (e.type === EVENT_BEGIN || e.type === EVENT_END) {
            const ev = this.contactEvent;
            ev.bodyA = e.bodyA!;
            ev.bodyB = e.bodyB!;
            ev.point.x = e.point.x; ev.point.y = e.point.y; ev.point.z = e.point.z;
            ev.normal.x = e.normal.x; ev.normal.y = e.normal.y; ev.normal.z = e.normal.z;
            ev.impulse = e.impulse;
            ev.childA = e.childA;
            ev.childB = e.childB;
            this.deliver(e.type === EVENT_BEGIN ? 'contactBegin' : 'contactEnd', ev);
          } else {
            const ev = this.sensorEvent;
            const aSensor = e.bodyA!.isSensor;
            ev.sensor = aSensor ? e.bodyA! : e.bodyB!;
            ev.body = aSensor ? e.bodyB! : e.bodyA!;
            this.deliver(e.type === EVENT_SENSOR_ENTER ? 'sensorEnter' : 'sensorExit', ev);
          }
          e.bodyA = null;
          e.bodyB = null;
        }
        if (this.pendingRemovals.length === 0) break;
        this.removePending();
      }
    } finally {
      this.eventCount = 0;
      this.dispatching = false;
      // Only reached with removals left if something other than a listener threw.
      this.removePending();
    }
    const errors = this.listenerErrors;
    if (errors !== null) {
      this.listenerErrors = null;
      if (errors.length === 1) throw errors[0];
      throw new AggregateError(errors, `${errors.length} event listeners threw`);
    }
  }

  /** Calls each listener of `name` with `ev`; a throw is kept for dispatch to rethrow. */
  private deliver(name: WorldEventName, ev: ContactEvent | SensorEvent | JointBreakEvent): void {
    const list = this.listeners[name] as ((e: typeof ev) => void)[];
    for (let j = 0; j < list.length; j++) {
      const listener = list[j]!;
      // on/off replace the list: skip a listener an earlier one removed.
      if (this.listeners[name] !== list && (this.listeners[name] as unknown[]).indexOf(listener) < 0) continue;
      try {
        listener(ev);
      } catch (err) {
        if (this.listenerErrors === null) this.listenerErrors = [];
        this.listenerErrors.push(err);
      }
    }
  }

  private removePending(): void {
    const list = this.pendingRemovals;
    for (let k = 0; k < list.length; k++) {
      const b = list[k]!;
      if ((b.owner as unknown) === this.remover) this.remover.removeNow(b);
    }
    list.length = 0;
  }
}
