/**
 * Pushing crates with the default pushStrength (300 N) and characterMass
 * (80 kg): a walker at 4 m/s walks 3 s into a 0.8 m crate on the ground
 * (both friction 0.5, so the pair's μ = 0.5). 60 Hz.
 *
 * A crate slides when the push beats kinetic friction μ m g: 39 N at 8 kg,
 * 98 N at 20 kg, 245 N at 50 kg, 490 N at 100 kg. Under a constant 300 N the
 * crate would accelerate at (300 − μ m g) / m, which bounds its travel by
 * ½ a t² (the push is capped per step, the contact is not constant).
 */
import { describe, expect, it } from 'vitest';
import { Box } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, REST_Y, flatWorld } from './helpers';

const MU = 0.5;
const G = 9.81;

function push(mass: number, seconds = 3): { moved: number; speed: number } {
  const { world } = flatWorld();
  const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 1.5, y: 0.4, z: 0 }, mass });
  for (let i = 0; i < 30; i++) world.step(DT);
  const x0 = crate.position.x;
  const walker = new Walker(new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 } }));
  walker.setInput(1, 0, 0);
  for (let i = 0; i < Math.round(seconds * 60); i++) {
    world.step(DT);
    walker.update(DT);
  }
  return { moved: crate.position.x - x0, speed: crate.linearVelocity.x };
}

describe('pushing with the default pushStrength', () => {
  it('default is 300 N', () => {
    expect(new CharacterController(flatWorld().world).settings.pushStrength).toBe(300);
  });

  it('moves 8, 20 and 50 kg crates (faster the lighter), not a 100 kg one', () => {
    const r = [8, 20, 50, 100].map((m) => push(m));
    console.log(`pushed 3 s at 4 m/s (300 N): ${[8, 20, 50, 100].map((m, i) => `${m} kg ${r[i]!.moved.toFixed(2)} m`).join(', ')}`);
    const [light, medium, heavy, tooHeavy] = r as [typeof r[0], typeof r[0], typeof r[0], typeof r[0]];
    // 8 kg: close to walking pace (the walker covers 12 m minus the 1.1 m gap in 3 s)
    expect(light.moved).toBeGreaterThan(4);
    // 20 kg: about 1 m/s
    expect(medium.moved).toBeGreaterThan(2.5);
    expect(medium.moved).toBeLessThan(4);
    // 50 kg: slowly, within the constant-force bound ½ (300 − μ m g)/m t² = 4.95 m
    expect(heavy.moved).toBeGreaterThan(0.8);
    expect(heavy.moved).toBeLessThan(0.5 * ((300 - MU * 50 * G) / 50) * 9);
    expect(light.moved).toBeGreaterThan(medium.moved);
    expect(medium.moved).toBeGreaterThan(heavy.moved);
    // 100 kg: 300 N < μ m g = 490 N, friction holds it
    expect(Math.abs(tooHeavy.moved)).toBeLessThan(0.1);
  });

  it('with the old default (100 N) a 50 kg crate stays: pushStrength is the knob', () => {
    const { world } = flatWorld();
    const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 1.5, y: 0.4, z: 0 }, mass: 50 });
    for (let i = 0; i < 30; i++) world.step(DT);
    const x0 = crate.position.x;
    const walker = new Walker(new CharacterController(world, { position: { x: 0, y: REST_Y, z: 0 }, pushStrength: 100 }));
    walker.setInput(1, 0, 0);
    for (let i = 0; i < 180; i++) { world.step(DT); walker.update(DT); }
    // 100 N < μ m g = 245 N: the 50 kg crate stays
    expect(Math.abs(crate.position.x - x0)).toBeLessThan(0.05);
  });
});
