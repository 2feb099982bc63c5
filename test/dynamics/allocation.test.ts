/**
 * world.step allocates nothing in steady state. Measured on the built library
 * in a plain Node process (see test/helpers/built-library.ts): new-space bytes
 * over 100 steps of a 500-body pile of boxes, spheres and capsules in a walled
 * box whose floor carries four bumpy TriangleMesh tiles, after warm-up; and
 * over 100 steps of a pile of jointed humanoid ragdolls (ball, cone-twist and
 * hinge joints in the same solver), whose step V8 compiles differently (it
 * once left the inertia update out of line there, boxing three doubles per
 * body per step: 30 KB a step in a 32-ragdoll pile).
 */
import { describe, expect, it } from 'vitest';
import { buildLibrary, MEASURE_SOURCE, runScenario } from '../helpers/built-library';

const SEED = 20240611;

/**
 * Source text: four windows of 25 steps of `world`, each measured in new
 * space; a window in which a scavenge ran is measured again. Leaves
 * `bytes`, `overhead` and `windows`.
 */
const STEP_WINDOWS = `
const overhead = emptyWindow();
let bytes = 0, windows = 0;
for (let attempt = 0; attempt < 40 && windows < 4; attempt++) {
  const before = newSpace();
  for (let i = 0; i < 25; i++) world.step(1 / 60);
  const after = newSpace();
  if (after < before) continue; // a scavenge ran in this window: measure it again
  bytes += Math.max(0, after - before - overhead);
  windows++;
}
`;

const SCENARIO = `
import { World, Box, Sphere, Capsule, TriangleMesh } from './footing.js';
${MEASURE_SOURCE}
// mulberry32, seed ${SEED}
let state = ${SEED} >>> 0;
const rnd = () => { let t = (state = (state + 0x6d2b79f5) >>> 0); t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
const range = (lo, hi) => lo + (hi - lo) * rnd();

/** An n × n grid tile of side size with gentle bumps (edges partly convex, partly concave). */
function tile(n, size, phase) {
  const positions = [], indices = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push((i / n - 0.5) * size, 0.05 * Math.sin(1.3 * i + 0.7 * j + phase), (j / n - 0.5) * size);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) { const a = j * (n + 1) + i; indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2); }
  return new TriangleMesh(positions, indices);
}

const world = new World({ sleeping: { enabled: false } });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
for (const [x, z, hx, hz] of [[-6, 0, 0.5, 6], [6, 0, 0.5, 6], [0, -6, 6, 0.5], [0, 6, 6, 0.5]]) {
  world.createBody({ type: 'static', shape: new Box({ x: hx, y: 3, z: hz }), position: { x, y: 3, z } });
}
for (const [x, z] of [[-3, -3], [3, -3], [-3, 3], [3, 3]]) world.createBody({ type: 'static', shape: tile(6, 4, x + z), position: { x, y: 0.06, z } });
for (let i = 0; i < 500; i++) {
  const k = i % 3;
  const shape = k === 0 ? new Box({ x: 0.3, y: 0.3, z: 0.3 }) : k === 1 ? new Sphere(0.3) : new Capsule(0.2, 0.3);
  world.createBody({ type: 'dynamic', shape, position: { x: range(-4.5, 4.5), y: 1 + i * 0.08, z: range(-4.5, 4.5) } });
}
// Warm-up: the pile lands and settles, and the per-step code gets optimised.
for (let i = 0; i < 1500; i++) world.step(1 / 60);
const kinds = new Set();
world.debugDraw({ contact: (c) => { const ka = c.bodyA.shape.kind, kb = c.bodyB.shape.kind; kinds.add(Math.min(ka, kb) + '-' + Math.max(ka, kb)); } });

${STEP_WINDOWS}
console.log(JSON.stringify({ bytes, overhead, windows, kinds: kinds.size, contacts: world.contactCount }));
`;

const RAGDOLL_SCENARIO = `
import { World, Box, createRagdoll } from './footing.js';
${MEASURE_SOURCE}
const world = new World({ sleeping: { enabled: false } });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
// Sixteen humanoids in four tilted layers, falling into one heap.
for (let i = 0; i < 16; i++) {
  const a = 0.7 * i;
  createRagdoll(world, { position: { x: 0.3 * (i % 4) - 0.45, y: 1.2 + 0.6 * i, z: 0.2 * ((i >> 2) % 2) }, rotation: { x: Math.sin(a) * 0.6, y: 0, z: 0.3, w: 1 } });
}
for (let i = 0; i < 1500; i++) world.step(1 / 60);
${STEP_WINDOWS}
console.log(JSON.stringify({ bytes, overhead, windows, joints: world.joints.length, contacts: world.contactCount }));
`;

// Events every step: balls bouncing for ever (restitution 1) on a floor and
// through a static sensor slab, with listeners on all four contact events.
const EVENTS_SCENARIO = `
import { World, Box, Sphere } from './footing.js';
${MEASURE_SOURCE}
const world = new World({ sleeping: { enabled: false } });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 }, restitution: 1 });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.1, z: 20 }), position: { x: 0, y: 1, z: 0 }, isSensor: true });
for (let i = 0; i < 40; i++) {
  world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: (i % 8) - 3.5, y: 1.5 + 0.07 * i, z: Math.floor(i / 8) - 2 }, restitution: 1 });
}
let events = 0;
const count = () => { events++; };
world.on('contactBegin', count); world.on('contactEnd', count); world.on('sensorEnter', count); world.on('sensorExit', count);
for (let i = 0; i < 1500; i++) world.step(1 / 60);
const before = events;
${STEP_WINDOWS}
console.log(JSON.stringify({ bytes, overhead, windows, events: events - before }));
`;

// A small level (floor, four steps, two walls) with a resting crate and a
// character's kinematic body: few contacts, so V8 inlines little of the
// solver, and a double handed to a call it does not inline is boxed every
// step (StepSolver.solve once boxed dt / subSteps and two settings: 32 B/step).
const LEVEL_SCENARIO = `
import { World, Box } from './footing.js';
import { CharacterController } from './character.js';
${MEASURE_SOURCE}
const DT = 1 / 60;
const world = new World();
const box = (hx, hy, hz, x, y, z) => world.createBody({ type: 'static', shape: new Box({ x: hx, y: hy, z: hz }), position: { x, y, z } });
box(20, 0.5, 20, 0, -0.5, 0);
for (let k = 0; k < 4; k++) box(1, (k + 1) * 0.1, 3, 3 + k * 0.5, (k + 1) * 0.1, 0);
box(0.2, 2, 8, -5, 2, 0);
box(8, 2, 0.2, 0, 2, 5);
const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 1.5, y: 0.4, z: 1 }, mass: 20 });
new CharacterController(world, { radius: 0.6, halfHeight: 0.3, position: { x: 0, y: 0.95, z: 0 } });
const run = (n) => { for (let i = 0; i < n; i++) world.step(DT); };
run(10000);
const overhead = emptyWindow();
let bytes = 0, windows = 0;
for (let attempt = 0; attempt < 80 && windows < 8; attempt++) {
  const before = newSpace();
  run(250);
  const after = newSpace();
  if (after < before) continue; // a scavenge ran in this window: measure it again
  bytes += Math.max(0, after - before - overhead);
  windows++;
}
console.log(JSON.stringify({ bytes, overhead, windows, crateY: crate.position.y }));
`;

describe('steady-state allocation', () => {
  it('world.step delivering contact and sensor events every step allocates < 16 KB per 100 steps', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; events: number }>(dir, 'events', EVENTS_SCENARIO);
    console.log(`[allocation] 40 bouncing balls with event listeners: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.events} events delivered while measuring`);
    // 40 balls bouncing through the sensor: several events a step
    expect(r.events).toBeGreaterThan(200);
    expect(r.windows).toBe(4);
    expect(r.bytes).toBeLessThan(16 * 1024);
  });

  it('world.step on a 500-body pile (boxes, spheres, capsules, mesh tiles) allocates < 16 KB per 100 steps', async () => {
    console.log(`[allocation pile] seed=${SEED}`);
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; kinds: number; contacts: number }>(dir, 'pile', SCENARIO);
    console.log(`[allocation] 500-body pile: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.contacts} contacts, ${r.kinds} contact families`);
    // Every contact family the pile is meant to exercise is present.
    expect(r.kinds).toBeGreaterThanOrEqual(9);
    expect(r.windows).toBe(4);
    expect(r.bytes).toBeLessThan(16 * 1024);
  });

  it('world.step on a pile of 16 jointed ragdolls allocates < 16 KB per 100 steps', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; joints: number; contacts: number }>(dir, 'ragdolls', RAGDOLL_SCENARIO);
    console.log(`[allocation] 16 ragdolls: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.joints} joints, ${r.contacts} contacts`);
    expect(r.joints).toBeGreaterThanOrEqual(16 * 11);
    expect(r.windows).toBe(4);
    expect(r.bytes).toBeLessThan(16 * 1024);
  });
  it('world.step in a small level with a resting crate and a character body allocates < 1 KB over 2000 steps (10000 warm-up)', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; crateY: number }>(dir, 'level', LEVEL_SCENARIO);
    console.log(`[allocation] small level: ${r.bytes} bytes of new space over 2000 steps (${(r.bytes / 2000).toFixed(2)} B/step; ${r.overhead} B measuring overhead per window removed); crate centre at y = ${r.crateY}`);
    expect(r.windows).toBe(8);
    // One boxed double per step would be 32 KB.
    expect(r.bytes).toBeLessThan(1024);
    // The crate rests on the floor (half height 0.4 m).
    expect(Math.abs(r.crateY - 0.4)).toBeLessThan(0.01);
  });
});
