// Event delivery: every listener gets every event exactly once, whatever the
// other listeners do (unsubscribe, subscribe, throw, remove bodies), and
// changes made between steps deliver their events with the next step.
// 60 Hz, g = 9.81, default settings; three 0.3 m balls dropped from the same
// height land in the same step, so one delivery carries three contactBegin.
import { describe, expect, it } from 'vitest';
import { BallJoint, Box, Sphere, World, type ContactEvent, type RigidBody, type StepperSnapshot, type WorldSnapshot, type WorldStepper } from '../../src/index';
import { DT, stepSeconds, worldWithGround } from '../helpers/world';

const R = 0.3;

/** A ground and three balls side by side, their bottoms `drop` m above the ground. */
function threeBalls(drop = 0.5): { world: World; ground: RigidBody; balls: RigidBody[] } {
  const { world, ground } = worldWithGround();
  const balls = [0, 1, 2].map((i) => world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 2 * i, y: R + drop, z: 0 } }));
  return { world, ground, balls };
}

/** Steps until the first step that delivers a contactBegin; returns the number of steps taken. */
function stepUntilBegin(world: World, maxSteps = 120): number {
  let seen = false;
  const off = world.on('contactBegin', () => { seen = true; });
  let n = 0;
  while (!seen && n < maxSteps) { world.step(DT); n++; }
  off();
  return n;
}

function otherBody(e: ContactEvent, body: RigidBody): RigidBody {
  return e.bodyA === body ? e.bodyB : e.bodyA;
}

class Boom extends Error {}

describe('listeners that change the listener list', () => {
  it('a listener that unsubscribes itself does not make the next one miss the event', () => {
    const { world } = threeBalls();
    const calls = [0, 0, 0];
    const offFirst = world.on('contactBegin', () => { calls[0]!++; offFirst(); });
    world.on('contactBegin', () => { calls[1]!++; });
    world.on('contactBegin', () => { calls[2]!++; });
    stepSeconds(world, 1);
    // three balls landing in one step: three events; the first listener only saw the first
    expect(calls).toEqual([1, 3, 3]);
  });

  it('a listener removed by another is not called again; one added during delivery gets the events after', () => {
    const { world } = threeBalls();
    const calls = [0, 0, 0, 0];
    const late = (): void => { calls[3]!++; };
    const third = (): void => { calls[2]!++; };
    world.on('contactBegin', () => {
      calls[0]!++;
      if (calls[0] === 1) { world.off('contactBegin', third); world.on('contactBegin', late); }
    });
    world.on('contactBegin', () => { calls[1]!++; });
    world.on('contactBegin', third);
    stepSeconds(world, 1);
    // `third` was removed before its turn for the first event; `late` was added during the first
    expect(calls).toEqual([3, 3, 0, 2]);
  });
});

describe('listeners that throw', () => {
  it('every listener gets every event, then step rethrows the one error; the step is complete', () => {
    const { world, balls } = threeBalls();
    const twin = threeBalls();
    let counted = 0, thrown = 0;
    world.on('contactBegin', () => { thrown++; if (thrown === 2) throw new Boom('listener'); });
    world.on('contactBegin', () => { counted++; });
    let caught: unknown = null;
    for (let i = 0; i < 60; i++) {
      twin.world.step(DT);
      try { world.step(DT); } catch (err) { expect(caught).toBeNull(); caught = err; }
    }
    // one error: itself, not a wrapper
    expect(caught).toBeInstanceOf(Boom);
    expect(thrown).toBe(3);
    expect(counted).toBe(3);
    // the throwing step was a whole step: the world matches a twin without listeners bit for bit
    for (let i = 0; i < 3; i++) {
      expect(balls[i]!.position.y).toBe(twin.balls[i]!.position.y);
      expect(balls[i]!.linearVelocity.y).toBe(twin.balls[i]!.linearVelocity.y);
    }
    expect(world.stepCount).toBe(60);
  });

  it('several throwing listeners give one AggregateError with every error; the world steps on and the balls rest', () => {
    const { world, balls } = threeBalls();
    let counted = 0;
    world.on('contactBegin', () => { throw new Boom('a'); });
    world.on('contactBegin', () => { counted++; });
    world.on('contactBegin', () => { throw new Boom('b'); });
    const landing = stepUntilBeginThrowing(world);
    expect(landing.error).toBeInstanceOf(AggregateError);
    const errors = (landing.error as AggregateError).errors;
    // 3 events × 2 throwing listeners, in delivery order
    expect(errors.length).toBe(6);
    expect(errors.every((e) => e instanceof Boom)).toBe(true);
    expect(errors.map((e) => (e as Error).message).join('')).toBe('ababab');
    expect(counted).toBe(3);
    stepSeconds(world, 2);
    for (const b of balls) expect(b.position.y).toBeCloseTo(R, 2);
  });

  it('a listener that throws and removes a body still gets the removal done and its contactEnd delivered', () => {
    const { world, ground, balls } = threeBalls();
    const ends: RigidBody[] = [];
    world.on('contactBegin', (e) => {
      const ball = otherBody(e, ground);
      if (ball === balls[1]) { world.removeBody(ball); throw new Boom('after remove'); }
    });
    world.on('contactEnd', (e) => { ends.push(otherBody(e, ground)); });
    const landing = stepUntilBeginThrowing(world);
    expect(landing.error).toBeInstanceOf(Boom);
    expect(balls[1]!.world).toBeNull();
    expect(world.bodies.length).toBe(3);
    expect(ends).toEqual([balls[1]]);
    stepSeconds(world, 1);
    expect(ends.length).toBe(1);
  });
});

/** Steps until a step throws (at most 2 s); returns the error and the step count. */
function stepUntilBeginThrowing(world: World): { error: unknown; steps: number } {
  for (let i = 0; i < 120; i++) {
    try { world.step(DT); } catch (error) { return { error, steps: i + 1 }; }
  }
  return { error: null, steps: 120 };
}

describe('removeBody', () => {
  it('between steps: queues contactEnd and sensorExit for the live contacts, delivered after the next step', () => {
    const { world, ground } = worldWithGround();
    const sensor = world.createBody({ type: 'static', shape: new Box({ x: 1, y: 1, z: 1 }), position: { x: 0, y: 0.5, z: 0 }, isSensor: true });
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 0, y: R, z: 0 } });
    const other = world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 5, y: R, z: 0 } });
    const log: string[] = [];
    world.on('contactEnd', (e) => {
      const b = otherBody(e, ground);
      // the last contact point seen: the ball's bottom, on the ground's top face (y = 0) within 1 cm
      log.push(`end ${b === ball ? 'ball' : 'other'} world=${b.world === null ? 'null' : 'set'} on ground ${Math.abs(e.point.y) < 0.01}`);
    });
    world.on('sensorExit', (e) => { log.push(`exit ${e.sensor === sensor && e.body === ball ? 'ball' : '?'}`); });
    stepSeconds(world, 0.5);
    expect(log).toEqual([]);
    world.removeBody(ball);
    // nothing is delivered from inside removeBody
    expect(log).toEqual([]);
    world.step(DT);
    expect(log.slice().sort()).toEqual(['end ball world=null on ground true', 'exit ball']);
    stepSeconds(world, 1);
    expect(log.length).toBe(2);
    expect(other.position.y).toBeCloseTo(R, 2);
  });

  it('from a listener: the removed body\'s contactEnd comes in the same delivery, after its contactBegin', () => {
    const { world, ground, balls } = threeBalls();
    const log: string[] = [];
    world.on('contactBegin', (e) => {
      const b = otherBody(e, ground);
      log.push(`begin ${balls.indexOf(b)}`);
      if (b === balls[0]) world.removeBody(b);
    });
    world.on('contactEnd', (e) => { log.push(`end ${balls.indexOf(otherBody(e, ground))}`); });
    const steps = stepUntilBegin(world);
    expect(steps).toBeGreaterThan(1);
    expect(log).toEqual(['begin 0', 'begin 1', 'begin 2', 'end 0']);
    stepSeconds(world, 1);
    expect(log.length).toBe(4);
    expect(world.bodies.length).toBe(3);
  });

  it('from a stepper: removed at the end of the step, its contactEnd delivered with that step\'s events', () => {
    const { world, ground } = worldWithGround();
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 0, y: R, z: 0 } });
    let ends = 0, stepsSeen = 0;
    world.on('contactEnd', (e) => { expect(otherBody(e, ground)).toBe(ball); ends++; });
    stepSeconds(world, 0.5);
    const stepper: WorldStepper = { postStep: (w) => { stepsSeen++; if (stepsSeen === 1) w.removeBody(ball); } };
    world.addStepper(stepper);
    world.step(DT);
    expect(ball.world).toBeNull();
    expect(ends).toBe(1);
    stepSeconds(world, 0.5);
    expect(ends).toBe(1);
    expect(stepsSeen).toBe(31);
  });
});

describe('addJoint between touching bodies', () => {
  it('the contactEnd it causes between steps is delivered after the next step, and no contact comes back', () => {
    const { world, ground } = worldWithGround();
    const base = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 } });
    const top = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 1.5, z: 0 } });
    const log: string[] = [];
    const name = (b: RigidBody): string => (b === base ? 'base' : b === top ? 'top' : b === ground ? 'ground' : '?');
    world.on('contactBegin', (e) => log.push(`begin ${[name(e.bodyA), name(e.bodyB)].sort().join('-')}`));
    world.on('contactEnd', (e) => log.push(`end ${[name(e.bodyA), name(e.bodyB)].sort().join('-')}`));
    stepSeconds(world, 0.5);
    expect(log.sort()).toEqual(['begin base-ground', 'begin base-top']);
    log.length = 0;
    world.addJoint(new BallJoint({ bodyA: base, bodyB: top, anchor: { x: 0, y: 1, z: 0 } }));
    expect(log).toEqual([]);
    world.step(DT);
    expect(log).toEqual(['end base-top']);
    stepSeconds(world, 1);
    expect(log).toEqual(['end base-top']);
    expect(top.position.y).toBeCloseTo(1.5, 2);
  });
});

describe('steppers that change the stepper list', () => {
  it('removeStepper inside postStep does not skip the next stepper; addStepper inside one runs from the next step', () => {
    const world = new World();
    const calls = [0, 0, 0, 0];
    const late: WorldStepper = { postStep: () => { calls[3]!++; } };
    const third: WorldStepper = { postStep: () => { calls[2]!++; } };
    const first: WorldStepper = { postStep: (w) => { calls[0]!++; w.removeStepper(first); w.addStepper(late); } };
    const second: WorldStepper = { postStep: () => { calls[1]!++; } };
    world.addStepper(first);
    world.addStepper(second);
    world.addStepper(third);
    stepSeconds(world, 10 * DT);
    expect(calls).toEqual([1, 10, 10, 9]);
  });

  it('a stepper removed by an earlier one in the same step is not run', () => {
    const world = new World();
    const calls = [0, 0];
    const victim: WorldStepper = { postStep: () => { calls[1]!++; } };
    world.addStepper({ postStep: (w) => { calls[0]!++; if (calls[0] === 3) w.removeStepper(victim); } });
    world.addStepper(victim);
    stepSeconds(world, 10 * DT);
    expect(calls).toEqual([10, 2]);
  });
});

/** The first difference between two snapshots (stepper states included), or '' when they are the same bit for bit. */
function snapshotDiff(x: WorldSnapshot, y: WorldSnapshot): string {
  for (const k of ['world', 'bodies', 'bodyInts', 'contacts', 'contactInts', 'broadphaseInts', 'broadphaseBounds', 'joints', 'jointInts'] as const) {
    const p = x[k] as ArrayLike<number>, q = y[k] as ArrayLike<number>;
    if (p.length !== q.length) return `${k}: length ${p.length} vs ${q.length}`;
    for (let i = 0; i < p.length; i++) if (!Object.is(p[i], q[i])) return `${k}[${i}]: ${p[i]} vs ${q[i]}`;
  }
  if (x.steppers.length !== y.steppers.length) return `steppers: ${x.steppers.length} vs ${y.steppers.length}`;
  for (let i = 0; i < x.steppers.length; i++) {
    const a = x.steppers[i], b = y.steppers[i];
    if ((a === null) !== (b === null)) return `steppers[${i}]: state in one only`;
    if (a && b && (a.f64.join() !== b.f64.join() || a.i32.join() !== b.i32.join())) return `steppers[${i}]: ${a.f64.join()} vs ${b.f64.join()}`;
  }
  return '';
}

/** A stepper counting its post-steps, with the count as its snapshot state. */
function counter(): WorldStepper & { count: number } {
  return {
    count: 0,
    postStep() { this.count++; },
    snapshotState(): StepperSnapshot { return { f64: Float64Array.of(this.count), i32: new Int32Array(0) }; },
    restoreState(state: StepperSnapshot) { this.count = state.f64[0]!; },
  };
}

/** A ball dropped onto the ground, stepped 30 steps (it is falling, so every step changes it). */
function fallingBall(): { world: World; ball: RigidBody } {
  const { world } = worldWithGround();
  const ball = world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 0, y: 3, z: 0 } });
  return { world, ball };
}

describe('stepper hooks are checked by name (third probe)', () => {
  const noop = (): void => {};
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['checkState: 5', { checkState: 5 }, /^addStepper: stepper\.checkState must be a function when given \(got 5\)/],
    ['snapshotState: \'yes\' (with restoreState)', { snapshotState: 'yes', restoreState: noop }, /^addStepper: stepper\.snapshotState must be a function when given \(got yes\)/],
    ['validateState: 5', { validateState: 5, snapshotState: noop, restoreState: noop }, /^addStepper: stepper\.validateState must be a function when given \(got 5\)/],
    ['restoreState: 5', { snapshotState: noop, restoreState: 5 }, /^addStepper: stepper\.restoreState must be a function when given \(got 5\)/],
    ['snapshotState without restoreState', { snapshotState: noop }, /^addStepper: stepper\.snapshotState and stepper\.restoreState come together \(restoreState is missing\)/],
    ['restoreState without snapshotState', { restoreState: noop }, /^addStepper: stepper\.snapshotState and stepper\.restoreState come together \(snapshotState is missing\)/],
    ['preStep: null', { preStep: null }, /^addStepper: stepper\.preStep must be a function when given \(got null\)/],
  ];
  for (const [label, hooks, message] of cases) {
    it(`addStepper refuses ${label}, adds nothing, and the world steps on as before`, () => {
      const { world, ball } = fallingBall();
      const before = world.snapshot();
      expect(() => world.addStepper({ postStep: noop, ...hooks } as unknown as WorldStepper)).toThrow(message);
      expect(world.steppers.length).toBe(0);
      expect(snapshotDiff(before, world.snapshot())).toBe('');
      world.step(DT);
      expect(world.stepCount).toBe(1);
      expect(ball.position.y).toBeLessThan(3);
    });
  }

  it('a checkState, preStep or postStep replaced after addStepper: step refuses it by name before anything moves', () => {
    const { world } = fallingBall();
    const s = counter();
    world.addStepper(s);
    world.step(DT);
    for (const [hook, message] of [
      ['checkState', /^step: steppers\[0\]\.checkState must be a function \(got 5\)/],
      ['preStep', /^step: steppers\[0\]\.preStep must be a function \(got 5\)/],
      ['postStep', /^step: steppers\[0\]\.postStep must be a function \(got 5\)/],
    ] as const) {
      const before = world.snapshot();
      const saved = (s as unknown as Record<string, unknown>)[hook];
      (s as unknown as Record<string, unknown>)[hook] = 5;
      expect(() => world.step(DT), hook).toThrow(message);
      expect(world.stepCount, hook).toBe(1);
      expect(s.count, hook).toBe(1);
      expect(snapshotDiff(before, world.snapshot()), hook).toBe('');
      (s as unknown as Record<string, unknown>)[hook] = saved;
    }
    world.step(DT);
    expect(world.stepCount).toBe(2);
    expect(s.count).toBe(2);
  });

  it('restore with a restoreState removed after the snapshot is refused by name before it writes anything (it used to write the bodies first)', () => {
    const { world, ball } = fallingBall();
    const s = counter();
    world.addStepper(s);
    const early = world.snapshot();
    for (let i = 0; i < 30; i++) world.step(DT);
    const before = world.snapshot();
    const y = ball.position.y;
    delete (s as Partial<WorldStepper>).restoreState;
    expect(() => world.restore(early)).toThrow(/^restore: steppers\[0\]\.restoreState must be a function \(got undefined\)/);
    expect(ball.position.y).toBe(y);
    expect(world.stepCount).toBe(30);
    expect(s.count).toBe(30);
    // The snapshot itself now refuses such a stepper too.
    expect(() => world.snapshot()).toThrow(/^snapshot: steppers\[0\]\.restoreState must be a function \(got undefined\)/);
    s.restoreState = (state: StepperSnapshot) => { s.count = state.f64[0]!; };
    expect(snapshotDiff(before, world.snapshot())).toBe('');
    world.restore(early);
    expect(world.stepCount).toBe(0);
    expect(s.count).toBe(0);
    expect(ball.position.y).toBe(3);
  });

  it('restore with a validateState replaced by a non-function is refused by name; the world is untouched', () => {
    const { world } = fallingBall();
    const s = counter();
    world.addStepper(s);
    const early = world.snapshot();
    for (let i = 0; i < 10; i++) world.step(DT);
    const before = world.snapshot();
    (s as unknown as { validateState: unknown }).validateState = 5;
    expect(() => world.restore(early)).toThrow(/^restore: steppers\[0\]\.validateState must be a function \(got 5\)/);
    expect(snapshotDiff(before, world.snapshot())).toBe('');
    expect(s.count).toBe(10);
  });

  for (const [label, bad, got] of [
    ['null', null, 'null'],
    ['a number', 7, '7'],
    ['plain arrays', { f64: [1], i32: [0] }, '{ f64: Array, i32: Array }'],
    ['no i32', { f64: new Float64Array(1) }, '{ f64: Float64Array, i32: undefined }'],
  ] as const) {
    it(`snapshot refuses a snapshotState returning ${label}, naming the stepper (restore would refuse the snapshot)`, () => {
      const { world } = fallingBall();
      const s = counter();
      let broken = false;
      const good = s.snapshotState!.bind(s);
      s.snapshotState = () => (broken ? bad as unknown as StepperSnapshot : good());
      world.addStepper(s);
      for (let i = 0; i < 5; i++) world.step(DT);
      const before = world.snapshot();
      broken = true;
      let error: Error | null = null;
      try { world.snapshot(); } catch (e) { error = e as Error; }
      expect(error).toBeInstanceOf(TypeError);
      expect(error!.message).toBe(`snapshot: steppers[0].snapshotState() must return { f64: Float64Array, i32: Int32Array } (got ${got})`);
      broken = false;
      const after = world.snapshot();
      expect(snapshotDiff(before, after)).toBe('');
      world.restore(after);
      expect(s.count).toBe(5);
    });
  }
});

describe('on/off input', () => {
  it('a listener that is not a function is a TypeError; an unknown event name is a RangeError naming it', () => {
    const world = new World();
    const bad = [undefined, null, 42, 'f', {}];
    for (const listener of bad) {
      expect(() => world.on('contactBegin', listener as never)).toThrow(TypeError);
      expect(() => world.off('contactBegin', listener as never)).toThrow(TypeError);
    }
    expect(() => world.on('contactBegin', 42 as never)).toThrow(/listener must be a function \(got number\)/);
    for (const name of ['x', 'toString', '__proto__', 'constructor', 'contactbegin']) {
      expect(() => world.on(name as never, () => {})).toThrow(RangeError);
      expect(() => world.off(name as never, () => {})).toThrow(RangeError);
    }
    expect(() => world.off('x' as never, () => {})).toThrow(/off: unknown event 'x' \(events: contactBegin, contactEnd, sensorEnter, sensorExit, jointBreak\)/);
    // nothing was registered by the failed calls: a ball landing is heard once
    let n = 0;
    world.on('contactBegin', () => { n++; });
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 0, y: 1, z: 0 } });
    stepSeconds(world, 1);
    expect(n).toBe(1);
  });

  it('off of a listener that was never added is a no-op; the same function added twice is called twice per event', () => {
    const { world } = threeBalls();
    let n = 0;
    const f = (): void => { n++; };
    world.off('contactBegin', f);
    world.on('contactBegin', f);
    const off = world.on('contactBegin', f);
    stepSeconds(world, 1);
    expect(n).toBe(6);
    off();
    world.createBody({ type: 'dynamic', shape: new Sphere(R), position: { x: 10, y: 1, z: 0 } });
    stepSeconds(world, 1);
    expect(n).toBe(7);
  });
});
