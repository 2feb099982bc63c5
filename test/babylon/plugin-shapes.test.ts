// FootingPlugin's CONTAINER (footing Compound) and HEIGHTFIELD (footing
// HeightField) shapes in NullEngine scenes; the same scenes beside HavokPlugin
// are in plugin-vs-havok.test.ts.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { PhysicsMotionType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { PhysicsShape, PhysicsShapeBox, PhysicsShapeContainer, PhysicsShapeMesh } from '@babylonjs/core/Physics/v2/physicsShape';
import { PhysicsRaycastResult } from '@babylonjs/core/Physics/physicsRaycastResult';
import { Compound, HeightField } from '../../src/index';
import { FootingPlugin, FootingPluginUnsupportedError } from '../../src/babylon/index';
import { ballInBowl, dropCylinder, dropHullCube, dropTable, physicsScene, runFrames } from './plugin-scenes';

describe('FootingPlugin: CONTAINER as a Compound', () => {
  it('a table (top + 4 legs) has the compound mass properties, its bounds, and rests upright on its feet', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const table = new PhysicsShapeContainer(scene);
    table.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(2, 0.1, 1), scene), new Vector3(0, 0.95, 0));
    for (const [x, z] of [[-0.9, -0.4], [0.9, -0.4], [-0.9, 0.4], [0.9, 0.4]] as const) {
      table.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(0.1, 0.9, 0.1), scene), new Vector3(x, 0.45, z));
    }
    table.density = 500;
    const node = new TransformNode('t', scene);
    const body = new PhysicsBody(node, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = table;
    // Volumes 0.2 m³ (top) and 4 × 0.009 m³ (legs): mass 500 × 0.236 = 118 kg, centre of mass
    // at y = (0.2 · 0.95 + 0.036 · 0.45) / 0.236 = 0.87373 m.
    const m = body.computeMassProperties();
    expect(m.mass).toBeCloseTo(118, 9);
    expect(m.centerOfMass!.y).toBeCloseTo((0.2 * 0.95 + 0.036 * 0.45) / 0.236, 9);
    expect(m.centerOfMass!.x).toBeCloseTo(0, 9);
    expect((body._pluginData as { rigid: { shape: unknown } }).rigid.shape).toBeInstanceOf(Compound);
    const bb = table.getBoundingBox();
    expect([bb.minimum.x, bb.minimum.y, bb.minimum.z, bb.maximum.x, bb.maximum.y, bb.maximum.z].map((v) => +v.toFixed(9))).toEqual([-1, 0, -0.5, 1, 1, 0.5]);
    // A MESH child next to convex ones is refused, and the container keeps its five parts.
    expect(() => table.addChild(new PhysicsShapeMesh(CreateBox('m', { size: 0.5 }, scene), scene), new Vector3(0, 2, 0))).toThrow(FootingPluginUnsupportedError);
    expect(table.getNumChildren()).toBe(5);
    // PhysicsViewer's triangles: the five boxes (24 vertices each) back in the node's frame.
    const geo = plugin.getBodyGeometry(body) as { positions: Float32Array; indices: Uint32Array };
    expect(geo.positions.length).toBe(5 * 24 * 3);
    expect(geo.indices.length).toBe(5 * 36);
    const ext = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let i = 0; i < geo.positions.length; i += 3) {
      for (let k = 0; k < 3; k++) { ext[k] = Math.min(ext[k]!, geo.positions[i + k]!); ext[k + 3] = Math.max(ext[k + 3]!, geo.positions[i + k]!); }
    }
    expect(ext.map((v) => +v.toFixed(5))).toEqual([-1, 0, -0.5, 1, 1, 0.5]);
    scene.dispose();

    const r = dropTable(new FootingPlugin());
    console.log(`table on the ground: origin y ${r.restY.toFixed(5)} m, up·Y ${r.up.toFixed(8)}, x ${r.x.toFixed(4)} z ${r.z.toFixed(4)}`);
    expect(Math.abs(r.restY)).toBeLessThan(0.005);
    expect(r.up).toBeGreaterThan(0.9999);
    // Dropped straight down: it lands where it was released, (0.5, −0.25).
    expect(Math.hypot(r.x - 0.5, r.z + 0.25)).toBeLessThan(0.02);
  });

  it('a compound body rebuilt by a removed child re-centres: the node stays where it was', () => {
    const scene = physicsScene(new FootingPlugin());
    const shape = new PhysicsShapeContainer(scene);
    shape.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene), new Vector3(-1, 0, 0));
    shape.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene), new Vector3(2, 0, 0));
    const node = new TransformNode('n', scene);
    node.position.set(1, 5, 0);
    const body = new PhysicsBody(node, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = shape;
    expect(body.computeMassProperties().centerOfMass!.x).toBeCloseTo(0.5, 9);
    shape.removeChild(1);
    expect(body.computeMassProperties().centerOfMass!.x).toBeCloseTo(-1, 9);
    runFrames(scene, 1);
    // One frame of free fall moves the node straight down only.
    expect(node.position.x).toBeCloseTo(1, 9);
    expect(node.position.y).toBeLessThan(5);
    expect(node.position.y).toBeGreaterThan(4.99);
    scene.dispose();
  });
});

describe('FootingPlugin: HEIGHTFIELD as a HeightField', () => {
  it('heightFieldData is read rows +Z to −Z, columns +X, centred on the body', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const n = 3;
    const data = new Float32Array(n * n);
    for (let i = 0; i < data.length; i++) data[i] = (i + 1) / 10;
    const node = new TransformNode('hf', scene);
    node.position.set(5, 1, -2);
    const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, scene);
    body.shape = new PhysicsShape({ type: PhysicsShapeType.HEIGHTFIELD, parameters: { heightFieldSizeX: 4, heightFieldSizeZ: 6, numHeightFieldSamplesX: n, numHeightFieldSamplesZ: n, heightFieldData: data } }, scene);
    expect((body._pluginData as { rigid: { shape: unknown } }).rigid.shape).toBeInstanceOf(HeightField);
    runFrames(scene, 1);
    const hit = new PhysicsRaycastResult();
    const got: number[] = [];
    const want: number[] = [];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const x = 5 + (c - 1) * 2 * 0.9995, z = -2 + (r - 1) * 3 * 0.9995;
        plugin.raycast(new Vector3(x, 10, z), new Vector3(x, -10, z), hit);
        got.push(+hit.hitPointWorld.y.toFixed(3));
        // Measured on HavokPlugin (plugin-vs-havok.test.ts): sample (row r along +Z, column c along +X) = data[(n − 1 − r) n + c].
        want.push(+(1 + data[(n - 1 - r) * n + c]!).toFixed(3));
      }
    }
    expect(got.map((v, i) => Math.abs(v - want[i]!) < 0.002)).toEqual(want.map(() => true));
    // PhysicsViewer's triangles: one vertex per sample, 2 triangles per cell, the highest sample 0.9 at the −Z edge's +X corner (local (2, 0.9, −3)).
    const geo = plugin.getBodyGeometry(body) as { positions: Float32Array; indices: Uint32Array };
    expect(geo.positions.length).toBe(27);
    expect(geo.indices.length).toBe(24);
    let top = 0;
    for (let i = 3; i < 27; i += 3) if (geo.positions[i + 1]! > geo.positions[top + 1]!) top = i;
    expect([geo.positions[top]!, geo.positions[top + 1]!, geo.positions[top + 2]!].map((v) => +v.toFixed(5))).toEqual([2, 0.9, -3]);
    expect(() => new PhysicsShape({ type: PhysicsShapeType.HEIGHTFIELD, parameters: { heightFieldSizeX: 4, heightFieldSizeZ: 4, numHeightFieldSamplesX: 3, numHeightFieldSamplesZ: 3, heightFieldData: new Float32Array(8) } }, scene)).toThrow(/heightFieldData must hold/);
    scene.dispose();
  });

  it('a ball in a PhysicsShapeGroundMesh bowl settles at its bottom as on a MESH of the same ground', () => {
    const hf = ballInBowl(new FootingPlugin(), 'heightfield');
    const mesh = ballInBowl(new FootingPlugin(), 'mesh');
    console.log(`bowl: heightfield (${hf.x.toFixed(4)}, ${hf.y.toFixed(4)}, ${hf.z.toFixed(4)}) lowest ${hf.lowestY.toFixed(4)}; mesh (${mesh.x.toFixed(4)}, ${mesh.y.toFixed(4)}, ${mesh.z.toFixed(4)}) lowest ${mesh.lowestY.toFixed(4)}`);
    // The bowl's bottom is at (3, 1, −2): a 0.5 m ball rests with its centre near y = 1.5.
    // It never sinks below its rest height (no tunnelling through the field).
    expect(Math.abs(hf.lowestY - hf.y)).toBeLessThan(0.002);
    expect(Math.abs(hf.y - 1.5)).toBeLessThan(0.005);
    expect(Math.hypot(hf.x - 3, hf.z + 2)).toBeLessThan(0.01);
    // The same triangles as a MESH: the same rest within a millimetre.
    expect(Math.abs(hf.y - mesh.y)).toBeLessThan(0.001);
    expect(Math.hypot(hf.x - mesh.x, hf.z - mesh.z)).toBeLessThan(0.001);
  });
});

describe('FootingPlugin: CYLINDER and CONVEX_HULL', () => {
  it('a cylinder aggregate stands on its end at its half height; a CYLINDER along X has its bounds and mass', () => {
    const r = dropCylinder(new FootingPlugin());
    console.log(`cylinder 1 m × ⌀0.6 m on its end: y ${r.restY.toFixed(5)} m, up·Y ${r.up.toFixed(8)}`);
    expect(Math.abs(r.restY - 0.5)).toBeLessThan(0.002);
    expect(r.up).toBeGreaterThan(0.9999);
    const scene = physicsScene(new FootingPlugin());
    const shape = new PhysicsShape({ type: PhysicsShapeType.CYLINDER, parameters: { pointA: new Vector3(-1, 0, 0), pointB: new Vector3(1, 0, 0), radius: 0.5 } }, scene);
    const bb = shape.getBoundingBox();
    expect([bb.minimum.x, bb.maximum.x, bb.maximum.y, bb.maximum.z].map((v) => +v.toFixed(6))).toEqual([-1, 1, 0.5, 0.5]);
    const body = new PhysicsBody(new TransformNode('c', scene), PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = shape;
    // π r² h ρ = π · 0.25 · 2 · 1000
    expect(body.computeMassProperties().mass).toBeCloseTo(Math.PI * 0.25 * 2 * 1000, 6);
    expect(() => new PhysicsShape({ type: PhysicsShapeType.CYLINDER, parameters: { pointA: Vector3.Zero(), pointB: new Vector3(0, 1, 0), radius: 0 } }, scene)).toThrow(/radius/);
    scene.dispose();
  });

  it('the hull of a cube rests like a box; an off-centre mesh puts the hull\'s centre of mass where its points are', () => {
    const r = dropHullCube(new FootingPlugin());
    console.log(`hull of a 1 m cube: y ${r.restY.toFixed(5)} m, face-down ${r.flat.toFixed(8)}`);
    expect(Math.abs(r.restY - 0.5)).toBeLessThan(0.002);
    expect(r.flat).toBeGreaterThan(0.9999);
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const mesh = CreateBox('m', { width: 2, height: 1, depth: 1 }, scene);
    const pos = mesh.getVerticesData('position')!;
    for (let i = 0; i < pos.length; i += 3) pos[i] = pos[i]! + 3;
    mesh.setVerticesData('position', pos);
    const shape = new PhysicsShape({ type: PhysicsShapeType.CONVEX_HULL, parameters: { mesh } }, scene);
    const body = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = shape;
    const m = body.computeMassProperties();
    expect(m.mass).toBeCloseTo(2000, 6);
    expect([m.centerOfMass!.x, m.centerOfMass!.y, m.centerOfMass!.z].map((v) => +v.toFixed(9))).toEqual([3, 0, 0]);
    const geo = plugin.getBodyGeometry(body) as { positions: Float32Array; indices: Uint32Array };
    // 8 corners, 6 faces of 2 triangles, back in the mesh's frame (x from 2 to 4).
    expect(geo.positions.length).toBe(24);
    expect(geo.indices.length).toBe(36);
    expect(Math.min(...Array.from(geo.positions).filter((_, i) => i % 3 === 0))).toBeCloseTo(2, 5);
    expect(Math.max(...Array.from(geo.positions).filter((_, i) => i % 3 === 0))).toBeCloseTo(4, 5);
    scene.dispose();
  });
});

