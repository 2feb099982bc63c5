// The README's API example is examples/quick-start.ts verbatim; this runs it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('README quick start', () => {
  it('is the same code as examples/quick-start.ts, and runs', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/quick-start.ts', import.meta.url), 'utf8');
    expect(readme).toContain(example.trim());
    const { quickStart } = await import('../examples/quick-start');
    // The crate (half-size 0.5) rests on the floor at y = 0.5 within the contact compliance.
    expect(Math.abs(quickStart.restHeight - 0.5)).toBeLessThan(0.01);
    expect(quickStart.rayHitY).toBeCloseTo(1, 2); // top of the crate
    // The sphere (r 0.25) from x = −5 meets the crate's face at x = −0.5: 4.25 m of 10.
    expect(quickStart.castFraction).toBeCloseTo(0.425, 2);
  });
});

describe('README character, joints and cloth example', () => {
  it('is the same code as examples/character-and-ragdoll.ts, and runs', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/character-and-ragdoll.ts', import.meta.url), 'utf8');
    expect(readme).toContain(example.trim());
    const { characterExample } = await import('../examples/character-and-ragdoll');
    // 2 s at 4 m/s is 8 m, less the ramp-up: the capsule starts 0.1 m up, so
    // it first accelerates with air control (10 m/s²), then 40 m/s² on the
    // ground — 7.50 m measured.
    expect(characterExample.characterZ).toBeGreaterThan(7.2);
    expect(characterExample.characterZ).toBeLessThan(8.1);
    expect(characterExample.grounded).toBe(true);
    expect(characterExample.ragdollBodies).toBeGreaterThanOrEqual(11);
  });
});
