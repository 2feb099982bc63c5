// The same Babylon Physics V2 scenes on HavokPlugin (@babylonjs/havok's WASM
// build, loaded in Node) and on FootingPlugin: rest heights and event counts
// side by side. Frames of 1/60 s; both plugins step once per frame here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import HavokPhysics from '@babylonjs/havok';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin';
import { FootingPlugin } from '../../src/babylon/index';
import { animatedPush, dropBox, fallThroughTrigger, hingePendulum } from './plugin-scenes';

const require = createRequire(import.meta.url);
const wasmFile = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
const wasmBinary = wasmFile.buffer.slice(wasmFile.byteOffset, wasmFile.byteOffset + wasmFile.byteLength) as ArrayBuffer;
const havok = await HavokPhysics({ wasmBinary });

describe('FootingPlugin beside HavokPlugin', () => {
  it('a box dropped on the ground rests at the same height (0.5 m), both still touching at the end', () => {
    const h = dropBox(new HavokPlugin(true, havok));
    const f = dropBox(new FootingPlugin());
    console.log(`drop box: havok rest ${h.restY.toFixed(4)} m, started ${h.started}, ended ${h.ended}; footing rest ${f.restY.toFixed(4)} m, started ${f.started}, ended ${f.ended}`);
    expect(h.restY).toBeCloseTo(0.5, 1);
    expect(f.restY).toBeCloseTo(0.5, 2);
    expect(Math.abs(f.restY - h.restY)).toBeLessThan(0.03);
    expect(h.started).toBeGreaterThanOrEqual(1);
    expect(f.started).toBeGreaterThanOrEqual(1);
    // Havok reports a start and an end per contact it makes and loses during the landing (12 and 8
    // in this run); footing one per body pair touching and separating: the counts differ, the end state not.
    expect(h.started).toBeGreaterThan(h.ended);
    expect(f.started - f.ended).toBe(1);
  });

  it('a ball through a trigger box: one enter and one exit on both', () => {
    const h = fallThroughTrigger(new HavokPlugin(true, havok));
    const f = fallThroughTrigger(new FootingPlugin());
    console.log(`trigger: havok enter ${h.entered} exit ${h.exited} y ${h.finalY.toFixed(3)}; footing enter ${f.entered} exit ${f.exited} y ${f.finalY.toFixed(3)}`);
    expect([h.entered, h.exited]).toEqual([1, 1]);
    expect([f.entered, f.exited]).toEqual([1, 1]);
    // Free fall for 2 s from 3 m: 3 − ½ g t² = −16.62 m (semi-implicit Euler lands a step's worth lower).
    expect(f.finalY).toBeCloseTo(h.finalY, 0);
  });

  it('a hinge pendulum (1 m, 0.3 rad) swings with the same period', () => {
    const h = hingePendulum(new HavokPlugin(true, havok));
    const f = hingePendulum(new FootingPlugin());
    // 2π √(L/g) (1 + θ0²/16) for a 0.3 rad swing: 2.0177 s
    const T = 2 * Math.PI * Math.sqrt(1 / 9.81) * (1 + 0.3 ** 2 / 16);
    console.log(`pendulum: havok period ${h.period.toFixed(4)} s, radius ${h.radius.toFixed(4)}; footing ${f.period.toFixed(4)} s, radius ${f.radius.toFixed(4)}; theory ${T.toFixed(4)} s`);
    expect(Math.abs(h.period - T) / T).toBeLessThan(0.02);
    expect(Math.abs(f.period - T) / T).toBeLessThan(0.01);
    expect(f.radius).toBeCloseTo(1, 2);
  });

  it('an ANIMATED paddle driven by setTargetTransform pushes a crate ahead of it on both', () => {
    const h = animatedPush(new HavokPlugin(true, havok));
    const f = animatedPush(new FootingPlugin());
    console.log(`animated push: havok paddle ${h.paddleX.toFixed(3)} crate ${h.crateX.toFixed(3)}; footing paddle ${f.paddleX.toFixed(3)} crate ${f.crateX.toFixed(3)}`);
    expect(h.paddleX).toBeCloseTo(1, 2);
    expect(f.paddleX).toBeCloseTo(1, 6);
    // The paddle's face ends at 1.25 m; the crate's centre 0.25 m further.
    expect(h.crateX).toBeGreaterThan(1.45);
    expect(f.crateX).toBeGreaterThan(1.45);
    expect(Math.abs(f.crateX - h.crateX)).toBeLessThan(0.1);
  });
});
