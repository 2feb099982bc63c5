/**
 * SliderJoint / SixDofJoint / the hinge servo in snapshots, every position
 * correction mode, breaking, and input validation. 60 Hz.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, HingeJoint, SixDofJoint, SliderJoint, Sphere, World, type RigidBody } from '../../src/index';
import { allFinite } from '../helpers/energy';

const DT = 1 / 60;

function build(positionCorrection: 'soft' | 'ngs' | 'baumgarte' = 'soft') {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 }, solver: { positionCorrection } });
  world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  const post = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 1, z: 0.1 }), position: { x: 0, y: 1, z: 0 } });
  // A piston sliding out along x with a motor, limits and friction.
  const piston = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.1, z: 0.1 }), position: { x: 0.4, y: 1.5, z: 0 }, mass: 3 });
  const slider = world.addJoint(new SliderJoint({ bodyA: post, bodyB: piston, axis: { x: 1, y: 0, z: 0 }, lowerLimit: -0.2, upperLimit: 0.8, motorSpeed: 1.5, maxMotorForce: 80, frictionForce: 5 }));
  // A door on a servo hinge (it swings away from the piston).
  const door = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.6, z: 0.04 }), position: { x: -0.5, y: 0.7, z: 1 }, mass: 8 });
  const hinge = world.addJoint(new HingeJoint({ bodyA: post, bodyB: door, anchor: { x: -0.1, y: 0.7, z: 1 }, axis: { x: 0, y: 1, z: 0 }, motorMode: 'position', targetAngle: 1, maxMotorTorque: 30 }));
  // A limb on a six-dof: soft twist, hard swing limits, a linear spring along x, a swing motor.
  const limb = world.createBody({ type: 'dynamic', shape: new Capsule(0.07, 0.3), position: { x: 0, y: 1.6, z: -0.45 }, rotation: { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }, mass: 2 });
  const six = world.addJoint(new SixDofJoint({ bodyA: post, bodyB: limb, anchor: { x: 0, y: 1.6, z: -0.1 }, axis: { x: 0, y: 0, z: -1 },
    linearX: { mode: 'limited', min: -0.05, max: 0.05, limitHertz: 5, limitDampingRatio: 0.3 },
    angularX: { mode: 'limited', min: -0.3, max: 0.3, limitHertz: 3, friction: 0.2 },
    angularY: { mode: 'limited', min: -0.7, max: 0.7, motor: 'velocity', motorSpeed: 1, maxMotorForce: 10 },
    angularZ: { mode: 'limited', min: -0.9, max: 0.4 } }));
  // A second limb with a swing cone.
  const limb2 = world.createBody({ type: 'dynamic', shape: new Capsule(0.07, 0.3), position: { x: 0, y: 1.2, z: -0.45 }, rotation: { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }, mass: 2 });
  world.addJoint(new SixDofJoint({ bodyA: post, bodyB: limb2, anchor: { x: 0, y: 1.2, z: -0.1 }, axis: { x: 0, y: 0, z: -1 }, swingType: 'cone',
    angularX: { mode: 'limited', min: -0.3, max: 0.3 }, angularY: { mode: 'limited', min: -0.7, max: 0.7, motor: 'velocity', motorSpeed: -1, maxMotorForce: 10 },
    angularZ: { mode: 'limited', min: -0.4, max: 0.4 } }));
  // A ball on a six-dof to the piston: linear free along y with a position motor, angular free.
  const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.15), position: { x: 0.4, y: 1.2, z: 0.4 }, mass: 1 });
  const six2 = world.addJoint(new SixDofJoint({ bodyA: piston, bodyB: ball, anchor: { x: 0.4, y: 1.2, z: 0.4 },
    linearY: { mode: 'limited', min: -0.3, max: 0.3, motor: 'position', motorTarget: 0.1, maxMotorForce: 40 },
    angularX: { mode: 'free' }, angularY: { mode: 'free' }, angularZ: { mode: 'free' } }));
  return { world, slider, hinge, six, six2, bodies: [piston, door, limb, ball] as RigidBody[] };
}

function hash(bodies: readonly RigidBody[]): string {
  return bodies.map((b) => [b.position.x, b.position.y, b.position.z, b.rotation.x, b.rotation.w, b.linearVelocity.y, b.angularVelocity.z].join(',')).join(';');
}

describe('slider and six-dof state', () => {
  it('a snapshot restored into a twin replays 120 steps bit for bit', () => {
    const a = build();
    for (let i = 0; i < 90; i++) a.world.step(DT);
    const snap = a.world.snapshot();
    const b = build();
    for (let i = 0; i < 13; i++) b.world.step(DT);
    b.world.restore(structuredClone(snap));
    for (let i = 0; i < 120; i++) {
      a.world.step(DT); b.world.step(DT);
      expect(hash(b.bodies)).toBe(hash(a.bodies));
    }
    // Settings travel with the snapshot.
    a.slider.maxMotorForce = 12; a.six.axes[4]!.motorSpeed = -0.5;
    const snap2 = a.world.snapshot();
    b.world.restore(snap2);
    expect(b.slider.maxMotorForce).toBe(12);
    expect(b.six.axes[4]!.motorSpeed).toBe(-0.5);
    console.log(`slider at ${a.slider.position.toFixed(4)} m, hinge ${a.hinge.angle.toFixed(4)} rad, six-dof swing ${a.six.getCoordinate(5).toFixed(4)} rad`);
  });

  for (const mode of ['soft', 'ngs', 'baumgarte'] as const) {
    it(`'${mode}': the joints hold their locked axes within 5 mm / 1° and their limits within 1 cm / 2° over 5 s`, () => {
      const s = build(mode);
      let worstLin = 0, worstAng = 0, worstLimit = 0;
      for (let i = 0; i < 300; i++) {
        s.world.step(DT);
        worstLin = Math.max(worstLin, Math.abs(s.slider.getCoordinate(1)), Math.abs(s.slider.getCoordinate(2)), s.hinge.separation);
        worstAng = Math.max(worstAng, Math.abs(s.slider.getCoordinate(3)), Math.abs(s.slider.getCoordinate(4)), Math.abs(s.slider.getCoordinate(5)));
        worstLimit = Math.max(worstLimit, s.slider.position - 0.8, -0.2 - s.slider.position, Math.abs(s.six.getCoordinate(4)) - 0.7 - 0.15);
      }
      console.log(`${mode}: locked linear ${(worstLin * 1000).toFixed(3)} mm, locked angular ${(worstAng * 180 / Math.PI).toFixed(3)}°, limit excess ${(worstLimit * 1000).toFixed(3)}`);
      expect(allFinite(s.bodies)).toBe(true);
      expect(worstLin).toBeLessThan(0.005);
      expect(worstAng).toBeLessThan(Math.PI / 180);
      expect(worstLimit).toBeLessThan(0.01);
      expect(Math.abs(s.slider.position - 0.8)).toBeLessThan(0.01);
    });
  }

  it('a six-dof breaks when its impulse exceeds breakImpulse, and reports it', () => {
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    const base = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 3, z: 0 } });
    const weight = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: 0, y: 2, z: 0 }, mass: 50 });
    const j = world.addJoint(new SixDofJoint({ bodyA: base, bodyB: weight, anchor: { x: 0, y: 3, z: 0 }, breakImpulse: 5 }));
    let broke = 0;
    world.on('jointBreak', () => broke++);
    for (let i = 0; i < 10; i++) world.step(DT);
    // 50 kg × 9.81 × 1/60 = 8.2 N·s per step > 5.
    expect(j.broken).toBe(true);
    expect(broke).toBe(1);
    expect(weight.position.y).toBeLessThan(2);
  });

  it('validates every field by name, and a failed write changes nothing', () => {
    const world = new World();
    const a = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 0, z: 0 } });
    const b = world.createBody({ type: 'dynamic', shape: new Sphere(0.1), position: { x: 1, y: 0, z: 0 } });
    const bad: [string, () => unknown, RegExp][] = [
      ['mode', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { mode: 'loose' as never } }), /SixDofJoint\.linearX\.mode/],
      ['min > max', () => new SixDofJoint({ bodyA: a, bodyB: b, angularX: { mode: 'limited', min: 0.5, max: 0.1 } }), /SixDofJoint\.angularX\.min/],
      ['NaN min', () => new SixDofJoint({ bodyA: a, bodyB: b, linearY: { mode: 'limited', min: NaN } }), /SixDofJoint\.linearY\.min/],
      ['infinite max', () => new SixDofJoint({ bodyA: a, bodyB: b, linearZ: { mode: 'limited', max: Infinity } }), /SixDofJoint\.linearZ\.max/],
      ['swing past 0.9π', () => new SixDofJoint({ bodyA: a, bodyB: b, angularY: { mode: 'limited', max: 3 } }), /SixDofJoint\.angularY\.max/],
      ['twist past π', () => new SixDofJoint({ bodyA: a, bodyB: b, angularX: { mode: 'limited', min: -3.5 } }), /SixDofJoint\.angularX\.min/],
      ['negative force', () => new SixDofJoint({ bodyA: a, bodyB: b, angularZ: { maxMotorForce: -1 } }), /SixDofJoint\.angularZ\.maxMotorForce/],
      ['negative friction', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { friction: -1 } }), /SixDofJoint\.linearX\.friction/],
      ['motor', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { motor: 'fast' as never } }), /SixDofJoint\.linearX\.motor/],
      ['NaN speed', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { motorSpeed: NaN } }), /SixDofJoint\.linearX\.motorSpeed/],
      ['zero motor hertz', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { motorHertz: 0 } }), /SixDofJoint\.linearX\.motorHertz/],
      ['negative limit hertz', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { limitHertz: -2 } }), /SixDofJoint\.linearX\.limitHertz/],
      ['NaN damping', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: { limitDampingRatio: NaN } }), /SixDofJoint\.linearX\.limitDampingRatio/],
      ['axis desc', () => new SixDofJoint({ bodyA: a, bodyB: b, linearX: 3 as never }), /SixDofJoint\.linearX/],
      ['zero axis', () => new SixDofJoint({ bodyA: a, bodyB: b, axis: { x: 0, y: 0, z: 0 } }), /axis/],
      ['NaN anchor', () => new SixDofJoint({ bodyA: a, bodyB: b, anchor: { x: NaN, y: 0, z: 0 } }), /anchor/],
      ['coordinate index', () => new SixDofJoint({ bodyA: a, bodyB: b }).getCoordinate(6), /getCoordinate/],
    ];
    for (const [what, f, re] of bad) {
      let message = '';
      try { f(); } catch (e) { message = (e as Error).message; }
      expect(message, what).toMatch(re);
    }
    const j = new SixDofJoint({ bodyA: a, bodyB: b, angularY: { mode: 'limited', min: -0.5, max: 0.5 } });
    const ax = j.angularY;
    expect(ax).toBe(j.axes[4]);
    expect(() => (ax.min = 0.6)).toThrow(/angularY\.min/);
    expect(() => (ax.maxMotorForce = Number.NaN)).toThrow(/angularY\.maxMotorForce/);
    expect(() => (ax.motorTarget = Infinity)).toThrow(/angularY\.motorTarget/);
    expect(() => (ax.friction = -0.1)).toThrow(/angularY\.friction/);
    expect(() => (ax.mode = 'x' as never)).toThrow(/angularY\.mode/);
    expect(ax.min).toBe(-0.5);
    expect(ax.max).toBe(0.5);
    expect(ax.mode).toBe('limited');
    expect(ax.maxMotorForce).toBe(1e9);
    // Changing modes while it runs: a locked axis freed moves.
    world.addJoint(j);
    j.axes[0]!.mode = 'free';
    b.setLinearVelocity({ x: 1, y: 0, z: 0 });
    world.step(DT);
    expect(b.linearVelocity.x).toBeCloseTo(1, 6);
  });
});

describe('slider and six-dof snapshots with bad settings', () => {
  it('a snapshot whose joint settings are out of range is refused by name before anything is restored; the world steps on as its twin', () => {
    const a = build(), twin = build();
    for (let i = 0; i < 30; i++) { a.world.step(DT); twin.world.step(DT); }
    const good = a.world.snapshot();
    for (let i = 0; i < 10; i++) { a.world.step(DT); twin.world.step(DT); }
    // Joint 2 is the limb's six-dof: its first number after the base state (16) and the rows is axis 0's mode.
    const ji = good.jointInts, stride = good.jointInts.length / a.world.joints.length;
    const bad = (edit: (f: Float64Array, start: number) => void): typeof good => {
      const c = structuredClone(good);
      edit(c.joints, ji[stride * 2 + 4]!);
      return c;
    };
    const cases: [string, typeof good, RegExp][] = [
      ['mode 7', bad((f, o) => { f[o + 16] = 7; }), /joint 2's state is refused.*linearX\.mode/],
      ['min > max', bad((f, o) => { f[o + 16 + 1] = 1; f[o + 16 + 2] = 0; }), /linearX\.min/],
      ['negative force', bad((f, o) => { f[o + 16 + 8] = -1; }), /linearX\.maxMotorForce/],
    ];
    for (const [what, snap, re] of cases) {
      let message = '';
      try { a.world.restore(snap); } catch (e) { message = (e as Error).message; }
      expect(message, what).toMatch(re);
    }
    for (let i = 0; i < 60; i++) {
      a.world.step(DT); twin.world.step(DT);
      expect(hash(a.bodies)).toBe(hash(twin.bodies));
    }
  });
});
