/**
 * The fuzz peers (test/fuzz/peers.ts) build --new-shapes compound bodies where
 * footing does: at the parts' centre of mass with footing's principal axes,
 * with the mass footing gives them and, in that frame, the same principal
 * inertia (the engines compute it themselves from the parts).
 */
import { describe, expect, it } from 'vitest';
import { BODY_STRIDE, buildFooting } from './engines';
import { generateWorld, type BodySpec, type FuzzWorldSpec, type JointSpec } from './generator';
import { buildJolt, buildRapier } from './peers';
import { inverseRotate, multiplyConjugateA, quat, type Quat } from '../../src/math/quat';
import type { Vec3 } from '../../src/math/vec3';

const SEED = 5;

describe('fuzz peers with compound bodies', () => {
  it('Rapier and Jolt place each compound at footing\'s body pose, with its mass and inertia', async () => {
    console.log(`[fuzz peers compound] seed=${SEED}`);
    const spec = generateWorld(SEED, { joints: false, newShapes: true });
    const compounds: number[] = [];
    spec.bodies.forEach((b, i) => { if (b.shape.kind === 'compound') compounds.push(i); });
    expect(compounds.length).toBeGreaterThan(3);
    const footing = buildFooting(spec);
    const ref = new Float64Array(BODY_STRIDE * spec.bodies.length);
    footing.readBodies(ref);
    for (const build of [buildRapier, buildJolt]) {
      const peer = await build(spec);
      const st = new Float64Array(BODY_STRIDE * spec.bodies.length);
      peer.readBodies(st);
      let pose = 0, rot = 0, mass = 0, inertia = 0;
      for (const i of compounds) {
        const o = BODY_STRIDE * i;
        pose = Math.max(pose, Math.hypot(st[o]! - ref[o]!, st[o + 1]! - ref[o + 1]!, st[o + 2]! - ref[o + 2]!));
        // |q_peer · q_footing| = 1 for the same rotation (either sign).
        let dot = 0;
        for (let k = 3; k < 7; k++) dot += st[o + k]! * ref[o + k]!;
        rot = Math.max(rot, 1 - Math.abs(dot));
        mass = Math.max(mass, Math.abs(peer.masses[i]! / footing.masses[i]! - 1));
        for (let k = 0; k < 3; k++) inertia = Math.max(inertia, Math.abs(peer.inertia[3 * i + k]! / footing.inertia[3 * i + k]! - 1));
      }
      console.log(`[fuzz peers compound] ${peer.engine}: ${compounds.length} compounds, worst position ${pose.toExponential(2)} m, 1 − |q·q| ${rot.toExponential(2)}, mass ${(100 * mass).toFixed(3)} %, principal inertia ${(100 * inertia).toFixed(2)} %`);
      peer.dispose();
      // Rapier holds poses in single precision.
      expect(pose).toBeLessThan(1e-4);
      expect(rot).toBeLessThan(1e-6);
      expect(mass).toBeLessThan(1e-4);
      // Jolt rounds boxes and cylinders by its convex radius and Rapier builds its own hulls: a few percent.
      expect(inertia).toBeLessThan(0.1);
    }
    footing.dispose();
  });
});

describe('fuzz peers with joints', () => {
  // One pair per joint kind, high above the ground, at rest and turned
  // differently, each joint built at the start poses with no motor. Both
  // bodies fall together, so a joint that starts without error never acts:
  // any relative motion means the peer built the joint's frames wrong.
  const kinds = ['ball', 'hinge', 'coneTwist', 'fixed', 'distance', 'slider', 'sixDof'] as const;
  const turn = (x: number, y: number, z: number, w: number) => { const l = Math.hypot(x, y, z, w); return { x: x / l, y: y / l, z: z / l, w: w / l }; };
  const zero = { x: 0, y: 0, z: 0 };
  function jointSpec(): FuzzWorldSpec {
    const base = generateWorld(SEED, { joints: false });
    const bodies: BodySpec[] = [];
    const joints: JointSpec[] = [];
    kinds.forEach((kind, k) => {
      const pa = { x: 8 * k - 24, y: 60, z: 0 }, pb = { x: 8 * k - 23.2, y: 60.5, z: 0.3 };
      bodies.push({ shape: { kind: 'box', halfExtents: { x: 0.3, y: 0.2, z: 0.1 } }, mass: 5, position: pa, rotation: turn(0.3, -0.2, 0.5, 0.8), linearVelocity: zero, angularVelocity: zero, friction: 0.5, restitution: 0, thin: false });
      bodies.push({ shape: { kind: 'capsule', radius: 0.1, halfHeight: 0.3 }, mass: 2, position: pb, rotation: turn(-0.6, 0.1, 0.2, 0.7), linearVelocity: zero, angularVelocity: zero, friction: 0.5, restitution: 0, thin: false });
      const anchor = { x: 0.5 * (pa.x + pb.x), y: 0.5 * (pa.y + pb.y), z: 0.5 * (pa.z + pb.z) };
      const axis = { x: 0.48, y: 0.6, z: 0.64 };
      const common = { kind, a: 2 * k, b: 2 * k + 1, pair: 'random' as const, anchor, axis, frictionTorque: 0, collideConnected: false };
      const lockedOrLimited = (i: number) => ({ mode: i % 2 === 0 ? 'locked' as const : 'limited' as const, min: i % 2 === 0 ? 0 : -0.4, max: i % 2 === 0 ? 0 : 0.4, limitHertz: 0, motorSpeed: 0, maxMotorForce: 0, friction: 0 });
      switch (kind) {
        case 'hinge': joints.push({ ...common, lowerAngle: -0.5, upperAngle: 0.5 }); break;
        case 'coneTwist': joints.push({ ...common, swingLimit: 0.5, twistLower: -0.5, twistUpper: 0.5 }); break;
        case 'slider': joints.push({ ...common, lowerLimit: -0.5, upperLimit: 0.5 }); break;
        case 'sixDof': joints.push({ ...common, axes: [0, 1, 2, 3, 4, 5].map(lockedOrLimited), swingType: 'pyramid' }); break;
        case 'distance': joints.push({ ...common, anchor: pa, anchorB: pb }); break;
        default: joints.push(common);
      }
    });
    return { ...base, bodies, jointSpecs: joints, characters: [], cloth: null, rope: null };
  }

  it('Rapier and Jolt build every joint kind without error at the start poses: a falling pair does not move relative to itself', async () => {
    const spec = jointSpec();
    const n = spec.bodies.length;
    for (const build of [buildRapier, buildJolt]) {
      const peer = await build(spec);
      const start = new Float64Array(BODY_STRIDE * n), now = new Float64Array(BODY_STRIDE * n);
      peer.readBodies(start);
      for (let s = 0; s < 30; s++) peer.step(s);
      peer.readBodies(now);
      peer.dispose();
      const worst: string[] = [];
      let worstGap = 0, worstTurn = 0;
      kinds.forEach((kind, k) => {
        const rel = (st: Float64Array) => relativePose(st, 2 * k, 2 * k + 1);
        const r0 = rel(start), r1 = rel(now);
        const gap = Math.hypot(r1.p.x - r0.p.x, r1.p.y - r0.p.y, r1.p.z - r0.p.z);
        const d = multiplyConjugateA(quat(), r0.q, r1.q);
        const angle = 2 * Math.atan2(Math.hypot(d.x, d.y, d.z), Math.abs(d.w));
        worst.push(`${kind} ${gap.toExponential(1)} m ${angle.toExponential(1)} rad`);
        worstGap = Math.max(worstGap, gap); worstTurn = Math.max(worstTurn, angle);
      });
      console.log(`[fuzz peers joints] ${peer.engine}: relative motion after 30 steps: ${worst.join(', ')}`);
      // Rapier holds poses in single precision.
      expect(worstGap).toBeLessThan(1e-5);
      expect(worstTurn).toBeLessThan(1e-4);
    }
  });
});

/** B's pose in A's frame, from a readBodies array. */
function relativePose(st: Float64Array, a: number, b: number): { p: Vec3; q: Quat } {
  const oa = BODY_STRIDE * a, ob = BODY_STRIDE * b;
  const qa = quat(st[oa + 3]!, st[oa + 4]!, st[oa + 5]!, st[oa + 6]!);
  const qb = quat(st[ob + 3]!, st[ob + 4]!, st[ob + 5]!, st[ob + 6]!);
  const d = { x: st[ob]! - st[oa]!, y: st[ob + 1]! - st[oa + 1]!, z: st[ob + 2]! - st[oa + 2]! };
  return { p: inverseRotate({ x: 0, y: 0, z: 0 }, qa, d), q: multiplyConjugateA(quat(), qa, qb) };
}
