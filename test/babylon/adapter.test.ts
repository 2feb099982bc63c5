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
import { Scene } from '@babylonjs/core/scene';
import { Box, Capsule, Sphere, World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import {
  BodyLinks, CharacterDebugView, PhysicsDebugView, bakeTriangles, colliderFromMesh, createStaticMeshCollider, exposeInspectorProperties,
} from '../../src/babylon/index';

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
    // every triangle's normal points away from the centre: n · (centroid − 0) > 0
    for (let t = 0; t < indices.length; t += 3) {
      const p = (k: number) => [positions[3 * indices[t + k]!]!, positions[3 * indices[t + k]! + 1]!, positions[3 * indices[t + k]! + 2]!] as const;
      const [a, b, c] = [p(0), p(1), p(2)];
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      // Babylon's front faces are clockwise (left-handed): the outward normal is v × u
      const n = [v[1]! * u[2]! - v[2]! * u[1]!, v[2]! * u[0]! - v[0]! * u[2]!, v[0]! * u[1]! - v[1]! * u[0]!];
      const cen = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
      expect(n[0]! * cen[0]! + n[1]! * cen[1]! + n[2]! * cen[2]!).toBeGreaterThan(0);
    }
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
    const added = exposeInspectorProperties(node, { controller, walker, world });
    expect(added.length).toBe(node.inspectableCustomProperties.length);
    const props = node as unknown as Record<string, unknown>;
    props.characterMaxSlopeDegrees = 30;
    expect(controller.settings.maxSlopeDegrees).toBe(30);
    props.characterMaxIterations = 7.6; // integer setting: rounded
    expect(controller.settings.maxIterations).toBe(8);
    props.characterStepHeight = 5; // clamped to the slider range [0, 1]
    expect(controller.settings.stepHeight).toBe(1);
    props.walkerSpeed = 6;
    expect(walker.settings.speed).toBe(6);
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
