// WorldStepper.preStep: once per step, before anything moves, with the whole dt.
import { describe, expect, it } from 'vitest';
import { Box, World, type WorldStepper } from '../../src/index';

describe('WorldStepper.preStep', () => {
  it('sets a kinematic target that the same step reaches; runs once per step before postStep, also in split steps', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 1, y: 0.1, z: 1 }), position: { x: 0, y: 0, z: 0 } });
    const log: string[] = [];
    let t = 0;
    const stepper: WorldStepper = {
      preStep(w, dt) {
        t += dt;
        log.push(`pre ${dt.toFixed(5)}`);
        lift.setKinematicTarget({ x: 0, y: Math.sin(t), z: 0 });
      },
      postStep(_w, dt) { log.push(`post ${dt.toFixed(5)}`); },
    };
    world.addStepper(stepper);
    let worst = 0;
    for (let i = 0; i < 120; i++) {
      world.step(1 / 60);
      worst = Math.max(worst, Math.abs(lift.position.y - Math.sin(t)));
    }
    console.log(`preStep lift: worst |y - target| ${worst.toExponential(2)} m over 120 steps`);
    expect(worst).toBeLessThan(1e-12);
    expect(log.slice(0, 4)).toEqual(['pre 0.01667', 'post 0.01667', 'pre 0.01667', 'post 0.01667']);
    // A split step (a thin body spinning fast on the floor) still has one preStep.
    world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -20.5, z: 0 } });
    world.createBody({ type: 'dynamic', shape: new Box({ x: 1.5, y: 0.02, z: 0.1 }), position: { x: 0, y: -19.9, z: 0 }, angularVelocity: { x: 0, y: 0, z: 80 } });
    log.length = 0;
    world.step(1 / 60);
    console.log(`split step: ${world.counters.stepParts} part(s), calls ${log.join(', ')}`);
    expect(log.filter((s) => s.startsWith('pre')).length).toBe(1);
    expect(log[0]).toBe('pre 0.01667');
    expect(log.filter((s) => s.startsWith('post')).length).toBe(world.counters.stepParts);
  });

  it('refuses a preStep that is not a function, adding nothing', () => {
    const world = new World();
    expect(() => world.addStepper({ preStep: 5 as unknown as () => void, postStep() {} })).toThrow(/preStep/);
    expect(world.steppers.length).toBe(0);
  });
});
