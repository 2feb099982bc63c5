/**
 * SliderJoint and the hinge's position motor. 60 Hz, default solver
 * settings ('soft', 4 sub-steps). Tolerances per test.
 */
import { describe, expect, it } from 'vitest';
import { Box, HingeJoint, SliderJoint, Sphere, World } from '../../src/index';

const DT = 1 / 60;
const G = 9.81;

function scene(gravity = -G) {
  const world = new World({ gravity: { x: 0, y: gravity, z: 0 } });
  const base = world.createBody({ type: 'static', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0, y: 2, z: 0 } });
  const piston = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0.5, y: 2, z: 0 }, mass: 10, canSleep: false, linearDamping: 0, angularDamping: 0 });
  return { world, base, piston };
}

describe('SliderJoint', () => {
  it('a piston driven by its motor reaches the target speed within 1 % and stops at its limit within 1 mm', () => {
    const { world, base, piston } = scene();
    const joint = new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 1, y: 0, z: 0 }, lowerLimit: 0, upperLimit: 1.5, motorSpeed: 2, maxMotorForce: 2000 });
    world.addJoint(joint);
    let speedAt = -1;
    for (let i = 0; i < 30; i++) world.step(DT); // 0.5 s: 1 m travelled at most
    speedAt = piston.linearVelocity.x;
    const drift = Math.hypot(piston.position.y - 2, piston.position.z);
    console.log(`piston speed after 0.5 s ${speedAt.toFixed(5)} m/s (target 2), position ${joint.position.toFixed(4)} m, off-axis drift ${(drift * 1000).toFixed(3)} mm`);
    expect(Math.abs(speedAt - 2) / 2).toBeLessThan(0.01);
    expect(drift).toBeLessThan(0.001);
    let maxPos = -Infinity;
    for (let i = 0; i < 120; i++) {
      world.step(DT);
      maxPos = Math.max(maxPos, joint.position);
    }
    console.log(`piston at the limit: ${joint.position.toFixed(5)} m, max ${maxPos.toFixed(5)} m (limit 1.5), speed ${piston.linearVelocity.x.toExponential(2)}`);
    expect(Math.abs(joint.position - 1.5)).toBeLessThan(0.001);
    expect(maxPos - 1.5).toBeLessThan(0.001);
    expect(Math.abs(piston.linearVelocity.x)).toBeLessThan(0.01);
    // Motor and limit cancel along the axis; what remains holds the weight.
    expect(joint.impulse).toBeCloseTo(10 * G * DT, 3);
  });

  it('a motor bounded by its force accelerates at F/m', () => {
    const { world, base, piston } = scene(0);
    world.addJoint(new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 1, y: 0, z: 0 }, motorSpeed: 100, maxMotorForce: 50 }));
    for (let i = 0; i < 60; i++) world.step(DT);
    // 50 N on 10 kg for 1 s: 5 m/s.
    expect(piston.linearVelocity.x).toBeCloseTo(5, 3);
  });

  it('position mode: reaches its target within 1 mm and holds it; a vertical servo sags by g/ω²', () => {
    const { world, base, piston } = scene();
    const joint = new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 1, y: 0, z: 0 }, motorMode: 'position', targetPosition: 0.7, maxMotorForce: 1000, motorHertz: 4 });
    world.addJoint(joint);
    for (let i = 0; i < 120; i++) world.step(DT);
    const reached = joint.position;
    let worst = 0;
    for (let i = 0; i < 120; i++) { world.step(DT); worst = Math.max(worst, Math.abs(joint.position - 0.7)); }
    console.log(`servo slider: ${reached.toFixed(5)} m after 2 s (target 0.7), worst over the next 2 s ${(worst * 1000).toFixed(3)} mm`);
    expect(Math.abs(reached - 0.7)).toBeLessThan(0.001);
    expect(worst).toBeLessThan(0.001);

    // Vertical: the drive is a spring of stiffness m ω², so it holds the weight g/ω² below the target.
    const v = scene();
    const vj = new SliderJoint({ bodyA: v.base, bodyB: v.piston, axis: { x: 0, y: 1, z: 0 }, motorMode: 'position', targetPosition: 0.3, maxMotorForce: 1000, motorHertz: 4 });
    v.world.addJoint(vj);
    for (let i = 0; i < 240; i++) v.world.step(DT);
    const sag = 0.3 - vj.position;
    const omega = 2 * Math.PI * 4;
    console.log(`vertical servo sag ${(sag * 1000).toFixed(3)} mm, g/ω² ${(G / omega / omega * 1000).toFixed(3)} mm`);
    expect(Math.abs(sag - G / (omega * omega)) / (G / (omega * omega))).toBeLessThan(0.02);
  });

  it('friction holds a load below the friction force and lets a larger one slide', () => {
    const { world, base, piston } = scene();
    // Vertical axis: the weight 98.1 N against 120 N of friction.
    const joint = new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 0, y: 1, z: 0 }, frictionForce: 120 });
    world.addJoint(joint);
    for (let i = 0; i < 60; i++) world.step(DT);
    expect(Math.abs(joint.position)).toBeLessThan(1e-3);
    joint.frictionForce = 60;
    for (let i = 0; i < 60; i++) world.step(DT);
    // Net 38.1 N down on 10 kg for 1 s: v = 3.81 m/s.
    expect(piston.linearVelocity.y).toBeCloseTo(-3.81, 2);
  });

  it('validates its fields by name', () => {
    const { base, piston } = scene();
    const j = new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 1, y: 0, z: 0 } });
    expect(() => new SliderJoint({ bodyA: base, bodyB: piston })).toThrow(/axis/);
    expect(() => new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: NaN, y: 0, z: 0 } })).toThrow(/axis/);
    expect(() => new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 1, y: 0, z: 0 }, lowerLimit: 1, upperLimit: 0 })).toThrow(/lowerLimit/);
    expect(() => (j.lowerLimit = NaN)).toThrow(/SliderJoint.lowerLimit/);
    expect(() => (j.upperLimit = -Infinity)).toThrow(/SliderJoint.upperLimit/);
    expect(() => (j.maxMotorForce = -1)).toThrow(/maxMotorForce/);
    expect(() => (j.motorSpeed = Infinity)).toThrow(/motorSpeed/);
    expect(() => (j.targetPosition = NaN)).toThrow(/SliderJoint.targetPosition/);
    expect(() => (j.frictionForce = -2)).toThrow(/SliderJoint.frictionForce/);
    expect(() => (j.motorHertz = 0)).toThrow(/motorHertz/);
    expect(() => (j.motorMode = 'spin' as never)).toThrow(/motorMode/);
    expect(() => (j.breakImpulse = 0)).toThrow(/breakImpulse/);
    // A failed write changes nothing.
    j.setLimits(-1, 2);
    expect(() => (j.upperLimit = -3)).toThrow();
    expect(j.lowerLimit).toBe(-1);
    expect(j.upperLimit).toBe(2);
  });

  it('breaks when its impulse exceeds breakImpulse', () => {
    const { world, base, piston } = scene();
    // The weight (98.1 N) needs 1.6 N·s per step across the axis.
    const joint = new SliderJoint({ bodyA: base, bodyB: piston, axis: { x: 1, y: 0, z: 0 }, breakImpulse: 1 });
    world.addJoint(joint);
    for (let i = 0; i < 5; i++) world.step(DT);
    expect(joint.broken).toBe(true);
    const strong = scene();
    const j2 = new SliderJoint({ bodyA: strong.base, bodyB: strong.piston, axis: { x: 1, y: 0, z: 0 }, breakImpulse: 2 });
    strong.world.addJoint(j2);
    for (let i = 0; i < 60; i++) strong.world.step(DT);
    expect(j2.broken).toBe(false);
    expect(j2.impulse).toBeCloseTo(10 * G * DT, 2);
  });
});

describe('HingeJoint position motor', () => {
  it('drives to targetAngle within 0.5° and holds it', () => {
    const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
    const base = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 1, z: 0 } });
    const door = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.8, z: 0.05 }), position: { x: 0.5, y: 1, z: 0 }, mass: 20, canSleep: false });
    // Vertical axis: the door swings without a gravity torque.
    const hinge = new HingeJoint({ bodyA: base, bodyB: door, anchor: { x: 0, y: 1, z: 0 }, axis: { x: 0, y: 1, z: 0 }, motorMode: 'position', targetAngle: 1.2, maxMotorTorque: 200 });
    world.addJoint(hinge);
    for (let i = 0; i < 120; i++) world.step(DT);
    const reached = hinge.angle;
    let worst = 0;
    for (let i = 0; i < 120; i++) { world.step(DT); worst = Math.max(worst, Math.abs(hinge.angle - 1.2)); }
    console.log(`servo hinge ${reached.toFixed(5)} rad after 2 s (target 1.2), worst over the next 2 s ${worst.toExponential(2)} rad`);
    expect(Math.abs(reached - 1.2)).toBeLessThan(0.5 * Math.PI / 180);
    expect(worst).toBeLessThan(0.5 * Math.PI / 180);
    // A new target across ±π goes the short way round.
    hinge.targetAngle = -2.9;
    hinge.setLimits(-Infinity, Infinity);
    for (let i = 0; i < 240; i++) world.step(DT);
    expect(Math.abs(hinge.angle + 2.9)).toBeLessThan(0.5 * Math.PI / 180);
    expect(() => (hinge.targetAngle = 4)).toThrow(/HingeJoint.targetAngle/);
    expect(() => (hinge.motorMode = 'x' as never)).toThrow(/HingeJoint.motorMode/);
    expect(() => (hinge.motorHertz = -1)).toThrow(/HingeJoint.motorHertz/);
  });

  it('a bounded servo torque only turns the door at τ/I', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const base = world.createBody({ type: 'static', shape: new Sphere(0.1), position: { x: 0, y: 0, z: 0 } });
    const wheel = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 0, z: 0 }, mass: 10, canSleep: false, angularDamping: 0 });
    const hinge = new HingeJoint({ bodyA: base, bodyB: wheel, axis: { x: 0, y: 1, z: 0 }, motorMode: 'position', targetAngle: 3, maxMotorTorque: 1 });
    world.addJoint(hinge);
    world.step(DT);
    // I = 2/5 m r² = 1 kg m²: 1 N·m gives 1 rad/s² (the spring asks for far more).
    expect(wheel.angularVelocity.y).toBeCloseTo(DT, 6);
  });
});
