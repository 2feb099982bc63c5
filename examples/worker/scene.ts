// The example's scene as plain descriptions, shared by the worker mode and
// the main-thread mode: a floor, `count` boxes and spheres dropped in a grid
// (spaced so that each lands on its own and rests at y = 0.5), a character.
import type { BodyDescData, CharacterDescData } from 'footing/worker';

export const FLOOR: BodyDescData = { type: 'static', shape: { kind: 'box', halfExtents: { x: 20, y: 0.5, z: 20 } }, position: { x: 0, y: -0.5, z: 0 } };

export function droppedBodies(count: number): BodyDescData[] {
  const out: BodyDescData[] = [];
  const columns = 20;
  for (let i = 0; i < count; i++) {
    const x = (i % columns) * 1.5 - 14.25;
    const z = Math.floor(i / columns) * 1.5 - 12;
    const y = 1.5 + (i % 7) * 0.6;
    out.push(i % 4 === 3
      ? { type: 'dynamic', shape: { kind: 'sphere', radius: 0.5 }, position: { x, y, z }, mass: 5, angularDamping: 0.5 }
      : { type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, position: { x, y, z }, mass: 10 });
  }
  return out;
}

/**
 * `count` boxes in a heap: layers of 6 × 6 over a 7 m square, each box
 * turned by a seeded pseudo-random rotation, falling onto each other. A
 * contact-heavy scene that stays awake for seconds (the main-thread cost
 * comparison uses it).
 */
export function heapBodies(count: number, seed = 7): BodyDescData[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const out: BodyDescData[] = [];
  for (let i = 0; i < count; i++) {
    const layer = Math.floor(i / 36), k = i % 36;
    const x = (k % 6) * 1.2 - 3, z = Math.floor(k / 6) * 1.2 - 6, y = 1 + layer * 1.3;
    const ax = random() - 0.5, ay = random() - 0.5, az = random() - 0.5;
    const len = Math.hypot(ax, ay, az) || 1, half = random() * Math.PI / 2, s = Math.sin(half) / len;
    out.push({
      type: 'dynamic', shape: { kind: 'box', halfExtents: { x: 0.5, y: 0.5, z: 0.5 } }, mass: 10,
      position: { x, y, z }, rotation: { x: ax * s, y: ay * s, z: az * s, w: Math.cos(half) },
    });
  }
  return out;
}

/** Standing on the floor: radius 0.3 + half height 0.6 + skin 0.01 above y = 0. */
export const HERO: CharacterDescData = { position: { x: 0, y: 0.92, z: 14 }, walker: { speed: 4 } };
