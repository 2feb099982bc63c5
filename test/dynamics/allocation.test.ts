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

// The general convex shapes: cylinders and hulls among boxes, spheres and
// capsules on the same floor and mesh tiles (GJK/EPA, face clipping and the
// convex-vs-mesh routine every step).
const CONVEX_SCENARIO = SCENARIO
  .replace("import { World, Box, Sphere, Capsule, TriangleMesh } from './footing.js';",
    "import { World, Box, Sphere, Capsule, TriangleMesh, Cylinder, ConvexHull } from './footing.js';")
  .replace('for (let i = 0; i < 500; i++) {', 'const rock = new ConvexHull([[0.3, 0, 0], [-0.25, 0.05, 0.1], [0, 0.28, 0], [0.05, -0.3, 0.05], [0, 0, 0.3], [0.1, 0.1, -0.27], [-0.15, -0.15, -0.15], [0.2, -0.1, 0.2]].map(([x, y, z]) => ({ x, y, z })));\nfor (let i = 0; i < 300; i++) {')
  .replace('const k = i % 3;', 'const k = i % 5;')
  .replace('new Capsule(0.2, 0.3);', 'k === 2 ? new Capsule(0.2, 0.3) : k === 3 ? new Cylinder(0.25, 0.25) : rock;')
  .replace('y: 1 + i * 0.08', 'y: 1 + i * 0.12');

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

// Every slider and six-dof path (per-axis rows, point / hinge-lock / weld
// blocks, hard and soft limits, velocity and position motors, friction) and
// the hinge servo, kept moving by motors with sleeping off.
const JOINT_KINDS_SCENARIO = `
import { World, Box, Sphere, Capsule, SliderJoint, SixDofJoint, HingeJoint } from './footing.js';
${MEASURE_SOURCE}
const world = new World({ sleeping: { enabled: false } });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
for (let i = 0; i < 6; i++) {
  const x = 3 * i - 7.5;
  const post = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 1, z: 0.1 }), position: { x, y: 1, z: 0 } });
  const a = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.1, z: 0.1 }), position: { x: x + 0.4, y: 1.5, z: 0 }, mass: 3 });
  world.addJoint(new SliderJoint({ bodyA: post, bodyB: a, axis: { x: 1, y: 0.2 * i, z: 0 }, lowerLimit: -0.2, upperLimit: 0.8, motorSpeed: i % 2 ? 1.5 : -1.5, maxMotorForce: 80, frictionForce: 5, motorMode: i % 3 === 0 ? 'position' : 'velocity', targetPosition: 0.5 }));
  const door = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.6, z: 0.04 }), position: { x: x - 0.5, y: 0.7, z: 1 }, mass: 8 });
  world.addJoint(new HingeJoint({ bodyA: post, bodyB: door, anchor: { x: x - 0.1, y: 0.7, z: 1 }, axis: { x: 0, y: 1, z: 0 }, motorMode: 'position', targetAngle: 1, maxMotorTorque: 30 }));
  const limb = world.createBody({ type: 'dynamic', shape: new Capsule(0.07, 0.3), position: { x, y: 1.6, z: -0.45 }, rotation: { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }, mass: 2 });
  const locked = i % 3 === 0 ? 'locked' : 'limited';
  world.addJoint(new SixDofJoint({ bodyA: post, bodyB: limb, anchor: { x, y: 1.6, z: -0.1 }, axis: { x: 0, y: 0, z: -1 }, swingType: i % 2 ? 'cone' : 'pyramid',
    linearX: { mode: i % 2 ? 'locked' : 'limited', min: -0.05, max: 0.05, limitHertz: 5 },
    angularX: { mode: 'limited', min: -0.3, max: 0.3, limitHertz: 3, friction: 0.2, motor: 'position', motorTarget: 0.2, maxMotorForce: 5 },
    angularY: { mode: locked, min: -0.7, max: 0.7, motor: 'velocity', motorSpeed: 1, maxMotorForce: 10 },
    angularZ: { mode: i % 3 === 2 ? 'free' : locked, min: -0.9, max: 0.4, friction: 0.1 } }));
  const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.15), position: { x: x + 0.4, y: 1.2, z: 0.4 }, mass: 1 });
  world.addJoint(new SixDofJoint({ bodyA: a, bodyB: ball, anchor: { x: x + 0.4, y: 1.2, z: 0.4 },
    linearY: { mode: 'limited', min: -0.3, max: 0.3, motor: 'position', motorTarget: 0.1, maxMotorForce: 40 },
    angularX: { mode: 'free' }, angularY: { mode: i % 2 ? 'locked' : 'free' }, angularZ: { mode: i % 2 ? 'locked' : 'free' } }));
}
for (let i = 0; i < 600; i++) world.step(1 / 60);
${STEP_WINDOWS}
console.log(JSON.stringify({ bytes, overhead, windows, joints: world.joints.length }));
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

// Static friction and every combine mode: boxes and balls with mixed
// materials on a floor and a 0.45 rad slope (μ 0.3, μs 0.9: some hold, some
// slide), kept moving by a spinning kinematic paddle, so contacts switch
// between static and sliding friction every step (Contact.mixMaterial).
const MATERIALS_SCENARIO = `
import { World, Box, Sphere } from './footing.js';
${MEASURE_SOURCE}
const modes = ['geometric', 'minimum', 'maximum', 'average', 'multiply'];
const world = new World({ sleeping: { enabled: false } });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 }, friction: 0.4, staticFriction: 0.7, frictionCombine: 'average' });
for (const [x, z, hx, hz] of [[-8, 0, 0.5, 8], [8, 0, 0.5, 8], [0, -8, 8, 0.5], [0, 8, 8, 0.5]]) {
  world.createBody({ type: 'static', shape: new Box({ x: hx, y: 2, z: hz }), position: { x, y: 2, z } });
}
const a = 0.45;
world.createBody({ type: 'static', shape: new Box({ x: 3, y: 0.2, z: 3 }), position: { x: -4, y: 1.5, z: 0 }, rotation: { x: 0, y: 0, z: Math.sin(a / 2), w: Math.cos(a / 2) }, friction: 0.3, staticFriction: 0.9 });
world.createBody({ type: 'kinematic', shape: new Box({ x: 3, y: 0.3, z: 0.2 }), position: { x: 3, y: 0.3, z: 0 }, angularVelocity: { x: 0, y: 1.5, z: 0 } });
for (let i = 0; i < 120; i++) {
  const shape = i % 3 === 0 ? new Sphere(0.25) : new Box({ x: 0.25, y: 0.25, z: 0.25 });
  const x = i < 40 ? -5 + (i % 5) * 0.6 : 1 + (i % 8) * 0.7, z = i < 40 ? -2 + Math.floor(i / 5) * 0.6 : -3 + Math.floor((i - 40) / 8) * 0.7;
  world.createBody({ type: 'dynamic', shape, position: { x, y: i < 40 ? 3 : 0.5 + 0.6 * (i % 2), z }, friction: 0.2 + 0.1 * (i % 4), staticFriction: i % 2 ? 0.9 : undefined,
    restitution: 0.1 * (i % 5), frictionCombine: modes[i % 5], restitutionCombine: modes[(i + 2) % 5] });
}
for (let i = 0; i < 600; i++) world.step(1 / 60);
${STEP_WINDOWS}
console.log(JSON.stringify({ bytes, overhead, windows, contacts: world.contacts.length }));
`;

// Compounds (tables and dumbbells) and plain shapes on a HeightField, kept
// moving by a kinematic sweeper, with a contactBegin listener reading the
// child index. (world.raycast and world.shapeCast are left out: they
// allocate about 7 and 15 KB per 100 calls with any shapes, see docs/shapes.md.)
const COMPOUND_SCENARIO = `
import { World, Box, Sphere, Capsule, Compound, HeightField } from './footing.js';
${MEASURE_SOURCE}
const world = new World({ sleeping: { enabled: false } });
const n = 41, samples = new Float64Array(n * n);
for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) samples[r * n + c] = 0.15 * Math.sin(0.5 * c) * Math.cos(0.4 * r);
world.createBody({ type: 'static', shape: new HeightField(samples, n, n, { x: 0.5, y: 1, z: 0.5 }) });
for (const [x, z, hx, hz] of [[-6, 0, 0.5, 6], [6, 0, 0.5, 6], [0, -6, 6, 0.5], [0, 6, 6, 0.5]]) {
  world.createBody({ type: 'static', shape: new Box({ x: hx, y: 2, z: hz }), position: { x, y: 1.5, z } });
}
const parts = [{ shape: new Box({ x: 0.4, y: 0.03, z: 0.3 }), position: { x: 0, y: 0.5, z: 0 } }];
for (const sx of [-1, 1]) for (const sz of [-1, 1]) parts.push({ shape: new Box({ x: 0.03, y: 0.24, z: 0.03 }), position: { x: sx * 0.35, y: 0.24, z: sz * 0.25 } });
const table = new Compound(parts);
const bell = new Compound([{ shape: new Sphere(0.15), position: { x: -0.3, y: 0, z: 0 } }, { shape: new Capsule(0.04, 0.25), rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } }, { shape: new Sphere(0.15), position: { x: 0.3, y: 0, z: 0 } }]);
for (let i = 0; i < 120; i++) {
  const k = i % 4;
  const shape = k === 0 ? table : k === 1 ? bell : k === 2 ? new Box({ x: 0.2, y: 0.2, z: 0.2 }) : new Sphere(0.2);
  // The boxes carry an inertia frame (inertiaRotation: the world inertia turns by rotation ⊗ frame).
  const frame = k === 2 ? { inertia: { x: 1.2, y: 1.7, z: 2.2 }, inertiaRotation: { x: 0.3, y: -0.5, z: 0.2, w: 0.8 } } : {};
  world.createBody({ type: 'dynamic', shape, position: { x: ((i * 7) % 9) - 4, y: 1 + 0.25 * i, z: ((i * 5) % 9) - 4 }, ...frame });
}
const sweeper = world.createBody({ type: 'kinematic', shape: new Box({ x: 0.2, y: 0.6, z: 4.5 }), position: { x: 0, y: 0.8, z: 0 } });
let childHits = 0;
world.on('contactBegin', (e) => { if (e.childA >= 0 || e.childB >= 0) childHits++; });
let t = 0;
const vel = { x: 0, y: 0, z: 0 };
function frame() {
  t += 1 / 60;
  vel.x = 3 * Math.cos(t);
  sweeper.setLinearVelocity(vel);
  world.step(1 / 60);
}
// Long enough for V8 to optimise again the contact routines a rare branch
// deoptimises late in the warm-up (capsule-capsule inside the dumbbells
// first met its parallel case near frame 1400): steady state, not tier-up.
for (let i = 0; i < 4000; i++) frame();
const overhead = emptyWindow();
let bytes = 0, windows = 0;
for (let attempt = 0; attempt < 40 && windows < 4; attempt++) {
  const before = newSpace();
  for (let i = 0; i < 25; i++) frame();
  const after = newSpace();
  if (after < before) continue;
  bytes += Math.max(0, after - before - overhead);
  windows++;
}
let compoundContacts = 0;
for (const c of world.contacts) if (c.bodyA.shape.kind === 6 || c.bodyB.shape.kind === 6) compoundContacts++;
console.log(JSON.stringify({ bytes, overhead, windows, childHits, compoundContacts }));
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
  it('world.step with Compound bodies on a HeightField, child-index events and boxes with an inertia frame allocates < 16 KB per 100 steps', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; childHits: number; compoundContacts: number }>(dir, 'compound', COMPOUND_SCENARIO);
    console.log(`[allocation] 60 compounds + 60 shapes on a height field: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B overhead per window removed), ${r.compoundContacts} compound contacts, ${r.childHits} child events`);
    expect(r.compoundContacts).toBeGreaterThan(60);
    expect(r.childHits).toBeGreaterThan(0);
    expect(r.windows).toBe(4);
    expect(r.bytes).toBeLessThan(16 * 1024);
  });

  it('world.step delivering contact and sensor events every step allocates < 16 KB per 100 steps', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; events: number }>(dir, 'events', EVENTS_SCENARIO);
    console.log(`[allocation] 40 bouncing balls with event listeners: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.events} events delivered while measuring`);
    // 40 balls bouncing through the sensor: several events a step
    expect(r.events).toBeGreaterThan(200);
    expect(r.windows).toBe(4);
    expect(r.bytes).toBeLessThan(16 * 1024);
  });

  it('world.step with static friction and every combine mode (mixed materials, a slope, a spinning paddle) allocates < 16 KB per 100 steps', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; contacts: number }>(dir, 'materials', MATERIALS_SCENARIO);
    console.log(`[allocation] mixed materials: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.contacts} contacts`);
    expect(r.contacts).toBeGreaterThan(100);
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

  it('world.step on a 300-body pile with cylinders and convex hulls (and boxes, spheres, capsules, mesh tiles) allocates < 16 KB per 100 steps', async () => {
    console.log(`[allocation convex pile] seed=${SEED}`);
    expect(CONVEX_SCENARIO).toContain('new Cylinder(0.25, 0.25)');
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; kinds: number; contacts: number }>(dir, 'convex-pile', CONVEX_SCENARIO);
    console.log(`[allocation] 300-body convex pile: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.contacts} contacts, ${r.kinds} contact families`);
    // Cylinders and hulls against each other, the other shapes, the floor box and the tiles.
    expect(r.kinds).toBeGreaterThanOrEqual(14);
    expect(r.windows).toBe(4);
    expect(r.bytes).toBeLessThan(16 * 1024);
  });

  it('world.step with sliders, six-dof joints (every row path) and hinge servos allocates < 16 KB per 100 steps', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; windows: number; joints: number }>(dir, 'joint-kinds', JOINT_KINDS_SCENARIO);
    console.log(`[allocation] sliders and six-dofs: ${r.bytes} bytes of new space per 100 steps (${r.overhead} B measuring overhead per window removed), ${r.joints} joints`);
    expect(r.joints).toBe(24);
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
