// FootingPlugin's SLIDER, PRISMATIC and SIX_DOF constraints (footing's
// SixDofJoint) in NullEngine scenes; the same scenes beside HavokPlugin are in
// plugin-vs-havok.test.ts.
import { describe, expect, it } from 'vitest';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode, PhysicsConstraintMotorType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { BallAndSocketConstraint, DistanceConstraint, HingeConstraint, Physics6DoFConstraint, PrismaticConstraint, type PhysicsConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import { DistanceJoint, HingeJoint, SixDofJoint } from '../../src/index';
import { FootingPlugin } from '../../src/babylon/index';
import { physicsScene, runFrames, sixDofPendulum, sliderMotor } from './plugin-scenes';

describe('FootingPlugin: SLIDER and PRISMATIC', () => {
  it('a velocity motor drives the body along the axis at 1 m/s; SLIDER lets it spin about the axis, PRISMATIC does not', () => {
    const s = sliderMotor(new FootingPlugin(), 'slider');
    const p = sliderMotor(new FootingPlugin(), 'prismatic');
    console.log(`slider: x ${s.x.toFixed(4)} y ${s.y.toFixed(6)} spin ${s.spin.toFixed(4)}; prismatic: x ${p.x.toFixed(4)} spin ${p.spin.toFixed(6)}`);
    // 1 s at 1 m/s (the motor reaches its speed within the first step: 100 N on 1 kg).
    expect(s.x).toBeCloseTo(1, 1);
    expect(Math.abs(s.x - 1)).toBeLessThan(0.01);
    expect(Math.abs(p.x - 1)).toBeLessThan(0.01);
    // Held on the axis against gravity.
    expect(Math.abs(s.y - 2)).toBeLessThan(1e-3);
    expect(Math.abs(s.z)).toBeLessThan(1e-6);
    // 3 rad/s under the default angular damping 0.1 for 1 s: 3 e^−0.1 = 2.71 rad/s.
    expect(s.spin).toBeCloseTo(3 * Math.exp(-0.1), 2);
    expect(Math.abs(p.spin)).toBeLessThan(1e-6);
  });

  it('LINEAR_X limits stop the motor; a POSITION motor reaches its target; the axis setters change the joint in place', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const anchor = new PhysicsAggregate(CreateBox('a', { size: 0.1 }, scene), PhysicsShapeType.BOX, { mass: 0 }, scene);
    const cartMesh = CreateBox('c', { size: 0.5 }, scene);
    const cart = new PhysicsAggregate(cartMesh, PhysicsShapeType.BOX, { mass: 2 }, scene);
    const joint = new PrismaticConstraint(Vector3.Zero(), Vector3.Zero(), new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene);
    anchor.body.addConstraint(cart.body, joint);
    plugin.setAxisMode(joint, PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintAxisLimitMode.LIMITED);
    plugin.setAxisMinLimit(joint, PhysicsConstraintAxis.LINEAR_X, -0.5);
    plugin.setAxisMaxLimit(joint, PhysicsConstraintAxis.LINEAR_X, 0.75);
    plugin.setAxisMotorType(joint, PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintMotorType.VELOCITY);
    plugin.setAxisMotorTarget(joint, PhysicsConstraintAxis.LINEAR_X, 2);
    plugin.setAxisMotorMaxForce(joint, PhysicsConstraintAxis.LINEAR_X, 1000);
    const j = (plugin as unknown as { world: { joints: unknown[] } }).world.joints[0] as SixDofJoint;
    expect(j).toBeInstanceOf(SixDofJoint);
    expect([j.linearX.mode, j.linearX.min, j.linearX.max, j.linearX.motor, j.linearX.motorSpeed]).toEqual(['limited', -0.5, 0.75, 'velocity', 2]);
    runFrames(scene, 60);
    // The axis is world Z; the upper limit at 0.75 m stops a motor that would have gone 2 m.
    console.log(`prismatic with limits: z ${cartMesh.position.z.toFixed(4)} m`);
    expect(Math.abs(cartMesh.position.z - 0.75)).toBeLessThan(0.01);
    plugin.setAxisMotorType(joint, PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintMotorType.POSITION);
    plugin.setAxisMotorTarget(joint, PhysicsConstraintAxis.LINEAR_X, -0.25);
    expect(j.linearX.motor).toBe('position');
    runFrames(scene, 120);
    console.log(`prismatic position motor to −0.25: z ${cartMesh.position.z.toFixed(4)} m`);
    expect(Math.abs(cartMesh.position.z + 0.25)).toBeLessThan(0.01);
    expect(Math.hypot(cartMesh.position.x, cartMesh.position.y)).toBeLessThan(1e-4);
    scene.dispose();
  });
});

describe('FootingPlugin: HINGE position motor', () => {
  it('a POSITION motor on ANGULAR_X is HingeJoint\'s servo: a wheel turns to the target angle and holds it', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const anchor = new PhysicsAggregate(CreateBox('a', { size: 0.1 }, scene), PhysicsShapeType.BOX, { mass: 0 }, scene);
    const wheel = new PhysicsAggregate(CreateBox('w', { width: 1, height: 0.2, depth: 0.2 }, scene), PhysicsShapeType.BOX, { mass: 2 }, scene);
    const joint = new HingeConstraint(Vector3.Zero(), Vector3.Zero(), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    anchor.body.addConstraint(wheel.body, joint);
    plugin.setAxisMotorType(joint, PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintMotorType.POSITION);
    plugin.setAxisMotorTarget(joint, PhysicsConstraintAxis.ANGULAR_X, 0.8);
    plugin.setAxisMotorMaxForce(joint, PhysicsConstraintAxis.ANGULAR_X, 100);
    const j = (plugin as unknown as { world: { joints: unknown[] } }).world.joints[0] as HingeJoint;
    expect(j).toBeInstanceOf(HingeJoint);
    expect([j.motorMode, j.targetAngle, j.maxMotorTorque]).toEqual(['position', 0.8, 100]);
    runFrames(scene, 180);
    console.log(`hinge position motor to 0.8 rad: angle ${j.angle.toFixed(5)} rad`);
    expect(Math.abs(Math.abs(j.angle) - 0.8)).toBeLessThan(0.01);
    scene.dispose();
  });
});

describe('FootingPlugin: SIX_DOF', () => {
  it('a Physics6DoFConstraint free only in twist swings as a hinge pendulum (period 2π √(L/g) (1 + θ0²/16))', () => {
    const r = sixDofPendulum(new FootingPlugin(), 'hinge');
    const T = 2 * Math.PI * Math.sqrt(1 / 9.81) * (1 + 0.3 ** 2 / 16);
    console.log(`6-DOF hinge: period ${r.period.toFixed(4)} s (theory ${T.toFixed(4)}), radius ${r.radius.toFixed(5)}`);
    expect(Math.abs(r.period - T) / T).toBeLessThan(0.01);
    expect(Math.abs(r.radius - 1)).toBeLessThan(1e-3);
  });

  it('every axis locked holds like a LockConstraint (the same drift to a micrometre)', () => {
    const six = sixDofPendulum(new FootingPlugin(), 'locked');
    const lock = sixDofPendulum(new FootingPlugin(), 'lock-constraint');
    console.log(`6-DOF all locked: drift ${six.drift.toExponential(3)} m; LockConstraint: ${lock.drift.toExponential(3)} m`);
    expect(Number.isNaN(six.period)).toBe(true);
    expect(six.drift).toBeLessThan(1e-3);
    expect(Math.abs(six.drift - lock.drift)).toBeLessThan(1e-6);
  });

  it('limits, stiffness and a twist motor: a LIMITED twist stops at its limit; friction and the motor map to the joint axis', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const base = new PhysicsAggregate(CreateBox('b', { size: 0.1 }, scene), PhysicsShapeType.BOX, { mass: 0 }, scene);
    const wheelMesh = CreateBox('w', { size: 0.5 }, scene);
    const wheel = new PhysicsAggregate(wheelMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    wheel.body.setAngularDamping(0);
    const joint = new Physics6DoFConstraint({ axisA: new Vector3(0, 1, 0), axisB: new Vector3(0, 1, 0) }, [
      { axis: PhysicsConstraintAxis.LINEAR_X, minLimit: 0, maxLimit: 0 }, { axis: PhysicsConstraintAxis.LINEAR_Y, minLimit: 0, maxLimit: 0 },
      { axis: PhysicsConstraintAxis.LINEAR_Z, minLimit: 0, maxLimit: 0 }, { axis: PhysicsConstraintAxis.ANGULAR_Y, minLimit: 0, maxLimit: 0 },
      { axis: PhysicsConstraintAxis.ANGULAR_Z, minLimit: 0, maxLimit: 0 }, { axis: PhysicsConstraintAxis.ANGULAR_X, minLimit: -1, maxLimit: 1 },
    ], scene);
    base.body.addConstraint(wheel.body, joint);
    joint.setAxisMotorType(PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
    joint.setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_X, 2);
    joint.setAxisMotorMaxForce(PhysicsConstraintAxis.ANGULAR_X, 50);
    joint.setAxisFriction(PhysicsConstraintAxis.ANGULAR_X, 0.01);
    const j = (plugin as unknown as { world: { joints: unknown[] } }).world.joints[0] as SixDofJoint;
    expect([j.angularX.mode, j.angularX.min, j.angularX.max, j.angularX.motor, j.angularX.motorSpeed, j.angularX.maxMotorForce, j.angularX.friction])
      .toEqual(['limited', -1, 1, 'velocity', 2, 50, 0.01]);
    expect(j.linearY.mode).toBe('locked');
    runFrames(scene, 60);
    // The twist axis is world Y: 2 rad/s would turn it 2 rad in 1 s; the limit stops it at 1 rad.
    const q = wheelMesh.rotationQuaternion!;
    const angle = 2 * Math.atan2(q.y, q.w);
    console.log(`6-DOF twist motor against a 1 rad limit: ${angle.toFixed(4)} rad`);
    expect(Math.abs(angle - 1)).toBeLessThan(0.02);
    expect(wheelMesh.position.length()).toBeLessThan(1e-4);
    scene.dispose();
  });
});

describe('FootingPlugin: constraint axis input', () => {
  /** Two 1 kg boxes 1.5 m apart, no gravity, joined by `c`. */
  function joined(c: (scene: ReturnType<typeof physicsScene>) => PhysicsConstraint) {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const a = new PhysicsAggregate(CreateBox('a', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    const bMesh = CreateBox('b', { size: 1 }, scene);
    bMesh.position.set(1.5, 0, 0);
    const b = new PhysicsAggregate(bMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    const constraint = c(scene);
    return { plugin, scene, a, b, constraint, attach: () => a.body.addConstraint(b.body, constraint) };
  }
  const pivots = { pivotA: new Vector3(0.75, 0, 0), pivotB: new Vector3(-0.75, 0, 0) };
  const Y = PhysicsConstraintAxis.LINEAR_Y;

  it('axis setters refuse an unknown axis, mode or motor type, a non-finite value, a negative friction or force and a limit past the other one, by name; the joint stays as it was', () => {
    const { plugin, scene, constraint: c, attach } = joined((scene) => new Physics6DoFConstraint(pivots, [], scene));
    attach();
    plugin.setAxisMode(c, Y, PhysicsConstraintAxisLimitMode.LIMITED);
    plugin.setAxisMinLimit(c, Y, -0.5);
    plugin.setAxisMaxLimit(c, Y, 0.5);
    plugin.setAxisMotorType(c, Y, PhysicsConstraintMotorType.VELOCITY);
    plugin.setAxisMotorTarget(c, Y, 1);
    plugin.setAxisMotorMaxForce(c, Y, 50);
    plugin.setAxisFriction(c, Y, 2);
    const j = plugin.world.joints[0] as SixDofJoint;
    const state = () => [
      plugin.getAxisMode(c, Y), plugin.getAxisMinLimit(c, Y), plugin.getAxisMaxLimit(c, Y), plugin.getAxisMotorType(c, Y),
      plugin.getAxisMotorTarget(c, Y), plugin.getAxisMotorMaxForce(c, Y), plugin.getAxisFriction(c, Y), plugin.getAxisMode(c, PhysicsConstraintAxis.ANGULAR_Z),
      j.linearY.mode, j.linearY.min, j.linearY.max, j.linearY.motor, j.linearY.motorSpeed, j.linearY.maxMotorForce, j.linearY.friction, j.angularZ.mode,
    ];
    const before = state();
    expect(before).toEqual([1, -0.5, 0.5, 1, 1, 50, 2, null, 'limited', -0.5, 0.5, 'velocity', 1, 50, 2, 'free']);
    const refused: [() => void, RegExp][] = [
      [() => plugin.setAxisMode(c, 42 as PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode.LIMITED), /FootingPlugin\.setAxisMode: axis must be a PhysicsConstraintAxis \(LINEAR_X 0, .*LINEAR_DISTANCE 6; got 42\)/],
      [() => plugin.getAxisMode(c, -1 as PhysicsConstraintAxis), /FootingPlugin\.getAxisMode: axis must be a PhysicsConstraintAxis .*got -1/],
      [() => plugin.setAxisMode(c, PhysicsConstraintAxis.ANGULAR_Z, 7 as PhysicsConstraintAxisLimitMode), /setAxisMode: mode must be a PhysicsConstraintAxisLimitMode \(FREE 0, LIMITED 1, LOCKED 2; got 7\)/],
      [() => plugin.setAxisMotorType(c, Y, 7 as PhysicsConstraintMotorType), /setAxisMotorType: motorType must be a PhysicsConstraintMotorType \(NONE 0, VELOCITY 1, POSITION 2; got 7\)/],
      [() => plugin.setAxisMinLimit(c, Y, NaN), /setAxisMinLimit: minLimit must be a finite number \(got NaN\)/],
      [() => plugin.setAxisMaxLimit(c, Y, Infinity), /setAxisMaxLimit: maxLimit must be a finite number \(got Infinity\)/],
      [() => plugin.setAxisMotorTarget(c, Y, NaN), /setAxisMotorTarget: motorTarget must be a finite number \(got NaN\)/],
      [() => plugin.setAxisFriction(c, Y, -5), /setAxisFriction: friction must be a finite number ≥ 0 \(got -5\)/],
      [() => plugin.setAxisMotorMaxForce(c, Y, -1), /setAxisMotorMaxForce: motorMaxForce must be a finite number ≥ 0 \(got -1\)/],
      [() => plugin.setAxisMinLimit(c, Y, 1), /setAxisMinLimit: minLimit \(1\) must be ≤ maxLimit \(0\.5\) on LINEAR_Y/],
      [() => plugin.setAxisMaxLimit(c, Y, -1), /setAxisMaxLimit: minLimit \(-0\.5\) must be ≤ maxLimit \(-1\) on LINEAR_Y/],
    ];
    for (const [call, message] of refused) {
      expect(call).toThrow(message);
      expect(state()).toEqual(before);
    }
    // The documented order: to move [−0.5, 0.5] to [1, 2], the far end first.
    plugin.setAxisMaxLimit(c, Y, 2);
    plugin.setAxisMinLimit(c, Y, 1);
    expect([j.linearY.min, j.linearY.max]).toEqual([1, 2]);
    scene.dispose();
  });

  it('a hinge and a distance constraint refuse the same way; a refused LINEAR_DISTANCE limit keeps the rod', () => {
    const X = PhysicsConstraintAxis.ANGULAR_X;
    const h = joined((scene) => new HingeConstraint(pivots.pivotA, pivots.pivotB, new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene));
    h.attach();
    h.plugin.setAxisMode(h.constraint, X, PhysicsConstraintAxisLimitMode.LIMITED);
    h.plugin.setAxisMinLimit(h.constraint, X, 1);
    const hinge = h.plugin.world.joints[0] as HingeJoint;
    const state = () => [hinge.lowerAngle, hinge.upperAngle, hinge.motorMode, hinge.maxMotorTorque, h.plugin.getAxisMaxLimit(h.constraint, X), h.plugin.getAxisMotorType(h.constraint, X)];
    const before = state();
    expect(before).toEqual([1, Infinity, hinge.motorMode, 0, null, null]);
    expect(() => h.plugin.setAxisMaxLimit(h.constraint, X, -1)).toThrow(/setAxisMaxLimit: minLimit \(1\) must be ≤ maxLimit \(-1\) on ANGULAR_X/);
    expect(() => h.plugin.setAxisMotorType(h.constraint, X, 7 as PhysicsConstraintMotorType)).toThrow(/setAxisMotorType: motorType/);
    expect(() => h.plugin.setAxisMode(h.constraint, X, 7 as PhysicsConstraintAxisLimitMode)).toThrow(/setAxisMode: mode/);
    expect(() => h.plugin.setAxisMode(h.constraint, 42 as PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode.LOCKED)).toThrow(/setAxisMode: axis .*got 42/);
    expect(state()).toEqual(before);
    h.scene.dispose();

    // A 1.5 m rod: its LINEAR_DISTANCE range is [1.5, 1.5] until set; a minimum past it is refused, not a lost joint.
    const d = joined((scene) => new DistanceConstraint(1.5, scene));
    d.attach();
    const rod = d.plugin.world.joints[0] as DistanceJoint;
    expect(() => d.plugin.setAxisMinLimit(d.constraint, PhysicsConstraintAxis.LINEAR_DISTANCE, 2)).toThrow(/setAxisMinLimit: minLimit \(2\) must be ≤ maxLimit \(1\.5\) on LINEAR_DISTANCE/);
    expect(d.plugin.world.joints).toEqual([rod]);
    expect(d.plugin.getAxisMinLimit(d.constraint, PhysicsConstraintAxis.LINEAR_DISTANCE)).toBe(null);
    d.plugin.setAxisMaxLimit(d.constraint, PhysicsConstraintAxis.LINEAR_DISTANCE, 3);
    d.plugin.setAxisMinLimit(d.constraint, PhysicsConstraintAxis.LINEAR_DISTANCE, 2);
    const range = d.plugin.world.joints[0] as DistanceJoint;
    expect([range.minLength, range.maxLength]).toEqual([2, 3]);
    d.scene.dispose();
  });

  it('Physics6DoFConstraint limits with min > max, a NaN or negative stiffness or damping, or an unknown axis are refused by name at addConstraint; no joint is made', () => {
    const X = PhysicsConstraintAxis.LINEAR_X;
    const cases: [Physics6DoFConstraint['limits'], RegExp][] = [
      [[{ axis: X, minLimit: 1, maxLimit: -1 }], /Physics6DoFConstraint limits\[0\]\.minLimit \(1\) must be ≤ maxLimit \(-1\)/],
      [[{ axis: X, minLimit: 0, maxLimit: 0 }, { axis: X, minLimit: 0, maxLimit: 1, stiffness: NaN, damping: 1 }], /limits\[1\]\.stiffness must be a finite number \(got NaN\)/],
      [[{ axis: X, minLimit: 0, maxLimit: 1, stiffness: 10, damping: -1 }], /limits\[0\]\.damping must be ≥ 0 \(got -1\)/],
      [[{ axis: PhysicsConstraintAxis.ANGULAR_Y, maxLimit: Infinity }], /limits\[0\]\.maxLimit must be a finite number \(got Infinity\)/],
      [[{ axis: 42 as PhysicsConstraintAxis, minLimit: 0 }], /limits\[0\]\.axis must be a PhysicsConstraintAxis .*got 42/],
    ];
    for (const [limits, message] of cases) {
      const { plugin, scene, constraint, attach } = joined((scene) => new Physics6DoFConstraint(pivots, limits, scene));
      expect(attach).toThrow(message);
      expect(plugin.world.joints.length).toBe(0);
      expect(constraint._pluginData).toBeUndefined();
      scene.dispose();
    }
  });

  it('limits and motor values past what the joint axis expresses are clamped to its reach (1e6 m, twist π, swing 0.9π, 1000 rad/s, 1e9 N) and read back as set', () => {
    const s = joined((scene) => new Physics6DoFConstraint(pivots, [{ axis: PhysicsConstraintAxis.ANGULAR_Y, minLimit: -10, maxLimit: 10 }], scene));
    s.attach();
    const { plugin, constraint: c } = s;
    const j = plugin.world.joints[0] as SixDofJoint;
    expect([j.angularY.mode, j.angularY.min, j.angularY.max]).toEqual(['limited', -0.9 * Math.PI, 0.9 * Math.PI]);
    plugin.setAxisMode(c, PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintAxisLimitMode.LIMITED);
    plugin.setAxisMaxLimit(c, PhysicsConstraintAxis.ANGULAR_X, 10);
    expect([j.angularX.min, j.angularX.max]).toEqual([-Math.PI, Math.PI]);
    expect(plugin.getAxisMaxLimit(c, PhysicsConstraintAxis.ANGULAR_X)).toBe(10);
    plugin.setAxisMotorType(c, PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintMotorType.POSITION);
    plugin.setAxisMotorTarget(c, PhysicsConstraintAxis.LINEAR_X, 1e300);
    expect(j.linearX.motorTarget).toBe(1e6);
    expect(plugin.getAxisMotorTarget(c, PhysicsConstraintAxis.LINEAR_X)).toBe(1e300);
    const Z = PhysicsConstraintAxis.LINEAR_Z;
    plugin.setAxisMotorType(c, Z, PhysicsConstraintMotorType.VELOCITY);
    plugin.setAxisMotorTarget(c, Z, 1e9);
    plugin.setAxisMotorMaxForce(c, Z, 1e12);
    plugin.setAxisFriction(c, Z, 1e12);
    expect([j.linearZ.motorSpeed, j.linearZ.maxMotorForce, j.linearZ.friction]).toEqual([1000, 1e9, 1e9]);
    expect([plugin.getAxisMotorTarget(c, Z), plugin.getAxisMotorMaxForce(c, Z), plugin.getAxisFriction(c, Z)]).toEqual([1e9, 1e12, 1e12]);
    s.scene.dispose();

    const X = PhysicsConstraintAxis.ANGULAR_X;
    const h = joined((scene) => new HingeConstraint(pivots.pivotA, pivots.pivotB, new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene));
    h.attach();
    const hinge = h.plugin.world.joints[0] as HingeJoint;
    h.plugin.setAxisMode(h.constraint, X, PhysicsConstraintAxisLimitMode.LIMITED);
    h.plugin.setAxisMinLimit(h.constraint, X, -10);
    h.plugin.setAxisMotorType(h.constraint, X, PhysicsConstraintMotorType.VELOCITY);
    h.plugin.setAxisMotorTarget(h.constraint, X, -1e9);
    h.plugin.setAxisMotorMaxForce(h.constraint, X, 1e12);
    h.plugin.setAxisFriction(h.constraint, X, 1e12);
    expect([hinge.lowerAngle, hinge.motorSpeed, hinge.maxMotorTorque, hinge.frictionTorque]).toEqual([-Math.PI, -1000, 1e9, 1e9]);
    h.scene.dispose();

    const d = joined((scene) => new DistanceConstraint(1.5, scene));
    d.attach();
    d.plugin.setAxisMaxLimit(d.constraint, PhysicsConstraintAxis.LINEAR_DISTANCE, 5e6);
    expect((d.plugin.world.joints[0] as DistanceJoint).maxLength).toBe(1e6);
    d.scene.dispose();
  });
});

describe('FootingPlugin: a constraint footing refuses', () => {
  it('a hinge with a zero axis is refused at addConstraint and leaves nothing behind; the constraint\'s other pairs keep their joints', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, -9.81, 0));
    const a = new PhysicsAggregate(CreateBox('a', { size: 0.5 }, scene), PhysicsShapeType.BOX, { mass: 0 }, scene);
    const b = new PhysicsAggregate(CreateBox('b', { size: 0.5 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    const c = new PhysicsAggregate(CreateBox('c', { size: 0.5 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    const world = (plugin as unknown as { world: { joints: unknown[] } }).world;
    const bad = new HingeConstraint(Vector3.Zero(), Vector3.Zero(), new Vector3(0, 0, 0), new Vector3(0, 0, 0), scene);
    expect(() => a.body.addConstraint(b.body, bad)).toThrow(/localAxisA must be non-zero/);
    expect(plugin.getBodiesUsingConstraint(bad)).toEqual([]);
    expect(world.joints.length).toBe(0);
    // A constraint with one pair, then a pair its joint refuses: the first pair's joint stays.
    const ball = new BallAndSocketConstraint(Vector3.Zero(), new Vector3(0, 1, 0), new Vector3(1, 0, 0), new Vector3(1, 0, 0), scene);
    a.body.addConstraint(b.body, ball);
    const first = world.joints[0];
    expect(() => c.body.addConstraint(c.body, ball)).toThrow();
    expect(plugin.getBodiesUsingConstraint(ball).length).toBe(1);
    expect(world.joints).toEqual([first]);
    runFrames(scene, 30);
    // The ball joint holds b's pivot 1 m under a's centre.
    console.log(`refused constraints: b hangs at y ${b.transformNode.position.y.toFixed(4)}`);
    expect(b.transformNode.position.y).toBeCloseTo(-1, 2);
    scene.dispose();
  });
});
