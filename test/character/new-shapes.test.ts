/**
 * The character on the new shapes (it uses only the world's queries): a
 * walker crosses rolling HeightField terrain and climbs a static Compound of
 * two 0.2 m steps. 60 Hz, walker and controller defaults (4 m/s, stepHeight
 * 0.3 m, skin 1 cm).
 */
import { describe, expect, it } from 'vitest';
import { Box, Compound, HeightField, World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, REST_Y, penetration } from './helpers';

/** Hills for x < 2 (amplitude 0.3 m, slopes under 11°), flat at 0 beyond. */
function terrainHeight(x: number, z: number): number {
  return x < 2 ? 0.3 * Math.sin(0.6 * x) * Math.cos(0.4 * z) * Math.min(1, (2 - x) / 2) : 0;
}

describe('Walker on a HeightField and a Compound', () => {
  it('follows the terrain within 2 cm, then steps up onto the compound', () => {
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    const n = 81, scale = 0.25;
    const samples = new Float64Array(n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) samples[r * n + c] = terrainHeight((c - 40) * scale, (r - 40) * scale);
    const field = world.createBody({ type: 'static', shape: new HeightField(samples, n, n, { x: scale, y: 1, z: scale }) });
    const steps = new Compound([
      { shape: new Box({ x: 1, y: 0.1, z: 2 }), position: { x: 5, y: 0.1, z: 0 } },
      { shape: new Box({ x: 1, y: 0.2, z: 2 }), position: { x: 7, y: 0.2, z: 0 } },
    ]);
    const position = { x: 0, y: 0, z: 0 }, rotation = { x: 0, y: 0, z: 0, w: 1 };
    steps.bodyPose({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, position, rotation);
    const platform = world.createBody({ type: 'static', shape: steps, position, rotation });

    const controller = new CharacterController(world, { position: { x: -8, y: REST_Y + terrainHeight(-8, 0.5) + 0.02, z: 0.5 } });
    const walker = new Walker(controller);
    walker.setInput(1, 0, 0);
    let worstTerrain = 0, worstDepth = 0, onField = 0, onPlatform = 0;
    for (let i = 0; i < 240; i++) {
      walker.update(DT);
      const p = controller.position;
      worstDepth = Math.max(worstDepth, penetration(world, controller));
      if (i > 10 && p.x < 3.5) {
        expect(walker.state).toBe('grounded');
        worstTerrain = Math.max(worstTerrain, Math.abs(p.y - REST_Y - terrainHeight(p.x, p.z)));
        if (controller.result.groundBody === field) onField++;
      }
      if (p.x > 6.5 && p.x < 7.8 && controller.result.groundBody === platform) onPlatform++;
    }
    const p = controller.position;
    console.log(`over the terrain: height off by at most ${(worstTerrain * 100).toFixed(2)} cm (${onField} steps on the field); on the steps ${onPlatform} steps, end (${p.x.toFixed(2)}, ${p.y.toFixed(4)}); deepest overlap ${(worstDepth * 1000).toFixed(3)} mm`);
    expect(worstTerrain).toBeLessThan(0.02);
    expect(onField).toBeGreaterThan(100);
    expect(onPlatform).toBeGreaterThan(5);
    expect(worstDepth).toBeLessThan(0.001);
    // On the top step (x ∈ [6, 8], top 0.4 m) after 4 s.
    expect(p.x).toBeGreaterThan(6.2);
    expect(p.x).toBeLessThan(8);
    expect(Math.abs(p.y - (REST_Y + 0.4))).toBeLessThan(0.005);
  });
});
