// Render helpers in node with Babylon's NullEngine: meshes from shapes,
// ragdoll meshes, and the character debug view's lazy meshes.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { Scene } from '@babylonjs/core/scene';
import { Box, Capsule, ConvexHull, createRagdoll, Cylinder, Sphere, TriangleMesh, World, type Shape } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { BodyLinks, CharacterDebugView, createRagdollMeshes, meshFromShape } from '../../src/babylon/index';

function scene(): Scene {
  return new Scene(new NullEngine());
}

/** Half extents of a mesh's bounding box in its local frame. */
function halfExtents(mesh: Mesh): Vector3 {
  mesh.refreshBoundingInfo();
  const b = mesh.getBoundingInfo().boundingBox;
  return b.maximum.subtract(b.minimum).scale(0.5);
}

describe('meshFromShape', () => {
  it('sizes box, sphere and capsule meshes like the shapes (to 1e-6: Babylon stores Float32)', () => {
    const s = scene();
    const box = halfExtents(meshFromShape(new Box({ x: 0.5, y: 1.25, z: 2 }), 'b', s));
    expect(box.x).toBeCloseTo(0.5, 6);
    expect(box.y).toBeCloseTo(1.25, 6);
    expect(box.z).toBeCloseTo(2, 6);
    const sphere = halfExtents(meshFromShape(new Sphere(0.7), 's', s));
    expect(sphere.y).toBeCloseTo(0.7, 6);
    expect(sphere.x).toBeLessThanOrEqual(0.7 + 1e-6);
    expect(sphere.x).toBeGreaterThan(0.7 * Math.cos(Math.PI / 12) - 1e-6); // 12 segments
    // capsule: segment half-height 0.6 + radius 0.3 along y
    const capsule = halfExtents(meshFromShape(new Capsule(0.3, 0.6), 'c', s));
    expect(capsule.y).toBeCloseTo(0.9, 6);
    expect(capsule.x).toBeLessThanOrEqual(0.3 + 1e-6);
    expect(capsule.x).toBeGreaterThan(0.29);
  });

  it('a triangle mesh keeps its vertices and shows footing\'s front side as Babylon\'s front (normals up for an up-facing ground)', () => {
    const s = scene();
    // two triangles at y = 0 whose (b − a) × (c − a) points up
    const ground = new TriangleMesh([-1, 0, -1, -1, 0, 1, 1, 0, 1, 1, 0, -1], [0, 1, 2, 0, 2, 3]);
    expect(ground.normals[1]).toBeCloseTo(1, 12);
    const material = new StandardMaterial('m', s);
    const mesh = meshFromShape(ground, 'g', s, { material });
    expect(mesh.material).toBe(material);
    expect(mesh.getTotalVertices()).toBe(4);
    expect(mesh.getIndices()!.length).toBe(6);
    const normals = mesh.getVerticesData(VertexBuffer.NormalKind)!;
    for (let i = 0; i < 4; i++) expect(normals[3 * i + 1]).toBeCloseTo(1, 6);
  });

  it('sizes a cylinder mesh like the shape and draws a hull with its faces, outward normals, in the hull frame', () => {
    const s = scene();
    const cyl = halfExtents(meshFromShape(new Cylinder(0.4, 0.9), 'cy', s));
    expect(cyl.y).toBeCloseTo(0.9, 6);
    expect(cyl.x).toBeLessThanOrEqual(0.4 + 1e-6);
    expect(cyl.x).toBeGreaterThan(0.4 * Math.cos(Math.PI / 16) - 1e-6);
    const hull = new ConvexHull([-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => ({ x: 0.5 * x + 2, y: y * 1.5, z })))));
    const mesh = meshFromShape(hull, 'h', s);
    const he = halfExtents(mesh);
    expect(he.x).toBeCloseTo(0.5, 6);
    expect(he.y).toBeCloseTo(1.5, 6);
    expect(mesh.getTotalVertices()).toBe(24); // 6 faces × 4 corners, flat shaded
    expect(mesh.getIndices()!.length).toBe(36);
    // Every vertex normal points away from the centre (outward), and Babylon's
    // winding (clockwise seen from the front) agrees with it.
    const pos = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const nor = mesh.getVerticesData(VertexBuffer.NormalKind)!;
    for (let i = 0; i < 24; i++) expect(pos[3 * i]! * nor[3 * i]! + pos[3 * i + 1]! * nor[3 * i + 1]! + pos[3 * i + 2]! * nor[3 * i + 2]!).toBeGreaterThan(0);
  });

  it('names the shape kind it cannot draw', () => {
    const odd = { kind: 99 } as unknown as Shape;
    expect(() => meshFromShape(odd, 'x', scene())).toThrow(/meshFromShape: no mesh for shape kind 99/);
  });
});

describe('createRagdollMeshes', () => {
  it('one mesh per ragdoll body at its pose, named by bone, linked when asked', () => {
    const s = scene();
    const world = new World();
    const ragdoll = createRagdoll(world, { position: { x: 1, y: 3, z: 2 } });
    const links = new BodyLinks();
    const meshes = createRagdollMeshes(ragdoll, s, { links });
    expect(meshes.length).toBe(ragdoll.bodies.length);
    expect(links.links.length).toBe(ragdoll.bodies.length);
    expect(meshes[0]!.name).toBe(`ragdoll-${ragdoll.names[0]}`);
    for (let i = 0; i < meshes.length; i++) {
      const b = ragdoll.bodies[i]!;
      expect(Vector3.Distance(meshes[i]!.position, new Vector3(b.position.x, b.position.y, b.position.z))).toBeLessThan(1e-12);
    }
    for (let i = 0; i < 30; i++) world.step(1 / 60);
    links.sync(1);
    const head = ragdoll.bodies.length - 1;
    expect(meshes[head]!.position.y).toBeCloseTo(ragdoll.bodies[head]!.position.y, 12);
    // without links: placed once
    const loose = createRagdollMeshes(ragdoll, s, { namePrefix: 'r2-' });
    expect(loose[0]!.name.startsWith('r2-')).toBe(true);
    expect(loose[0]!.position.y).toBeCloseTo(ragdoll.bodies[0]!.position.y, 12);
  });
});

describe('createRagdollMeshes refuses', () => {
  it('a null ragdoll or options by name, with no mesh added', () => {
    const s = scene();
    const ragdoll = createRagdoll(new World(), { position: { x: 0, y: 3, z: 0 } });
    const meshes = s.meshes.length;
    expect(() => createRagdollMeshes(null as never, s)).toThrow('createRagdollMeshes: ragdoll must be a Ragdoll (got null)');
    expect(() => createRagdollMeshes(ragdoll, s, null as never)).toThrow('createRagdollMeshes: options must be an object (got null)');
    expect(s.meshes.length).toBe(meshes);
  });
});

describe('CharacterDebugView is lazy', () => {
  it('adds no mesh or material until first shown; then 48 quads, the solve lines and the capsule', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const controller = new CharacterController(world, { position: { x: 0, y: 0.92, z: 0 } });
    const walker = new Walker(controller);
    const meshes0 = s.meshes.length, materials0 = s.materials.length;
    const view = new CharacterDebugView(s, controller);
    view.enabled = false;
    for (let i = 0; i < 5; i++) { view.record(walker.update(1 / 60)); view.update(); }
    expect(view.built).toBe(false);
    expect(s.meshes.length - meshes0).toBe(0);
    expect(s.materials.length - materials0).toBe(0);
    expect(view.stats.moves).toBe(1); // the numbers are kept while hidden
    view.enabled = true;
    expect(s.meshes.length - meshes0).toBe(0); // made by the next update, not by the switch
    view.record(walker.update(1 / 60));
    view.update();
    expect(view.built).toBe(true);
    const quads = s.meshes.filter((m) => m.name.startsWith('footingCharPlane')).length;
    console.log(`character view: 0 meshes before the first show, then ${s.meshes.length - meshes0} meshes (${quads} plane quads) and ${s.materials.length - materials0} materials`);
    expect(quads).toBe(48);
    expect(s.meshes.length - meshes0).toBe(48 + 2);
    expect(s.materials.length - materials0).toBe(3 + 1 + 1); // plane colours, capsule wireframe, line colour
    expect(s.meshes.filter((m) => m.name.startsWith('footingCharPlane') && m.isVisible).length).toBe(view.stats.planes);
    view.enabled = false;
    expect(s.meshes.filter((m) => m.name.startsWith('footingChar') && m.isEnabled()).length).toBe(0);
    view.dispose();
    expect(s.meshes.length).toBe(meshes0);
    expect(s.materials.length).toBe(materials0);
    // a view disposed before it was shown disposes nothing and throws nothing
    const never = new CharacterDebugView(s, controller);
    never.dispose();
    expect(s.meshes.length).toBe(meshes0);
  });
});
