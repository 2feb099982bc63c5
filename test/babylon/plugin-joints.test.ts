// FootingPlugin's SLIDER, PRISMATIC and SIX_DOF constraints (footing's
// SixDofJoint) in NullEngine scenes; the same scenes beside HavokPlugin are in
// plugin-vs-havok.test.ts.
import { describe, expect, it } from 'vitest';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode, PhysicsConstraintMotorType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { HingeConstraint, Physics6DoFConstraint, PrismaticConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import { HingeJoint, SixDofJoint } from '../../src/index';
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
