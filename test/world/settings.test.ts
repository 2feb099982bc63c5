/**
 * Solver and joint settings that used to be accepted and then threw the
 * world away (baumgarte, maxCorrectionVelocity, relaxation) or made a step
 * take a quarter of a second (the iteration counts multiply). Each is
 * refused by name, by the assignment and at the next step after a field
 * write, and the refused call leaves the world as it was (compared through
 * a whole snapshot). 60 Hz; a 1 m box resting on a floor whose top is y = 0,
 * started 5 cm deep (y = 0.45) as in the probe; sleeping off.
 */
import { describe, expect, it } from 'vitest';
import { Box, World, type RigidBody, type WorldSnapshot } from '../../src/index';

const DT = 1 / 60;

function scene(): { w: World; box: RigidBody } {
  const w = new World({ sleeping: { enabled: false } });
  w.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  const box = w.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.45, z: 0 }, mass: 1 });
  for (let i = 0; i < 3; i++) w.step(DT);
  return { w, box };
}

/** The first difference between two snapshots, or '' when they are the same bit for bit. */
function diff(x: WorldSnapshot, y: WorldSnapshot): string {
  for (const k of ['world', 'bodies', 'bodyInts', 'contacts', 'contactInts', 'broadphaseInts', 'broadphaseBounds', 'joints', 'jointInts'] as const) {
    const p = x[k] as ArrayLike<number>, q = y[k] as ArrayLike<number>;
    if (p.length !== q.length) return `${k}: length ${p.length} vs ${q.length}`;
    for (let i = 0; i < p.length; i++) if (!Object.is(p[i], q[i])) return `${k}[${i}]: ${p[i]} vs ${q[i]}`;
  }
  return '';
}

type Solver = World['solverSettings'];
type Joints = World['jointSettings'];

/**
 * `solver` (and `joints`) refused with `message` both ways: assigned whole
 * (the live objects keep their values) and written field by field (the next
 * step throws before anything moves; put back, the world steps on).
 */
function expectRefused(solver: Partial<Solver>, joints: Partial<Joints>, message: RegExp): void {
  const { w } = scene();
  const before = w.snapshot();
  const solverBefore = { ...w.solverSettings }, jointsBefore = { ...w.jointSettings };
  expect(() => { w.solverSettings = solver; w.jointSettings = joints; }).toThrow(message);
  // A refused solver assignment changes nothing; a refused joint one leaves the solver fields just assigned (accepted alone).
  if (Object.keys(joints).length === 0) expect(w.solverSettings).toEqual(solverBefore);
  expect(w.jointSettings).toEqual(jointsBefore);
  expect(diff(before, w.snapshot())).toBe('');

  const { w: w2 } = scene();
  const before2 = w2.snapshot();
  const solver2 = { ...w2.solverSettings }, joints2 = { ...w2.jointSettings };
  Object.assign(w2.solverSettings, solver);
  Object.assign(w2.jointSettings, joints);
  expect(() => w2.step(DT)).toThrow(message);
  expect(w2.stepCount).toBe(3);
  expect(diff(before2, w2.snapshot())).toBe('');
  Object.assign(w2.solverSettings, solver2);
  Object.assign(w2.jointSettings, joints2);
  w2.step(DT);
  expect(w2.stepCount).toBe(4);
}

describe('position correction: baumgarte in [0, 1], maxCorrectionVelocity ≤ MAX_LINEAR_SPEED', () => {
  for (const beta of [1e300, 1e6, 50, 1.0000001, -0.1, NaN]) {
    it(`baumgarte ${beta} is refused naming solver.baumgarte (1e300 sent the box to 1.7e298 m in one step)`, () => {
      expectRefused({ positionCorrection: 'baumgarte', baumgarte: beta }, {}, /^solver\.baumgarte must be a finite number in \[0, 1\]/);
    });
  }
  for (const cap of [1e300, 1e12, 100000.00000001, Infinity]) {
    it(`maxCorrectionVelocity ${cap} is refused naming solver.maxCorrectionVelocity`, () => {
      expectRefused({ positionCorrection: 'baumgarte', maxCorrectionVelocity: cap }, {}, /^solver\.maxCorrectionVelocity must be a finite number in \[0, 100000\]/);
    });
  }

  it('β = 1 and the cap at 1e5 m/s are accepted: the box 5 cm deep is pushed out at β(d − slop)/h and falls back to rest', () => {
    // Push-out speed v = 1 × (0.05 − 0.005) × 60 = 2.7 m/s, so it rises at most v²/2g = 0.37 m above y = 0.45.
    const { w, box } = scene();
    w.solverSettings = { positionCorrection: 'baumgarte', baumgarte: 1, maxCorrectionVelocity: 1e5 };
    let highest = -Infinity;
    for (let i = 0; i < 300; i++) { w.step(DT); highest = Math.max(highest, box.position.y); }
    expect(highest).toBeLessThan(0.45 + 2.7 ** 2 / (2 * 9.81));
    expect(Math.abs(box.position.y - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(box.linearVelocity.y)).toBeLessThan(1e-6);
  });
});

describe('relaxation in [0.1, 2)', () => {
  for (const omega of [0.003, 0.05, 1e-300, 0, 2]) {
    it(`ω = ${omega} is refused naming solver.relaxation (at 0.003 the resting stack sank through the floor)`, () => {
      expectRefused({ relaxation: omega }, {}, /^solver\.relaxation must be in \[0\.1, 2\)/);
    });
  }

  for (const mode of ['soft', 'ngs', 'baumgarte'] as const) {
    it(`ω = 0.1 is accepted and the box rests on the floor (${mode}): y within 5 mm of 0.5 after 5 s`, () => {
      const { w, box } = scene();
      w.solverSettings = { positionCorrection: mode, relaxation: 0.1 };
      for (let i = 0; i < 300; i++) w.step(DT);
      expect(Math.abs(box.position.y - 0.5)).toBeLessThan(0.005);
    });
  }
});

describe('iteration counts: the products are bounded', () => {
  it('subSteps × (subStepIterations + relaxIterations) above 1024 is refused, each field within its own range', () => {
    expectRefused({ subSteps: 64, subStepIterations: 100, relaxIterations: 100 }, {},
      /^solver\.subSteps × \(subStepIterations \+ relaxIterations\) must be at most 1024 sweeps a step \(got 64 × \(100 \+ 100\) = 12800\)/);
    expectRefused({ subSteps: 33, subStepIterations: 16, relaxIterations: 16 }, {}, /= 1056\)/);
  });

  it('32 × (16 + 16) = 1024 sweeps is accepted and steps; the box rests', () => {
    const { w, box } = scene();
    w.solverSettings = { subSteps: 32, subStepIterations: 16, relaxIterations: 16 };
    for (let i = 0; i < 30; i++) w.step(DT);
    expect(w.stepCount).toBe(33);
    expect(Math.abs(box.position.y - 0.5)).toBeLessThan(0.005);
  });

  it('jointIterations × the contact sweeps above 10 000 joint sweeps is refused naming jointSettings.jointIterations', () => {
    // 'soft': 1024 contact sweeps × 10 = 10 240.
    expectRefused({ subSteps: 32, subStepIterations: 16, relaxIterations: 16 }, { jointIterations: 10 },
      /^jointSettings\.jointIterations × solver\.subSteps × \(subStepIterations \+ relaxIterations\) must be at most 10000 joint sweeps a step \(got 10 × 1024 = 10240\)/);
    // 'ngs': velocityIterations 1000 × 11.
    expectRefused({ positionCorrection: 'ngs', velocityIterations: 1000 }, { jointIterations: 11 },
      /^jointSettings\.jointIterations × solver\.velocityIterations must be at most 10000 joint sweeps a step \(got 11 × 1000 = 11000\)/);
  });

  it('at the bound the settings are accepted: 1000 × 10 (ngs), 1024 × 9 (soft), and the defaults with jointIterations 100', () => {
    const w = new World();
    w.solverSettings = { positionCorrection: 'ngs', velocityIterations: 1000 };
    w.jointSettings = { jointIterations: 10 };
    w.step(DT);
    w.jointSettings = { jointIterations: 9 };
    w.solverSettings = { positionCorrection: 'soft', subSteps: 32, subStepIterations: 16, relaxIterations: 16 };
    w.step(DT);
    w.solverSettings = { subSteps: 4, subStepIterations: 2, relaxIterations: 1 };
    w.jointSettings = { jointIterations: 100 };
    w.step(DT);
    expect(w.stepCount).toBe(3);
    expect(w.solverSettings.subSteps * (w.solverSettings.subStepIterations + w.solverSettings.relaxIterations) * w.jointSettings.jointIterations).toBe(1200);
  });
});
