// Determinism and allocation. 60 Hz, default settings.
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, World } from '../../src/index';
import { seeded } from '../helpers/random';
import { DT } from '../helpers/world';

function pileWorld(n: number, seed: number): World {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
  for (const [x, z, hx, hz] of [[-6, 0, 0.5, 6], [6, 0, 0.5, 6], [0, -6, 6, 0.5], [0, 6, 6, 0.5]] as const) {
    world.createBody({ type: 'static', shape: new Box({ x: hx, y: 3, z: hz }), position: { x, y: 3, z } });
  }
  const rng = seeded(seed, `pile ${n}`);
  for (let i = 0; i < n; i++) {
    const k = i % 3;
    const shape = k === 0 ? new Box({ x: rng.range(0.2, 0.5), y: rng.range(0.2, 0.5), z: rng.range(0.2, 0.5) }) : k === 1 ? new Sphere(rng.range(0.2, 0.5)) : new Capsule(rng.range(0.15, 0.3), rng.range(0.2, 0.4));
    world.createBody({ type: 'dynamic', shape, position: { x: rng.range(-4.5, 4.5), y: 1 + i * 0.08, z: rng.range(-4.5, 4.5) }, rotation: rng.quat() });
  }
  return world;
}

function hash(world: World): string {
  // FNV-1a over the bytes of every pose and velocity.
  const f = new Float64Array(13);
  const bytes = new Uint8Array(f.buffer);
  let h = 0x811c9dc5;
  for (const b of world.bodies) {
    const p = b.position, q = b.rotation, v = b.linearVelocity, w = b.angularVelocity;
    f.set([p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z]);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 16777619) >>> 0;
  }
  return h.toString(16);
}

describe('determinism', () => {
  it('two identical 200-body piles are bit-identical after 1000 steps; snapshot at 300 + restore reproduces the hash', () => {
    const a = pileWorld(200, 401);
    const b = pileWorld(200, 401);
    let snap: ReturnType<World['snapshot']> | null = null;
    for (let i = 0; i < 1000; i++) {
      a.step(DT);
      b.step(DT);
      if (i === 299) snap = structuredClone(a.snapshot());
    }
    const ha = hash(a);
    expect(hash(b)).toBe(ha);
    // Restore into the world that kept going, and into a fresh identical one.
    a.restore(snap!);
    for (let i = 300; i < 1000; i++) a.step(DT);
    expect(hash(a)).toBe(ha);
    const c = pileWorld(200, 401);
    c.restore(snap!);
    for (let i = 300; i < 1000; i++) c.step(DT);
    expect(hash(c)).toBe(ha);
    console.log(`determinism hash ${ha}`);
  });
});
