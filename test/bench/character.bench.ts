/**
 * Character benchmark (footing only; the side-by-side table with Rapier's
 * KinematicCharacterController and Jolt's CharacterVirtual is
 * test/bench/character-peers.bench-run.ts): 100 characters walking through a
 * level of 200 boxes, a ramp, stairs and a TriangleMesh, one 60 Hz frame.
 */
import { bench, describe } from 'vitest';
import { characterLevel } from '../character/level';
import { footingRunner } from '../character/level-runners';

describe('character level', () => {
  const runner = footingRunner(characterLevel(100, 200));
  for (let i = 0; i < 60; i++) runner.frame(); // land and warm up
  bench('100 characters, one 60 Hz frame', () => {
    runner.frame();
  });
});
