/** Shared helpers for the character tests: levels built from static boxes, penetration measurement. */
import { Box, Capsule, OverlapCollector, Sphere, World, type RigidBody, type Vec3 } from '../../src/index';
import type { CharacterController } from '../../character/index';

export const DT = 1 / 60;
/** Centre height of a 0.3 / 0.6 capsule resting on y = 0 with the default 1 cm skin. */
export const REST_Y = 0.9 + 0.01;

/** A world (gravity −9.81) with a static ground slab whose top is at y = 0. */
export function flatWorld(halfSize = 50): { world: World; ground: RigidBody } {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  const ground = world.createBody({ type: 'static', shape: new Box({ x: halfSize, y: 0.5, z: halfSize }), position: { x: 0, y: -0.5, z: 0 } });
  return { world, ground };
}

export function staticBox(world: World, half: Vec3, position: Vec3, yaw = 0, roll = 0): RigidBody {
  // rotation = yaw about Y then roll about Z (q = q_yaw ⊗ q_roll)
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
  const rotation = { x: sy * sr, y: sy * cr, z: cy * sr, w: cy * cr };
  return world.createBody({ type: 'static', shape: new Box(half), position, rotation });
}

const collector = new OverlapCollector();
const spheres = new Map<number, Sphere>();
const spherePos = { x: 0, y: 0, z: 0 };
/**
 * Deepest overlap of the controller's real capsule with anything but its own
 * body, metres. Also tests spheres of the capsule's radius at the ends and
 * the middle of its segment (each inside the capsule, so their depth is a
 * lower bound of the capsule's): capsule-vs-box overlap can miss a capsule
 * whose segment lies deep inside a box (reported to the World's owner).
 */
export function penetration(world: World, c: CharacterController): number {
  let deepest = 0;
  const contacts = world.overlap(c.capsule as Capsule, c.position, c.rotation, { exclude: c.body, collector });
  for (const k of contacts) if (k.depth > deepest) deepest = k.depth;
  let sphere = spheres.get(c.radius);
  if (!sphere) { sphere = new Sphere(c.radius); spheres.set(c.radius, sphere); }
  for (const f of [-1, 0, 1]) {
    spherePos.x = c.position.x + c.up.x * c.halfHeight * f;
    spherePos.y = c.position.y + c.up.y * c.halfHeight * f;
    spherePos.z = c.position.z + c.up.z * c.halfHeight * f;
    for (const k of world.overlap(sphere, spherePos, c.rotation, { exclude: c.body, collector })) if (k.depth > deepest) deepest = k.depth;
  }
  return deepest;
}
