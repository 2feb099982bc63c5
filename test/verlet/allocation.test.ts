/**
 * The particle step allocates nothing in steady state. Measured on the built
 * library in a plain Node process (production code, no test-runner module
 * instrumentation): new-space bytes over 100 `checkState` + `postStep` calls of a 17×17
 * cloth lying on a TriangleMesh floor, over a sphere and a dynamic box, with a
 * kinematic capsule moving through it, after warm-up, minus the bytes of an
 * empty measurement window.
 */
import { describe, expect, it } from 'vitest';
import { buildLibrary, MEASURE_SOURCE, runScenario } from '../helpers/built-library';

const SCENARIO = `
import { World, Box, Sphere, Capsule, TriangleMesh, createCloth, createRope, createParticleBody } from './footing.js';
${MEASURE_SOURCE}
const world = new World();
world.createBody({ type: 'static', shape: new TriangleMesh([-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5], [0, 2, 1, 0, 3, 2]) });
world.createBody({ type: 'static', shape: new Sphere(0.4), position: { x: 0, y: 0.4, z: 0 } });
world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 1, y: 0.2, z: 0 }, mass: 1 });
const capsule = world.createBody({ type: 'kinematic', shape: new Capsule(0.3, 0.6), position: { x: -1, y: 0.9, z: 0 } });
const cloth = createCloth(world, { width: 1.5, height: 1.5, segments: 16, pinned: 'none', position: { x: 0, y: 1, z: 0 }, rotation: { x: -Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 } });
const rope = createRope(world, { from: { x: -1, y: 2.5, z: 0.2 }, to: { x: 0, y: 2.5, z: 0.2 }, segments: 20 });
createParticleBody(world, { position: { x: 1, y: 1, z: 0 } });
const target = { x: 0, y: 0.9, z: 0 };
let k = 0;
for (let i = 0; i < 1500; i++) { target.x = -1 + 0.5 * Math.sin(k++ * 0.02); capsule.setPosition(target); world.step(1 / 60); }
// The checks the world runs first (the cloth's sticks, the rope's pin), then the step.
const particleStep = () => { cloth.system.checkState(world); rope.system.checkState(world); cloth.system.postStep(world, 1 / 60); };
for (let i = 0; i < 3000; i++) particleStep();
// Two plain loops (a shared window(f) helper made its call site polymorphic,
// and the deoptimised caller ran the inlined particle step unoptimised).
let bytes = Infinity, overhead = Infinity;
for (let attempt = 0; attempt < 10 && bytes === Infinity; attempt++) {
  const before = newSpace();
  for (let i = 0; i < 100; i++) particleStep();
  const after = newSpace();
  if (after >= before) bytes = after - before; // otherwise a scavenge ran: retry
}
for (let attempt = 0; attempt < 10 && overhead === Infinity; attempt++) {
  const before = newSpace();
  const after = newSpace();
  if (after >= before) overhead = after - before;
}
console.log(JSON.stringify({ bytes, overhead, particles: cloth.system.count }));
`;

describe('verlet allocation', () => {
  it('100 cloth steps on a mesh, sphere, box and moving capsule allocate < 16 KB (built library, plain node)', async () => {
    const dir = await buildLibrary();
    const r = runScenario<{ bytes: number; overhead: number; particles: number }>(dir, 'verlet', SCENARIO);
    console.log(`[allocation] verlet: ${r.bytes - r.overhead} B per 100 particle steps of ${r.particles} particles (window overhead ${r.overhead} B removed)`);
    expect(r.bytes - r.overhead).toBeLessThan(16 * 1024);
  });
});
