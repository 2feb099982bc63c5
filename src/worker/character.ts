/**
 * The worker's `setCharacterSettings` / `getCharacterSettings`: a change to
 * a character's controller and walker settings is checked whole, on copies,
 * before anything is written, so that a refused change leaves the character
 * as it was (the controller and the walker check their live settings only
 * at the next move, where a bad value would stop every later step).
 */
import type { World } from '../world/world';
import { CharacterController, type CharacterControllerOptions } from '../../character/controller';
import { DEFAULT_SETTINGS, validateSettingValues } from '../../character/settings';
import { Walker, type WalkerSettings } from '../../character/walker';
import { merged } from './settings';
import type { CharacterDescData, CharacterSettingsData, CharacterSettingsState } from './protocol';

const TOP_LEVEL = ['settings', 'walker'];
/** CharacterDescData's fields (userData stays on the page; one sent anyway is ignored). */
const DESC_FIELDS = ['radius', 'halfHeight', 'position', 'collisionGroup', 'settings', 'walker', 'userData'];

/**
 * Builds the walker (and its controller) a `createCharacter` description
 * asks for, or throws a TypeError/RangeError naming the field and leaves
 * the world as it was: a misspelt field or setting is refused rather than
 * ignored, and `settings` takes the controller's settings only (not
 * `createBody` or `up`).
 */
export function buildCharacter(world: World, desc: CharacterDescData | undefined): Walker {
  const d = desc === undefined ? {} : desc;
  if (d === null || typeof d !== 'object') throw new TypeError(`desc must be a character description object (got ${String(d)})`);
  for (const key of Object.keys(d)) {
    if (!DESC_FIELDS.includes(key)) throw new RangeError(`desc.${key} is not a character field (fields: ${DESC_FIELDS.join(', ')})`);
  }
  merged(DEFAULT_SETTINGS, d.settings, 'settings');
  const options: CharacterControllerOptions = {
    ...(d.settings ?? {}), radius: d.radius, halfHeight: d.halfHeight, position: d.position, collisionGroup: d.collisionGroup,
  };
  // The walker's settings are checked on a controller without a body first:
  // refused once the controller's body is built, they would leave the
  // world's next body id and its broadphase changed, the body removed or not.
  const trial = new Walker(new CharacterController(world, { ...options, createBody: false }), d.walker ?? {});
  merged(trial.settings, d.walker, 'walker');
  return new Walker(new CharacterController(world, options), d.walker ?? {});
}

/** A copy of every setting of the walker and its controller. */
export function readCharacter(walker: Walker): CharacterSettingsState {
  const c = walker.controller, g = walker.settings.gravity;
  return {
    settings: { ...c.settings },
    walker: { ...walker.settings, gravity: { x: g.x, y: g.y, z: g.z } },
    radius: c.radius,
    halfHeight: c.halfHeight,
  };
}

/** Applies `change` whole, or throws a TypeError/RangeError naming the field and changes nothing. */
export function applyCharacterSettings(walker: Walker, change: CharacterSettingsData): void {
  if (change === null || typeof change !== 'object') throw new TypeError(`change must be an object (got ${String(change)})`);
  for (const key of Object.keys(change)) {
    if (!TOP_LEVEL.includes(key)) throw new RangeError(`${key} is not a character setting group (groups: settings, walker)`);
  }
  const controller = walker.controller;
  const settings = merged(controller.settings, change.settings, 'settings');
  validateSettingValues(settings);
  const next: WalkerSettings = merged(walker.settings, change.walker, 'walker');
  const g = next.gravity;
  if (g === null || typeof g !== 'object' || typeof g.x !== 'number' || typeof g.y !== 'number' || typeof g.z !== 'number') {
    throw new TypeError(`walker.gravity must be a { x, y, z } object of numbers (got ${String(g)})`);
  }
  next.gravity = { x: g.x, y: g.y, z: g.z };
  // A walker built on the same controller runs the Walker's own checks (ranges, gravity) without touching the live one.
  new Walker(controller, next);
  // Everything is checked: nothing below throws.
  Object.assign(controller.settings, settings);
  const live = walker.settings, gravity = live.gravity;
  Object.assign(live, next, { gravity });
  gravity.x = next.gravity.x; gravity.y = next.gravity.y; gravity.z = next.gravity.z;
}
