/**
 * Benchmark and scenario scenes as plain data, so the same scene can be built
 * in footing, in the peer engines (test/bench/peers/) and in the demo.
 *
 * Conventions: metres, kilograms, seconds; Y up; quaternions { x, y, z, w }.
 * A capsule's `halfHeight` is the half-length of its inner segment along local
 * Y (footing's `Capsule`, Jolt's and crashcat's "half height of cylinder",
 * Rapier's `capsule(halfHeight, radius)`).
 */
import type { Quat, Vec3 } from '../../src/index';

export type ShapeDesc =
  | { readonly kind: 'box'; readonly halfExtents: Readonly<Vec3> }
  | { readonly kind: 'sphere'; readonly radius: number }
  | { readonly kind: 'capsule'; readonly radius: number; readonly halfHeight: number }
  /** Along local Y, like footing's `Cylinder` (Rapier's and Jolt's cylinders too). */
  | { readonly kind: 'cylinder'; readonly radius: number; readonly halfHeight: number }
  /** The convex hull of `points` (local frame, centred near the origin). */
  | { readonly kind: 'hull'; readonly points: readonly Readonly<Vec3>[] };

export interface BodyDesc {
  readonly shape: ShapeDesc;
  readonly type: 'static' | 'dynamic';
  readonly position: Readonly<Vec3>;
  readonly rotation: Readonly<Quat>;
  /** kg; ignored (0) for static bodies. */
  readonly mass: number;
  readonly friction: number;
  readonly restitution: number;
}

/** An axis-aligned region; a dynamic body whose centre leaves it has escaped. */
export interface SceneBounds {
  readonly min: Readonly<Vec3>;
  readonly max: Readonly<Vec3>;
}

export interface Scene {
  /** Short id used on the command line and in tables, e.g. `pyramid-20`. */
  readonly name: string;
  readonly description: string;
  readonly gravity: Readonly<Vec3>;
  /** Fixed step, seconds. */
  readonly dt: number;
  readonly bodies: readonly BodyDesc[];
  readonly bounds: SceneBounds;
  /**
   * Whether the scene is meant to come to rest in its built arrangement
   * (stacks, pyramids), so drift from the settled pose measures stability.
   * A pile of dropped bodies is not: it keeps shuffling for a while.
   */
  readonly measureDrift: boolean;
  // Joints (ragdoll scenes, issue 4) will be added here as a separate plain-data list.
}

export const IDENTITY: Readonly<Quat> = Object.freeze({ x: 0, y: 0, z: 0, w: 1 });
export const EARTH_GRAVITY: Readonly<Vec3> = Object.freeze({ x: 0, y: -9.81, z: 0 });
export const DT = 1 / 60;

export function staticBox(halfExtents: Vec3, position: Vec3, friction: number): BodyDesc {
  return {
    shape: { kind: 'box', halfExtents },
    type: 'static',
    position,
    rotation: IDENTITY,
    mass: 0,
    friction,
    restitution: 0,
  };
}

export function countDynamic(scene: Scene): number {
  let n = 0;
  for (const b of scene.bodies) if (b.type === 'dynamic') n++;
  return n;
}
