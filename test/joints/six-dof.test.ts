/**
 * SixDofJoint against the dedicated joints, its springs, motors, rate axes and
 * energy. 60 Hz, default solver settings ('soft', 4 sub-steps).
 */
import { describe, expect, it } from 'vitest';
import { BallJoint, Box, Capsule, ConeTwistJoint, FixedJoint, HingeJoint, SixDofJoint, Sphere, World, type Joint, type RigidBody } from '../../src/index';
import { totalEnergy } from '../helpers/energy';

const DT = 1 / 60;
const G = 9.81;

/** A box bob on a 1 m arm hanging from a static anchor at y = 3, released at `deg` about Z. */
function pendulum(make: (a: RigidBody, b: RigidBody) => Joint, deg: number, gravity = -G) {
  const world = new World({ gravity: { x: 0, y: gravity, z: 0 } });
  const anchor = world.createBody({ type: 'static', shape: new Box({ x: 0.05, y: 0.05, z: 0.05 }), position: { x: 0, y: 3, z: 0 } });
  const t = (deg * Math.PI) / 180;
  const bob = world.createBody({
    type: 'dynamic', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: Math.sin(t), y: 3 - Math.cos(t), z: 0 },
    rotation: { x: 0, y: 0, z: Math.sin(t / 2), w: Math.cos(t / 2) }, mass: 1, angularDamping: 0, linearDamping: 0, canSleep: false,
  });
  const joint = make(anchor, bob);
  world.addJoint(joint);
  return { world, anchor, bob, joint };
}

/** Period from the zero crossings of x over `seconds`. */
function period(world: World, bob: RigidBody, seconds: number): number {
  const crossings: number[] = [];
  let prev = bob.position.x;
  for (let i = 0; i < seconds / DT; i++) {
    world.step(DT);
    const x = bob.position.x;
    if ((prev > 0 && x <= 0) || (prev < 0 && x >= 0)) crossings.push((i + prev / (prev - x)) * DT);
    prev = x;
  }
  const n = crossings.length - 1;
  return (2 * (crossings[n]! - crossings[0]!)) / n;
}

const ANCHOR = { x: 0, y: 3, z: 0 };
const Z = { x: 0, y: 0, z: 1 };

describe('SixDofJoint expresses the other joints', () => {
  it('as a hinge (angular X free, the rest locked) its pendulum period matches HingeJoint within 0.5 %', () => {
    const h = pendulum((a, b) => new HingeJoint({ bodyA: a, bodyB: b, anchor: ANCHOR, axis: Z }), 20);
    const s = pendulum((a, b) => new SixDofJoint({ bodyA: a, bodyB: b, anchor: ANCHOR, axis: Z, angularX: { mode: 'free' } }), 20);
    const th = period(h.world, h.bob, 12);
    const ts = period(s.world, s.bob, 12);
    console.log(`hinge period ${th.toFixed(5)} s, six-dof as hinge ${ts.toFixed(5)} s (${((ts / th - 1) * 100).toFixed(4)} %)`);
    expect(Math.abs(ts - th) / th).toBeLessThan(0.005);
    // Out of plane the six-dof holds like the hinge.
    expect(Math.abs(s.bob.position.z)).toBeLessThan(1e-3);
  });

  it('as a hinge with limits and a velocity motor it follows HingeJoint step for step (within 1 mm over 3 s)', () => {
    const h = pendulum((a, b) => new HingeJoint({ bodyA: a, bodyB: b, anchor: ANCHOR, axis: Z, lowerAngle: -0.3, upperAngle: 0.4, motorSpeed: 1, maxMotorTorque: 2 }), 20);
    const s = pendulum((a, b) => new SixDofJoint({ bodyA: a, bodyB: b, anchor: ANCHOR, axis: Z, angularX: { mode: 'limited', min: -0.3, max: 0.4, motor: 'velocity', motorSpeed: 1, maxMotorForce: 2 } }), 20);
    let worst = 0;
    for (let i = 0; i < 180; i++) {
      h.world.step(DT); s.world.step(DT);
      worst = Math.max(worst, Math.hypot(h.bob.position.x - s.bob.position.x, h.bob.position.y - s.bob.position.y, h.bob.position.z - s.bob.position.z));
    }
    console.log(`limited motor hinge vs six-dof: largest distance ${(worst * 1000).toFixed(4)} mm`);
    expect(worst).toBeLessThan(0.001);
  });

  it('as a ball joint (angular free, linear locked) it follows BallJoint (within 1 mm over 5 s of a conical swing)', () => {
    const make = (ball: boolean) => {
      const p = pendulum((a, b) => ball ? new BallJoint({ bodyA: a, bodyB: b, anchor: ANCHOR })
        : new SixDofJoint({ bodyA: a, bodyB: b, anchor: ANCHOR, angularX: { mode: 'free' }, angularY: { mode: 'free' }, angularZ: { mode: 'free' } }), 30);
      p.bob.setLinearVelocity({ x: 0, y: 0, z: 1.5 });
      p.bob.setAngularVelocity({ x: 0.5, y: 2, z: 0 });
      return p;
    };
    const b = make(true), s = make(false);
    let worst = 0;
    for (let i = 0; i < 300; i++) {
      b.world.step(DT); s.world.step(DT);
      worst = Math.max(worst, Math.hypot(b.bob.position.x - s.bob.position.x, b.bob.position.y - s.bob.position.y, b.bob.position.z - s.bob.position.z));
    }
    console.log(`ball vs six-dof: largest distance ${(worst * 1000).toFixed(4)} mm, separation ${(s.joint.separation * 1000).toFixed(3)} mm`);
    expect(worst).toBeLessThan(0.001);
  });

  it('as a fixed joint (all locked) it follows FixedJoint: a 2 m cantilever sags the same within 0.1 mm', () => {
    const make = (fixed: boolean) => {
      const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
      const wall = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.5, z: 0.5 }), position: { x: 0, y: 2, z: 0 } });
      const beam = world.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 0.05, z: 0.05 }), position: { x: 1.1, y: 2, z: 0 }, mass: 5, canSleep: false });
      const anchor = { x: 0.1, y: 2, z: 0 };
      world.addJoint(fixed ? new FixedJoint({ bodyA: wall, bodyB: beam, anchor }) : new SixDofJoint({ bodyA: wall, bodyB: beam, anchor }));
      return { world, beam };
    };
    const f = make(true), s = make(false);
    let worst = 0;
    for (let i = 0; i < 120; i++) {
      f.world.step(DT); s.world.step(DT);
      worst = Math.max(worst, Math.hypot(f.beam.position.x - s.beam.position.x, f.beam.position.y - s.beam.position.y));
    }
    console.log(`fixed vs six-dof: beam tip at y ${f.beam.position.y.toFixed(5)} / ${s.beam.position.y.toFixed(5)}, largest distance ${(worst * 1000).toFixed(5)} mm`);
    expect(worst).toBeLessThan(1e-4);
    expect(Math.abs(s.beam.position.y - 2)).toBeLessThan(0.002);
  });

  it('with per-axis swing limits (Y, Z ±0.5) and twist ±0.3, a thrown limb stays within its limits (0.5° slop) and comes to rest on the Z limit', () => {
    const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
    const torso = world.createBody({ type: 'static', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0, y: 3, z: 0 } });
    const limb = world.createBody({ type: 'dynamic', shape: new Capsule(0.06, 0.3), position: { x: 0.4, y: 3, z: 0 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 }, mass: 3, canSleep: false });
    const j = new SixDofJoint({ bodyA: torso, bodyB: limb, anchor: { x: 0.05, y: 3, z: 0 }, axis: { x: 1, y: 0, z: 0 },
      angularX: { mode: 'limited', min: -0.3, max: 0.3 }, angularY: { mode: 'limited', min: -0.5, max: 0.5 }, angularZ: { mode: 'limited', min: -0.5, max: 0.5 } });
    world.addJoint(j);
    limb.setAngularVelocity({ x: 6, y: 3, z: 0 });
    let worst = 0;
    for (let i = 0; i < 240; i++) {
      world.step(DT);
      worst = Math.max(worst, Math.abs(j.getCoordinate(3)) - 0.3, Math.abs(j.getCoordinate(4)) - 0.5, Math.abs(j.getCoordinate(5)) - 0.5);
    }
    console.log(`six-dof limits: worst excess ${(worst * 180 / Math.PI).toFixed(3)}°, final swing z ${j.getCoordinate(5).toFixed(4)}`);
    expect(worst).toBeLessThan(0.5 * Math.PI / 180 + 1e-3);
    // Gravity pulls the horizontal limb down to its swing limit about Z (−0.5 rad).
    expect(j.getCoordinate(5)).toBeCloseTo(-0.5, 1);
  });
});

describe('SixDofJoint with a swing cone', () => {
  it("as a cone-twist (swingType 'cone', elliptical 0.5 / 0.8 rad, twist [−0.3, 0.6]) a thrown limb follows ConeTwistJoint within 5 mm over 3 s and stays in its cone", () => {
    const make = (cone: boolean) => {
      const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
      const torso = world.createBody({ type: 'static', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0, y: 3, z: 0 } });
      const limb = world.createBody({ type: 'dynamic', shape: new Capsule(0.06, 0.3), position: { x: 0.4, y: 3, z: 0 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 }, mass: 3, canSleep: false, angularDamping: 0 });
      const anchor = { x: 0.05, y: 3, z: 0 }, axis = { x: 1, y: 0, z: 0 }, normal = { x: 0, y: 1, z: 0 };
      const j = cone
        ? new ConeTwistJoint({ bodyA: torso, bodyB: limb, anchor, twistAxis: axis, normalAxis: normal, swingLimitY: 0.5, swingLimitZ: 0.8, twistLower: -0.3, twistUpper: 0.6 })
        : new SixDofJoint({ bodyA: torso, bodyB: limb, anchor, axis, normalAxis: normal, swingType: 'cone',
          angularX: { mode: 'limited', min: -0.3, max: 0.6 }, angularY: { mode: 'limited', min: -0.5, max: 0.5 }, angularZ: { mode: 'limited', min: -0.8, max: 0.8 } });
      world.addJoint(j);
      limb.setAngularVelocity({ x: 4, y: 5, z: 2 });
      return { world, limb, j };
    };
    const c = make(true), s = make(false);
    const six = s.j as SixDofJoint;
    let worst = 0, worstCone = -Infinity;
    for (let i = 0; i < 180; i++) {
      c.world.step(DT); s.world.step(DT);
      worst = Math.max(worst, Math.hypot(c.limb.position.x - s.limb.position.x, c.limb.position.y - s.limb.position.y, c.limb.position.z - s.limb.position.z));
      // The swing in the elliptical cone: (σ_y/0.5)² + (σ_z/0.8)² ≤ 1 (+ the projection's slop).
      const sy = six.getCoordinate(4), sz = six.getCoordinate(5);
      worstCone = Math.max(worstCone, Math.hypot(sy / 0.5, sz / 0.8));
    }
    console.log(`cone-twist vs six-dof cone: largest distance ${(worst * 1000).toFixed(3)} mm, largest (σ_y/l_y, σ_z/l_z) radius ${worstCone.toFixed(4)}`);
    expect(worst).toBeLessThan(0.005);
    expect(worstCone).toBeLessThan(1.02);
    expect(worstCone).toBeGreaterThan(0.9);
  });
});

describe('SixDofJoint coordinates and rate axes', () => {
  it('the rows’ rate axes are the derivatives of the coordinates (finite differences, 1e-5)', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const a = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 0, y: 0, z: 0 }, mass: 1, canSleep: false });
    const b = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 1, y: 0, z: 0 }, mass: 1, canSleep: false });
    const j = new SixDofJoint({ bodyA: a, bodyB: b, anchor: { x: 0.5, y: 0, z: 0 }, axis: { x: 1, y: 0.2, z: 0 },
      angularX: { mode: 'free' }, angularY: { mode: 'free' }, angularZ: { mode: 'free' } });
    world.addJoint(j);
    // A pose with swing and twist: B turned by 0.7 rad about (0.3, 0.8, −0.5), A by 0.4 about (1, 0, 1).
    const turn = (ax: number, ay: number, az: number, ang: number) => {
      const l = Math.hypot(ax, ay, az), s = Math.sin(ang / 2) / l;
      return { x: ax * s, y: ay * s, z: az * s, w: Math.cos(ang / 2) };
    };
    a.setRotation(turn(1, 0, 1, 0.4));
    b.setRotation(turn(0.3, 0.8, -0.5, 0.7));
    world.step(DT); // no velocities, no gravity: the poses stay; the rows are measured there
    const coords = [3, 4, 5].map((k) => j.getCoordinate(k));
    console.log(`twist ${coords[0]!.toFixed(4)}, swing y ${coords[1]!.toFixed(4)}, swing z ${coords[2]!.toFixed(4)}`);
    expect(Math.abs(coords[1]!)).toBeGreaterThan(0.1);
    const eps = 1e-6;
    const q0 = { ...b.rotation };
    for (let k = 3; k < 6; k++) {
      const row = j.lower[k]!;
      for (const d of [{ x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, { x: 0, y: 0, z: 1 }]) {
        // Turn B by eps about world axis d: q = dq · q0.
        const dq = turn(d.x, d.y, d.z, eps);
        b.setRotation({
          x: dq.w * q0.x + dq.x * q0.w + dq.y * q0.z - dq.z * q0.y,
          y: dq.w * q0.y - dq.x * q0.z + dq.y * q0.w + dq.z * q0.x,
          z: dq.w * q0.z + dq.x * q0.y - dq.y * q0.x + dq.z * q0.w,
          w: dq.w * q0.w - dq.x * q0.x - dq.y * q0.y - dq.z * q0.z,
        });
        const rate = (j.getCoordinate(k) - coords[k - 3]!) / eps;
        // The rows run on the unit axis J/|J| (rateScale = 1/|J|).
        const expected = (row.bx * d.x + row.by * d.y + row.bz * d.z) / j.rateScale[k]!;
        expect(Math.abs(rate - expected)).toBeLessThan(1e-5);
      }
    }
    b.setRotation(q0);
  });
});

describe('SixDofJoint springs and motors', () => {
  it('a soft linear limit oscillates at its limitHertz (2 Hz) within 2 %', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const base = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 0, z: 0 } });
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.1), position: { x: 0, y: 0, z: 0 }, mass: 4, canSleep: false, linearDamping: 0, angularDamping: 0 });
    const j = new SixDofJoint({ bodyA: base, bodyB: body, axis: { x: 1, y: 0, z: 0 }, collideConnected: false,
      linearX: { mode: 'limited', min: 0, max: 0, limitHertz: 2, limitDampingRatio: 0 } });
    world.addJoint(j);
    body.setLinearVelocity({ x: 1, y: 0, z: 0 });
    const T = period(world, body, 6);
    console.log(`soft linear limit period ${T.toFixed(5)} s (expected 0.5)`);
    expect(Math.abs(T - 0.5) / 0.5).toBeLessThan(0.02);
  });

  it('a soft twist limit oscillates at its limitHertz (1.5 Hz, ζ = 0.1) within 3 % of the damped frequency', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const base = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 0, z: 0 } });
    const wheel = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.1, z: 0.3 }), position: { x: 0, y: 0, z: 0 }, mass: 4, canSleep: false, angularDamping: 0 });
    const zeta = 0.1;
    const j = new SixDofJoint({ bodyA: base, bodyB: wheel, axis: { x: 0, y: 1, z: 0 },
      angularX: { mode: 'limited', min: -0.2, max: 0.2, limitHertz: 1.5, limitDampingRatio: zeta } });
    world.addJoint(j);
    wheel.setAngularVelocity({ x: 0, y: 6, z: 0 });
    // Periods of the spring part: time between passes through the upper limit, going out.
    const outs: number[] = [];
    let prev = j.getCoordinate(3);
    for (let i = 0; i < 600 && outs.length < 2; i++) {
      world.step(DT);
      const c = j.getCoordinate(3);
      if (prev < 0.2 && c >= 0.2) outs.push((i + (0.2 - prev) / (c - prev)) * DT);
      if (prev > 0.2 && c <= 0.2 && outs.length === 1) outs.push((i + (prev - 0.2) / (prev - c)) * DT);
      prev = c;
    }
    // Past the limit the wheel does half a damped oscillation: π/ω_d.
    const halfPeriod = outs[1]! - outs[0]!;
    const wd = 2 * Math.PI * 1.5 * Math.sqrt(1 - zeta * zeta);
    console.log(`soft twist limit: half period past the limit ${halfPeriod.toFixed(5)} s, expected ${(Math.PI / wd).toFixed(5)} s`);
    expect(Math.abs(halfPeriod - Math.PI / wd) / (Math.PI / wd)).toBeLessThan(0.03);
  });

  it('per-axis motors: a linear Y velocity motor and an angular Z position motor at the same time', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const base = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 0, z: 0 } });
    const body = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0, y: 0, z: 0 }, mass: 2, canSleep: false });
    const j = new SixDofJoint({ bodyA: base, bodyB: body,
      linearY: { mode: 'free', motor: 'velocity', motorSpeed: 0.5, maxMotorForce: 100 },
      angularZ: { mode: 'free', motor: 'position', motorTarget: 0.6, maxMotorForce: 50 } });
    world.addJoint(j);
    for (let i = 0; i < 120; i++) world.step(DT);
    console.log(`motors: y speed ${body.linearVelocity.y.toFixed(5)}, swing z ${j.getCoordinate(5).toFixed(5)}`);
    expect(body.linearVelocity.y).toBeCloseTo(0.5, 4);
    expect(Math.abs(j.getCoordinate(5) - 0.6)).toBeLessThan(0.005);
    expect(Math.abs(j.getCoordinate(0))).toBeLessThan(1e-3);
    expect(Math.abs(j.getCoordinate(3))).toBeLessThan(1e-3);
  });
});

describe('SixDofJoint energy', () => {
  for (const hz of [0, 4]) it(`a capsule on a 6-DOF joint with ${hz ? 'soft (4 Hz, ζ = 0)' : 'hard'} limits on every axis never gains more than 1 % of its releasable energy over 10 s`, () => {
    const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
    const top = 5;
    const anchor = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: top, z: 0 } });
    // The capsule (long axis local Y) starts horizontal along +x, its end at the anchor.
    const limb = world.createBody({ type: 'dynamic', shape: new Capsule(0.08, 0.4), position: { x: 0.5, y: top, z: 0 },
      rotation: { x: 0, y: 0, z: -Math.SQRT1_2, w: Math.SQRT1_2 }, mass: 2, angularDamping: 0, linearDamping: 0, canSleep: false });
    const j = new SixDofJoint({ bodyA: anchor, bodyB: limb, anchor: { x: 0, y: top, z: 0 }, axis: { x: 1, y: 0, z: 0 },
      linearX: { mode: 'limited', min: -0.05, max: 0.05, limitHertz: hz, limitDampingRatio: 0 },
      angularX: { mode: 'limited', min: -0.4, max: 0.4, limitHertz: hz, limitDampingRatio: 0 },
      angularY: { mode: 'limited', min: -0.8, max: 0.8, limitHertz: hz, limitDampingRatio: 0 },
      angularZ: { mode: 'limited', min: -1.2, max: 0.9, limitHertz: hz, limitDampingRatio: 0 } });
    world.addJoint(j);
    limb.setAngularVelocity({ x: 2, y: 1.5, z: 0 });
    const gravity = { x: 0, y: -G, z: 0 };
    const e0 = totalEnergy([limb], gravity);
    // Releasable: the start's kinetic energy plus the drop of the centre to its lowest reachable point (0.55 m under the anchor at most).
    const rel = e0 - 2 * G * (top - 0.55);
    let gain = -Infinity, lowest = Infinity;
    for (let i = 0; i < 600; i++) {
      world.step(DT);
      gain = Math.max(gain, totalEnergy([limb], gravity) - e0);
      lowest = Math.min(lowest, limb.position.y);
    }
    // A soft limit's spring holds energy while stretched (not counted above); it must give back no more than it took.
    console.log(`six-dof pendulum with ${hz ? 'soft' : 'hard'} limits: largest gain ${gain.toFixed(4)} J of ${rel.toFixed(3)} J releasable (${(gain / rel * 100).toFixed(3)} %), centre down to ${(top - lowest).toFixed(3)} m under the anchor`);
    expect(top - lowest).toBeGreaterThan(0.3);
    expect(gain).toBeLessThan(0.01 * rel);
  });
});
