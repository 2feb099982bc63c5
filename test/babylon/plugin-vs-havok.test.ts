// The same Babylon Physics V2 scenes on HavokPlugin (@babylonjs/havok's WASM
// build, loaded in Node) and on FootingPlugin: rest heights and event counts
// side by side. Frames of 1/60 s; both plugins step once per frame here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import HavokPhysics from '@babylonjs/havok';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin';
import { FootingPlugin } from '../../src/babylon/index';
import { dropBox, fallThroughTrigger } from './plugin-scenes';

const require = createRequire(import.meta.url);
const wasmBinary = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
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
});
