// The page's scene queries run in the worker: raycast, shapeCast and overlap, with bodies named by handle.
import type { ConvexShape } from '../shapes/shape';
import type { QueryOptions, World } from '../world/world';
import type { RigidBody } from '../dynamics/body';
import { shapeFromDesc } from './describe';
import type { HostSlots } from './host-slots';
import {
  QUERY_OPTION_NAMES, type ClientMessage, type HostMessage, type OverlapContactData, type QueryOptionsData, type RaycastHitData, type ShapeCastHitData, type ShapeDesc,
} from './protocol';

type QueryMessage = Extract<ClientMessage, { type: 'raycast' | 'shapeCast' | 'overlap' }>;

/** Runs a query message on the world; returns the answer to post. */
export function answerQuery(world: World, slots: HostSlots, msg: QueryMessage): HostMessage {
  switch (msg.type) {
    case 'raycast': {
      const hit = world.raycast(msg.from, msg.to, queryOptions(slots, msg.options, msg.type));
      const data: RaycastHitData | null = hit && {
        handle: slots.handleOf.get(hit.body) ?? -1,
        point: { x: hit.point.x, y: hit.point.y, z: hit.point.z },
        normal: { x: hit.normal.x, y: hit.normal.y, z: hit.normal.z },
        distance: hit.distance, fraction: hit.fraction, triangle: hit.triangle, child: hit.child ?? -1,
      };
      return { type: 'raycastResult', id: msg.id, hit: data };
    }
    case 'shapeCast': {
      const shape = queryShape(msg.shape, msg.type);
      const hit = world.shapeCast(shape, msg.position, msg.rotation, msg.translation, queryOptions(slots, msg.options, msg.type));
      const t = msg.translation;
      const data: ShapeCastHitData | null = hit && {
        handle: slots.handleOf.get(hit.body) ?? -1,
        fraction: hit.fraction, distance: hit.fraction * Math.hypot(t.x, t.y, t.z),
        point: { x: hit.point.x, y: hit.point.y, z: hit.point.z },
        normal: { x: hit.normal.x, y: hit.normal.y, z: hit.normal.z },
        triangle: hit.triangle, child: hit.child ?? -1,
      };
      return { type: 'shapeCastResult', id: msg.id, hit: data };
    }
    case 'overlap': {
      const shape = queryShape(msg.shape, msg.type);
      const contacts: OverlapContactData[] = world.overlap(shape, msg.position, msg.rotation, queryOptions(slots, msg.options, msg.type)).map((c) => ({
        handle: slots.handleOf.get(c.body) ?? -1,
        point: { x: c.point.x, y: c.point.y, z: c.point.z },
        normal: { x: c.normal.x, y: c.normal.y, z: c.normal.z },
        depth: c.depth, child: c.child,
      }));
      return { type: 'overlapResult', id: msg.id, contacts };
    }
  }
}

/** The World's QueryOptions for the page's filter, bodies by handle; refuses a field it does not know. */
export function queryOptions(slots: HostSlots, o: QueryOptionsData | undefined, command: string): QueryOptions {
  if (o === undefined) return {};
  if (o === null || typeof o !== 'object') throw new TypeError(`${command}: options must be an object (got ${String(o)})`);
  for (const key of Object.keys(o)) {
    if (!(QUERY_OPTION_NAMES as readonly string[]).includes(key)) {
      throw new RangeError(`${command}: options.${key} is not a query option (options: ${QUERY_OPTION_NAMES.join(', ')})`);
    }
  }
  const options: QueryOptions = { collisionGroup: o.collisionGroup, collisionMask: o.collisionMask, includeSensors: o.includeSensors };
  const ex = o.exclude;
  if (ex === undefined) return options;
  const bodyOf = (handle: number, field: string): RigidBody | null => {
    const slot = slots.requireSlot(handle, `${command}: ${field}`);
    return slots.bodies[slot] ?? slots.walkers[slot]?.controller.body ?? null;
  };
  if (typeof ex === 'number') {
    options.exclude = bodyOf(ex, 'options.exclude');
  } else if (Array.isArray(ex)) {
    const skip = new Set<RigidBody | null>(ex.map((h, i) => bodyOf(h, `options.exclude[${i}]`)));
    options.filter = (body) => !skip.has(body);
  } else {
    throw new TypeError(`${command}: options.exclude must be a handle or an array of handles (got ${String(ex)})`);
  }
  return options;
}

/** A query's shape from its description: convex kinds only, as the World's queries take. */
export function queryShape(desc: ShapeDesc, command: string): ConvexShape {
  const shape = shapeFromDesc(desc);
  if (!shape.isConvex) throw new TypeError(`${command}: shape must be a convex kind ('box', 'sphere', 'capsule', 'cylinder' or 'hull'; got '${desc.kind}')`);
  return shape as ConvexShape;
}
