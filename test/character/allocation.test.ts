/**
 * Allocation check of CharacterController.move and Walker.update (60 Hz,
 * default settings), on the built library in a plain Node process (see
 * test/helpers/built-library.ts): new-space bytes over 2000 walker updates
 * after a long warm-up, in a real level (walls, stairs, a tilted slab; the
 * World's queries are measured too) and against a query stub (a World-shaped
 * object whose geometry is static half-spaces answered in closed form;
 * capsule vs plane n · x ≥ d: the capsule's lowest point along n is an end of
 * its segment minus the radius), so the controller's own code is measured
 * without the World.
 */
import { describe, expect, it } from 'vitest';
import { buildLibrary, MEASURE_SOURCE, runScenario } from '../helpers/built-library';

const COMMON = `
import { World, Box } from './footing.js';
import { CharacterController, Walker } from './character.js';
${MEASURE_SOURCE}
const DT = 1 / 60;
function driver(w) {
  // Time in an object field, not a captured let: a double in a closure's
  // context is boxed on every write.
  const clock = { t: 0, planes: 0 };
  return (n) => {
    for (let i = 0; i < n; i++) {
      clock.t += DT;
      const t = clock.t;
      w.setInput(Math.cos(t * 0.7), 0, Math.sin(t * 1.3));
      if (i % 97 === 0) w.jump();
      const r = w.update(DT);
      if (r.planeCount >= 2) clock.planes++;
    }
    return clock.planes;
  };
}
function measure(run) {
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
  return { bytes, windows, overhead };
}
`;

const STUB = `${COMMON}
class PlaneWorld {
  normals = []; offsets = []; g = 0.5;
  body = { isStatic: true, isDynamic: false, userData: null, setPosition() {}, getPointVelocity(out) { out.x = 0; out.y = 0; out.z = 0; return out; } };
  addPlane(n, d) { const l = Math.hypot(n.x, n.y, n.z); this.normals.push({ x: n.x / l, y: n.y / l, z: n.z / l }); this.offsets.push(d); }
  createBody() { return this.body; }
  fillQueryRegion(box, r) { return r; }
  removeBody() {}
  // The gap goes out through a field: a double returned from a call V8 does
  // not inline is boxed, and the stub must not allocate where footing does not.
  gapTo(i, s, p) { const n = this.normals[i]; const c = n.x * p.x + n.y * p.y + n.z * p.z - this.offsets[i]; this.g = c - Math.abs(n.y) * s.halfHeight - s.radius; }
  overlap(shape, p, _r, o) {
    const col = o.collector;
    while (col.contacts.length > 0) col.contacts.pop(); // keeps the backing store
    for (let i = 0; i < this.normals.length; i++) {
      this.gapTo(i, shape, p);
      const g = this.g;
      if (g >= 0) continue;
      const n = this.normals[i];
      const c = col.take();
      c.body = this.body;
      c.normal.x = n.x; c.normal.y = n.y; c.normal.z = n.z;
      c.depth = -g;
      c.point.x = p.x - n.x * shape.radius; c.point.y = p.y - n.y * shape.radius; c.point.z = p.z - n.z * shape.radius;
    }
    return col.contacts;
  }
  shapeCast(shape, p, _r, t, o) {
    let best = Infinity, bi = -1;
    for (let i = 0; i < this.normals.length; i++) {
      const n = this.normals[i];
      this.gapTo(i, shape, p);
      const g = this.g;
      const closing = -(n.x * t.x + n.y * t.y + n.z * t.z);
      if (closing <= 1e-12) continue;
      const f = Math.max(0, g) / closing;
      if (f <= 1 && f < best) { best = f; bi = i; }
    }
    if (bi < 0) return null;
    const n = this.normals[bi];
    const out = o.out;
    out.fraction = Math.max(0, best - 1e-6);
    out.normal.x = n.x; out.normal.y = n.y; out.normal.z = n.z;
    out.point.x = p.x + t.x * best - n.x * shape.radius; out.point.y = p.y + t.y * best - n.y * shape.radius; out.point.z = p.z + t.z * best - n.z * shape.radius;
    out.body = this.body;
    return out;
  }
  raycast(from, to, o) {
    let best = Infinity, bi = -1;
    const dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
    for (let i = 0; i < this.normals.length; i++) {
      const n = this.normals[i];
      const s0 = n.x * from.x + n.y * from.y + n.z * from.z - this.offsets[i];
      const dn = n.x * dx + n.y * dy + n.z * dz;
      if (s0 < 0 || dn >= 0) continue;
      const f = -s0 / dn;
      if (f <= 1 && f < best) { best = f; bi = i; }
    }
    if (bi < 0) return null;
    const n = this.normals[bi];
    const out = o.out;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    out.fraction = best; out.distance = best * len;
    out.normal.x = n.x; out.normal.y = n.y; out.normal.z = n.z;
    out.point.x = from.x + dx * best; out.point.y = from.y + dy * best; out.point.z = from.z + dz * best;
    out.body = this.body;
    return out;
  }
}
const pw = new PlaneWorld();
pw.addPlane({ x: 0, y: 1, z: 0 }, 0); // floor
pw.addPlane({ x: -1, y: 0, z: 0 }, -4); // wall x <= 4
pw.addPlane({ x: 1, y: 0, z: 0 }, -4); // wall x >= -4
// a 30° corner opening towards -z
pw.addPlane({ x: -Math.cos(Math.PI / 12), y: 0, z: Math.sin(Math.PI / 12) }, -3);
pw.addPlane({ x: Math.cos(Math.PI / 12), y: 0, z: Math.sin(Math.PI / 12) }, -3);
const c = new CharacterController(pw, { position: { x: 0, y: 0.91, z: 0 } });
const run = driver(new Walker(c));
run(10000);
const m = measure(run);
console.log(JSON.stringify({ ...m, planes: run(0), x: c.position.x }));
`;

const LEVEL = `${COMMON}
function staticBox(world, half, position, yaw = 0, roll = 0) {
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
  return world.createBody({ type: 'static', shape: new Box(half), position, rotation: { x: sy * sr, y: sy * cr, z: cy * sr, w: cy * cr } });
}
const world = new World();
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
for (let k = 0; k < 4; k++) staticBox(world, { x: 1, y: (k + 1) * 0.125, z: 3 }, { x: 3 + k * 0.4, y: (k + 1) * 0.125, z: 0 });
staticBox(world, { x: 0.2, y: 2, z: 8 }, { x: -4, y: 2, z: 0 });
staticBox(world, { x: 8, y: 2, z: 0.2 }, { x: 0, y: 2, z: 5 }, 0.3);
staticBox(world, { x: 3, y: 0.3, z: 1.5 }, { x: 0, y: 0, z: -3 }, 0.5, 0.4);
const c = new CharacterController(world, { position: { x: 0, y: 0.91, z: 0 } });
const run = driver(new Walker(c));
run(12000);
const m = measure(run);
console.log(JSON.stringify({ ...m, planes: run(0), x: c.position.x }));
`;

// A walker wandering on a kinematic lift that rises, sinks and turns, so that
// followGround carries it every update. Whatever world.step allocates of its
// own (the same with or without the walker: ~1 KB of window noise) is not the walker's, so the same
// scenario runs a second time, in a process of its own, with the walker
// created but never updated, and those bytes are subtracted.
const liftScenario = (walk: boolean): string => `${COMMON}
const world = new World();
const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 6, y: 0.25, z: 6 }), position: { x: 0, y: 0, z: 0 } });
const c = new CharacterController(world, { position: { x: 0, y: 1.16, z: 0 } });
const w = new Walker(c);
const clock = { t: 0, grounded: 0 };
const v = { x: 0, y: 0, z: 0 }, omega = { x: 0, y: 0, z: 0 };
const run = (n) => {
  for (let i = 0; i < n; i++) {
    clock.t += DT;
    const t = clock.t;
    v.y = 3 * Math.sin(t * 0.9);
    omega.y = 0.4 * Math.sin(t * 0.5);
    lift.setLinearVelocity(v);
    lift.setAngularVelocity(omega);
    world.step(DT);
    if (${walk ? 'false' : 'true'}) continue;
    // wander, pulled towards the lift's centre so that it stays on the lift
    w.setInput(0.5 * Math.cos(t * 0.7) - 0.15 * c.position.x, 0, 0.5 * Math.sin(t * 1.3) - 0.15 * c.position.z);
    w.update(DT);
    if (w.state === 'grounded') clock.grounded++;
  }
  return clock.grounded;
};
run(10000);
const m = measure(run);
console.log(JSON.stringify({ ...m, planes: run(0), x: c.position.y - lift.position.y }));
`;

interface Result { bytes: number; windows: number; overhead: number; planes: number; x: number }

describe('CharacterController allocation', () => {
  let dir: Promise<string> | undefined;
  const built = (): Promise<string> => (dir ??= buildLibrary());

  it('move + walker update: < 4 KB of new space over 2000 moves after 10000 warm-up (query stub)', async () => {
    const r = runScenario<Result>(await built(), 'stub', STUB);
    console.log(`[allocation] stub level: ${r.bytes} B over 2000 moves (${(r.bytes / 2000).toFixed(2)} B/move; ${r.overhead} B window overhead removed); ${r.planes} moves with >= 2 planes`);
    expect(r.windows).toBe(8);
    // A { x, y, z } object is ≥ 40 B: 4 KB over 2000 moves is far below one per move.
    expect(r.bytes).toBeLessThan(4096);
    expect(r.planes).toBeGreaterThan(100);
    expect(Math.abs(r.x)).toBeLessThan(4);
  });

  it('move + walker update: < 4 KB of new space over 2000 moves after 12000 warm-up (real World level, queries included)', async () => {
    const r = runScenario<Result>(await built(), 'level', LEVEL);
    console.log(`[allocation] real level: ${r.bytes} B over 2000 moves (${(r.bytes / 2000).toFixed(2)} B/move; ${r.overhead} B window overhead removed); ${r.planes} moves with >= 2 planes`);
    expect(r.windows).toBe(8);
    expect(r.bytes).toBeLessThan(4096);
  });

  it('walker riding a rising, sinking, turning lift: < 4 KB of new space over 2000 frames after 10000 warm-up (world.step subtracted)', async () => {
    const dir = await built();
    const r = runScenario<Result>(dir, 'lift', liftScenario(true));
    const steps = runScenario<Result>(dir, 'lift-steps', liftScenario(false));
    const bytes = r.bytes - steps.bytes;
    // planes: grounded updates; x: the character's centre above the lift's centre at the end
    console.log(`[allocation] lift: ${bytes} B over 2000 frames (steps and updates ${r.bytes} B, the steps alone ${steps.bytes} B; ${r.overhead} B window overhead removed); grounded in ${r.planes} updates`);
    expect(r.windows).toBe(8);
    expect(steps.windows).toBe(8);
    expect(bytes).toBeLessThan(4096);
    expect(r.planes).toBeGreaterThanOrEqual(12000);
    expect(Math.abs(r.x - (0.25 + 0.91))).toBeLessThan(1e-3);
  });
});

// The level of test/babylon/allocation.test.ts (floor, four steps, two walls)
// with the character FootingCharacterController builds there (radius 0.6 m,
// skin 0.05, 10 sweeps, 60°) and a 0.3 m step height, moved and stepped at
// 60 Hz; with `crate`, a 20 kg crate it chases every other 5 s and pushes.
// Some of move's branches are first taken late in the wander (an edge probe,
// a cast that starts touching): V8 drops the optimised code there and the
// baseline code that runs until it optimises again boxes every double, so the
// warm-up is long (test/helpers/built-library.ts).
const babylonLevel = (crate: boolean, warmUp: number): string => `${COMMON}
const world = new World();
const box = (hx, hy, hz, x, y, z) => world.createBody({ type: 'static', shape: new Box({ x: hx, y: hy, z: hz }), position: { x, y, z } });
box(20, 0.5, 20, 0, -0.5, 0);
for (let k = 0; k < 4; k++) box(1, (k + 1) * 0.1, 3, 3 + k * 0.5, (k + 1) * 0.1, 0);
box(0.2, 2, 8, -5, 2, 0);
box(8, 2, 0.2, 0, 2, 5);
const crate = ${crate ? "world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 1.5, y: 0.4, z: 1 }, mass: 20 })" : 'null'};
const c = new CharacterController(world, { radius: 0.6, halfHeight: 0.3, position: { x: 0, y: 0.95, z: 0 }, skinWidth: 0.05, gatherDistance: 0.1, maxSweeps: 10, maxSlopeDegrees: 60, stepHeight: 0.3 });
const d = { x: 0, y: 0, z: 0 };
const clock = { t: 0, vy: 0, grounded: 0, pushed: 0 };
const run = (n) => {
  for (let i = 0; i < n; i++) {
    clock.t += DT;
    const t = clock.t;
    world.step(DT);
    if (crate !== null) { const v = crate.linearVelocity; if (Math.abs(v.x) + Math.abs(v.z) > 0.05) clock.pushed++; }
    const p = c.position;
    // wander, pulled back towards the middle of the level; or chase the crate
    let tx = 6 * Math.cos(t * 0.7) - 0.8 * p.x, tz = 6 * Math.sin(t * 1.3) - 0.8 * p.z;
    if (crate !== null && i % 600 < 300) { const q = crate.position; tx = 3 * (q.x - p.x); tz = 3 * (q.z - p.z); }
    const s = Math.min(Math.sqrt(tx * tx + tz * tz), 4) / (Math.sqrt(tx * tx + tz * tz) + 1e-9);
    if (c.result.grounded) { clock.grounded++; clock.vy = i % 97 === 0 ? 6 : 0; } else clock.vy -= 18 * DT;
    d.x = tx * s * DT; d.y = clock.vy * DT; d.z = tz * s * DT;
    c.move(d, DT);
  }
  return clock.grounded;
};
run(${warmUp});
const m = measure(run);
console.log(JSON.stringify({ ...m, planes: run(0), x: crate === null ? c.position.x : clock.pushed }));
`;

// The same level stepped by world.advance at 144 Hz (60 Hz frames: 2 or 3
// steps each), the walker updated by a world stepper as CharacterLink does.
const advanceLevel = (warmUp: number): string => `${COMMON}
const world = new World({ fixedTimeStep: 1 / 144 });
const box = (hx, hy, hz, x, y, z) => world.createBody({ type: 'static', shape: new Box({ x: hx, y: hy, z: hz }), position: { x, y, z } });
box(20, 0.5, 20, 0, -0.5, 0);
for (let k = 0; k < 4; k++) box(1, (k + 1) * 0.1, 3, 3 + k * 0.5, (k + 1) * 0.1, 0);
box(0.2, 2, 8, -5, 2, 0);
box(8, 2, 0.2, 0, 2, 5);
const c = new CharacterController(world, { position: { x: 0, y: 0.91, z: 0 } });
const w = new Walker(c);
const clock = { t: 0, steps: 0, alpha: 0 };
world.addStepper({ postStep(_world, dt) { clock.steps++; w.update(dt); } });
const run = (n) => {
  for (let i = 0; i < n; i++) {
    clock.t += DT;
    const t = clock.t, p = c.position;
    w.setInput(Math.cos(t * 0.7) - 0.15 * p.x, 0, Math.sin(t * 1.3) - 0.15 * p.z);
    if (i % 97 === 0) w.jump();
    clock.alpha += world.advance(DT);
  }
  return clock.steps;
};
run(${warmUp});
const steps = clock.steps;
const m = measure(run);
console.log(JSON.stringify({ ...m, planes: clock.steps - steps, x: c.position.x }));
`;

describe('CharacterController allocation in the Babylon test level', () => {
  let dir: Promise<string> | undefined;
  const built = (): Promise<string> => (dir ??= buildLibrary());

  it('move + world.step walking: < 8 KB of new space over 2000 frames after 40000 warm-up', async () => {
    const r = runScenario<Result>(await built(), 'babylon-level', babylonLevel(false, 40000));
    console.log(`[allocation] Babylon level, walking: ${r.bytes} B over 2000 frames (${(r.bytes / 2000).toFixed(2)} B/frame; ${r.overhead} B window overhead removed); grounded in ${r.planes} moves`);
    expect(r.windows).toBe(8);
    // One boxed double per frame would be 32 KB.
    expect(r.bytes).toBeLessThan(8192);
    expect(r.planes).toBeGreaterThan(20000);
    expect(Math.abs(r.x)).toBeLessThan(5);
  });

  it('move + world.step pushing a 20 kg crate: < 8 KB of new space over 2000 frames after 40000 warm-up', async () => {
    const r = runScenario<Result>(await built(), 'babylon-level-crate', babylonLevel(true, 40000));
    // x: frames in which the crate slid at more than 5 cm/s
    console.log(`[allocation] Babylon level, pushing a crate: ${r.bytes} B over 2000 frames (${(r.bytes / 2000).toFixed(2)} B/frame; ${r.overhead} B window overhead removed); grounded in ${r.planes} moves; the crate moving in ${r.x} frames`);
    expect(r.windows).toBe(8);
    // One boxed double per frame would be 32 KB. The heap sampling profiler
    // finds nothing left in the step or the move (the narrowphase's margin
    // and the ray routines' limits no longer go through double arguments);
    // what this reports is the measurement windows' own noise.
    expect(r.bytes).toBeLessThan(8192);
    expect(r.planes).toBeGreaterThan(20000);
    expect(r.x).toBeGreaterThan(200);
  });

  it('world.advance at 144 Hz with a walker updated per step: < 8 KB of new space over 2000 frames after 40000 warm-up', async () => {
    const r = runScenario<Result>(await built(), 'babylon-level-advance', advanceLevel(40000));
    console.log(`[allocation] Babylon level, advance at 144 Hz: ${r.bytes} B over 2000 frames of 2.4 steps (${(r.bytes / 4800).toFixed(2)} B/step; ${r.overhead} B window overhead removed); ${r.planes} steps taken while measuring`);
    expect(r.windows).toBe(8);
    // 2.4 steps a frame (more when a window with a scavenge is measured again)
    expect(r.planes).toBeGreaterThanOrEqual(4790);
    expect(r.bytes).toBeLessThan(8192);
  });
});
