// Footing's contact and sensor events as Babylon's collision and trigger
// events: queued during the steps, delivered once the nodes are synced.
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { Observable } from '@babylonjs/core/Misc/observable';
import { PhysicsEventType, type IBasePhysicsCollisionEvent, type IPhysicsCollisionEvent } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { ContactEvent, SensorEvent, World } from '../../index';
import { BodyData, FootingEventMask } from './body-data';

export interface PluginObservables {
  onCollisionObservable: Observable<IPhysicsCollisionEvent>;
  onCollisionEndedObservable: Observable<IBasePhysicsCollisionEvent>;
  onTriggerCollisionObservable: Observable<IBasePhysicsCollisionEvent>;
}

export class PluginEvents {
  private readonly pendingCollisions: IPhysicsCollisionEvent[] = [];
  private readonly pendingEnded: IBasePhysicsCollisionEvent[] = [];
  private readonly pendingTriggers: IBasePhysicsCollisionEvent[] = [];
  constructor(private readonly world: World, private readonly observables: PluginObservables) {}


  queueContact(e: ContactEvent, type: PhysicsEventType): void {
    const a = e.bodyA.userData, b = e.bodyB.userData;
    if (!(a instanceof BodyData) || !(b instanceof BodyData)) return;
    const bit = type === PhysicsEventType.COLLISION_STARTED ? FootingEventMask.COLLISION_STARTED : FootingEventMask.COLLISION_FINISHED;
    if (((a.eventMask | b.eventMask) & bit) === 0) return;
    const base = { collider: a.body, colliderIndex: a.index, collidedAgainst: b.body, collidedAgainstIndex: b.index, type };
    if (type === PhysicsEventType.COLLISION_FINISHED) this.pendingEnded.push(base);
    else this.pendingCollisions.push({ ...base, point: new Vector3(e.point.x, e.point.y, e.point.z), normal: new Vector3(e.normal.x, e.normal.y, e.normal.z), distance: 0, impulse: e.impulse });
  }

  queueTrigger(e: SensorEvent, type: PhysicsEventType): void {
    const a = e.sensor.userData, b = e.body.userData;
    if (!(a instanceof BodyData) || !(b instanceof BodyData)) return;
    this.pendingTriggers.push({ collider: a.body, colliderIndex: a.index, collidedAgainst: b.body, collidedAgainstIndex: b.index, type });
  }

  /** COLLISION_CONTINUED for each touching pair that asks for it, once per frame that stepped. */
  private queueContinued(): void {
    const contacts = this.world.contacts;
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i]!;
      if (!c.touching || c.isSensor || c.pointCount === 0) continue;
      const a = c.bodyA?.userData, b = c.bodyB?.userData;
      if (!(a instanceof BodyData) || !(b instanceof BodyData)) continue;
      if (((a.eventMask | b.eventMask) & FootingEventMask.COLLISION_CONTINUED) === 0) continue;
      let impulse = 0;
      for (let k = 0; k < c.pointCount; k++) impulse += c.normalImpulse(k);
      const point = c.pointPosition(0, { x: 0, y: 0, z: 0 });
      const normal = c.pointNormal(0, { x: 0, y: 0, z: 0 });
      this.pendingCollisions.push({
        collider: a.body, colliderIndex: a.index, collidedAgainst: b.body, collidedAgainstIndex: b.index, type: PhysicsEventType.COLLISION_CONTINUED,
        point: new Vector3(point.x, point.y, point.z), normal: new Vector3(normal.x, normal.y, normal.z), distance: -c.pointDepth(0), impulse,
      });
    }
  }

  deliver(): void {
    if (this.world.contactCount > 0) this.queueContinued();
    const collisions = this.pendingCollisions;
    for (let i = 0; i < collisions.length; i++) {
      const e = collisions[i]!;
      this.observables.onCollisionObservable.notifyObservers(e);
      const a = this.recordOf(e.collider, e.colliderIndex), b = this.recordOf(e.collidedAgainst, e.collidedAgainstIndex);
      a?.collisionObservable?.notifyObservers(e);
      if (b?.collisionObservable) {
        b.collisionObservable.notifyObservers({
          ...e, collider: e.collidedAgainst, colliderIndex: e.collidedAgainstIndex, collidedAgainst: e.collider, collidedAgainstIndex: e.colliderIndex,
          normal: e.normal ? e.normal.negate() : null,
        });
      }
    }
    collisions.length = 0;
    const ended = this.pendingEnded;
    for (let i = 0; i < ended.length; i++) {
      const e = ended[i]!;
      this.observables.onCollisionEndedObservable.notifyObservers(e);
      this.recordOf(e.collider, e.colliderIndex)?.collisionEndedObservable?.notifyObservers(e);
      const b = this.recordOf(e.collidedAgainst, e.collidedAgainstIndex);
      b?.collisionEndedObservable?.notifyObservers({ ...e, collider: e.collidedAgainst, colliderIndex: e.collidedAgainstIndex, collidedAgainst: e.collider, collidedAgainstIndex: e.colliderIndex });
    }
    ended.length = 0;
    const triggers = this.pendingTriggers;
    for (let i = 0; i < triggers.length; i++) this.observables.onTriggerCollisionObservable.notifyObservers(triggers[i]!);
    triggers.length = 0;
  }

  private recordOf(body: PhysicsBody, index: number): BodyData | null {
    const list = body._pluginDataInstances as BodyData[] | undefined;
    if (list && list.length > 0) return list[index] ?? null;
    return body._pluginData instanceof BodyData ? body._pluginData : null;
  }
}
