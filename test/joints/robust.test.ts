/**
 * Joints under hostile input (issue 16 §1): far anchors, absurd mass ratios,
 * fast spins. Nothing may go NaN or gain energy.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, World, type Joint, type Quat, type RigidBody, type Shape, type Vec3 } from '../../src/index';
import { BallJoint } from '../../src/joints/ball';
import { ConeTwistJoint } from '../../src/joints/cone-twist';
import { DistanceJoint } from '../../src/joints/distance';
import { FixedJoint } from '../../src/joints/fixed';
import { HingeJoint } from '../../src/joints/hinge';

const DT = 1 / 60;
const G = 9.81;

/** Park–Miller LCG on [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; };
}
function randomRotation(r: () => number): Quat {
  const x = r() - 0.5, y = r() - 0.5, z = r() - 0.5, w = r() - 0.5;
  const n = Math.hypot(x, y, z, w);
  return { x: x / n, y: y / n, z: z / n, w: w / n };
}
function randomVec(r: () => number, scale: number): Vec3 {
  return { x: (r() - 0.5) * 2 * scale, y: (r() - 0.5) * 2 * scale, z: (r() - 0.5) * 2 * scale };
}
function unit(v: Vec3): Vec3 {
  const n = Math.hypot(v.x, v.y, v.z);
  return { x: v.x / n, y: v.y / n, z: v.z / n };
}

function kinetic(b: RigidBody): number {
  const v = b.linearVelocity, w = b.angularVelocity, I = b.inertia, q = b.rotation;
  const wx = w.x, wy = w.y, wz = w.z;
  const tx = 2 * (-q.y * wz + q.z * wy), ty = 2 * (-q.z * wx + q.x * wz), tz = 2 * (-q.x * wy + q.y * wx);
  const lx = wx + q.w * tx + (-q.y * tz + q.z * ty);
  const ly = wy + q.w * ty + (-q.z * tx + q.x * tz);
  const lz = wz + q.w * tz + (-q.x * ty + q.y * tx);
  return 0.5 * b.mass * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5 * (I.x * lx * lx + I.y * ly * ly + I.z * lz * lz);
}
function energy(bodies: readonly RigidBody[]): number {
  let e = 0;
  for (const b of bodies) e += kinetic(b) + b.mass * G * b.position.y;
  return e;
}
function finite(bodies: readonly RigidBody[]): boolean {
  for (const b of bodies) {
    const p = b.position, v = b.linearVelocity, w = b.angularVelocity, q = b.rotation;
    if (!Number.isFinite(p.x + p.y + p.z + v.x + v.y + v.z + w.x + w.y + w.z + q.x + q.y + q.z + q.w)) return false;
  }
  return true;
}

/**
 * The plate and stick of the issue: a 2 × 0.1 × 2 m plate of 143.6 kg
 * (restitution 0.74) over a floor, a thin 0.11 kg stick, a ConeTwistJoint
 * whose anchor is 10.6 m from the plate; random poses, velocities (≤ 10 m/s
 * per axis, plate spin ≤ 10 rad/s, stick spin ≤ 30 rad/s) and limits.
 */
function plateAndStick(seed: number): { world: World; bodies: RigidBody[] } {
  const r = rng(seed);
  const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
  world.createBody({ type: 'static', shape: new Box({ x: 50, y: 0.5, z: 50 }), position: { x: 0, y: -0.5, z: 0 } });
  const plate = world.createBody({
    type: 'dynamic', shape: new Box({ x: 1, y: 0.05, z: 1 }), position: { x: 0, y: 0.05 + r() * 3, z: 0 }, rotation: randomRotation(r), mass: 143.6, restitution: 0.74,
    linearVelocity: randomVec(r, 10), angularVelocity: randomVec(r, 10),
  });
  const stickPosition = { x: (r() - 0.5) * 8, y: 1 + r() * 5, z: (r() - 0.5) * 8 };
  const stickShape = r() < 0.5 ? new Capsule(0.02 + r() * 0.05, 0.2 + r() * 1.2) : new Box({ x: 0.02, y: 0.5, z: 0.02 });
  const stick = world.createBody({
    type: 'dynamic', shape: stickShape, position: stickPosition, mass: 0.11, rotation: randomRotation(r),
    linearVelocity: randomVec(r, 10), angularVelocity: randomVec(r, 30),
  });
  const d = unit({ x: r() - 0.5, y: r() - 0.5, z: r() - 0.5 });
  const anchor = { x: d.x * 10.6, y: 0.3 + Math.abs(d.y * 10.6), z: d.z * 10.6 };
  world.addJoint(new ConeTwistJoint({
    bodyA: plate, bodyB: stick, anchor, twistAxis: unit({ x: r() - 0.5, y: r() - 0.5, z: r() - 0.5 }),
    swingLimit: 0.1 + r() * 2.5, twistLower: -r() * 3, twistUpper: r() * 3,
  }));
  return { world, bodies: [plate, stick] };
}

describe('joints under hostile input', () => {
  it('plate (143.6 kg) and stick (0.11 kg) on a cone-twist anchored 10.6 m away: finite for 20 s, energy never above the start', () => {
    // Seeds that exploded to NaN within 40 steps before the warm-start guard.
    for (const seed of [3, 7, 17, 23, 44]) {
      const { world, bodies } = plateAndStick(seed);
      const e0 = energy(bodies);
      const k0 = kinetic(bodies[0]!) + kinetic(bodies[1]!);
      let maxGain = -Infinity, ok = true;
      for (let i = 0; i < 20 * 60 && ok; i++) {
        world.step(DT);
        ok = finite(bodies);
        maxGain = Math.max(maxGain, energy(bodies) - e0);
      }
      console.log(`plate/stick seed ${seed}: finite ${ok}, max energy gain ${maxGain.toFixed(2)} J (start kinetic ${k0.toFixed(0)} J)`);
      expect(ok).toBe(true);
      expect(maxGain).toBeLessThan(0.01 * k0);
    }
  });

  it('random jointed pairs and chains (masses 0.1–1000 kg, sizes 0.05–3 m, far anchors, limits, motors): finite for 600 steps', () => {
    const SEED = 16;
    const WORLDS = 40;
    console.log(`random joints: seed ${SEED}, ${WORLDS} worlds, 600 steps each`);
    const r = rng(SEED);
    let failures = 0, gaining = 0;
    for (let w = 0; w < WORLDS; w++) {
      const world = new World({ gravity: { x: 0, y: -G, z: 0 } });
      const bodies: RigidBody[] = [];
      const count = 2 + Math.floor(r() * 5);
      const chain = r() < 0.5;
      for (let i = 0; i < count; i++) {
        const size = 0.05 + r() * 2.95;
        const k = r();
        const shape: Shape = k < 0.33 ? new Sphere(size / 2)
          : k < 0.66 ? new Box({ x: size / 2, y: (0.05 + r() * 2.95) / 2, z: (0.05 + r() * 2.95) / 2 })
            : new Capsule(Math.max(0.025, r() * size / 4), size / 2);
        bodies.push(world.createBody({
          type: 'dynamic', shape, mass: 0.1 * Math.pow(10000, r()), position: randomVec(r, 4), rotation: randomRotation(r),
          linearVelocity: randomVec(r, 5), angularVelocity: randomVec(r, 20), canSleep: false,
        }));
      }
      // An immovable root for some worlds (a static body as bodyA).
      const root = r() < 0.3 ? world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: randomVec(r, 4) }) : null;
      let motorBound = 0; // Σ maxMotorTorque·|motorSpeed|: the most power the motors can put in (W)
      const joints: Joint[] = [];
      for (let i = 0; i < count; i++) {
        const b = bodies[i]!;
        const a = i === 0 ? root : chain ? bodies[i - 1]! : bodies[Math.floor(r() * i)]!;
        if (a === null) continue;
        const anchor = { x: b.position.x + (r() - 0.5) * 10, y: b.position.y + (r() - 0.5) * 10, z: b.position.z + (r() - 0.5) * 10 };
        const axis = unit({ x: r() - 0.5, y: r() - 0.5, z: r() - 0.5 });
        const kind = Math.floor(r() * 5);
        let j: Joint;
        if (kind === 0) {
          j = new BallJoint({ bodyA: a, bodyB: b, anchor });
        } else if (kind === 1) {
          const limits = r() < 0.5;
          const motor = r() < 0.5;
          const speed = motor ? (r() - 0.5) * 20 : 0, torque = motor ? r() * 100 : 0;
          motorBound += torque * Math.abs(speed);
          j = new HingeJoint({ bodyA: a, bodyB: b, anchor, axis, ...(limits ? { lowerAngle: -r() * 3, upperAngle: r() * 3 } : {}), ...(motor ? { motorSpeed: speed, maxMotorTorque: torque } : {}) });
        } else if (kind === 2) {
          j = new ConeTwistJoint({ bodyA: a, bodyB: b, anchor, twistAxis: axis, swingLimit: 0.05 + r() * 3, twistLower: -r() * 3, twistUpper: r() * 3 });
        } else if (kind === 3) {
          j = new FixedJoint({ bodyA: a, bodyB: b, anchor });
        } else {
          j = new DistanceJoint({ bodyA: a, bodyB: b, anchorA: anchor, anchorB: b.position, frequency: 0 });
        }
        world.addJoint(j);
        joints.push(j);
      }
      let e0 = energy(bodies), maxKinetic = 0;
      for (const b of bodies) maxKinetic += kinetic(b);
      let ok = true, worst = -Infinity, worstBound = 0, nonFinite = false;
      for (let i = 0; i < 600 && ok; i++) {
        world.step(DT);
        ok = finite(bodies);
        nonFinite ||= !ok;
        // The first step removes the start's joint errors and the velocities the joints forbid.
        if (i === 0) { e0 = energy(bodies); continue; }
        let ke = 0;
        for (const b of bodies) ke += kinetic(b);
        maxKinetic = Math.max(maxKinetic, ke);
        const gain = energy(bodies) - e0 - motorBound * (i * DT);
        const bound = 0.01 * maxKinetic + 1e-6;
        if (gain - bound > worst - worstBound) { worst = gain; worstBound = bound; }
      }
      if (nonFinite) failures++;
      if (!ok || worst > worstBound) {
        gaining++;
        console.log(`  world ${w}: ${count} bodies (${chain ? 'chain' : 'tree'}), ${joints.map((j) => j.kind).join(',')}: finite ${ok}, worst gain ${worst.toExponential(2)} J over bound ${worstBound.toExponential(2)} J`);
      }
    }
    // Energy growth above the bound is reported, not asserted: see docs/joints.md.
    console.log(`random joints: ${failures} of ${WORLDS} worlds not finite; ${gaining} gained more than 1 % of their largest kinetic energy`);
    expect(failures).toBe(0);
  });
});
