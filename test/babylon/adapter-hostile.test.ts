// Hostile and new-user input to the adapter's colliders, links and shape
// meshes: each refusal names the call and the field and leaves the world (and
// the scene, and the link list) as it was; each bake that succeeds collides on
// the side Babylon draws.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Matrix } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import { Scene } from '@babylonjs/core/scene';
import { Box, createRagdoll, Sphere, World, type Shape } from '../../src/index';
import {
  BodyLink, BodyLinks, bakeTriangles, colliderFromMesh, createRagdollMeshes, createStaticMeshCollider, heightFieldFromGround, meshFromShape, setMeshMaterial, syncNodeToBody, triangleMeshFromMeshes,
} from '../../src/babylon/index';

function scene(): Scene {
  const engine = new NullEngine();
  // NullEngine reports no instanced arrays, and Babylon then ignores thin instances; a browser has them.
  engine.getCaps().instancedArrays = true;
  return new Scene(engine);
}

function customMesh(s: Scene, name: string, positions: number[], indices?: number[]): Mesh {
  const data = new VertexData();
  data.positions = positions;
  if (indices) data.indices = indices;
  const mesh = new Mesh(name, s);
  data.applyToMesh(mesh);
  return mesh;
}

/** Drops a 0.3 m ball at `at` onto the static bake of `meshes`; its position after 3 s. */
function dropBall(meshes: AbstractMesh[], at: { x: number; y: number; z: number }): { x: number; y: number; z: number } {
  const world = new World();
  world.createBody({ type: 'static', shape: triangleMeshFromMeshes(meshes) });
  const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: at });
  for (let i = 0; i < 180; i++) world.step(1 / 60);
  return { ...ball.position };
}

/** A world with one dynamic body, for before/after comparisons. */
function worldWithABall(): World {
  const world = new World();
  world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 2, z: 0 } });
  return world;
}

describe('colliders: the side Babylon draws under a zero scaling, and thin instances', () => {
  it('a ground scaled to zero height (scaling (2, 0, 2), det 0) keeps its faces up: Babylon swaps winding only for det < 0; a ball rests on top', () => {
    const s = scene();
    const ground = CreateGround('flat', { width: 4, height: 4 }, s);
    ground.scaling.set(2, 0, 2);
    const mesh = triangleMeshFromMeshes(ground);
    // Before: det 0 was read as a mirror, both faces pointed down and the ball fell through.
    expect(mesh.normals[1]).toBeGreaterThan(0.99);
    expect(mesh.normals[4]).toBeGreaterThan(0.99);
    expect(dropBall([ground], { x: 1, y: 3, z: -1 }).y).toBeCloseTo(0.3, 1);
  });

  it('a thin-instanced ground bakes once per instance (instance matrix, then the mesh\'s world matrix), not at the mesh\'s own pose', () => {
    const s = scene();
    const tile = CreateGround('tile', { width: 4, height: 4 }, s);
    tile.position.y = 1;
    tile.thinInstanceAdd(Matrix.Translation(10, 2, 0));
    tile.thinInstanceAdd(Matrix.Translation(-10, 0, 0));
    const baked = bakeTriangles([tile]);
    // Before: only the mesh's own 2 triangles at x in [-2, 2], where Babylon draws nothing.
    expect(baked.indices.length).toBe(3 * 4);
    const xs = Array.from(baked.positions).filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBe(-12);
    expect(Math.max(...xs)).toBe(12);
    expect(dropBall([tile], { x: 10, y: 5, z: 0 }).y).toBeCloseTo(3.3, 1);
    expect(dropBall([tile], { x: -10, y: 5, z: 0 }).y).toBeCloseTo(1.3, 1);
    expect(dropBall([tile], { x: 0, y: 5, z: 0 }).y).toBeLessThan(-5);
  });

  it('colliderFromMesh and heightFieldFromGround refuse a thin-instanced mesh by name (one primitive cannot fit its instances)', () => {
    const s = scene();
    const box = CreateBox('crates', { size: 1 }, s);
    box.thinInstanceAdd(Matrix.Translation(5, 0, 0));
    expect(() => colliderFromMesh(box, 'box')).toThrow("colliderFromMesh: mesh 'crates' has 1 thin instances; one primitive cannot fit them (bake them with triangleMeshFromMeshes)");
    const ground = CreateGround('tiles', { width: 4, height: 4, subdivisions: 2 }, s);
    ground.thinInstanceAdd(Matrix.Translation(5, 0, 0));
    expect(() => heightFieldFromGround(ground)).toThrow("heightFieldFromGround: mesh 'tiles' has 1 thin instances; one height field cannot follow them (bake them with triangleMeshFromMeshes)");
  });
});

describe('colliders: disposed, empty, zero-size and degenerate meshes are named; the world is left as it was', () => {
  it('a disposed mesh is refused by name (before: skipped in a list, or fitted from its stale bounds)', () => {
    const s = scene();
    const gone = CreateBox('gone', { size: 1 }, s);
    gone.dispose();
    const kept = CreateBox('kept', { size: 1 }, s);
    expect(() => triangleMeshFromMeshes([gone, kept])).toThrow("triangleMeshFromMeshes: mesh 'gone' is disposed");
    expect(() => bakeTriangles([gone])).toThrow("bakeTriangles: mesh 'gone' is disposed");
    expect(() => colliderFromMesh(gone, 'box')).toThrow("colliderFromMesh: mesh 'gone' is disposed");
    expect(() => heightFieldFromGround(gone)).toThrow("heightFieldFromGround: mesh 'gone' is disposed");
    const world = worldWithABall();
    const before = world.snapshot();
    expect(() => createStaticMeshCollider(world, [kept, gone])).toThrow("createStaticMeshCollider: mesh 'gone' is disposed");
    const level = new TransformNode('level', s);
    level.dispose();
    expect(() => createStaticMeshCollider(world, level)).toThrow("createStaticMeshCollider: root TransformNode 'level' is disposed");
    expect(world.bodies.length).toBe(1);
    expect(world.snapshot()).toEqual(before);
  });

  it('colliderFromMesh refuses a mesh with no vertices and one of zero world size (before: a silent 0.1 mm box)', () => {
    const s = scene();
    expect(() => colliderFromMesh(new Mesh('empty', s), 'sphere')).toThrow("colliderFromMesh: mesh 'empty' has no vertices to fit a sphere to");
    const parent = new TransformNode('collapsed', s);
    parent.scaling.set(0, 0, 0);
    const child = CreateBox('child', { size: 1 }, s);
    child.parent = parent;
    expect(() => colliderFromMesh(child, 'box')).toThrow("colliderFromMesh: mesh 'child' has zero size in world space (all its vertices at one point, or a zero scaling of the mesh or a parent)");
    // A flat mesh (one zero extent) is legitimate: a plane gets a thin box.
    expect(colliderFromMesh(CreateGround('plane', { width: 2, height: 2 }, s), 'box').shape.halfExtents.y).toBe(1e-4);
    // The kind is checked first, whatever the mesh.
    expect(() => colliderFromMesh(new Mesh('e2', s), 'cone' as never)).toThrow("colliderFromMesh: kind must be 'box', 'sphere' or 'capsule' (got 'cone')");
  });

  it('only degenerate triangles (zero-scaled parent): the error names the call and the mesh; no body is created', () => {
    const s = scene();
    const parent = new TransformNode('collapsed', s);
    parent.scaling.set(0, 0, 0);
    const ground = CreateGround('floor', { width: 2, height: 2 }, s);
    ground.parent = parent;
    expect(() => triangleMeshFromMeshes(ground)).toThrow("triangleMeshFromMeshes: TriangleMesh.indices: degenerate mesh (no triangle with non-zero area) (baked from mesh 'floor'; a zero scaling of a mesh or a parent flattens every triangle)");
    const world = worldWithABall();
    const before = world.snapshot();
    expect(() => createStaticMeshCollider(world, parent)).toThrow(/^createStaticMeshCollider: TriangleMesh\.indices: degenerate mesh .*'floor'/);
    const line = customMesh(s, 'line', [0, 0, 0, 1, 0, 0, 2, 0, 0], [0, 1, 2]);
    expect(() => createStaticMeshCollider(world, [line], { doubleSided: true })).toThrow(/^createStaticMeshCollider: .*degenerate.*'line'/);
    expect(world.bodies.length).toBe(1);
    expect(world.snapshot()).toEqual(before);
  });

  it('null options are named with the call', () => {
    const s = scene();
    expect(() => triangleMeshFromMeshes(CreateBox('b', {}, s), null as never)).toThrow("triangleMeshFromMeshes: TriangleMesh.options must be an object (baked from mesh 'b')");
    expect(() => heightFieldFromGround(CreateGround('g', { width: 2, height: 2, subdivisions: 2 }, s), null as never)).toThrow('heightFieldFromGround: options must be an object (got null)');
  });
});

describe('links: bad options, removed bodies and disposed nodes', () => {
  it('BodyLinks options are checked by name (before: "Cannot read properties of null"; a string disposeRemoved was kept)', () => {
    expect(() => new BodyLinks(null as never)).toThrow('BodyLinks: options must be an object (got null)');
    expect(() => new BodyLinks({ disposeRemoved: 'yes' as never })).toThrow("BodyLinks: options.disposeRemoved must be a boolean (got 'yes')");
  });

  it('a removed body or a disposed node is refused by add; nothing is kept and the node is not disposed', () => {
    const s = scene();
    const world = new World();
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 1, y: 2, z: 3 } });
    const removed = world.createBody({ type: 'dynamic', shape: new Sphere(0.5) });
    world.removeBody(removed);
    const links = new BodyLinks({ disposeRemoved: true });
    const node = new TransformNode('fresh', s);
    // Before: kept, then the next sync dropped the link and disposed the node just linked.
    expect(() => links.add(node, removed)).toThrow(`BodyLinks.add: body ${removed.id} has been removed from its world`);
    links.sync(1);
    expect(node.isDisposed()).toBe(false);
    expect(node.rotationQuaternion).toBeNull();
    const dead = new TransformNode('dead', s);
    dead.dispose();
    expect(() => links.add(dead, body)).toThrow("BodyLinks.add: node TransformNode 'dead' is disposed");
    expect(() => new BodyLink(dead, body)).toThrow("BodyLink: node TransformNode 'dead' is disposed");
    expect(links.links.length).toBe(0);
  });

  it('sync drops a link whose node was disposed later (before: kept and written every frame)', () => {
    const s = scene();
    const world = new World();
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 1, y: 2, z: 3 } });
    const links = new BodyLinks();
    const node = new TransformNode('n', s);
    const other = new TransformNode('m', s);
    links.add(node, body);
    links.add(other, body);
    node.dispose();
    world.step(1 / 60);
    links.sync(1);
    expect(links.links.map((l) => l.node.name)).toEqual(['m']);
    expect(other.position.y).toBe(body.position.y);
  });

  it('a bad alpha is named with the call before any link is touched; syncNodeToBody names a null node or body', () => {
    const s = scene();
    const world = new World();
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 1, y: 2, z: 3 } });
    const links = new BodyLinks({ disposeRemoved: true });
    const gone = world.createBody({ type: 'dynamic', shape: new Sphere(0.5) });
    const goneNode = new TransformNode('gone', s);
    links.add(goneNode, gone);
    links.add(new TransformNode('n', s), body);
    world.removeBody(gone);
    // Before: "getInterpolatedPosition: alpha ...", thrown after the removed link's node was disposed but kept in the list.
    expect(() => links.sync(NaN)).toThrow('BodyLinks.sync: alpha must be a finite number (got NaN)');
    expect(goneNode.isDisposed()).toBe(false);
    expect(links.links.length).toBe(2);
    expect(() => syncNodeToBody(null as never, body)).toThrow('syncNodeToBody: node must be a Babylon TransformNode or mesh (got null)');
    expect(() => syncNodeToBody(new TransformNode('x', s), undefined as never)).toThrow('syncNodeToBody: body must be a footing RigidBody (got undefined)');
    expect(() => syncNodeToBody(new TransformNode('y', s), body, 'half' as never)).toThrow("syncNodeToBody: alpha must be a finite number (got 'half')");
    // Outside [0, 1] is legitimate: it extrapolates, as the body's getInterpolated* do.
    links.sync(1.5);
    expect(links.links.length).toBe(1);
  });
});

describe('shape meshes: bad options are named before anything is added to the scene', () => {
  it('meshFromShape checks options, counts, material, name, scene and the shape itself', () => {
    const s = scene();
    const ball = new Sphere(0.5);
    const count = s.meshes.length;
    expect(() => meshFromShape(ball, 'b', s, null as never)).toThrow('meshFromShape: options must be an object (got null)');
    // Before: 0 and NaN built Babylon's 32-segment default, -3 an empty mesh, tessellation 2 a flat cylinder.
    expect(() => meshFromShape(ball, 'b', s, { segments: 0 })).toThrow('meshFromShape: options.segments must be an integer in [2, 1000] (got 0)');
    expect(() => meshFromShape(ball, 'b', s, { segments: NaN })).toThrow('meshFromShape: options.segments must be an integer in [2, 1000] (got NaN)');
    expect(() => meshFromShape(ball, 'b', s, { segments: -3 })).toThrow('meshFromShape: options.segments must be an integer in [2, 1000] (got -3)');
    expect(() => meshFromShape(ball, 'b', s, { tessellation: 2 })).toThrow('meshFromShape: options.tessellation must be an integer in [3, 1000] (got 2)');
    expect(() => meshFromShape(ball, 'b', s, { subdivisions: 1.5 })).toThrow('meshFromShape: options.subdivisions must be an integer in [1, 1000] (got 1.5)');
    expect(() => meshFromShape(ball, 'b', s, { material: 'red' as never })).toThrow("meshFromShape: options.material must be a Babylon Material or null (got 'red')");
    expect(() => meshFromShape(ball, null as never, s)).toThrow('meshFromShape: name must be a string (got null)');
    // Before: Babylon's builders put the mesh into the last scene created.
    expect(() => meshFromShape(ball, 'b', undefined as never)).toThrow('meshFromShape: scene must be a Babylon Scene (got undefined)');
    expect(() => meshFromShape({ kind: ball.kind } as unknown as Shape, 'b', s)).toThrow('meshFromShape: shape must be a footing Shape (got an object)');
    expect(s.meshes.length).toBe(count);
    // Extreme but valid sizes build finite meshes.
    for (const shape of [new Sphere(1e6), new Sphere(1e-6), new Box({ x: 1e-6, y: 1e6, z: 1 })]) {
      const mesh = meshFromShape(shape, 'x', s);
      expect(mesh.getVerticesData('position')!.every((v) => Number.isFinite(v))).toBe(true);
    }
  });

  it('setMeshMaterial and createRagdollMeshes name bad arguments; a bad links option leaves no meshes behind', () => {
    const s = scene();
    expect(() => setMeshMaterial(null as never, null)).toThrow('setMeshMaterial: mesh must be a Babylon mesh (got null)');
    expect(() => setMeshMaterial(CreateBox('b', {}, s), 7 as never)).toThrow('setMeshMaterial: material must be a Babylon Material or null (got 7)');
    const ragdoll = createRagdoll(new World(), { position: { x: 0, y: 3, z: 0 } });
    const count = s.meshes.length;
    expect(() => createRagdollMeshes(ragdoll, s, { links: {} as never })).toThrow('createRagdollMeshes: options.links must be a BodyLinks (got an object)');
    expect(() => createRagdollMeshes(ragdoll, s, { segments: 0 })).toThrow('createRagdollMeshes: options.segments must be an integer in [2, 1000] (got 0)');
    expect(s.meshes.length).toBe(count);
  });
});
