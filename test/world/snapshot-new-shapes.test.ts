/**
 * Snapshots of worlds with Compound and HeightField bodies: restore replays
 * bit for bit (the compound contacts' ids carry child indices above bit 32
 * and must survive the round trip), and a world whose compound or field has
 * other dimensions is refused by name. 60 Hz, default settings.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Compound, HeightField, Sphere, SnapshotError, World, type RigidBody } from '../../src/index';

const DT = 1 / 60;

function chair(): Compound {
  const parts = [
    { shape: new Box({ x: 0.25, y: 0.03, z: 0.25 }), position: { x: 0, y: 0.45, z: 0 } },
    { shape: new Box({ x: 0.25, y: 0.3, z: 0.03 }), position: { x: 0, y: 0.78, z: -0.22 } },
  ];
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) parts.push({ shape: new Box({ x: 0.025, y: 0.21, z: 0.025 }), position: { x: sx * 0.22, y: 0.21, z: sz * 0.22 } });
  return new Compound(parts);
}

function build(legs = true): { world: World; bodies: RigidBody[] } {
  const world = new World();
  const n = 21;
  const samples = new Float64Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) samples[r * n + c] = 0.2 * Math.sin(0.5 * c + 0.3 * r);
  world.createBody({ type: 'static', shape: new HeightField(samples, n, n, { x: 0.5, y: 1, z: 0.5 }) });
  const bodies: RigidBody[] = [];
  const shape = legs ? chair() : new Compound([{ shape: new Sphere(0.3) }]);
  for (let i = 0; i < 3; i++) bodies.push(world.createBody({ type: 'dynamic', shape, position: { x: -1.5 + 1.5 * i, y: 1 + 0.3 * i, z: 0.2 * i }, rotation: { x: 0.1 * i, y: 0, z: 0, w: 1 } }));
  bodies.push(world.createBody({ type: 'dynamic', shape: new Capsule(0.1, 0.3), position: { x: 0, y: 2.5, z: 0 } }));
  return { world, bodies };
}

function hash(bodies: RigidBody[]): number {
  const f = new Float64Array(13 * bodies.length);
  bodies.forEach((b, i) => {
    f.set([b.position.x, b.position.y, b.position.z, b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w,
      b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z, b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z], 13 * i);
  });
  const bytes = new Uint8Array(f.buffer);
  let h = 0x811c9dc5;
  for (const byte of bytes) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

describe('snapshots with Compound and HeightField bodies', () => {
  it('restore replays bit for bit', () => {
    const { world, bodies } = build();
    for (let i = 0; i < 60; i++) world.step(DT);
    const snap = world.snapshot();
    for (let i = 0; i < 120; i++) world.step(DT);
    const first = hash(bodies);
    world.restore(snap);
    for (let i = 0; i < 120; i++) world.step(DT);
    const second = hash(bodies);
    console.log(`hash after 180 steps: ${first.toString(16)} / after restore and replay: ${second.toString(16)}; chair y ${bodies[1]!.position.y.toFixed(4)}`);
    expect(second).toBe(first);
  });

  it('refuses a world whose compound has other children', () => {
    const a = build(true), b = build(false);
    const snap = a.world.snapshot();
    expect(() => b.world.restore(snap)).toThrow(SnapshotError);
    expect(() => b.world.restore(snap)).toThrow(/shape has other dimensions/);
  });
});
