/**
 * The worker's `setSettings` / `getSettings`: a change to the running
 * world's settings is checked whole, on copies, before any field is written,
 * so that a refused change leaves the world as it was (the World itself only
 * checks its live settings at the start of the next step, when a bad value
 * would stop every step from then on).
 */
import type { World } from '../world/world';
import { checkTimeStep, checkWorldSettings } from '../world/settings';
import { requireInteger } from '../math/validate';
import type { WorldSettingsData, WorldSettingsState } from './protocol';

const TOP_LEVEL = ['gravity', 'solverSettings', 'sleeping', 'jointSettings', 'fixedTimeStep', 'maxStepsPerAdvance'];

/** A copy of every setting of `world`. */
export function readSettings(world: World): WorldSettingsState {
  return {
    gravity: { x: world.gravity.x, y: world.gravity.y, z: world.gravity.z },
    solverSettings: { ...world.solverSettings },
    sleeping: { ...world.sleeping },
    jointSettings: { ...world.jointSettings },
    fixedTimeStep: world.fixedTimeStep,
    maxStepsPerAdvance: world.maxStepsPerAdvance,
  };
}

/** Applies `change` to `world` whole, or throws a TypeError/RangeError naming the field and changes nothing. */
export function applySettings(world: World, change: WorldSettingsData): void {
  if (change === null || typeof change !== 'object') throw new TypeError(`settings must be an object (got ${String(change)})`);
  for (const key of Object.keys(change)) {
    if (!TOP_LEVEL.includes(key)) throw new RangeError(`settings.${key} is not a world setting (settings: ${TOP_LEVEL.join(', ')})`);
  }
  const g = change.gravity;
  if (g !== undefined && (g === null || typeof g !== 'object')) throw new TypeError(`gravity must be a { x, y, z } object (got ${String(g)})`);
  const gravity = g === undefined ? { ...world.gravity } : { x: g.x, y: g.y, z: g.z };
  const solverSettings = merged(world.solverSettings, change.solverSettings, 'solverSettings');
  const sleeping = merged(world.sleeping, change.sleeping, 'sleeping');
  const jointSettings = merged(world.jointSettings, change.jointSettings, 'jointSettings');
  checkWorldSettings(gravity, sleeping, jointSettings, solverSettings, world.joints);
  if (change.fixedTimeStep !== undefined) checkTimeStep(change.fixedTimeStep, 'fixedTimeStep');
  if (change.maxStepsPerAdvance !== undefined) requireInteger(change.maxStepsPerAdvance, 1, 1000, 'maxStepsPerAdvance');
  // Everything is checked: nothing below throws.
  Object.assign(world.gravity, gravity);
  Object.assign(world.solverSettings, solverSettings);
  Object.assign(world.sleeping, sleeping);
  Object.assign(world.jointSettings, jointSettings);
  if (change.fixedTimeStep !== undefined) world.fixedTimeStep = change.fixedTimeStep;
  if (change.maxStepsPerAdvance !== undefined) world.maxStepsPerAdvance = change.maxStepsPerAdvance;
}

/**
 * `current` with `change`'s fields, refusing fields `current` does not have
 * (a misspelt setting would otherwise be ignored) and a non-number for a
 * numeric one (a range check such as `x >= 0` lets the string '5' through).
 */
export function merged<T extends object>(current: T, change: Partial<T> | undefined, name: string): T {
  if (change === undefined) return { ...current };
  if (change === null || typeof change !== 'object') throw new TypeError(`${name} must be an object (got ${String(change)})`);
  for (const key of Object.keys(change)) {
    if (!Object.prototype.hasOwnProperty.call(current, key)) throw new RangeError(`${name}.${key} is not a setting (${name}: ${Object.keys(current).join(', ')})`);
    const value = (change as Record<string, unknown>)[key];
    if (typeof (current as Record<string, unknown>)[key] === 'number' && typeof value !== 'number') {
      throw new TypeError(`${name}.${key} must be a number (got ${typeof value} ${String(value)})`);
    }
  }
  return { ...current, ...change };
}
