// The same Babylon Physics V2 scenes on HavokPlugin (@babylonjs/havok's WASM
// build, loaded in Node) and on FootingPlugin: rest heights and event counts
// side by side. Frames of 1/60 s; both plugins step once per frame here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import HavokPhysics from '@babylonjs/havok';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin';
import { FootingPlugin } from '../../src/babylon/index';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import type { IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsMotionType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import { PhysicsRaycastResult } from '@babylonjs/core/Physics/physicsRaycastResult';
import { animatedPush, ballInBowl, dropBox, dropCylinder, dropHullCube, dropTable, fallThroughTrigger, hingePendulum, physicsScene, runFrames, sixDofPendulum, sliderMotor } from './plugin-scenes';

const require = createRequire(import.meta.url);
const wasmFile = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
const wasmBinary = wasmFile.buffer.slice(wasmFile.byteOffset, wasmFile.byteOffset + wasmFile.byteLength) as ArrayBuffer;
const havok = await HavokPhysics({ wasmBinary });

describe('FootingPlugin beside HavokPlugin', () => {
  it('a box dropped on the ground rests at the same height (0.5 m), both still touching at the end', () => {
    const h = dropBox(new HavokPlugin(true, havok));
    const f = dropBox(new FootingPlugin());
    console.log(`drop box: havok rest ${h.restY.toFixed(4)} m, started ${h.started}, ended ${h.ended}; footing rest ${f.restY.toFixed(4)} m, started ${f.started}, ended ${f.ended}`);
    expect(h.restY).toBeCloseTo(0.5, 1);
    expect(f.restY).toBeCloseTo(0.5, 2);
    expect(Math.abs(f.restY - h.restY)).toBeLessThan(0.03);
    expect(h.started).toBeGreaterThanOrEqual(1);
    expect(f.started).toBeGreaterThanOrEqual(1);
    // Havok reports a start and an end per contact it makes and loses during the landing (12 and 8
    // in this run); footing one per body pair touching and separating: the counts differ, the end state not.
    expect(h.started).toBeGreaterThan(h.ended);
    expect(f.started - f.ended).toBe(1);
  });

  it('a ball through a trigger box: one enter and one exit on both', () => {
    const h = fallThroughTrigger(new HavokPlugin(true, havok));
    const f = fallThroughTrigger(new FootingPlugin());
    console.log(`trigger: havok enter ${h.entered} exit ${h.exited} y ${h.finalY.toFixed(3)}; footing enter ${f.entered} exit ${f.exited} y ${f.finalY.toFixed(3)}`);
    expect([h.entered, h.exited]).toEqual([1, 1]);
    expect([f.entered, f.exited]).toEqual([1, 1]);
    // Free fall for 2 s from 3 m: 3 − ½ g t² = −16.62 m (semi-implicit Euler lands a step's worth lower).
    expect(f.finalY).toBeCloseTo(h.finalY, 0);
  });

  it('a hinge pendulum (1 m, 0.3 rad) swings with the same period', () => {
    const h = hingePendulum(new HavokPlugin(true, havok));
    const f = hingePendulum(new FootingPlugin());
    // 2π √(L/g) (1 + θ0²/16) for a 0.3 rad swing: 2.0177 s
    const T = 2 * Math.PI * Math.sqrt(1 / 9.81) * (1 + 0.3 ** 2 / 16);
    console.log(`pendulum: havok period ${h.period.toFixed(4)} s, radius ${h.radius.toFixed(4)}; footing ${f.period.toFixed(4)} s, radius ${f.radius.toFixed(4)}; theory ${T.toFixed(4)} s`);
    expect(Math.abs(h.period - T) / T).toBeLessThan(0.02);
    expect(Math.abs(f.period - T) / T).toBeLessThan(0.01);
    expect(f.radius).toBeCloseTo(1, 2);
  });

  it('an ANIMATED paddle driven by setTargetTransform pushes a crate ahead of it on both', () => {
    const h = animatedPush(new HavokPlugin(true, havok));
    const f = animatedPush(new FootingPlugin());
    console.log(`animated push: havok paddle ${h.paddleX.toFixed(3)} crate ${h.crateX.toFixed(3)}; footing paddle ${f.paddleX.toFixed(3)} crate ${f.crateX.toFixed(3)}`);
    expect(h.paddleX).toBeCloseTo(1, 2);
    expect(f.paddleX).toBeCloseTo(1, 6);
    // The paddle's face ends at 1.25 m; the crate's centre 0.25 m further.
    expect(h.crateX).toBeGreaterThan(1.45);
    expect(f.crateX).toBeGreaterThan(1.45);
    expect(Math.abs(f.crateX - h.crateX)).toBeLessThan(0.1);
  });

  it('a PhysicsShapeContainer table (top + 4 legs) rests upright on its feet at the same height', () => {
    const h = dropTable(new HavokPlugin(true, havok));
    const f = dropTable(new FootingPlugin());
    console.log(`table: havok origin y ${h.restY.toFixed(5)} up ${h.up.toFixed(6)} (${h.x.toFixed(3)}, ${h.z.toFixed(3)}); footing y ${f.restY.toFixed(5)} up ${f.up.toFixed(6)} (${f.x.toFixed(3)}, ${f.z.toFixed(3)})`);
    expect(Math.abs(h.restY)).toBeLessThan(0.01);
    expect(Math.abs(f.restY)).toBeLessThan(0.005);
    expect(Math.abs(f.restY - h.restY)).toBeLessThan(0.005);
    expect(h.up).toBeGreaterThan(0.9999);
    expect(f.up).toBeGreaterThan(0.9999);
    expect(Math.hypot(f.x - h.x, f.z - h.z)).toBeLessThan(0.03);
  });

  it('a HEIGHTFIELD is centred on its body with the same sample layout (3 × 3 samples over 4 m × 6 m)', () => {
    const heights = (plugin: IPhysicsEnginePluginV2): number[] => {
      const scene = physicsScene(plugin);
      const data = new Float32Array(9).map((_, i) => i + 1);
      const node = new TransformNode('hf', scene);
      node.position.set(5, 1, -2);
      const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, scene);
      body.shape = new PhysicsShape({ type: PhysicsShapeType.HEIGHTFIELD, parameters: { heightFieldSizeX: 4, heightFieldSizeZ: 6, numHeightFieldSamplesX: 3, numHeightFieldSamplesZ: 3, heightFieldData: data } }, scene);
      runFrames(scene, 1);
      const hit = new PhysicsRaycastResult();
      const out: number[] = [];
      // Just inside the grid's corners, edges and centre; a miss (NaN) outside it.
      for (const x of [3.001, 5, 6.999, 7.01]) {
        for (const z of [-4.999, -2, 0.999]) {
          plugin.raycast(new Vector3(x, 50, z), new Vector3(x, -50, z), hit);
          out.push(hit.hasHit ? +hit.hitPointWorld.y.toFixed(2) : NaN);
        }
      }
      scene.dispose();
      return out;
    };
    const h = heights(new HavokPlugin(true, havok));
    const f = heights(new FootingPlugin());
    console.log(`height field samples: havok ${h.join(' ')}; footing ${f.join(' ')}`);
    expect(h).toEqual([8, 5, 2, 9, 6, 3, 10, 7, 4, NaN, NaN, NaN]);
    expect(f).toEqual(h);
  });

  it('a ball in a PhysicsShapeGroundMesh bowl settles at its bottom at the same height', () => {
    const h = ballInBowl(new HavokPlugin(true, havok));
    const f = ballInBowl(new FootingPlugin());
    const fm = ballInBowl(new FootingPlugin(), 'mesh');
    console.log(`bowl: havok (${h.x.toFixed(3)}, ${h.y.toFixed(4)}, ${h.z.toFixed(3)}) lowest ${h.lowestY.toFixed(4)}; footing height field (${f.x.toFixed(3)}, ${f.y.toFixed(4)}, ${f.z.toFixed(3)}) lowest ${f.lowestY.toFixed(4)}; footing mesh y ${fm.y.toFixed(4)}`);
    // Damped, it stops at the bottom (3, −2): the centre 0.5 m over the lowest sample plus the
    // tilt of the cells around it (1.5013 m on Havok, 1.5012 m on footing in this run).
    expect(Math.abs(h.y - 1.5)).toBeLessThan(0.005);
    expect(Math.abs(f.y - h.y)).toBeLessThan(0.002);
    expect(Math.abs(f.y - fm.y)).toBeLessThan(0.001);
    expect(Math.abs(f.lowestY - h.lowestY)).toBeLessThan(0.005);
    expect(Math.hypot(h.x - 3, h.z + 2)).toBeLessThan(0.01);
    expect(Math.hypot(f.x - 3, f.z + 2)).toBeLessThan(0.01);
  });

  it('SLIDER and PRISMATIC velocity motors drive a box 1 m along the axis in 1 s; only SLIDER lets it spin about the axis', () => {
    for (const kind of ['slider', 'prismatic'] as const) {
      const h = sliderMotor(new HavokPlugin(true, havok), kind);
      const f = sliderMotor(new FootingPlugin(), kind);
      console.log(`${kind}: havok x ${h.x.toFixed(4)} y ${h.y.toFixed(4)} spin ${h.spin.toFixed(4)}; footing x ${f.x.toFixed(4)} y ${f.y.toFixed(4)} spin ${f.spin.toFixed(4)}`);
      expect(Math.abs(h.x - 1)).toBeLessThan(0.01);
      expect(Math.abs(f.x - h.x)).toBeLessThan(0.01);
      expect(Math.abs(f.y - h.y)).toBeLessThan(1e-3);
      expect(Math.abs(f.spin - h.spin)).toBeLessThan(0.01);
    }
  });

  it('a Physics6DoFConstraint free in twist only swings with the hinge period; all locked it holds as a LockConstraint does', () => {
    const h = sixDofPendulum(new HavokPlugin(true, havok), 'hinge');
    const f = sixDofPendulum(new FootingPlugin(), 'hinge');
    console.log(`6-DOF hinge: havok period ${h.period.toFixed(4)} s, footing ${f.period.toFixed(4)} s`);
    expect(Math.abs(f.period - h.period) / h.period).toBeLessThan(0.01);
    const hl = sixDofPendulum(new HavokPlugin(true, havok), 'locked');
    const hc = sixDofPendulum(new HavokPlugin(true, havok), 'lock-constraint');
    const fl = sixDofPendulum(new FootingPlugin(), 'locked');
    console.log(`6-DOF all locked, drift in 6 s: havok ${hl.drift.toExponential(3)} m (its LockConstraint ${hc.drift.toExponential(3)} m); footing ${fl.drift.toExponential(3)} m`);
    // Havok's locked 6-DOF and its LOCK agree with each other; footing's sags less.
    expect(Math.abs(hl.drift - hc.drift)).toBeLessThan(1e-4);
    expect(hl.drift).toBeLessThan(0.02);
    expect(fl.drift).toBeLessThan(hl.drift);
  });

  it('a CYLINDER stands on its end at its half height and the CONVEX_HULL of a cube lands face-down like a box, on both', () => {
    const hc = dropCylinder(new HavokPlugin(true, havok));
    const fc = dropCylinder(new FootingPlugin());
    const hh = dropHullCube(new HavokPlugin(true, havok));
    const fh = dropHullCube(new FootingPlugin());
    console.log(`cylinder: havok y ${hc.restY.toFixed(5)} up ${hc.up.toFixed(6)}; footing y ${fc.restY.toFixed(5)} up ${fc.up.toFixed(6)}. hull cube: havok y ${hh.restY.toFixed(5)} flat ${hh.flat.toFixed(6)}; footing y ${fh.restY.toFixed(5)} flat ${fh.flat.toFixed(6)}`);
    expect(Math.abs(hc.restY - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(fc.restY - hc.restY)).toBeLessThan(0.002);
    expect(Math.min(hc.up, fc.up)).toBeGreaterThan(0.9999);
    expect(Math.abs(hh.restY - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(fh.restY - hh.restY)).toBeLessThan(0.002);
    expect(Math.min(hh.flat, fh.flat)).toBeGreaterThan(0.9999);
  });

  it('a CreateGround mesh with a BOX aggregate (extents 0 in y), and a CreatePlane one, collide as plates of no thickness on both plugins, from either side', () => {
    const flat = (plugin: IPhysicsEnginePluginV2) => {
      const scene = physicsScene(plugin);
      const ground = CreateGround('g', { width: 10, height: 10 }, scene);
      new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene);
      const wall = CreatePlane('p', { size: 4 }, scene);
      wall.position.set(-3, 2, 0);
      new PhysicsAggregate(wall, PhysicsShapeType.BOX, { mass: 0 }, scene);
      const ball = (d: number, x: number, y: number, z: number, v: Vector3 | null) => {
        const m = CreateSphere('b', { diameter: d }, scene);
        m.position.set(x, y, z);
        const a = new PhysicsAggregate(m, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
        if (v) { a.body.setGravityFactor(0); a.body.setLinearVelocity(v); }
        return { m, a };
      };
      const resting = ball(1, 0, 3, 0, null);
      const fromBelow = ball(0.2, 3, -2, 0, new Vector3(0, 30, 0));
      const atWall = ball(0.4, -3, 2, -2, new Vector3(0, 0, 2));
      runFrames(scene, 120);
      const r = { restY: resting.m.position.y, belowVy: fromBelow.a.body.getLinearVelocity().y, belowY: fromBelow.m.position.y, wallZ: atWall.m.position.z };
      scene.dispose();
      return r;
    };
    const h = flat(new HavokPlugin(true, havok));
    const f = flat(new FootingPlugin());
    console.log(`flat BOX: havok rest ${h.restY.toFixed(5)} m, ball from below ${h.belowVy.toFixed(2)} m/s at y ${h.belowY.toFixed(2)}, wall ball z ${h.wallZ.toFixed(3)}; footing ${f.restY.toFixed(5)} m, ${f.belowVy.toFixed(2)} m/s at y ${f.belowY.toFixed(2)}, z ${f.wallZ.toFixed(3)}`);
    // Refused before: the ball fell to y = −16.7.
    expect(h.restY).toBeCloseTo(0.5, 3);
    expect(Math.abs(f.restY - 0.5)).toBeLessThan(1e-3);
    // From below at 30 m/s: turned back at the plate on both.
    expect(h.belowVy).toBeLessThan(0);
    expect(f.belowVy).toBeLessThan(0);
    expect(f.belowY).toBeLessThan(0);
    // Into the wall at 2 m/s: back on the side it came from.
    expect(h.wallZ).toBeLessThan(-0.3);
    expect(f.wallZ).toBeLessThan(-0.3);
  });

  it('setMassProperties with a moment of 0 locks that axis on both plugins (a 1 m box, inertia (0, 1, 0), struck off-centre; then (0, 0, 0) on a box pushed into a wall)', () => {
    const locked = (plugin: () => IPhysicsEnginePluginV2) => {
      const scene = physicsScene(plugin(), new Vector3(0, 0, 0));
      const box = CreateBox('b', { size: 1 }, scene);
      const a = new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 2 }, scene);
      a.body.setMassProperties({ mass: 2, inertia: new Vector3(0, 1, 0) });
      a.body.setAngularDamping(0);
      // 1 N·s along z at (0.5, 0.5, 0): a torque of (0.5, −0.5, 0) N·m·s about the centre.
      a.body.applyImpulse(new Vector3(0, 0, 1), new Vector3(0.5, 0.5, 0));
      const w = a.body.getAngularVelocity().clone();
      const read = a.body.getMassProperties().inertia!.clone();
      scene.dispose();
      // All three locked: a box sliding into a slanted wall keeps its rotation.
      const scene2 = physicsScene(plugin());
      const ground = CreateBox('g', { width: 20, height: 1, depth: 20 }, scene2);
      ground.position.y = -0.5;
      new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene2);
      const wall = CreateBox('w', { width: 1, height: 3, depth: 6 }, scene2);
      wall.position.set(3, 1.5, 0);
      wall.rotation.y = 0.5;
      new PhysicsAggregate(wall, PhysicsShapeType.BOX, { mass: 0 }, scene2);
      const crate = CreateBox('c', { size: 1 }, scene2);
      crate.position.y = 0.5;
      const c = new PhysicsAggregate(crate, PhysicsShapeType.BOX, { mass: 1, friction: 0.8 }, scene2);
      c.body.setMassProperties({ mass: 1, inertia: new Vector3(0, 0, 0) });
      c.body.setLinearVelocity(new Vector3(6, 0, 1));
      runFrames(scene2, 90);
      const q = crate.rotationQuaternion!;
      const turn = 2 * Math.acos(Math.min(1, Math.abs(q.w)));
      scene2.dispose();
      return { w, read, turn };
    };
    const h = locked(() => new HavokPlugin(true, havok));
    const f = locked(() => new FootingPlugin());
    console.log(`locked axes: havok ω (${h.w.x.toFixed(6)}, ${h.w.y.toFixed(4)}, ${h.w.z.toFixed(6)}), reads ${h.read.asArray().map((v) => v.toFixed(3))}, crate turned ${h.turn.toExponential(2)} rad; footing ω (${f.w.x.toFixed(6)}, ${f.w.y.toFixed(4)}, ${f.w.z.toFixed(6)}), reads ${f.read.asArray().map((v) => v.toFixed(3))}, turned ${f.turn.toExponential(2)} rad`);
    // About y the box turns at −0.5 N·m·s over 2 kg × 1 m² (the moment is per unit mass); about x and z, not (refused by name before).
    expect(f.w.y).toBeCloseTo(h.w.y, 4);
    expect(f.w.y).toBeCloseTo(-0.25, 4);
    expect(Math.abs(f.w.x)).toBeLessThan(1e-5);
    expect(Math.abs(f.w.z)).toBeLessThan(1e-5);
    expect(f.read.x).toBe(0);
    expect(f.read.z).toBe(0);
    expect(h.turn).toBeLessThan(1e-3);
    expect(f.turn).toBeLessThan(1e-3);
  });
});
