/**
 * Hinge joint: a door (1 m × 2 m × 0.1 m, 20 kg) on a vertical hinge at its
 * edge, fixed to a static frame. 60 Hz, default settings ('soft').
 * - limit: pushed past its upper limit (60°) by a constant 200 N at the free
 *   edge for 2 s: the angle never exceeds the limit by more than 1° and rests
 *   within 1° of it;
 * - motor: 2 rad/s with 100 N·m: the door turns at the target speed within 2 %
 *   after 1 s (steady state, the motor torque bound is not reached);
 * - the point and axis stay held (anchor separation < 5 mm while slamming into
 *   the limit, < 1 mm under the motor; door axis tilt < 0.5°).
 */
import { describe, expect, it } from 'vitest';
import { Box, World } from '../../src/index';
import { HingeJoint } from '../../src/joints/hinge';
import { addJoint } from './harness';

const DT = 1 / 60;
const DEG = Math.PI / 180;

function door(options: { lowerAngle?: number; upperAngle?: number; motorSpeed?: number; maxMotorTorque?: number }) {
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  const frame = world.createBody({ type: 'static', shape: new Box({ x: 0.05, y: 1, z: 0.05 }), position: { x: -0.1, y: 1, z: 0 } });
  const slab = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 1, z: 0.05 }), position: { x: 0.5, y: 1.05, z: 0 }, mass: 20, canSleep: false });
  const hinge = addJoint(world, new HingeJoint({ bodyA: frame, bodyB: slab, anchor: { x: 0, y: 1.05, z: 0 }, axis: { x: 0, y: 1, z: 0 }, ...options })) as HingeJoint;
  return { world, slab, hinge };
}

describe('hinge joint', () => {
  it('stops a door pushed past its limit within 1° of the limit', () => {
    const limit = 60 * DEG;
    const { world, slab, hinge } = door({ lowerAngle: -limit, upperAngle: limit });
    let maxAngle = -Infinity;
    let maxSep = 0;
    const force = { x: 0, y: 0, z: 0 };
    const point = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < 120; i++) {
      // Push on the free edge, always perpendicular to the door, opening it (+angle about +Y moves the edge to −Z).
      const q = slab.rotation;
      const ex = 1 - 2 * (q.y * q.y + q.z * q.z), ez = 2 * (q.x * q.z - q.w * q.y); // door's local X in world
      point.x = slab.position.x + 0.5 * ex; point.y = slab.position.y; point.z = slab.position.z + 0.5 * ez;
      force.x = 200 * ez; force.z = -200 * ex; // ⊥ to the door, turning it +Y
      slab.applyForce(force, point);
      world.step(DT);
      maxAngle = Math.max(maxAngle, hinge.angle);
      maxSep = Math.max(maxSep, hinge.separation);
    }
    const finalAngle = hinge.angle;
    console.log(`hinge limit: max ${(maxAngle / DEG).toFixed(3)}°, final ${(finalAngle / DEG).toFixed(3)}°, limit 60°, max separation ${(maxSep * 1000).toFixed(3)} mm`);
    expect(maxAngle).toBeGreaterThan(limit - 1 * DEG);
    expect(maxAngle).toBeLessThan(limit + 1 * DEG);
    expect(Math.abs(finalAngle - limit)).toBeLessThan(1 * DEG);
    expect(maxSep).toBeLessThan(0.005);
  });

  it('motor reaches its target speed within 2 %', () => {
    const { world, slab, hinge } = door({ motorSpeed: 2, maxMotorTorque: 100 });
    for (let i = 0; i < 60; i++) world.step(DT);
    const speed = slab.angularVelocity.y;
    const q = slab.rotation;
    const tilt = Math.acos(Math.min(1, 1 - 2 * (q.x * q.x + q.z * q.z)));
    console.log(`hinge motor: ω = ${speed.toFixed(4)} rad/s (target 2), angle ${hinge.angle.toFixed(3)} rad, axis tilt ${(tilt / DEG).toFixed(4)}°, separation ${(hinge.separation * 1000).toFixed(3)} mm`);
    expect(Math.abs(speed - 2) / 2).toBeLessThan(0.02);
    expect(tilt).toBeLessThan(0.5 * DEG);
    expect(hinge.separation).toBeLessThan(0.001);
  });

  it('motor torque is bounded by maxMotorTorque', () => {
    // 1 N·m against the door's inertia about the hinge, I = m (w² + t²)/3 ≈ 6.68 kg·m²: ω(1 s) = τ t / I.
    const { world, slab } = door({ motorSpeed: 10, maxMotorTorque: 1 });
    for (let i = 0; i < 60; i++) world.step(DT);
    const I = (20 * (1 * 1 + 0.1 * 0.1)) / 3;
    const expected = 1 / I;
    console.log(`hinge weak motor: ω = ${slab.angularVelocity.y.toFixed(4)} rad/s, expected ≤ ${expected.toFixed(4)}`);
    expect(slab.angularVelocity.y).toBeLessThan(expected * 1.02);
    expect(slab.angularVelocity.y).toBeGreaterThan(expected * 0.9);
  });
});
