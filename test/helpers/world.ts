/** Shared scene helpers for dynamics tests. */
import { Box, World, type RigidBody, type Vec3, type WorldOptions } from '../../src/index';

export const DT = 1 / 60;

/** A world with a static ground box whose top face is at y = 0. */
export function worldWithGround(options: WorldOptions = {}, friction = 0.5, halfSize = 50): { world: World; ground: RigidBody } {
  const world = new World(options);
  const ground = world.createBody({
    type: 'static', shape: new Box({ x: halfSize, y: 0.5, z: halfSize }), position: { x: 0, y: -0.5, z: 0 }, friction,
  });
  return { world, ground };
}

export function stepSeconds(world: World, seconds: number, dt = DT): void {
  const n = Math.round(seconds / dt);
  for (let i = 0; i < n; i++) world.step(dt);
}

export function tiltAngle(body: RigidBody): number {
  // Angle between the body's local Y axis and world Y.
  const q = body.rotation;
  const upY = 1 - 2 * (q.x * q.x + q.z * q.z);
  return Math.acos(Math.max(-1, Math.min(1, upY)));
}

export function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}
