/**
 * Events, delivered after the step has finished (so listeners cannot corrupt
 * a step in progress). Event objects are reused: copy what you keep.
 */
import type { RigidBody } from '../dynamics/body';
import type { Vec3 } from '../math/vec3';
import type { Joint } from '../joints/joint';

export interface ContactEvent {
  bodyA: RigidBody;
  bodyB: RigidBody;
  /** A contact point (world), for contactEnd the last one seen. */
  point: Vec3;
  /** Unit normal from A to B. */
  normal: Vec3;
  /** Total normal impulse (N·s) of the manifold in the step the event refers to. */
  impulse: number;
  /** When bodyA's shape is a Compound, the index of its child at `point`; else −1. */
  childA: number;
  /** When bodyB's shape is a Compound, the index of its child at `point`; else −1. */
  childB: number;
}

export interface SensorEvent {
  sensor: RigidBody;
  body: RigidBody;
}

export interface JointBreakEvent {
  joint: Joint;
  /** The impulse that broke it (N·s). */
  impulse: number;
}

export interface WorldEventMap {
  contactBegin: ContactEvent;
  contactEnd: ContactEvent;
  sensorEnter: SensorEvent;
  sensorExit: SensorEvent;
  jointBreak: JointBreakEvent;
}

export type WorldEventName = keyof WorldEventMap;
export type WorldListener<K extends WorldEventName> = (event: WorldEventMap[K]) => void;
