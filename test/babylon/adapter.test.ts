// The Babylon adapter's pure parts, in node with Babylon's NullEngine (no GPU):
// colliders fitted to meshes, baked world-space triangles, interpolated links,
// the debug view's wireframe bookkeeping and the Inspector properties.
import { describe, expect, it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import { Scene } from '@babylonjs/core/scene';
import { Box, Capsule, Sphere, World, type RigidBody, type TriangleMesh, type Vec3 } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import {
  BodyLinks, CharacterDebugView, PhysicsDebugView, bakeTriangles, colliderFromMesh, createStaticMeshCollider, exposeInspectorProperties, heightFieldFromGround, triangleMeshFromMeshes,
} from '../../src/babylon/index';
import { terrainMesh } from '../../demo/level';

function scene(): Scene {
  return new Scene(new NullEngine());
}

describe('colliderFromMesh', () => {
  it('fits a box to a scaled, rotated, translated mesh', () => {
    const s = scene();
    const mesh = CreateBox('b', { width: 2, height: 1, depth: 4 }, s);
    mesh.position.set(1, 2, 3);
    mesh.scaling.set(1.5, 2, 0.5);
    mesh.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.7);
    // Babylon's matrices are Float32: compare to 1e-6.
    const c = colliderFromMesh(mesh, 'box');
    expect(c.shape).toBeInstanceOf(Box);
    expect(c.shape.halfExtents.x).toBeCloseTo(1.5, 6);
    expect(c.shape.halfExtents.y).toBeCloseTo(1, 6);
    expect(c.shape.halfExtents.z).toBeCloseTo(1, 6);
    expect(c.position.x).toBeCloseTo(1, 6);
    expect(c.position.y).toBeCloseTo(2, 6);
    expect(c.position.z).toBeCloseTo(3, 6);
    expect(Math.abs(c.rotation.y)).toBeCloseTo(Math.sin(0.35), 6);
    expect(Math.abs(c.rotation.w)).toBeCloseTo(Math.cos(0.35), 6);
  });

  it('fits a sphere and a capsule (Babylon capsule height = 2 (halfHeight + radius))', () => {
    const s = scene();
    const sphere = colliderFromMesh(CreateSphere('s', { diameter: 1.2 }, s), 'sphere');
    expect(sphere.shape).toBeInstanceOf(Sphere);
    expect(sphere.shape.radius).toBeCloseTo(0.6, 6);
    const capMesh = CreateCapsule('c', { radius: 0.3, height: 1.8 }, s);
    capMesh.position.y = 5;
    const cap = colliderFromMesh(capMesh, 'capsule');
    expect(cap.shape).toBeInstanceOf(Capsule);
    expect(cap.shape.radius).toBeCloseTo(0.3, 6);
    expect(cap.shape.halfHeight).toBeCloseTo(0.6, 6);
    expect(cap.position.y).toBeCloseTo(5, 9);
  });
});

describe('bakeTriangles / createStaticMeshCollider', () => {
  it('bakes world-space triangles of a node tree; a ray hits the moved, scaled ground where it is', () => {
    const s = scene();
    const root = new TransformNode('level', s);
    root.position.y = 2;
    const ground = CreateGround('g', { width: 4, height: 4 }, s);
    ground.parent = root;
    ground.scaling.set(2, 1, 2); // 8 × 8 m at y = 2
    const block = CreateBox('b', { size: 1 }, s);
    block.parent = root;
    block.position.set(10, 0.5, 0);
    const baked = bakeTriangles([ground, block]);
    expect(baked.indices.length).toBe(3 * (2 + 12));
    const world = new World();
    createStaticMeshCollider(world, root);
    const hit = world.raycast({ x: 3.5, y: 10, z: -3.5 }, { x: 3.5, y: -10, z: -3.5 });
    expect(hit).not.toBeNull();
    expect(hit!.point.y).toBeCloseTo(2, 9);
    const miss = world.raycast({ x: 4.5, y: 10, z: 0 }, { x: 4.5, y: -10, z: 0 });
    expect(miss).toBeNull();
    const top = world.raycast({ x: 10, y: 10, z: 0 }, { x: 10, y: -10, z: 0 });
    expect(top!.point.y).toBeCloseTo(3, 9);
    expect(top!.normal.y).toBeCloseTo(1, 9);
  });

  it('keeps faces outward under a mirroring scale (negative determinant)', () => {
    const s = scene();
    const box = CreateBox('b', { size: 2 }, s);
    box.scaling.z = -1;
    const { positions, indices } = bakeTriangles([box]);
    // TriangleMesh's front normal is (b − a) × (c − a): every one points away from the centre
    expect(outwardCount(positions, indices, { x: 0, y: 0, z: 0 })).toBe(12);
  });
});

/** Triangles of a bake whose front normal (b − a) × (c − a) points away from `centre` (n · (centroid − centre) > 0). */
function outwardCount(positions: Float64Array, indices: Uint32Array, centre: Vec3): number {
  let n = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const p = (k: number): number[] => [0, 1, 2].map((i) => positions[3 * indices[t + k]! + i]!);
    const [a, b, c] = [p(0), p(1), p(2)] as [number[], number[], number[]];
    const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!], v = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
    const nx = u[1]! * v[2]! - u[2]! * v[1]!, ny = u[2]! * v[0]! - u[0]! * v[2]!, nz = u[0]! * v[1]! - u[1]! * v[0]!;
    const cx = (a[0]! + b[0]! + c[0]!) / 3 - centre.x, cy = (a[1]! + b[1]! + c[1]!) / 3 - centre.y, cz = (a[2]! + b[2]! + c[2]!) / 3 - centre.z;
    if (nx * cx + ny * cy + nz * cz > 0) n++;
  }
  return n;
}

/** Count of triangles of `mesh` whose front normal points up (n.y > 0.5). */
function upFacing(mesh: TriangleMesh): number {
  let n = 0;
  for (let t = 0; t < mesh.triangleCount; t++) if (mesh.normals[3 * t + 1]! > 0.5) n++;
  return n;
}

/**
 * A ground from a height function, built the way Babylon's ground builders
 * (CreateGround, CreateGroundFromHeightMap) build theirs: an (n + 1)² grid,
 * rows from +z to −z, two triangles per cell in Babylon's winding.
 */
function heightGround(s: Scene, size: number, n: number, h: (x: number, z: number) => number): Mesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let row = 0; row <= n; row++) {
    for (let col = 0; col <= n; col++) {
      const x = (col * size) / n - size / 2, z = ((n - row) * size) / n - size / 2;
      positions.push(x, h(x, z), z);
    }
  }
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const a = col + row * (n + 1);
      indices.push(a + 1 + (n + 1), a + 1, a);
      indices.push(a + (n + 1), a + 1 + (n + 1), a);
    }
  }
  const normals: number[] = [];
  VertexData.ComputeNormals(positions, indices, normals);
  const data = new VertexData();
  data.positions = positions;
  data.indices = indices;
  data.normals = normals;
  const mesh = new Mesh('heights', s);
  data.applyToMesh(mesh);
  return mesh;
}

/** Drops `shape` at `at` onto the static bakes of `meshes`, steps `seconds`, returns the body. */
function dropOn(meshes: AbstractMesh[], shape: Sphere | Box, at: Vec3, seconds = 3, doubleSided = false): { body: RigidBody; world: World; collider: RigidBody } {
  const world = new World();
  const collider = world.createBody({ type: 'static', shape: triangleMeshFromMeshes(meshes, { doubleSided }) });
  const body = world.createBody({ type: 'dynamic', shape, position: at, friction: 0.8 });
  for (let i = 0; i < Math.round(seconds * 60); i++) world.step(1 / 60);
  return { body, world, collider };
}

// Rest heights: a body rests within the contact slop (5 mm) of touching.
const REST_TOL = 0.01;

describe('baked Babylon meshes collide on the side Babylon draws', () => {
  it('MeshBuilder.CreateGround: every face up; a ball and a box rest on top', () => {
    const s = scene();
    const ground = CreateGround('g', { width: 10, height: 10, subdivisions: 4 }, s);
    expect(upFacing(triangleMeshFromMeshes(ground))).toBe(32);
    const ball = dropOn([ground], new Sphere(0.5), { x: 1.3, y: 3, z: -0.7 });
    console.log(`ground: ball at y = ${ball.body.position.y.toFixed(4)}`);
    expect(Math.abs(ball.body.position.y - 0.5)).toBeLessThan(REST_TOL);
    const box = dropOn([ground], new Box({ x: 0.4, y: 0.25, z: 0.4 }), { x: -2, y: 2, z: 2 });
    expect(Math.abs(box.body.position.y - 0.25)).toBeLessThan(REST_TOL);
  });

  it('MeshBuilder.CreateBox: all 12 faces out; a ball on top rests on top; inside, one-sided pushes out through the face it touches, double-sided holds it', () => {
    const s = scene();
    const box = CreateBox('b', { size: 2 }, s);
    const baked = bakeTriangles([box]);
    expect(outwardCount(baked.positions, baked.indices, { x: 0, y: 0, z: 0 })).toBe(12);
    const onTop = dropOn([box], new Sphere(0.3), { x: 0.2, y: 3, z: -0.4 });
    expect(Math.abs(onTop.body.position.y - 1.3)).toBeLessThan(REST_TOL);
    // Released inside, touching the top face from behind: pushed out through it, it ends on top.
    const nearTop = dropOn([box], new Sphere(0.3), { x: 0.1, y: 0.8, z: 0.1 });
    // Released in the middle, touching nothing: it falls onto the bottom face from behind and
    // leaves through it (the inside of a one-sided closed mesh is solid).
    const middle = dropOn([box], new Sphere(0.3), { x: 0.1, y: 0, z: 0.1 });
    const middleDouble = dropOn([box], new Sphere(0.3), { x: 0.1, y: 0, z: 0.1 }, 3, true);
    console.log(`box: ball on top at y = ${onTop.body.position.y.toFixed(4)}; released inside near the top at ${nearTop.body.position.y.toFixed(4)}, in the middle at ${middle.body.position.y.toFixed(2)} (double-sided: ${middleDouble.body.position.y.toFixed(4)})`);
    expect(Math.abs(nearTop.body.position.y - 1.3)).toBeLessThan(REST_TOL);
    expect(middle.body.position.y).toBeLessThan(-2);
    expect(Math.abs(middleDouble.body.position.y - (-1 + 0.3))).toBeLessThan(REST_TOL);
  });

  it('a height-function ground built like CreateGroundFromHeightMap: every face up; balls rest on the surface, a ray meets it from above', () => {
    const s = scene();
    // A 1 m plateau (|x|, |z| < 1.5) with slopes of at most 20° down to 0 at |x| or |z| = 3.
    const ramp = (d: number): number => Math.min(1, Math.max(0, (3 - d) / 1.5));
    const h = (x: number, z: number): number => 0.5 * Math.min(ramp(Math.abs(x)), ramp(Math.abs(z)));
    const ground = heightGround(s, 12, 24, h);
    const mesh = triangleMeshFromMeshes(ground);
    expect(upFacing(mesh)).toBe(mesh.triangleCount);
    const plateau = dropOn([ground], new Sphere(0.4), { x: 0.25, y: 3, z: 0.25 });
    const flat = dropOn([ground], new Sphere(0.4), { x: 4.5, y: 3, z: -4.5 });
    console.log(`height ground: ball on the plateau at y = ${plateau.body.position.y.toFixed(4)}, on the flat at ${flat.body.position.y.toFixed(4)}`);
    expect(Math.abs(plateau.body.position.y - 0.9)).toBeLessThan(REST_TOL);
    expect(Math.abs(flat.body.position.y - 0.4)).toBeLessThan(REST_TOL);
    const hit = plateau.world.raycast({ x: 2.25, y: 5, z: 0 }, { x: 2.25, y: -5, z: 0 });
    expect(hit!.point.y).toBeCloseTo(h(2.25, 0), 6);
    expect(hit!.normal.y).toBeGreaterThan(0.9);
  });

  it('under a mirrored parent (negative scale, as glTF\'s __root__): ground and box faces keep their sides; bodies rest on top', () => {
    const s = scene();
    const root = new TransformNode('__root__', s);
    root.scaling.set(1, 1, -1);
    root.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), Math.PI);
    const ground = CreateGround('g', { width: 10, height: 10 }, s);
    ground.parent = root;
    const box = CreateBox('b', { size: 1 }, s);
    box.parent = root;
    box.position.set(2, 0.5, 1);
    const baked = bakeTriangles([box]);
    // the box's world centre: x mirrored by the 180° turn, z by the scale and the turn
    expect(outwardCount(baked.positions, baked.indices, { x: -2, y: 0.5, z: 1 })).toBe(12);
    const onGround = dropOn([ground, box], new Sphere(0.3), { x: 0, y: 3, z: -2 });
    const onBox = dropOn([ground, box], new Sphere(0.3), { x: -2, y: 3, z: 1 });
    console.log(`mirrored parent: ball on the ground at y = ${onGround.body.position.y.toFixed(4)}, on the box at ${onBox.body.position.y.toFixed(4)}`);
    expect(Math.abs(onGround.body.position.y - 0.3)).toBeLessThan(REST_TOL);
    expect(Math.abs(onBox.body.position.y - 1.3)).toBeLessThan(REST_TOL);
  });

  it('a glTF-style mesh (right-handed counter-clockwise data, ClockWise side orientation, under the mirrored __root__) rests balls on top', () => {
    const s = scene();
    const root = new TransformNode('__root__', s);
    root.scaling.set(1, 1, -1);
    root.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), Math.PI);
    // One quad at y = 0, wound counter-clockwise seen from +y in a right-handed frame (glTF's convention).
    const data = new VertexData();
    data.positions = [-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5];
    data.indices = [0, 2, 1, 0, 3, 2];
    const quad = new Mesh('gltfQuad', s);
    data.applyToMesh(quad);
    quad.sideOrientation = 0; // Material.ClockWiseSideOrientation, as the glTF loader sets in a left-handed scene
    quad.parent = root;
    expect(upFacing(triangleMeshFromMeshes(quad))).toBe(2);
    const ball = dropOn([quad], new Sphere(0.5), { x: 1, y: 3, z: 1 });
    expect(Math.abs(ball.body.position.y - 0.5)).toBeLessThan(REST_TOL);
  });

  it('follows the side orientation: a ground set to the other orientation faces down, as Babylon draws it; a right-handed scene\'s ground faces up', () => {
    const s = scene();
    const flipped = CreateGround('g', { width: 4, height: 4 }, s);
    flipped.sideOrientation = 0; // front faces are now the undersides
    expect(upFacing(triangleMeshFromMeshes(flipped))).toBe(0);
    const material = new StandardMaterial('m', s);
    material.sideOrientation = 0; // a material's orientation overrides the mesh's
    const viaMaterial = CreateGround('g2', { width: 4, height: 4 }, s);
    viaMaterial.material = material;
    expect(upFacing(triangleMeshFromMeshes(viaMaterial))).toBe(0);
    const rh = scene();
    rh.useRightHandedSystem = true;
    const rhGround = CreateGround('g', { width: 10, height: 10 }, rh);
    expect(upFacing(triangleMeshFromMeshes(rhGround))).toBe(2);
    const ball = dropOn([rhGround], new Sphere(0.5), { x: 0, y: 3, z: 0 });
    expect(Math.abs(ball.body.position.y - 0.5)).toBeLessThan(REST_TOL);
  });

  it('the demo level\'s terrain patch (hand-built VertexData) bakes facing up', () => {
    const mesh = triangleMeshFromMeshes(terrainMesh(scene(), 12, 24, -14, -18));
    expect(mesh.triangleCount).toBe(2 * 24 * 24);
    expect(upFacing(mesh)).toBe(mesh.triangleCount);
  });

  it('a character standing on a baked ground is grounded and solves in few iterations', () => {
    const s = scene();
    const world = new World();
    createStaticMeshCollider(world, CreateGround('g', { width: 20, height: 20, subdivisions: 8 }, s));
    const controller = new CharacterController(world, { position: { x: 0.3, y: 0.92, z: -0.2 } });
    const walker = new Walker(controller);
    let worst = 0, worstSolve = 0, grounded = 0;
    for (let i = 0; i < 120; i++) {
      const r = walker.update(1 / 60);
      world.step(1 / 60);
      if (i >= 30) {
        worst = Math.max(worst, r.iterations);
        worstSolve = Math.max(worstSolve, r.maxSolveIterations);
        if (r.grounded) grounded++;
      }
    }
    console.log(`character on a baked ground: at most ${worst} NGS iterations per move (${worstSolve} in one solve, maxIterations ${controller.settings.maxIterations}), grounded ${grounded}/90, y = ${controller.position.y.toFixed(4)}`);
    expect(grounded).toBe(90);
    expect(worstSolve).toBeLessThanOrEqual(2);
    expect(worst).toBeLessThanOrEqual(4);
    // capsule radius 0.3 + half height 0.6 over the ground at y = 0, within the skin and slop
    expect(Math.abs(controller.position.y - 0.9)).toBeLessThan(0.03);
  });
});

describe('BodyLinks', () => {
  it('places nodes between the last two steps by alpha and drops removed bodies', () => {
    const s = scene();
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), linearVelocity: { x: 6, y: 0, z: 0 } });
    const node = new TransformNode('n', s);
    const links = new BodyLinks({ disposeRemoved: true });
    links.add(node, body);
    world.step(1 / 60);
    links.sync(0.25);
    // previous x = 0, current x = 0.1: alpha 0.25 → 0.025
    expect(node.position.x).toBeCloseTo(0.025, 12);
    links.sync(1);
    expect(node.position.x).toBeCloseTo(0.1, 12);
    expect(node.rotationQuaternion!.w).toBeCloseTo(1, 12);
    world.removeBody(body);
    links.sync(1);
    expect(links.links.length).toBe(0);
    expect(node.isDisposed()).toBe(true);
  });
});

describe('PhysicsDebugView', () => {
  it('keeps one wireframe per body, follows added/removed bodies, and dispose removes everything', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const a = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 } });
    const meshesBefore = s.meshes.length;
    const inits: string[] = [];
    let updates = 0;
    const view = new PhysicsDebugView(s, world, { color: 0xff8800, onInit: (b, m) => inits.push(`${b.id}:${m.name}`), onUpdate: () => { updates++; } });
    expect(view.wireframeCount).toBe(2);
    expect(inits.length).toBe(2);
    for (let i = 0; i < 5; i++) world.step(1 / 60);
    const ball = world.createBody({ type: 'dynamic', shape: new Capsule(0.2, 0.3), position: { x: 2, y: 1, z: 0 } });
    view.update(1);
    expect(view.wireframeCount).toBe(3);
    expect(view.meshOf(a)!.position.y).toBeCloseTo(a.position.y, 12);
    expect(view.meshOf(ball)).toBeDefined();
    world.removeBody(ball);
    view.update(1);
    expect(view.wireframeCount).toBe(2);
    expect(updates).toBe(2 + 3 + 2);
    view.dispose();
    expect(s.meshes.length).toBe(meshesBefore);
  });
});

describe('CharacterDebugView and Inspector properties', () => {
  it('sums the frame numbers and forwards node properties to the settings', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const controller = new CharacterController(world, { position: { x: 0, y: 0.92, z: 0 } });
    const walker = new Walker(controller);
    const view = new CharacterDebugView(s, controller);
    let iterations = 0;
    for (let i = 0; i < 3; i++) {
      const r = walker.update(1 / 60);
      iterations += r.iterations;
      view.record(r);
    }
    view.update();
    expect(view.stats.moves).toBe(3);
    expect(view.stats.iterations).toBe(iterations);
    expect(view.stats.grounded).toBe(true);
    view.update();
    expect(view.stats.moves).toBe(0);

    const node = new TransformNode('player', s);
    // typed: no cast needed to reach the properties
    const props = exposeInspectorProperties(node, { controller, walker, world });
    expect(props).toBe(node);
    // 12 character + 9 walker + 9 solver sliders, 3 checkboxes, 2 option lists
    expect(node.inspectableCustomProperties.length).toBe(12 + 9 + 9 + 3 + 2);
    for (const entry of node.inspectableCustomProperties) expect(entry.propertyName in node).toBe(true);
    props.characterMaxSlopeDegrees = 30;
    expect(controller.settings.maxSlopeDegrees).toBe(30);
    props.characterMaxIterations = 7.6; // integer setting: rounded
    expect(controller.settings.maxIterations).toBe(8);
    props.characterStepHeight = 5; // clamped to the slider range [0, 1]
    expect(controller.settings.stepHeight).toBe(1);
    props.walkerSpeed = 6;
    expect(walker.settings.speed).toBe(6);
    props.walkerAirDrag = 1.5;
    props.walkerTurnSpeed = 100; // clamped to [0, 50]
    expect(walker.settings.airDrag).toBe(1.5);
    expect(walker.settings.turnSpeed).toBe(50);
    const onlyWalker = exposeInspectorProperties(new TransformNode('w', s), { walker });
    onlyWalker.walkerJumpSpeed = 7;
    expect(walker.settings.jumpSpeed).toBe(7);
    expect('characterMaxSlopeDegrees' in onlyWalker).toBe(false);
    // @ts-expect-error a node exposed for a walker only has no character properties
    void onlyWalker.characterMaxSlopeDegrees;
    props.solverVelocityIterations = 12;
    props.solverWarmStarting = false;
    props.solverPositionCorrection = 'ngs';
    expect(world.solver.velocityIterations).toBe(12);
    expect(world.solver.warmStarting).toBe(false);
    expect(world.solver.positionCorrection).toBe('ngs');
    expect(props.characterMaxSlopeDegrees).toBe(30);
    // the next move runs with the changed settings
    walker.update(1 / 60);
    world.step(1 / 60);
    view.dispose();
  });
});

/** What a scene holds, by name: a refused call must leave it as it was. */
function sceneContents(s: Scene): { meshes: string[]; materials: string[]; transformNodes: string[]; geometries: number } {
  return { meshes: s.meshes.map((m) => m.name), materials: s.materials.map((m) => m.name), transformNodes: s.transformNodes.map((t) => t.name), geometries: s.geometries.length };
}

/** A mesh of the given local positions (and indices; none: a triangle list). */
function customMesh(s: Scene, name: string, positions: number[], indices?: number[]): Mesh {
  const m = new Mesh(name, s);
  const data = new VertexData();
  data.positions = positions;
  if (indices) data.indices = indices;
  data.applyToMesh(m);
  return m;
}

const TRIANGLE = [0, 0, 0, 1, 0, 0, 0, 0, 1];
const QUAD = [-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1];
const WORLD_MATRIX_NAN = 'has a non-finite world matrix (a NaN or infinite position, rotation or scaling of the mesh or a parent)';

describe('colliders refuse bad meshes by mesh name', () => {
  it('an index is checked against its own mesh\'s vertices (not the concatenation) and named with the mesh', () => {
    const s = scene();
    const a = customMesh(s, 'a', TRIANGLE, [0, 1, 4]);
    const b = CreateBox('b2', { size: 1 }, s);
    b.position.x = 50;
    // Index 4 of a 3-vertex mesh used to be read as the box's vertex 1 (a triangle spanning both meshes).
    expect(() => bakeTriangles([a, b])).toThrow("bakeTriangles: mesh 'a' indices[2] must be an integer in [0, 2] (its vertex count is 3; got 4)");
    expect(() => triangleMeshFromMeshes([a, b])).toThrow("triangleMeshFromMeshes: mesh 'a' indices[2] must be an integer in [0, 2] (its vertex count is 3; got 4)");
    expect(() => triangleMeshFromMeshes(customMesh(s, 'neg', QUAD, [0, 1, -1]))).toThrow("triangleMeshFromMeshes: mesh 'neg' indices[2] must be an integer in [0, 3] (its vertex count is 4; got -1)");
    const world = new World();
    world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 2, z: 0 } });
    const before = world.snapshot();
    expect(() => createStaticMeshCollider(world, [a, b])).toThrow("createStaticMeshCollider: mesh 'a' indices[2] must be an integer in [0, 2] (its vertex count is 3; got 4)");
    expect(world.snapshot()).toEqual(before);
    // Its last vertex is in range: 1 + 12 triangles.
    expect(triangleMeshFromMeshes([customMesh(s, 'ok', TRIANGLE, [0, 1, 2]), b]).triangleCount).toBe(13);
  });

  it('a NaN vertex, a NaN (own or parent) world matrix and a vertex beyond MAX_POSITION name the mesh', () => {
    const s = scene();
    expect(() => triangleMeshFromMeshes(customMesh(s, 'nan', [NaN, 0, 0, 1, 0, 0, 0, 0, 1]))).toThrow("triangleMeshFromMeshes: mesh 'nan' positions[0] must be a finite number (got NaN)");
    const scaled = CreateBox('ns', { size: 1 }, s);
    scaled.scaling.set(NaN, 1, 1);
    expect(() => triangleMeshFromMeshes(scaled)).toThrow(`triangleMeshFromMeshes: mesh 'ns' ${WORLD_MATRIX_NAN}`);
    const parent = new TransformNode('p', s);
    parent.position.y = NaN;
    const child = CreateBox('child', { size: 1 }, s);
    child.parent = parent;
    expect(() => bakeTriangles([child])).toThrow(`bakeTriangles: mesh 'child' ${WORLD_MATRIX_NAN}`);
    const far = CreateBox('far', { size: 1 }, s);
    far.position.x = 2e6;
    expect(() => triangleMeshFromMeshes(far)).toThrow("triangleMeshFromMeshes: mesh 'far' vertex 0 is at (2000000.5, -0.5, 0.5) in world space, beyond ±1000000 m (MAX_POSITION)");
    const turned = CreateBox('rotnan', { size: 1 }, s);
    turned.rotation.set(NaN, 0, 0);
    expect(() => colliderFromMesh(turned, 'box')).toThrow(`colliderFromMesh: mesh 'rotnan' ${WORLD_MATRIX_NAN}`);
    const ground = CreateGround('g', { width: 4, height: 4, subdivisions: 4 }, s);
    const heights = ground.getVerticesData('position')!.slice();
    heights[4] = NaN;
    ground.setVerticesData('position', heights);
    expect(() => heightFieldFromGround(ground)).toThrow("heightFieldFromGround: mesh 'g' positions[4] must be a finite number (got NaN)");
  });

  it('null or wrong arguments are named, and the world is left as it was', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 2, z: 0 } });
    const before = world.snapshot();
    const box = CreateBox('box', {}, s);
    expect(() => triangleMeshFromMeshes(null as never)).toThrow('triangleMeshFromMeshes: meshes must be a Babylon mesh or an array of meshes (got null)');
    expect(() => triangleMeshFromMeshes([null as never])).toThrow('triangleMeshFromMeshes: meshes[0] must be a Babylon mesh (got null)');
    expect(() => triangleMeshFromMeshes(new TransformNode('tn', s) as never)).toThrow("triangleMeshFromMeshes: meshes must be a Babylon mesh or an array of meshes (got TransformNode 'tn')");
    expect(() => createStaticMeshCollider(world, null as never)).toThrow('createStaticMeshCollider: root must be a Babylon node or an array of meshes (got null)');
    expect(() => createStaticMeshCollider(world, [box, null as never])).toThrow('createStaticMeshCollider: root[1] must be a Babylon mesh (got null)');
    expect(() => createStaticMeshCollider(world, [box], null as never)).toThrow('createStaticMeshCollider: options must be an object (got null)');
    expect(() => createStaticMeshCollider(world, [box], { filter: 5 as never })).toThrow('createStaticMeshCollider: options.filter must be a function (mesh) => boolean (got 5)');
    expect(() => createStaticMeshCollider(null as never, [box])).toThrow('createStaticMeshCollider: world must be a footing World (got null)');
    expect(() => heightFieldFromGround(null as never)).toThrow('heightFieldFromGround: ground must be a Babylon mesh (got null)');
    expect(() => colliderFromMesh(undefined as never, 'box')).toThrow('colliderFromMesh: mesh must be a Babylon mesh (got undefined)');
    expect(world.snapshot()).toEqual(before);
    expect(world.bodies.length).toBe(1);
  });
});

describe('BodyLinks.add refuses a bad link before keeping it', () => {
  it('an undefined body (getBodyById of a missing id): named, nothing kept, the node untouched; sync goes on', () => {
    const s = scene();
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.5), linearVelocity: { x: 6, y: 0, z: 0 } });
    const links = new BodyLinks();
    const good = new TransformNode('good', s);
    links.add(good, body);
    const bad = new TransformNode('bad', s);
    expect(() => links.add(bad, world.getBodyById(99)!)).toThrow('BodyLinks.add: body must be a footing RigidBody (got undefined)');
    expect(() => links.add(null as never, body)).toThrow('BodyLinks.add: node must be a Babylon TransformNode or mesh (got null)');
    expect(links.links.length).toBe(1);
    expect(bad.rotationQuaternion).toBeNull();
    expect(bad.position.x).toBe(0);
    world.step(1 / 60);
    links.sync(1);
    expect(good.position.x).toBeCloseTo(0.1, 12);
  });
});

describe('PhysicsDebugView and CharacterDebugView options', () => {
  it('a bad option is refused by name before anything is added to the scene', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5, z: 0 } });
    const before = sceneContents(s);
    const refused: [object | null, string][] = [
      [{ maxLines: -1 }, 'PhysicsDebugView: maxLines must be an integer in [1, 65536] (got -1)'],
      [{ maxLines: 2.5 }, 'PhysicsDebugView: maxLines must be an integer in [1, 65536] (got 2.5)'],
      [{ maxLines: 65537 }, 'PhysicsDebugView: maxLines must be an integer in [1, 65536] (got 65537)'],
      [{ scale: NaN }, 'PhysicsDebugView: scale must be a finite number > 0 (got NaN)'],
      [{ color: 'zz' }, "PhysicsDebugView: color must be a hex colour '#RRGGBB' (got 'zz')"],
      [{ color: -1 }, 'PhysicsDebugView: color must be an integer in [0, 0xffffff] (0xRRGGBB; got -1)'],
      [{ sleepingColor: {} }, 'PhysicsDebugView: sleepingColor must be a Color3, a hex string \'#RRGGBB\' or a number 0xRRGGBB (got an object)'],
      [{ normalLength: Infinity }, 'PhysicsDebugView: normalLength must be a finite number ≥ 0 (got Infinity)'],
      [{ onInit: 'log' }, "PhysicsDebugView: onInit must be a function (got 'log')"],
      [{ contacts: 1 }, 'PhysicsDebugView: contacts must be a boolean (got 1)'],
      [null, 'PhysicsDebugView: options must be an object (got null)'],
    ];
    for (const [options, message] of refused) {
      expect(() => new PhysicsDebugView(s, world, options as never)).toThrow(message);
      expect(sceneContents(s)).toEqual(before);
    }
    expect(() => new PhysicsDebugView(s, null as never)).toThrow('PhysicsDebugView: world must be a footing World (got null)');
    // An onInit that throws: what the view had added is taken out again.
    expect(() => new PhysicsDebugView(s, world, { onInit: () => { throw new Error('onInit failed'); } })).toThrow('onInit failed');
    expect(sceneContents(s)).toEqual(before);
    const view = new PhysicsDebugView(s, world, { color: '#ff8800', maxLines: 16 });
    expect((view.meshOf(world.bodies[0]!)!.material as StandardMaterial).emissiveColor.asArray()).toEqual([1, 0x88 / 255, 0]);
    expect(() => { view.normalLength = NaN; }).toThrow('PhysicsDebugView: normalLength must be a finite number ≥ 0 (got NaN)');
    expect(view.normalLength).toBe(0.3);
    view.dispose();
    expect(sceneContents(s)).toEqual(before);
  });

  it('CharacterDebugView: planeSize and record\'s result are checked; a refused record leaves the totals alone', () => {
    const s = scene();
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
    const controller = new CharacterController(world, { position: { x: 0, y: 0.92, z: 0 } });
    expect(() => new CharacterDebugView(s, controller, { planeSize: -1 })).toThrow('CharacterDebugView: planeSize must be a finite number > 0 (got -1)');
    expect(() => new CharacterDebugView(s, controller, { planeSize: NaN })).toThrow('CharacterDebugView: planeSize must be a finite number > 0 (got NaN)');
    expect(() => new CharacterDebugView(s, null as never)).toThrow('CharacterDebugView: controller must be a CharacterController (got null)');
    const view = new CharacterDebugView(s, controller);
    const r = new Walker(controller).update(1 / 60);
    const iterations = r.iterations, sweeps = r.sweeps;
    expect(sweeps).toBeGreaterThan(0);
    view.record(r);
    expect(() => view.record(null as never)).toThrow('CharacterDebugView.record: result must be a MoveResult (got null)');
    expect(() => view.record({} as never)).toThrow('CharacterDebugView.record: result.iterations must be an integer in [0, 9007199254740991] (got undefined)');
    expect(() => view.record({ ...r, sweeps: 1, steppedUp: 'no' } as never)).toThrow("CharacterDebugView.record: result.steppedUp must be a boolean (got no)");
    view.update();
    expect(view.stats.moves).toBe(1);
    expect(view.stats.iterations).toBe(iterations);
    expect(view.stats.sweeps).toBe(sweeps);
    view.dispose();
  });
});

describe('exposeInspectorProperties, called again or refused', () => {
  it('a second call replaces the entries (14, not 28) and re-points the properties to the new targets', () => {
    const s = scene();
    const first = new World(), second = new World();
    const node = exposeInspectorProperties(new TransformNode('n', s), { world: first });
    expect(node.inspectableCustomProperties.length).toBe(9 + 3 + 2);
    exposeInspectorProperties(node, { world: second });
    expect(node.inspectableCustomProperties.length).toBe(14);
    expect(new Set(node.inspectableCustomProperties.map((e) => e.propertyName)).size).toBe(14);
    node.solverVelocityIterations = 17;
    expect(second.solver.velocityIterations).toBe(17);
    expect(first.solver.velocityIterations).not.toBe(17);
    // Adding a walker keeps the 14 and adds its 9.
    const walker = new Walker(new CharacterController(second, { position: { x: 0, y: 1, z: 0 } }));
    exposeInspectorProperties(node, { walker });
    expect(node.inspectableCustomProperties.length).toBe(14 + 9);
  });

  it('a name the node cannot take is found before any property is defined; null targets are named', () => {
    const s = scene();
    const node = new TransformNode('fixed', s);
    Object.defineProperty(node, 'solverSleeping', { value: 1, configurable: false });
    expect(() => exposeInspectorProperties(node, { world: new World() })).toThrow('exposeInspectorProperties: the node already has a property "solverSleeping"');
    expect('solverVelocityIterations' in node).toBe(false);
    expect(node.inspectableCustomProperties).toBeFalsy();
    expect(() => exposeInspectorProperties(new TransformNode('t', s), null as never)).toThrow('exposeInspectorProperties: targets must be an object (got null)');
    expect(() => exposeInspectorProperties(new TransformNode('t2', s), { walker: {} as never })).toThrow('exposeInspectorProperties: targets.walker must be a Walker (got an object)');
  });
});
