// Stage: scene queries. Babylon's raycast on the footing world, with Havok's
// filtering (the query's membership against the shapes' collide masks, its
// collideWith against their membership), into one result or an array sorted
// by distance.
import type { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { PhysicsRaycastResult, type IRaycastQuery } from '@babylonjs/core/Physics/physicsRaycastResult';
import type { RigidBody, World } from '../../index';
import { BodyData } from './body-data';
import { requireMask, requireVector } from './pose';

export function raycast(world: World, from: Vector3, to: Vector3, result: PhysicsRaycastResult | Array<PhysicsRaycastResult>, query?: IRaycastQuery): void {
  requireVector(from, 'raycast from');
  requireVector(to, 'raycast to');
  if (!(result instanceof PhysicsRaycastResult) && !Array.isArray(result)) {
    throw new TypeError(`FootingPlugin.raycast: result must be a PhysicsRaycastResult or an array of them (got ${String(result)})`);
  }
  // Checked as the shapes' masks are: NaN, 2^33 or 'x' would become 0 (no hits) in silence, 1.5 would become 1.
  const membership = query?.membership === undefined ? -1 : requireMask(query.membership, 'raycast query.membership');
  const collideWith = query?.collideWith === undefined ? -1 : requireMask(query.collideWith, 'raycast query.collideWith');
  const results = Array.isArray(result) ? result : [result];
  for (const r of results) r.reset(from, to);
  const fill = !Array.isArray(result) || result.length > 0 ? results.length : Infinity;
  const exclude = query?.ignoreBody;
  const hitBodies = new Set<RigidBody>();
  const options = {
    collisionGroup: membership >>> 0,
    collisionMask: collideWith >>> 0,
    includeSensors: !!query?.shouldHitTriggers,
    filter: (b: RigidBody): boolean => {
      if (hitBodies.has(b)) return false;
      const d = b.userData;
      return !(d instanceof BodyData) || d.body !== exclude;
    },
  };
  // One cast per hit, each excluding the bodies hit before.
  for (let i = 0; i < fill; i++) {
    const hit = world.raycast(from, to, options);
    if (!hit) break;
    hitBodies.add(hit.body);
    let r = results[i];
    if (!r) { r = new PhysicsRaycastResult(); r.reset(from, to); results.push(r); }
    const d = hit.body.userData;
    if (d instanceof BodyData) { r.body = d.body; r.bodyIndex = d.index; r.shape = d.body.shape ?? undefined; }
    r.setHitData(hit.normal, hit.point, hit.triangle);
    r.setHitDistance(hit.distance);
  }
}
