// Materials (static friction, combine modes), inertia overrides and
// startAsleep through Babylon's Physics V2 API, on HavokPlugin and on
// FootingPlugin side by side. Frames of 1/60 s.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import HavokPhysics from '@babylonjs/havok';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import type { IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsMotionType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { PhysicsShapeBox } from '@babylonjs/core/Physics/v2/physicsShape';
import { PhysicsMaterialCombineMode } from '@babylonjs/core/Physics/v2/physicsMaterial';
import { FootingPlugin } from '../../src/babylon/index';
import { ground, physicsScene, runFrames } from './plugin-scenes';
import { rotationMatrix } from '../helpers/rotation';

const require = createRequire(import.meta.url);
const wasmFile = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
const havok = await HavokPhysics({ wasmBinary: wasmFile.buffer.slice(wasmFile.byteOffset, wasmFile.byteOffset + wasmFile.byteLength) as ArrayBuffer });
const engines: [string, () => IPhysicsEnginePluginV2][] = [['havok', () => new HavokPlugin(true, havok)], ['footing', () => new FootingPlugin()]];

/** A 1 m box at rest on a static slope of `angle` rad for 2 s (same material on both); how far it moved. */
function slope(plugin: IPhysicsEnginePluginV2, angle: number, friction: number, staticFriction: number): number {
  const scene = physicsScene(plugin);
  const q = Quaternion.RotationAxis(new Vector3(0, 0, 1), angle);
  const g = CreateBox('slope', { width: 100, height: 1, depth: 20 }, scene);
  g.rotationQuaternion = q;
  g.position = new Vector3(0, -0.5, 0).applyRotationQuaternion(q);
  new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, scene).shape.material = { friction, staticFriction, restitution: 0 };
  const m = CreateBox('box', { size: 1 }, scene);
  m.rotationQuaternion = q.clone();
  m.position = new Vector3(0, 0.5, 0).applyRotationQuaternion(q);
  new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, scene).shape.material = { friction, staticFriction, restitution: 0 };
  const start = m.position.clone();
  runFrames(scene, 120);
  const moved = Vector3.Distance(start, m.position);
  scene.dispose();
  return moved;
}

/** A 1 m box (μ 0.2, combine ca) pushed to 8 m/s on a ground (μ 0.8, combine cb); μ from its deceleration over 0.2 s. */
function slidingMu(plugin: IPhysicsEnginePluginV2, ca: PhysicsMaterialCombineMode, cb: PhysicsMaterialCombineMode): number {
  const scene = physicsScene(plugin);
  const g = CreateBox('g', { width: 100, height: 1, depth: 20 }, scene);
  g.position.y = -0.5;
  new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, scene).shape.material = { friction: 0.8, frictionCombine: cb, restitution: 0 };
  const m = CreateBox('b', { size: 1 }, scene);
  m.position.y = 0.5;
  const a = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, scene);
  a.shape.material = { friction: 0.2, frictionCombine: ca, restitution: 0 };
  runFrames(scene, 5);
  a.body.setLinearVelocity(new Vector3(8, 0, 0));
  runFrames(scene, 1);
  const v0 = a.body.getLinearVelocity().x;
  runFrames(scene, 12);
  const mu = (v0 - a.body.getLinearVelocity().x) / 0.2 / 9.81;
  scene.dispose();
  return mu;
}

/** A 2 kg box in zero gravity given inertia (1, 2, 3) per unit mass at `orientation`, a torque of 1 N·m about world Z for 0.5 s; its spin rate. */
function spinUp(plugin: IPhysicsEnginePluginV2, orientation?: Quaternion): number {
  const scene = physicsScene(plugin, Vector3.Zero());
  const m = CreateBox('b', { size: 1 }, scene);
  const a = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 2 }, scene);
  a.body.setAngularDamping(0);
  a.body.setMassProperties({ mass: 2, inertia: new Vector3(1, 2, 3), inertiaOrientation: orientation ?? Quaternion.Identity() });
  for (let i = 0; i < 30; i++) {
    // 1 N·m about world Z as a couple of forces 2 m apart (PhysicsBody.applyTorque is newer than Babylon 8.0).
    const c = m.getAbsolutePosition();
    a.body.applyForce(new Vector3(-0.5, 0, 0), c.add(new Vector3(0, 1, 0)));
    a.body.applyForce(new Vector3(0.5, 0, 0), c.add(new Vector3(0, -1, 0)));
    runFrames(scene, 1);
  }
  const w = a.body.getAngularVelocity().z;
  scene.dispose();
  return w;
}

describe('materials, inertia and startAsleep beside HavokPlugin', () => {
  it('static friction 0.8 holds a box on a 0.6 rad slope that friction 0.3 alone lets it slide down', () => {
    const rows = engines.map(([name, make]) => ({ name, held: slope(make(), 0.6, 0.3, 0.8), slid: slope(make(), 0.6, 0.3, 0.3) }));
    console.log(`slope 0.6 rad (tan 0.684): ${rows.map((r) => `${r.name} μ 0.3 μs 0.8 moved ${r.held.toExponential(2)} m, μs 0.3 moved ${r.slid.toFixed(3)} m`).join('; ')}`);
    for (const r of rows) {
      expect(r.held).toBeLessThan(3e-3);
      expect(r.slid).toBeGreaterThan(3);
    }
    // Sliding 2 s at g (sin θ − μ cos θ): ½ a t² = 6.24 m.
    expect(Math.abs(rows[1]!.slid - rows[0]!.slid) / rows[0]!.slid).toBeLessThan(0.03);
  });

  it('friction combine modes mix as on Havok (the mode later in GEOMETRIC_MEAN < MINIMUM < MAXIMUM < ARITHMETIC_MEAN < MULTIPLY wins)', () => {
    const C = PhysicsMaterialCombineMode;
    const cases: [PhysicsMaterialCombineMode, PhysicsMaterialCombineMode, number][] = [
      [C.MINIMUM, C.MINIMUM, 0.2], [C.GEOMETRIC_MEAN, C.GEOMETRIC_MEAN, 0.4], [C.MINIMUM, C.MAXIMUM, 0.8],
      [C.ARITHMETIC_MEAN, C.MAXIMUM, 0.5], [C.MULTIPLY, C.MINIMUM, 0.16], [C.GEOMETRIC_MEAN, C.MINIMUM, 0.2],
    ];
    for (const [ca, cb, expected] of cases) {
      const h = slidingMu(engines[0]![1](), ca, cb), f = slidingMu(engines[1]![1](), ca, cb);
      console.log(`combine ${C[ca]} × ${C[cb]}: havok μ ${h.toFixed(4)}, footing ${f.toFixed(4)}, expected ${expected}`);
      expect(Math.abs(h - expected)).toBeLessThan(0.01);
      expect(Math.abs(f - expected)).toBeLessThan(0.01);
    }
  });

  it('setMassProperties inertia (1, 2, 3) per unit mass, on 2 kg, spins a box up as I⁻¹ τ: about Z at 1/6 rad/s², and at ¼ rad/s² with the axes turned 90° about X', () => {
    const turned = Quaternion.RotationAxis(new Vector3(1, 0, 0), Math.PI / 2);
    const rows = engines.map(([name, make]) => ({ name, plain: spinUp(make()), turned: spinUp(make(), turned) }));
    // Havok's inertia is per unit mass (the body's moments are 2, 4, 6 kg·m²); footing's plugin used to take it as the moments themselves.
    console.log(`spin-up after 0.5 s of 1 N·m: ${rows.map((r) => `${r.name} ${r.plain.toFixed(5)} rad/s, turned ${r.turned.toFixed(5)}`).join('; ')}; I⁻¹τt = ${(0.5 / 6).toFixed(5)}, ${(0.5 / 4).toFixed(5)}`);
    for (const r of rows) {
      expect(Math.abs(r.plain - 0.5 / 6)).toBeLessThan(0.003);
      expect(Math.abs(r.turned - 0.5 / 4)).toBeLessThan(0.003);
    }
    const scene = physicsScene(new FootingPlugin());
    const a = new PhysicsAggregate(CreateBox('b', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    expect(() => a.body.setMassProperties({ mass: 1, inertia: new Vector3(1, -1, 1) })).toThrow(/inertia\.y/);
    // The refused change leaves the body as it was.
    expect(a.body.getMassProperties().inertia!.y).toBeCloseTo(1 / 6, 9);
    scene.dispose();
  });

  it('a PhysicsBody created with startsAsleep hangs in the air until something touches it', () => {
    const run = (plugin: IPhysicsEnginePluginV2): { before: number; after: number } => {
      const scene = physicsScene(plugin);
      ground(scene);
      const m = CreateBox('sleeper', { size: 1 }, scene);
      m.position.y = 3;
      const body = new PhysicsBody(m, PhysicsMotionType.DYNAMIC, true, scene);
      body.shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene);
      body.setMassProperties({ mass: 1 });
      runFrames(scene, 60);
      const before = m.position.y;
      const ball = CreateBox('ball', { size: 0.4 }, scene);
      ball.position.y = 4;
      new PhysicsAggregate(ball, PhysicsShapeType.BOX, { mass: 1 }, scene);
      runFrames(scene, 150);
      const after = m.position.y;
      scene.dispose();
      return { before, after };
    };
    const h = run(engines[0]![1]()), f = run(engines[1]![1]());
    console.log(`startsAsleep: havok y ${h.before.toFixed(4)} after 1 s, ${h.after.toFixed(4)} once hit; footing ${f.before.toFixed(4)}, ${f.after.toFixed(4)}`);
    expect(h.before).toBeCloseTo(3, 6);
    expect(f.before).toBe(3);
    expect(Math.abs(h.after - 0.5)).toBeLessThan(0.02);
    expect(Math.abs(f.after - 0.5)).toBeLessThan(0.01);
  });
});

describe('a turned inertia (inertia + inertiaOrientation) on FootingPlugin', () => {
  // Three distinct moments along axes turned about a slanted axis: the tensor
  // has off-diagonal terms in the node's frame, which footing keeps exactly
  // (BodyDesc.inertiaRotation).
  const MOMENTS = new Vector3(0.5, 1.3, 2.1);
  const ORIENTATION = Quaternion.RotationAxis(new Vector3(1, 2, -0.5).normalize(), 0.9);
  /** The world tensor R diag(I) Rᵀ for principal axes at rotation q. */
  const tensor = (q: Quaternion): number[][] => {
    const r = rotationMatrix(q), d = [MOMENTS.x, MOMENTS.y, MOMENTS.z];
    return [0, 1, 2].map((i) => [0, 1, 2].map((j) => r[i]![0]! * d[0]! * r[j]![0]! + r[i]![1]! * d[1]! * r[j]![1]! + r[i]![2]! * d[2]! * r[j]![2]!));
  };
  /** A 1 m box body in zero gravity, its shape turned in the node by `shapeRotation` (footing's offset rotation). */
  function turnedBody(shapeRotation: Quaternion): { scene: ReturnType<typeof physicsScene>; body: PhysicsBody; node: ReturnType<typeof CreateBox> } {
    const scene = physicsScene(new FootingPlugin(), Vector3.Zero());
    const node = CreateBox('b', { width: 0.6, height: 0.4, depth: 0.2 }, scene);
    node.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0.3, -1, 0.2).normalize(), 0.7);
    const body = new PhysicsBody(node, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = new PhysicsShapeBox(Vector3.Zero(), shapeRotation, new Vector3(0.6, 0.4, 0.2), scene);
    body.setAngularDamping(0);
    body.setMassProperties({ mass: 2, inertia: MOMENTS, inertiaOrientation: ORIENTATION });
    return { scene, body, node };
  }

  it('getMassProperties returns the mass, inertia and inertiaOrientation that were set (within 1e-9), also through a turned shape', () => {
    for (const shapeRotation of [Quaternion.Identity(), Quaternion.RotationAxis(new Vector3(0, 1, 1).normalize(), 0.4)]) {
      const { scene, body } = turnedBody(shapeRotation);
      const m = body.getMassProperties();
      const io = m.inertiaOrientation!;
      const sign = Math.sign(io.x * ORIENTATION.x + io.y * ORIENTATION.y + io.z * ORIENTATION.z + io.w * ORIENTATION.w);
      const err = Math.max(
        Math.abs(m.mass! - 2), Math.abs(m.inertia!.x - MOMENTS.x), Math.abs(m.inertia!.y - MOMENTS.y), Math.abs(m.inertia!.z - MOMENTS.z),
        Math.abs(sign * io.x - ORIENTATION.x), Math.abs(sign * io.y - ORIENTATION.y), Math.abs(sign * io.z - ORIENTATION.z), Math.abs(sign * io.w - ORIENTATION.w),
      );
      console.log(`mass properties round trip (shape turned ${shapeRotation.w === 1 ? 'no' : '0.4 rad'}): largest error ${err.toExponential(2)}`);
      expect(err).toBeLessThan(1e-9);
      scene.dispose();
    }
    // A bad orientation is refused by name and leaves the body as it was.
    const { scene, body } = turnedBody(Quaternion.Identity());
    expect(() => body.setMassProperties({ mass: 2, inertia: MOMENTS, inertiaOrientation: new Quaternion(0, NaN, 0, 1) })).toThrow(/inertiaOrientation/);
    expect(() => body.setMassProperties({ mass: 2, inertia: MOMENTS, inertiaOrientation: new Quaternion(0, 0, 0, 0) })).toThrow(/inertiaOrientation/);
    expect(Math.abs(body.getMassProperties().inertiaOrientation!.x - ORIENTATION.x)).toBeLessThan(1e-9);
    scene.dispose();
  });

  it('a torque-free spin about each principal axis keeps its angular momentum (600 frames, 1e-6 relative)', () => {
    for (let k = 0; k < 3; k++) {
      const { scene, body, node } = turnedBody(Quaternion.RotationAxis(new Vector3(0, 1, 1).normalize(), 0.4));
      // Principal axis k in the world: column k of R(node) R(inertiaOrientation).
      const turn = node.rotationQuaternion!.multiply(ORIENTATION);
      const axis = rotationMatrix(turn).map((row) => row[k]!);
      // The moments are per unit mass (Havok's convention): the body's is 2 kg times the set one.
      const lambda = 2 * [MOMENTS.x, MOMENTS.y, MOMENTS.z][k]!;
      // An angular impulse L0 = 3 λ axis as a couple: P at c + r and −P at c − r give 2 r × P.
      const u = Math.abs(axis[0]!) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      const rv = [axis[1]! * u[2]! - axis[2]! * u[1]!, axis[2]! * u[0]! - axis[0]! * u[2]!, axis[0]! * u[1]! - axis[1]! * u[0]!];
      const rl = Math.hypot(rv[0]!, rv[1]!, rv[2]!);
      const r = new Vector3(rv[0]! / rl, rv[1]! / rl, rv[2]! / rl).scale(0.1);
      // r × (axis × r) = |r|² axis for r ⊥ axis, so P = (axis × r) · 1.5 λ / |r|² gives 2 r × P = 3 λ axis.
      const a = new Vector3(axis[0]!, axis[1]!, axis[2]!);
      const P = Vector3.Cross(a, r).scale(1.5 * lambda / r.lengthSquared());
      const c = node.getAbsolutePosition().clone();
      body.applyImpulse(P, c.add(r));
      body.applyImpulse(P.negate(), c.subtract(r));
      const L0 = axis.map((x) => 3 * lambda * x);
      let drift = 0;
      const w = new Vector3();
      for (let i = 0; i < 600; i++) {
        runFrames(scene, 1);
        body.getAngularVelocityToRef(w);
        const I = tensor(node.rotationQuaternion!.multiply(ORIENTATION));
        const L = I.map((row) => 2 * (row[0]! * w.x + row[1]! * w.y + row[2]! * w.z));
        drift = Math.max(drift, Math.hypot(L[0]! - L0[0]!, L[1]! - L0[1]!, L[2]! - L0[2]!) / (3 * lambda));
      }
      console.log(`turned inertia, axis ${k}: angular momentum drift ${drift.toExponential(2)} relative over 600 frames, spin ${w.length().toFixed(6)} rad/s (expected 3)`);
      expect(drift).toBeLessThan(1e-6);
      expect(Math.abs(w.length() - 3)).toBeLessThan(1e-6);
      scene.dispose();
    }
  });
});
