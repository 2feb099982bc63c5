/**
 * Where a FootingCharacterController finds its footing world: passed
 * explicitly, or from the scene's physics plugin when that plugin carries a
 * footing world (FootingPlugin does). The plugin is duck-typed, so that this
 * file depends on no plugin class: anything with a `world` property holding
 * a footing World serves.
 */
import type { Scene } from '@babylonjs/core/scene';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { RigidBody, World } from '../../index';

/**
 * An object that owns a footing world, such as the scene's FootingPlugin.
 * `getPhysicsBody`, when present, names the Babylon body of a footing body
 * (the `collider` of collision events); without it `collider` is null and
 * the event's `body` is the footing body.
 */
export interface FootingWorldHost {
  readonly world: World;
  getPhysicsBody?(body: RigidBody): PhysicsBody | null | undefined;
}

/** A footing World, recognised by the query methods the character controller calls. */
export function isFootingWorld(value: unknown): value is World {
  if (value === null || typeof value !== 'object') return false;
  const w = value as Partial<Record<'shapeCast' | 'overlap' | 'fillQueryRegion' | 'createBody' | 'removeBody', unknown>>;
  return typeof w.shapeCast === 'function' && typeof w.overlap === 'function' && typeof w.fillQueryRegion === 'function' &&
    typeof w.createBody === 'function' && typeof w.removeBody === 'function';
}

function isHost(value: unknown): value is FootingWorldHost {
  return value !== null && typeof value === 'object' && isFootingWorld((value as { world?: unknown }).world);
}

/**
 * The world and its host for a controller: `explicit` (a World or a host)
 * when given, else the scene's physics plugin if it is a host. Throws a
 * TypeError saying how to provide one otherwise.
 */
export function resolveFootingWorld(scene: Scene, explicit: World | FootingWorldHost | undefined): { world: World; host: FootingWorldHost | null } {
  if (explicit !== undefined) {
    if (isFootingWorld(explicit)) return { world: explicit, host: null };
    if (isHost(explicit)) return { world: explicit.world, host: explicit };
    throw new TypeError('FootingCharacterController: options.world must be a footing World or an object with a `world` property holding one');
  }
  // getPhysicsEngine exists once a physics component is loaded (scene.enablePhysics).
  const engine = (scene as { getPhysicsEngine?: () => { getPhysicsPlugin?: () => unknown } | null | undefined }).getPhysicsEngine?.();
  const plugin = engine?.getPhysicsPlugin?.();
  if (isHost(plugin)) return { world: plugin.world, host: plugin };
  throw new TypeError(
    'FootingCharacterController: no footing world. Enable physics on the scene with FootingPlugin, ' +
    'pass { world } as the fourth constructor argument, or use FootingCharacterController.forWorld(world)',
  );
}
