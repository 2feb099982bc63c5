// Babylon side of Compound and HeightField (NullEngine): meshFromShape
// entries, the debug view's materials on a compound's parts, and
// heightFieldFromGround giving the heights Babylon's ground has.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import type { GroundMesh } from '@babylonjs/core/Meshes/groundMesh';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Scene } from '@babylonjs/core/scene';
import { Box, Compound, HeightField, Sphere, World } from '../../src/index';
import { heightFieldFromGround, meshFromShape, PhysicsDebugView } from '../../src/babylon/index';

function scene(): Scene {
  return new Scene(new NullEngine());
}

describe('meshFromShape for the new shapes', () => {
  it('a compound is a parent with one mesh per part at the part pose', () => {
    const s = scene();
    const c = new Compound([
      { shape: new Box({ x: 0.5, y: 0.05, z: 0.5 }), position: { x: 0, y: 1, z: 0 } },
      { shape: new Sphere(0.2), position: { x: 0.3, y: 0.2, z: 0 } },
    ]);
    const material = new StandardMaterial('m', s);
    const mesh = meshFromShape(c, 'compound', s, { material });
    const parts = mesh.getChildMeshes();
    expect(parts.length).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect(parts[i]!.position.x).toBeCloseTo(c.children[i]!.position.x, 6);
      expect(parts[i]!.position.y).toBeCloseTo(c.children[i]!.position.y, 6);
      expect(parts[i]!.material).toBe(material);
    }
  });

  it('a height field is a ground mesh: one vertex per sample, two triangles per solid cell, faces up', () => {
    const s = scene();
    const n = 5;
    const samples = new Float64Array(n * n).map((_, i) => 0.1 * (i % n));
    const holes = new Uint8Array(16);
    holes[5] = 1;
    const field = new HeightField(samples, n, n, { x: 0.5, y: 2, z: 0.5 }, { holes });
    const mesh = meshFromShape(field, 'field', s);
    expect(mesh.getTotalVertices()).toBe(n * n);
    expect(mesh.getTotalIndices()).toBe(3 * 2 * 15);
    const normals = mesh.getVerticesData(VertexBuffer.NormalKind)!;
    // Babylon's front faces are footing's fronts: the vertex normals point up.
    for (let i = 1; i < normals.length; i += 3) expect(normals[i]!).toBeGreaterThan(0.5);
    mesh.refreshBoundingInfo();
    expect(mesh.getBoundingInfo().boundingBox.maximum.y).toBeCloseTo(0.1 * 4 * 2, 6);
  });

  it('the debug view draws a compound body and switches its parts to the sleeping material', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const c = new Compound([{ shape: new Box({ x: 0.3, y: 0.1, z: 0.3 }) }, { shape: new Sphere(0.15), position: { x: 0, y: 0.2, z: 0 } }]);
    world.createBody({ type: 'dynamic', shape: c, position: { x: 0, y: 0.3, z: 0 } });
    const view = new PhysicsDebugView(s, world);
    view.update(1);
    const root = s.meshes.find((m) => m.getChildMeshes().length === 2)!;
    expect(root).toBeDefined();
    const awake = root.getChildMeshes()[0]!.material;
    for (let i = 0; i < 240; i++) world.step(1 / 60);
    view.update(1);
    expect(root.getChildMeshes()[0]!.material).not.toBe(awake);
    expect(root.getChildMeshes()[1]!.material).toBe(root.material);
    view.dispose();
  });
});

describe('heightFieldFromGround', () => {
  it('bakes a turned, scaled Babylon ground: raycasts meet the heights Babylon reports (1e-5, Float32)', () => {
    const s = scene();
    const sub = 16;
    const ground = CreateGround('ground', { width: 8, height: 6, subdivisions: sub }, s) as GroundMesh;
    // Hills written into the vertices, then the ground's own height lookup rebuilt.
    const pos = ground.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < pos.length; i += 3) pos[i + 1] = 0.4 * Math.sin(1.3 * pos[i]!) * Math.cos(0.9 * pos[i + 2]!) + 0.05 * pos[i]!;
    ground.updateVerticesData(VertexBuffer.PositionKind, pos);
    ground.position.set(3, 1, -2);
    ground.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.4);
    ground.scaling.set(1.5, 2, 1.5);
    ground.computeWorldMatrix(true);
    ground.updateCoordinateHeights();
    const baked = heightFieldFromGround(ground);
    expect(baked.shape.rows * baked.shape.columns).toBe((sub + 1) * (sub + 1));
    expect(baked.spacing.x).toBeCloseTo(1.5 * 8 / sub, 6);
    const world = new World();
    world.createBody({ type: 'static', shape: baked.shape, position: baked.position, rotation: baked.rotation });
    const seed = 77;
    console.log(`seed ${seed}`);
    let st = seed;
    const rnd = (): number => { st = (st * 1664525 + 1013904223) >>> 0; return st / 4294967296; };
    let worst = 0, tested = 0;
    for (let i = 0; i < 200; i++) {
      // A world point over the ground: local (u, v) in the inner 90 %.
      const local = new Vector3((rnd() - 0.5) * 7.2, 0, (rnd() - 0.5) * 5.4);
      const p = Vector3.TransformCoordinates(local, ground.getWorldMatrix());
      const expected = ground.getHeightAtCoordinates(p.x, p.z);
      const hit = world.raycast({ x: p.x, y: 20, z: p.z }, { x: p.x, y: -20, z: p.z });
      expect(hit).not.toBeNull();
      worst = Math.max(worst, Math.abs(hit!.point.y - expected));
      tested++;
    }
    console.log(`${tested} points: largest |field − Babylon ground| ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-5);
  });

  it('refuses a mesh that is not a grid', () => {
    const s = scene();
    const ground = CreateGround('g', { width: 2, height: 2, subdivisions: 2 }, s);
    const pos = ground.getVerticesData(VertexBuffer.PositionKind)!;
    pos[0] = pos[0]! + 0.3;
    ground.updateVerticesData(VertexBuffer.PositionKind, pos);
    expect(() => heightFieldFromGround(ground)).toThrow(/do not form a grid|spacing is not uniform/);
  });
});
