// Combine modes, static friction, inertia overrides and bodies created
// asleep: 60 Hz, g = 9.81, default solver settings.
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World, type CombineMode, type RigidBody } from '../../src/index';
import { BODY_INTS } from '../../src/world/snapshot';

const DT = 1 / 60;
const G = 9.81;

/** A 1 m box sliding at 6 m/s on a static ground; the friction coefficient from its deceleration over 0.3 s. */
function slidingMu(box: { friction: number; frictionCombine?: CombineMode }, ground: { friction: number; frictionCombine?: CombineMode }): number {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 }, ...ground });
  const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 }, ...box });
  for (let i = 0; i < 10; i++) world.step(DT);
  b.setLinearVelocity({ x: 6, y: 0, z: 0 });
  world.step(DT);
  const v0 = b.linearVelocity.x;
  for (let i = 0; i < 18; i++) world.step(DT);
  return (v0 - b.linearVelocity.x) / (18 * DT) / G;
}

/** A 1 m box resting on a static slope of `angle` rad for 2 s; how far it moved along the slope, and its speed. */
function onSlope(angle: number, friction: number, staticFriction: number): { moved: number; speed: number } {
  const world = new World();
  const q = { x: 0, y: 0, z: Math.sin(angle / 2), w: Math.cos(angle / 2) };
  // Points along the slope's normal (−sin θ, cos θ, 0).
  const n = { x: -Math.sin(angle), y: Math.cos(angle) };
  world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 5 }), position: { x: -0.5 * n.x, y: -0.5 * n.y, z: 0 }, rotation: q, friction, staticFriction });
  const start = { x: 0.5 * n.x, y: 0.5 * n.y, z: 0 };
  const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: start, rotation: q, friction, staticFriction });
  for (let i = 0; i < 120; i++) world.step(DT);
  const v = b.linearVelocity;
  return { moved: Math.hypot(b.position.x - start.x, b.position.y - start.y), speed: Math.hypot(v.x, v.y, v.z) };
}

describe('friction and restitution combine modes', () => {
  const cases: [CombineMode, CombineMode, number][] = [
    ['geometric', 'geometric', Math.sqrt(0.2 * 0.8)],
    ['minimum', 'minimum', 0.2],
    ['maximum', 'maximum', 0.8],
    ['average', 'average', 0.5],
    ['multiply', 'multiply', 0.16],
    // Different modes: the later in geometric < minimum < maximum < average < multiply wins (as Havok).
    ['geometric', 'minimum', 0.2],
    ['minimum', 'maximum', 0.8],
    ['maximum', 'average', 0.5],
    ['multiply', 'average', 0.16],
  ];
  for (const [ma, mb, expected] of cases) {
    it(`box μ 0.2 '${ma}' sliding on ground μ 0.8 '${mb}' decelerates by ${expected.toFixed(3)} g`, () => {
      const mu = slidingMu({ friction: 0.2, frictionCombine: ma }, { friction: 0.8, frictionCombine: mb });
      console.log(`combine ${ma} × ${mb}: measured μ ${mu.toFixed(4)}, expected ${expected.toFixed(4)}`);
      expect(Math.abs(mu - expected)).toBeLessThan(0.01);
    });
  }

  it('the default stays the geometric mean √(μa μb) and the maximum restitution', () => {
    const mu = slidingMu({ friction: 0.2 }, { friction: 0.8 });
    const world = new World();
    const a = world.createBody({ type: 'dynamic', shape: new Sphere(0.5) });
    expect(a.frictionCombine).toBe('geometric');
    expect(a.restitutionCombine).toBe('maximum');
    console.log(`default combine: μ ${mu.toFixed(4)}`);
    expect(Math.abs(mu - 0.4)).toBeLessThan(0.01);
  });

  it("restitution 'minimum' against 'minimum' bounces a ball with the smaller e; 'maximum' with the larger", () => {
    // The ratio of the rebound speed to the impact speed (about 6.3 m/s, above restitutionThreshold),
    // against the same drop with e given to both bodies.
    const bounce = (ea: number, eb: number, mode: CombineMode): number => {
      const world = new World();
      world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 }, restitution: eb, restitutionCombine: mode });
      const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.25), position: { x: 0, y: 2.25, z: 0 }, restitution: ea, restitutionCombine: mode });
      let down = 0, up = 0;
      for (let i = 0; i < 60; i++) {
        world.step(DT);
        down = Math.min(down, ball.linearVelocity.y);
        up = Math.max(up, ball.linearVelocity.y);
      }
      return up / -down;
    };
    const rows = ([['minimum', 0.3], ['average', 0.6], ['maximum', 0.9], ['multiply', 0.27], ['geometric', Math.sqrt(0.27)]] as const).map(([mode, e]) => ({ mode, mixed: bounce(0.3, 0.9, mode), same: bounce(e, e, 'maximum'), e }));
    console.log(`restitution combine, rebound/impact speed: ${rows.map((r) => `'${r.mode}' ${r.mixed.toFixed(4)} (both e ${r.e.toFixed(3)}: ${r.same.toFixed(4)})`).join(', ')}`);
    for (const r of rows) expect(Math.abs(r.mixed - r.same)).toBeLessThan(1e-9);
    // The rebound grows with the combined e (test/dynamics/restitution-rebound.test.ts: it is e × the impact speed).
    expect(rows[0]!.mixed).toBeLessThan(rows[1]!.mixed);
    expect(rows[1]!.mixed).toBeLessThan(rows[2]!.mixed);
  });

  it('the setters validate and take effect on touching pairs at the next step', () => {
    const world = new World();
    const b = world.createBody({ type: 'dynamic', shape: new Sphere(0.5) });
    expect(() => { b.frictionCombine = 'median' as CombineMode; }).toThrow(/body\.frictionCombine/);
    expect(() => { b.restitutionCombine = undefined as unknown as CombineMode; }).toThrow(/body\.restitutionCombine/);
    expect(() => { b.staticFriction = -1; }).toThrow(/body\.staticFriction/);
    expect(() => { b.staticFriction = NaN; }).toThrow(/body\.staticFriction/);
    expect(() => world.createBody({ type: 'dynamic', shape: new Sphere(0.5), frictionCombine: 'sum' as CombineMode })).toThrow(/frictionCombine/);
    expect(() => world.createBody({ type: 'dynamic', shape: new Sphere(0.5), staticFriction: -0.1 })).toThrow(/staticFriction/);
    expect(b.frictionCombine).toBe('geometric');
    expect(b.staticFriction).toBe(0.5);
    b.friction = 0.7;
    expect(b.staticFriction).toBe(0.7);
    b.staticFriction = 1.2;
    b.friction = 0.3;
    expect(b.staticFriction).toBe(1.2);
  });
});

describe('static friction', () => {
  it('μs 0.8 holds a box on a slope steeper than μ 0.3 allows (tan θ 0.68); with μs = μ it slides', () => {
    const held = onSlope(0.6, 0.3, 0.8);
    const slid = onSlope(0.6, 0.3, 0.3);
    console.log(`slope 0.6 rad: μ 0.3 μs 0.8 moved ${held.moved.toExponential(3)} m; μ = μs = 0.3 moved ${slid.moved.toFixed(3)} m`);
    expect(held.moved).toBeLessThan(2e-3);
    expect(held.speed).toBeLessThan(0.01);
    expect(slid.moved).toBeGreaterThan(3);
  });

  it('past tan θ = μs (0.7 rad, tan 0.84 > 0.8) the box slides, and then with the sliding μ: a = g (sin θ − μ cos θ)', () => {
    const angle = 0.7;
    const r = onSlope(angle, 0.3, 0.8);
    // Sliding from rest for 2 s: d = ½ a t².
    const a = G * (Math.sin(angle) - 0.3 * Math.cos(angle));
    const expected = 0.5 * a * 4;
    console.log(`slope 0.7 rad: moved ${r.moved.toFixed(3)} m, speed ${r.speed.toFixed(3)} m/s; with the sliding μ ½at² ${expected.toFixed(3)} m, at ${(2 * a).toFixed(3)} m/s`);
    expect(Math.abs(r.speed - 2 * a) / (2 * a)).toBeLessThan(0.03);
    expect(Math.abs(r.moved - expected) / expected).toBeLessThan(0.05);
  });

  it('a box sliding on a flat ground with μ 0.3, μs 0.8 slows at 0.3 g and then stays put', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 }, friction: 0.3, staticFriction: 0.8 });
    const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 }, friction: 0.3, staticFriction: 0.8 });
    for (let i = 0; i < 10; i++) world.step(DT);
    b.setLinearVelocity({ x: 3, y: 0, z: 0 });
    for (let i = 0; i < 120; i++) world.step(DT);
    // v² / (2 μ g) = 1.529 m
    const expected = 9 / (2 * 0.3 * G);
    console.log(`slide to a stop: ${b.position.x.toFixed(4)} m (v²/2μg ${expected.toFixed(4)} m), speed ${Math.abs(b.linearVelocity.x).toExponential(2)}`);
    expect(Math.abs(b.position.x - expected)).toBeLessThan(0.06);
    expect(Math.abs(b.linearVelocity.x)).toBeLessThan(1e-3);
  });
});

describe('inertia override', () => {
  it('a torque spins a body up as I⁻¹ τ predicts with the given principal moments', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const shape = new Box({ x: 0.5, y: 0.5, z: 0.5 });
    const plain = world.createBody({ type: 'dynamic', shape, mass: 6, angularDamping: 0 });
    const heavy = world.createBody({ type: 'dynamic', shape, mass: 6, angularDamping: 0, position: { x: 5, y: 0, z: 0 }, inertia: { x: 2, y: 3, z: 4 } });
    expect(heavy.inertia).toEqual({ x: 2, y: 3, z: 4 });
    expect(heavy.mass).toBe(6);
    // A cube's I = m s² / 6 = 1 kg·m².
    expect(plain.inertia.z).toBeCloseTo(1, 12);
    for (let i = 0; i < 30; i++) {
      plain.applyTorque({ x: 0, y: 0, z: 2 });
      heavy.applyTorque({ x: 0, y: 0, z: 2 });
      world.step(DT);
    }
    // 0.5 s of 2 N·m: ω = τ t / I.
    console.log(`inertia override: ω_z ${heavy.angularVelocity.z.toFixed(5)} rad/s (τt/I = ${(1 / 4).toFixed(5)}), without ${plain.angularVelocity.z.toFixed(5)} (${(1).toFixed(5)})`);
    expect(heavy.angularVelocity.z).toBeCloseTo(0.25, 6);
    expect(plain.angularVelocity.z).toBeCloseTo(1, 6);
    // An angular impulse about x on the turned body: Δω = I⁻¹ L, |Δω| = 1/2 when L is along its x axis.
    const q = heavy.rotation, axis = { x: 1 - 2 * (q.y * q.y + q.z * q.z), y: 2 * (q.x * q.y + q.z * q.w), z: 2 * (q.x * q.z - q.y * q.w) };
    heavy.setAngularVelocity({ x: 0, y: 0, z: 0 });
    heavy.applyAngularImpulse(axis);
    expect(Math.hypot(heavy.angularVelocity.x, heavy.angularVelocity.y, heavy.angularVelocity.z)).toBeCloseTo(0.5, 9);
  });

  it('is validated: finite > 0 each, dynamic bodies only, and a refused body leaves the world as it was', () => {
    const world = new World();
    const shape = new Sphere(0.5);
    for (const bad of [{ x: 0, y: 1, z: 1 }, { x: 1, y: -1, z: 1 }, { x: 1, y: 1, z: NaN }, { x: 1, y: Infinity, z: 1 }]) {
      expect(() => world.createBody({ type: 'dynamic', shape, inertia: bad })).toThrow(/inertia\.[xyz]/);
    }
    expect(() => world.createBody({ type: 'dynamic', shape, inertia: null as unknown as { x: number; y: number; z: number } })).toThrow(/inertia/);
    expect(() => world.createBody({ type: 'static', shape, inertia: { x: 1, y: 1, z: 1 } })).toThrow(/inertia/);
    expect(world.bodies.length).toBe(0);
  });
});

describe('bodies created asleep', () => {
  it('stay put under gravity until touched, then fall; awake: true and the default start awake', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const sleeper = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 3, z: 0 }, awake: false });
    const other = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 3, y: 3, z: 0 }, awake: true });
    expect(sleeper.isSleeping).toBe(true);
    expect(other.isSleeping).toBe(false);
    for (let i = 0; i < 60; i++) world.step(DT);
    console.log(`asleep for 1 s: y ${sleeper.position.y}; the awake ball fell to ${other.position.y.toFixed(3)}`);
    expect(sleeper.position.y).toBe(3);
    expect(sleeper.isSleeping).toBe(true);
    expect(other.position.y).toBeLessThan(0.6);
    // A ball dropped onto it wakes it.
    world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: 0, y: 4, z: 0 } });
    let woke = -1;
    for (let i = 0; i < 120; i++) {
      world.step(DT);
      if (woke < 0 && !sleeper.isSleeping) woke = i;
    }
    console.log(`woken by the falling ball at step ${woke}; rests at y ${sleeper.position.y.toFixed(4)}`);
    expect(woke).toBeGreaterThanOrEqual(0);
    expect(Math.abs(sleeper.position.y - 0.5)).toBeLessThan(0.01);
  });

  it('an impulse wakes it; a moving body cannot be created asleep', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const b = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), awake: false });
    b.applyImpulse({ x: 1000, y: 0, z: 0 });
    world.step(DT);
    expect(b.isSleeping).toBe(false);
    // 1000 N·s on a 523.6 kg ball (1000 kg/m³).
    expect(b.linearVelocity.x).toBeCloseTo(1000 / (1000 * 4 / 3 * Math.PI * 0.125), 6);
    expect(() => world.createBody({ type: 'dynamic', shape: new Sphere(0.5), awake: false, linearVelocity: { x: 1, y: 0, z: 0 } })).toThrow(/awake/);
    expect(() => world.createBody({ type: 'dynamic', shape: new Sphere(0.5), awake: 0 as unknown as boolean })).toThrow(/awake/);
    const s: RigidBody = world.createBody({ type: 'static', shape: new Sphere(0.5), awake: false });
    expect(s.isSleeping).toBe(false);
  });
});

describe('snapshots', () => {
  it('restore static friction and combine modes, and refuse a world whose body has another inertia', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 }, staticFriction: 0.9, frictionCombine: 'multiply', restitutionCombine: 'minimum', inertia: { x: 1, y: 2, z: 3 } });
    const follows = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 2, y: 0.3, z: 0 } });
    for (let i = 0; i < 5; i++) world.step(DT);
    const snap = world.snapshot();
    b.staticFriction = 0.1; b.frictionCombine = 'average'; b.restitutionCombine = 'maximum';
    follows.staticFriction = 2;
    world.restore(snap);
    expect([b.staticFriction, b.frictionCombine, b.restitutionCombine]).toEqual([0.9, 'multiply', 'minimum']);
    // Unset, the static friction follows the friction again.
    follows.friction = 0.7;
    expect(follows.staticFriction).toBe(0.7);
    const other = new World();
    other.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    other.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 }, inertia: { x: 1, y: 2, z: 4 } });
    other.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 2, y: 0.3, z: 0 } });
    expect(() => other.restore(snap)).toThrow(/inertia/);
    const bad = world.snapshot();
    bad.bodyInts[BODY_INTS * 1 + 8] = 7;
    expect(() => world.restore(bad)).toThrow(/combine modes/);
    expect(b.frictionCombine).toBe('multiply');
  });
});
