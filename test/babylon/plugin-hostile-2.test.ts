// Hostile and careless input to FootingPlugin, second probe: thin instances,
// raycast, lifetimes (disposed shapes, joints between bodies that cannot
// move, mass and targets) and shape parameters. Each test fails on the code
// before the probe. Frames of 1/60 s, gravity 9.81 m/s².
import { describe, expect, it } from 'vitest';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import { PhysicsMotionType, PhysicsPrestepType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import {
  PhysicsShape, PhysicsShapeBox, PhysicsShapeCapsule, PhysicsShapeContainer, PhysicsShapeConvexHull, PhysicsShapeCylinder, PhysicsShapeMesh, PhysicsShapeSphere,
} from '@babylonjs/core/Physics/v2/physicsShape';
import { BallAndSocketConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import { PhysicsRaycastResult } from '@babylonjs/core/Physics/physicsRaycastResult';
import type { Scene } from '@babylonjs/core/scene';
import { FootingPlugin } from '../../src/babylon/index';
import { Box } from '../../src/index';
import { ground, physicsScene, runFrames } from './plugin-scenes';

/** Three 1 m box thin instances at x = −2, 0, 2 and heights 1, 2, 3, as one DYNAMIC body of 1 kg each. */
function instancedBoxes(scene: Scene): { mesh: Mesh; body: PhysicsBody } {
  // The NullEngine reports no instanced arrays, and Babylon then ignores thin instances.
  (scene.getEngine().getCaps() as { instancedArrays: boolean }).instancedArrays = true;
  const mesh = CreateBox('boxes', { size: 1 }, scene);
  mesh.thinInstanceAdd([Matrix.Translation(-2, 1, 0), Matrix.Translation(0, 2, 0), Matrix.Translation(2, 3, 0)]);
  const body = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, scene);
  body.shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene);
  body.setMassProperties({ mass: 1 });
  return { mesh, body };
}

/** A mesh of the given positions (and indices, when given). */
function meshOf(scene: Scene, name: string, positions: number[], indices?: number[]): Mesh {
  const m = new Mesh(name, scene);
  const vd = new VertexData();
  vd.positions = positions;
  if (indices) vd.indices = indices;
  vd.applyToMesh(m);
  return m;
}

describe('FootingPlugin hostile input: thin instances', () => {
  it('updateBodyInstances with a NaN thin instance matrix is refused naming the mesh and the instance; no record or body is added and none moves', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const { mesh, body } = instancedBoxes(scene);
    // Instance 0 was moved by the user: an accepted update would teleport it.
    mesh.thinInstanceSetMatrixAt(0, Matrix.Translation(-2, 7, 0));
    mesh.thinInstanceAdd(Matrix.Translation(NaN, 0, 0));
    expect(() => body.updateBodyInstances()).toThrow(/^FootingPlugin: node 'boxes' thin instance 3 position\.x must be a finite number \(got NaN\)$/);
    expect(body.numInstances).toBe(3);
    expect(plugin.world.bodies.length).toBe(3);
    expect(plugin.world.bodies.map((b) => b.position.y)).toEqual([1, 2, 3]);
    scene.dispose();
  });

  it('a thin instance buffer made smaller without updateBodyInstances: the TELEPORT prestep and the sync skip the instances without a matrix; the update then drops them', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, Vector3.Zero());
    const { mesh, body } = instancedBoxes(scene);
    body.setPrestepType(PhysicsPrestepType.TELEPORT);
    // One matrix where there were three (it used to read NaN past the buffer's end and throw every frame).
    mesh.thinInstanceSetBuffer('matrix', new Float32Array(Matrix.Translation(0, 5, 0).asArray()), 16);
    runFrames(scene, 2);
    expect(body.numInstances).toBe(3);
    const [b0, b1, b2] = plugin.world.bodies;
    expect([b0!.position.x, b0!.position.y]).toEqual([0, 5]);
    expect([b1!.position.x, b1!.position.y, b2!.position.x, b2!.position.y]).toEqual([0, 2, 2, 3]);
    expect(Array.from(mesh._thinInstanceDataStorage.matrixData!.subarray(12, 15))).toEqual([0, 5, 0]);
    body.updateBodyInstances();
    expect(body.numInstances).toBe(1);
    expect(plugin.world.bodies.length).toBe(1);
    scene.dispose();
  });
});

describe('FootingPlugin hostile input: raycast', () => {
  it('a query mask that is not 32 bits, a non-finite or missing from/to and a result that is not one are refused by name; the result is left as it was', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    ground(scene);
    const r = new PhysicsRaycastResult();
    const down = (q?: object): void => plugin.raycast(new Vector3(0, 5, 0), new Vector3(0, -5, 0), r, q as never);
    down();
    expect([r.hasHit, r.hitDistance]).toEqual([true, 5]);
    // NaN, 2^33 and 'x' became 0 (no hits) in silence, 1.5 became 1.
    for (const [q, re] of [
      [{ membership: NaN }, /^FootingPlugin\.raycast query\.membership must be an integer in \[-2\^31, 2\^32 - 1\] \(32 filter bits; got NaN\)$/],
      [{ membership: 1.5 }, /raycast query\.membership must be an integer .* got 1\.5\)$/],
      [{ collideWith: 2 ** 33 }, /raycast query\.collideWith must be an integer .* got 8589934592\)$/],
      [{ collideWith: 'x' }, /raycast query\.collideWith must be an integer .* got x\)$/],
    ] as const) {
      expect(() => down(q)).toThrow(re);
      expect([r.hasHit, r.hitDistance]).toEqual([true, 5]);
    }
    expect(() => plugin.raycast(new Vector3(NaN, 5, 0), new Vector3(0, -5, 0), r)).toThrow(/^FootingPlugin\.raycast from must be a vector of finite numbers \(got NaN, 5, 0\)$/);
    expect(() => plugin.raycast(new Vector3(0, 5, 0), null as never, r)).toThrow(/^FootingPlugin\.raycast to must be a vector of finite numbers \(got null\)$/);
    expect(() => plugin.raycast(new Vector3(0, 5, 0), new Vector3(0, -5, 0), null as never)).toThrow(/^FootingPlugin\.raycast: result must be a PhysicsRaycastResult or an array of them \(got null\)$/);
    expect([r.hasHit, r.hitDistance]).toEqual([true, 5]);
    // Masks in range still filter as before: the ground (membership all bits) is hit by a query colliding with bit 0 only.
    down({ membership: 1, collideWith: 1 });
    expect(r.hasHit).toBe(true);
    scene.dispose();
  });
});

describe('FootingPlugin hostile input: lifetimes', () => {
  it('a disposed PhysicsShape: the body using it keeps colliding and it reads back; changing it or giving it to a body or a container is refused by name', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    ground(scene);
    const ball = CreateSphere('ball', { diameter: 1 }, scene);
    ball.position.y = 2;
    const a = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    a.shape.dispose();
    runFrames(scene, 120);
    expect(ball.position.y).toBeCloseTo(0.5, 2);
    expect(plugin.getShapeType(a.shape)).toBe(PhysicsShapeType.SPHERE);
    const other = new PhysicsAggregate(CreateBox('other', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    expect(() => { other.body.shape = a.shape; }).toThrow(/^FootingPlugin\.setShape: the shape was disposed \(PhysicsShape\.dispose\)/);
    // Babylon's shape setter stores the shape before asking the plugin: the plugin puts the box back, and the footing body keeps it.
    expect(other.body.shape).toBe(other.shape);
    expect(plugin.world.bodies.find((b) => (b.userData as { body: unknown }).body === other.body)!.shape).toBeInstanceOf(Box);
    const friction = plugin.getMaterial(a.shape).friction;
    expect(() => plugin.setMaterial(a.shape, { friction: 0.9 })).toThrow(/^FootingPlugin\.setMaterial: the shape was disposed/);
    expect(plugin.getMaterial(a.shape).friction).toBe(friction);
    // A container keeps a child disposed after it was added (adding another used to read the child's data as undefined).
    const table = new PhysicsShapeContainer(scene);
    const leg = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(0.1, 1, 0.1), scene);
    table.addChild(leg, new Vector3(-1, 0, 0));
    leg.dispose();
    table.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(0.1, 1, 0.1), scene), new Vector3(1, 0, 0));
    expect(plugin.getNumChildren(table)).toBe(2);
    expect(plugin.getBoundingBox(table).extendSize.x).toBeCloseTo(1.05, 9);
    expect(() => table.addChild(leg)).toThrow(/^FootingPlugin\.addChild: the shape was disposed/);
    scene.dispose();
  });

  it('a constraint whose bodies both become STATIC keeps its pair without a footing joint and gets it back when one is DYNAMIC again; the same between STATIC and ANIMATED at addConstraint', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, Vector3.Zero());
    const make = (name: string, x: number): PhysicsAggregate => {
      const m = CreateSphere(name, { diameter: 0.5 }, scene);
      m.position.x = x;
      return new PhysicsAggregate(m, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    };
    const a = make('a', 0), b = make('b', 1);
    const c = new BallAndSocketConstraint(new Vector3(0.5, 0, 0), new Vector3(-0.5, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    a.body.addConstraint(b.body, c);
    expect(plugin.world.joints.length).toBe(1);
    a.body.setMotionType(PhysicsMotionType.STATIC);
    // Used to throw 'joint: at least one body must be dynamic' (and leave b DYNAMIC).
    b.body.setMotionType(PhysicsMotionType.STATIC);
    expect([a.body.getMotionType(), b.body.getMotionType()]).toEqual([PhysicsMotionType.STATIC, PhysicsMotionType.STATIC]);
    expect(plugin.world.joints.length).toBe(0);
    expect(plugin.getBodiesUsingConstraint(c).length).toBe(1);
    b.body.setMotionType(PhysicsMotionType.DYNAMIC);
    expect(plugin.world.joints.length).toBe(1);
    // The joint holds b where it was: a push sideways swings it about the pivot at x = 0.5, 0.5 m away.
    b.body.setLinearVelocity(new Vector3(0, 1, 0));
    runFrames(scene, 60);
    const bx = b.transformNode.position, pivot = new Vector3(0.5, 0, 0);
    expect(Vector3.Distance(bx, pivot)).toBeCloseTo(0.5, 2);
    const d = make('d', 5);
    d.body.setMotionType(PhysicsMotionType.ANIMATED);
    const c2 = new BallAndSocketConstraint(Vector3.Zero(), new Vector3(5, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    a.body.addConstraint(d.body, c2);
    expect(plugin.world.joints.length).toBe(1);
    expect(plugin.getBodiesUsingConstraint(c2).length).toBe(1);
    scene.dispose();
  });

  it('setMassProperties keeps a copy of its argument, checks the inertia by name on any motion type and refuses a missing argument', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const a = new PhysicsAggregate(CreateBox('a', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    const props = { mass: 2, inertia: new Vector3(1, 1, 1) };
    a.body.setMassProperties(props);
    // Changed by the caller afterwards: used to reach the next rebuild (a NaN mass refused at setMotionType).
    props.mass = NaN;
    props.inertia.x = -1;
    a.body.setMotionType(PhysicsMotionType.ANIMATED);
    a.body.setMotionType(PhysicsMotionType.DYNAMIC);
    expect(a.body.getMassProperties().mass).toBe(2);
    expect(a.body.getMassProperties().inertia!.x).toBeCloseTo(1, 12);
    // On a STATIC body the inertia used to be stored unchecked and refused later by setMotionType, under the core's name.
    a.body.setMotionType(PhysicsMotionType.STATIC);
    expect(() => a.body.setMassProperties({ inertia: new Vector3(-1, 1, 1) })).toThrow(/^FootingPlugin\.setMassProperties: massProps\.inertia\.x must be a finite number > 0, or 0 for an axis the body does not turn about \(got -1\)$/);
    expect(() => a.body.setMassProperties({ inertia: new Vector3(1, 1, NaN) })).toThrow(/massProps\.inertia\.z must be a finite number > 0, or 0 .*\(got NaN\)/);
    expect(() => a.body.setMassProperties(null as never)).toThrow(/^FootingPlugin\.setMassProperties: massProps must be an object/);
    a.body.setMotionType(PhysicsMotionType.DYNAMIC);
    expect(a.body.getMassProperties().mass).toBe(2);
    scene.dispose();
  });

  it('setTargetTransform past MAX_POSITION is refused by name; a target beyond the speed limits puts the body on it instead of failing every later frame', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, Vector3.Zero());
    const paddle = new PhysicsAggregate(CreateBox('paddle', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 0 }, scene);
    paddle.body.setMotionType(PhysicsMotionType.ANIMATED);
    // Used to be accepted and refused by the core inside executeStep, every frame after.
    expect(() => paddle.body.setTargetTransform(new Vector3(1e300, 0, 0), Quaternion.Identity())).toThrow(/^FootingPlugin\.setTargetTransform position\.x must be within ±1000000 m \(MAX_POSITION; got 1e\+300\)$/);
    runFrames(scene, 1);
    expect(paddle.transformNode.position.x).toBe(0);
    // 1e5 m in a frame is 6e6 m/s, past MAX_LINEAR_SPEED (1e5 m/s): the paddle is put on the target, at rest.
    paddle.body.setTargetTransform(new Vector3(1e5, 0, 0), Quaternion.RotationAxis(Vector3.Up(), 0.5));
    runFrames(scene, 1);
    expect(paddle.transformNode.position.x).toBe(1e5);
    expect(paddle.body.getLinearVelocity().length()).toBe(0);
    runFrames(scene, 3);
    expect(paddle.transformNode.position.x).toBe(1e5);
    // A target within reach still moves it by velocity (1 m in a frame: 60 m/s).
    paddle.body.setTargetTransform(new Vector3(1e5 + 1, 0, 0), Quaternion.Identity());
    runFrames(scene, 1);
    expect(paddle.transformNode.position.x).toBeCloseTo(1e5 + 1, 6);
    expect(paddle.body.getLinearVelocity().x).toBeCloseTo(60, 6);
    // A DYNAMIC body driven to a far target: the same (used to throw from setLinearVelocity inside executeStep).
    const ball = new PhysicsAggregate(CreateSphere('ball', { diameter: 1 }, scene), PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    ball.body.setTargetTransform(new Vector3(0, -1e5, 0), Quaternion.Identity());
    runFrames(scene, 1);
    expect(ball.transformNode.position.y).toBe(-1e5);
    scene.dispose();
  });
});

describe('FootingPlugin hostile input: shape parameters', () => {
  it('a radius, centre, extent, point or rotation that footing cannot use is refused by name (a radius of 0 or NaN used to become 1 m)', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const cases: [() => unknown, RegExp][] = [
      [() => new PhysicsShapeSphere(Vector3.Zero(), 0, scene), /^FootingPlugin\.initShape: options\.radius must be a finite number > 0 \(got 0\)$/],
      [() => new PhysicsShapeSphere(Vector3.Zero(), NaN, scene), /options\.radius must be a finite number > 0 \(got NaN\)$/],
      [() => new PhysicsShapeSphere(new Vector3(NaN, 0, 0), 1, scene), /^FootingPlugin\.initShape: options\.center\.x must be a finite number \(got NaN\)$/],
      [() => new PhysicsShapeBox(Vector3.Zero(), new Quaternion(0, 0, 0, 0), new Vector3(1, 1, 1), scene), /^FootingPlugin\.initShape: options\.rotation must be a non-zero quaternion of finite numbers \(got 0, 0, 0, 0\)$/],
      [() => new PhysicsShapeBox(Vector3.Zero(), new Quaternion(NaN, 0, 0, 1), new Vector3(1, 1, 1), scene), /options\.rotation must be a non-zero quaternion/],
      [() => new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, -1, 1), scene), /^FootingPlugin\.initShape: options\.extents\.y must be a finite number ≥ 0 \(got -1\)$/],
      [() => new PhysicsShapeCapsule(new Vector3(0, NaN, 0), new Vector3(0, 1, 0), 0.5, scene), /^FootingPlugin\.initShape: options\.pointA\.y must be a finite number \(got NaN\)$/],
      [() => new PhysicsShapeCapsule(Vector3.Zero(), new Vector3(0, 1, 0), 0, scene), /options\.radius must be a finite number > 0 \(got 0\)$/],
      [() => new PhysicsShapeCylinder(Vector3.Zero(), new Vector3(0, Infinity, 0), 0.5, scene), /options\.pointB\.y must be a finite number \(got Infinity\)$/],
      [() => new PhysicsShapeCylinder(Vector3.One(), Vector3.One(), 0.5, scene), /^FootingPlugin\.initShape: a CYLINDER needs options\.pointA and pointB apart/],
    ];
    for (const [make, re] of cases) expect(make).toThrow(re);
    // A valid box with a rotation of another length is kept about its normalised rotation.
    const box = new PhysicsShapeBox(Vector3.Zero(), new Quaternion(0, 0, 0, 2), new Vector3(2, 1, 1), scene);
    expect(plugin.getBoundingBox(box).extendSize.x).toBeCloseTo(1, 9);
    scene.dispose();
  });

  it("the core's refusals of a hull or mesh name the Babylon shape type and the mesh", () => {
    const scene = physicsScene(new FootingPlugin());
    const tri = meshOf(scene, 'tri', [0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    expect(() => new PhysicsShapeConvexHull(tri, scene)).toThrow(/^FootingPlugin\.initShape: CONVEX_HULL of mesh 'tri': ConvexHull\.points: need at least 4 points \(got 3\)$/);
    const quad = meshOf(scene, 'quad', [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0], [0, 1, 2, 1, 3, 2]);
    expect(() => new PhysicsShapeConvexHull(quad, scene)).toThrow(/^FootingPlugin\.initShape: CONVEX_HULL of mesh 'quad': ConvexHull\.points: all points are coplanar$/);
    const line = meshOf(scene, 'line', [0, 0, 0, 1, 0, 0, 2, 0, 0], [0, 1, 2]);
    expect(() => new PhysicsShapeMesh(line, scene)).toThrow(/^FootingPlugin\.initShape: MESH of mesh 'line': TriangleMesh\.indices: degenerate mesh/);
    const nan = meshOf(scene, 'nan', [0, 0, 0, 1, 0, 0, NaN, 0, 1], [0, 1, 2]);
    expect(() => new PhysicsShapeMesh(nan, scene)).toThrow(/^FootingPlugin\.initShape: MESH of mesh 'nan': TriangleMesh\.positions\[6\] must be a finite number \(got NaN\)$/);
    scene.dispose();
  });

  it('HEIGHTFIELD sample counts, sizes and heights are checked by name (a NaN height used to make a hole)', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const field = (o: object): PhysicsShape => new PhysicsShape({ type: PhysicsShapeType.HEIGHTFIELD, parameters: { numHeightFieldSamplesX: 3, numHeightFieldSamplesZ: 3, heightFieldSizeX: 2, heightFieldSizeZ: 2, heightFieldData: new Float32Array(9), ...o } as never }, scene);
    expect(() => field({ heightFieldData: new Float32Array([0, 0, 0, 0, NaN, 0, 0, 0, 0]) })).toThrow(/^FootingPlugin\.initShape: options\.heightFieldData\[4\] must be a finite number \(got NaN\)$/);
    expect(() => field({ heightFieldSizeX: NaN })).toThrow(/^FootingPlugin\.initShape: options\.heightFieldSizeX must be a finite number > 0 \(got NaN\)$/);
    expect(() => field({ heightFieldSizeZ: -2 })).toThrow(/options\.heightFieldSizeZ must be a finite number > 0 \(got -2\)$/);
    expect(() => field({ numHeightFieldSamplesX: 4.5, numHeightFieldSamplesZ: 2 })).toThrow(/^FootingPlugin\.initShape: options\.numHeightFieldSamplesX must be an integer ≥ 2 \(got 4\.5\)$/);
    expect(() => field({ numHeightFieldSamplesZ: 1, heightFieldData: new Float32Array(3) })).toThrow(/options\.numHeightFieldSamplesZ must be an integer ≥ 2 \(got 1\)$/);
    expect(plugin.getBoundingBox(field({})).extendSize.x).toBeCloseTo(1, 9);
    scene.dispose();
  });

  it('addChild refuses a parent that is not a CONTAINER, a child holding the container, and a non-finite or zero transform, by name; the shapes stay as they were', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const sphere = (r: number): PhysicsShapeSphere => new PhysicsShapeSphere(Vector3.Zero(), r, scene);
    // On a BOX the child used to replace the box's collider (a 1 m box became a 3 m sphere).
    const box = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene);
    expect(() => box.addChild(sphere(3))).toThrow(/^FootingPlugin\.addChild: the parent shape must be a CONTAINER \(got BOX\)$/);
    expect(plugin.getBoundingBox(box).extendSize.x).toBe(0.5);
    expect(plugin.getNumChildren(box)).toBe(0);
    // A container in itself, directly or through another, used to overflow the stack.
    const outer = new PhysicsShapeContainer(scene), inner = new PhysicsShapeContainer(scene);
    outer.addChild(sphere(1));
    inner.addChild(outer);
    expect(() => outer.addChild(outer)).toThrow(/^FootingPlugin\.addChild: newChild is the container itself or holds it$/);
    expect(() => outer.addChild(inner)).toThrow(/newChild is the container itself or holds it$/);
    expect(plugin.getNumChildren(outer)).toBe(1);
    expect(() => outer.addChild(sphere(1), new Vector3(NaN, 0, 0))).toThrow(/^FootingPlugin\.addChild: translation\.x must be a finite number \(got NaN\)$/);
    expect(() => outer.addChild(sphere(1), undefined, new Quaternion(0, 0, 0, 0))).toThrow(/^FootingPlugin\.addChild: rotation must be a non-zero quaternion$/);
    expect(() => outer.addChild(sphere(1), undefined, undefined, new Vector3(1, 0, 1))).toThrow(/^FootingPlugin\.addChild: scale\.y must be a finite number > 0 \(got 0\)$/);
    expect(plugin.getNumChildren(outer)).toBe(1);
    expect(plugin.getBoundingBox(outer).extendSize.x).toBe(1);
    scene.dispose();
  });
});
