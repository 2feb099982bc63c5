// The renamed settings keep their old names as aliases: one object, one value.
import { describe, expect, it } from 'vitest';
import { World } from '../../src/index';

describe('renamed settings and their deprecated aliases', () => {
  it('world.solver is world.solverSettings; options under either name apply (solverSettings wins)', () => {
    const w = new World({ solver: { velocityIterations: 5, positionIterations: 7 }, solverSettings: { velocityIterations: 9 } });
    expect(w.solver).toBe(w.solverSettings);
    expect(w.solverSettings.velocityIterations).toBe(9);
    expect(w.solverSettings.positionIterations).toBe(7);
    w.solver.subSteps = 2;
    expect(w.solverSettings.subSteps).toBe(2);
  });

  it('maxSubSteps is maxStepsPerAdvance: advance takes at most that many fixed steps either way', () => {
    const w = new World({ maxStepsPerAdvance: 3 });
    expect(w.maxSubSteps).toBe(3);
    w.advance(10 / 60);
    expect(w.stepCount).toBe(3);
    expect(w.droppedTime).toBeCloseTo(7 / 60, 12);
    w.maxSubSteps = 2;
    expect(w.maxStepsPerAdvance).toBe(2);
    w.advance(10 / 60);
    expect(w.stepCount).toBe(5);
    expect(new World({ maxSubSteps: 6 }).maxStepsPerAdvance).toBe(6);
    expect(() => { w.maxStepsPerAdvance = 0; }).toThrow(/maxStepsPerAdvance must be an integer in \[1, 1000\]/);
    expect(() => { w.maxSubSteps = 1.5; }).toThrow(/maxSubSteps must be an integer in \[1, 1000\]/);
    expect(w.maxStepsPerAdvance).toBe(2);
  });

  it('positionIterations accepts 0 to 1000, as documented', () => {
    const w = new World({ solverSettings: { positionCorrection: 'ngs', positionIterations: 1000 } });
    w.step(1 / 60);
    w.solverSettings.positionIterations = 1001;
    expect(() => w.step(1 / 60)).toThrow(/positionIterations must be an integer in \[0, 1000\]/);
  });
});
