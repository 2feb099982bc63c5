/**
 * The debug-draw interface (World.debugDraw): what a debug view draws,
 * handed out through reused view objects, so a view never reads the
 * world's internals. Copy what you keep: the objects are refilled for every
 * call.
 */
import type { RigidBody } from '../dynamics/body';
import type { Contact } from '../dynamics/contact';
import type { Joint } from '../joints/joint';
import type { Vec3 } from '../math/vec3';

/** A contact: a pair of bodies whose broadphase boxes overlap, with or without points. */
export class ContactView {
  bodyA: RigidBody = null as unknown as RigidBody;
  bodyB: RigidBody = null as unknown as RigidBody;
  /** Points of its manifold this step, 0–4. */
  pointCount = 0;
  /** A point within the linear slop of contact. */
  touching = false;
  /** One of the bodies is a sensor (detects, never pushes). */
  isSensor = false;
}

/** One point of a contact's manifold. */
export class ContactPointView {
  bodyA: RigidBody = null as unknown as RigidBody;
  bodyB: RigidBody = null as unknown as RigidBody;
  /** Index of the point in its manifold, 0–3. */
  index = 0;
  /** World point midway between the two surfaces. */
  readonly point: Vec3 = { x: 0, y: 0, z: 0 };
  /** Unit normal from A towards B. */
  readonly normal: Vec3 = { x: 0, y: 0, z: 0 };
  /** Penetration depth, metres (negative: a speculative point that far apart). */
  depth = 0;
  /** Accumulated normal impulse of the last step, N·s. */
  normalImpulse = 0;
}

/** A joint that is not broken, with its anchors in world space. */
export class JointView {
  joint: Joint = null as unknown as Joint;
  /** The anchor on body A (world). */
  readonly anchorA: Vec3 = { x: 0, y: 0, z: 0 };
  /** The anchor on body B (world); apart from anchorA by the joint's separation. */
  readonly anchorB: Vec3 = { x: 0, y: 0, z: 0 };
}

/** Receives what `World.debugDraw` reports; implement the callbacks you draw. */
export interface DebugDrawSink {
  /** Every contact, points or not. */
  contact?(contact: ContactView): void;
  /** Every point of every contact's manifold. */
  contactPoint?(point: ContactPointView): void;
  /** Every joint that is not broken. */
  joint?(joint: JointView): void;
}

/** The reused views of one world. */
export class DebugDrawer {
  private readonly contactView = new ContactView();
  private readonly pointView = new ContactPointView();
  private readonly jointView = new JointView();

  draw(contacts: readonly Contact[], joints: readonly Joint[], sink: DebugDrawSink): void {
    if (sink === null || typeof sink !== 'object') throw new TypeError(`debugDraw: sink must be an object (got ${String(sink)})`);
    const onContact = sink.contact, onPoint = sink.contactPoint, onJoint = sink.joint;
    if (onContact !== undefined || onPoint !== undefined) {
      const cv = this.contactView, pv = this.pointView;
      for (let i = 0; i < contacts.length; i++) {
        const c = contacts[i]!;
        if (onContact !== undefined) {
          cv.bodyA = c.bodyA!; cv.bodyB = c.bodyB!;
          cv.pointCount = c.pointCount; cv.touching = c.touching; cv.isSensor = c.isSensor;
          onContact.call(sink, cv);
        }
        if (onPoint === undefined) continue;
        for (let k = 0; k < c.pointCount; k++) {
          pv.bodyA = c.bodyA!; pv.bodyB = c.bodyB!; pv.index = k;
          c.pointPosition(k, pv.point);
          c.pointNormal(k, pv.normal);
          pv.depth = c.pointDepth(k);
          pv.normalImpulse = c.normalImpulse(k);
          onPoint.call(sink, pv);
        }
      }
    }
    if (onJoint !== undefined) {
      const jv = this.jointView;
      for (let i = 0; i < joints.length; i++) {
        const j = joints[i]!;
        if (j.broken) continue;
        jv.joint = j;
        j.getAnchorA(jv.anchorA);
        j.getAnchorB(jv.anchorB);
        onJoint.call(sink, jv);
      }
    }
  }
}
