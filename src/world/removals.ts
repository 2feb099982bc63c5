/**
 * What leaves with a body, and what a new joint or a changed collision
 * filter ends: the joints, contacts and proxies the World updates between
 * steps. The contacts ended here queue their end events (delivered with the
 * next step's events), and the partners they held wake.
 */
import type { BroadPhase } from '../collision/broadphase/broadphase';
import type { BodyOwner, RigidBody } from '../dynamics/body';
import { shouldCollide, type ContactManager } from '../dynamics/contact-manager';
import type { Joint } from '../joints/joint';

/** What of the World these functions update (the World passes itself; naming World here would be an import cycle). */
export interface RemovalHost extends BodyOwner {
  readonly jointList: readonly Joint[];
  readonly contactManager: ContactManager;
  readonly broadphase: BroadPhase;
  readonly bodyList: RigidBody[];
  readonly bodyById: Map<number, RigidBody>;
  wakeBody(body: RigidBody): void;
  removeJoint(joint: Joint): void;
}

/** Removes `body` from `world` at once: its joints, its contacts, its proxy and its slot. */
export function removeBodyNow(world: RemovalHost, body: RigidBody): void {
  if (!body.awake) world.wakeBody(body);
  for (let i = world.jointList.length - 1; i >= 0; i--) {
    const j = world.jointList[i]!;
    if (j.bodyA === body || j.bodyB === body) world.removeJoint(j);
  }
  for (let i = world.contactManager.list.length - 1; i >= 0; i--) {
    const c = world.contactManager.list[i]!;
    if (c.bodyA === body || c.bodyB === body) {
      const other = c.bodyA === body ? c.bodyB! : c.bodyA!;
      other.wakeUp();
      world.contactManager.destroyContact(c, true);
    }
  }
  world.broadphase.destroyProxy(body.proxy);
  body.proxy = -1;
  const last = world.bodyList.pop()!;
  if (last !== body) {
    world.bodyList[body.index] = last;
    last.index = body.index;
    world.contactManager.bodyMoved(last);
  }
  world.bodyById.delete(body.id);
  body.index = -1;
  body.owner = null;
}

/** Ends the contact between the two bodies of a joint that does not collide its bodies. */
export function removeJointedContacts(world: RemovalHost, joint: Joint): void {
  for (let i = world.contactManager.list.length - 1; i >= 0; i--) {
    const c = world.contactManager.list[i]!;
    if ((c.bodyA === joint.bodyA && c.bodyB === joint.bodyB) || (c.bodyA === joint.bodyB && c.bodyB === joint.bodyA)) world.contactManager.destroyContact(c, true);
  }
}

/**
 * Applies the changed collision filters of the bodies in `changed`, then
 * empties it (Box2D resets the proxy likewise): the contacts the new filter
 * refuses end (with their contactEnd events), and the body's proxy is
 * queued so that pairs it now allows are found. The body and the partners
 * it lost wake, so nothing rests on a contact that is gone.
 */
export function applyFilterChanges(world: RemovalHost, changed: RigidBody[]): void {
  const list = world.contactManager.list;
  for (let k = 0; k < changed.length; k++) {
    const body = changed[k]!;
    if (body.owner !== world) continue;
    if (!body.awake) world.wakeBody(body);
    for (let i = list.length - 1; i >= 0; i--) {
      const c = list[i]!;
      if (c.bodyA !== body && c.bodyB !== body) continue;
      if (shouldCollide(c.bodyA!, c.bodyB!)) continue;
      (c.bodyA === body ? c.bodyB! : c.bodyA!).wakeUp();
      world.contactManager.destroyContact(c, true);
    }
    world.broadphase.requeue(body.proxy);
  }
  changed.length = 0;
}
