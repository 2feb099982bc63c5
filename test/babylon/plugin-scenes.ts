// Scenes written only against Babylon's Physics V2 API, run by the plugin
// tests with FootingPlugin and (plugin-vs-havok.test.ts) with HavokPlugin.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { PhysicsShapeBox, PhysicsShapeContainer, PhysicsShapeGroundMesh, PhysicsShapeMesh } from '@babylonjs/core/Physics/v2/physicsShape';
import { Scene } from '@babylonjs/core/scene';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent';
import type { IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsConstraintAxis, PhysicsConstraintMotorType, PhysicsMotionType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { HingeConstraint, LockConstraint, Physics6DoFConstraint, PrismaticConstraint, SliderConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import type { PhysicsEngine } from '@babylonjs/core/Physics/v2/physicsEngine';

export function physicsScene(plugin: IPhysicsEnginePluginV2, gravity = new Vector3(0, -9.81, 0)): Scene {
  const scene = new Scene(new NullEngine());
  if (!scene.enablePhysics(gravity, plugin)) throw new Error('enablePhysics failed');
  return scene;
}

/** Frames of 1/60 s through the engine's own step (what scene.render does each frame). */
export function runFrames(scene: Scene, frames: number, frameSeconds = 1 / 60): void {
  const engine = scene.getPhysicsEngine() as PhysicsEngine;
  for (let i = 0; i < frames; i++) {
    scene.onBeforePhysicsObservable.notifyObservers(scene);
    engine._step(frameSeconds);
    scene.onAfterPhysicsObservable.notifyObservers(scene);
  }
}

/** A 20 × 1 × 20 static ground box whose top is at y = 0. */
export function ground(scene: Scene): PhysicsAggregate {
  const mesh = CreateBox('ground', { width: 20, height: 1, depth: 20 }, scene);
  mesh.position.y = -0.5;
  return new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 0, friction: 0.5 }, scene);
}

/** The aggregates scene: a 1 m box dropped from 3 m on the ground; returns its rest height and the collision events seen. */
export function dropBox(plugin: IPhysicsEnginePluginV2): { restY: number; started: number; ended: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const mesh = CreateBox('box', { size: 1 }, scene);
  mesh.position.y = 3;
  const box = new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1, restitution: 0 }, scene);
  box.body.setCollisionCallbackEnabled(true);
  let started = 0, ended = 0;
  plugin.onCollisionObservable.add((e) => { if (e.type === 'COLLISION_STARTED') started++; });
  plugin.onCollisionEndedObservable.add(() => { ended++; });
  runFrames(scene, 180);
  const restY = mesh.position.y;
  scene.dispose();
  return { restY, started, ended };
}

/** The trigger scene: a ball falls through a 2 m trigger box; returns the enter and exit counts. */
export function fallThroughTrigger(plugin: IPhysicsEnginePluginV2): { entered: number; exited: number; finalY: number } {
  const scene = physicsScene(plugin);
  const zone = CreateBox('zone', { size: 2 }, scene);
  const zoneAgg = new PhysicsAggregate(zone, PhysicsShapeType.BOX, { mass: 0 }, scene);
  zoneAgg.shape.isTrigger = true;
  const ball = CreateSphere('ball', { diameter: 0.5 }, scene);
  ball.position.y = 3;
  new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
  let entered = 0, exited = 0;
  plugin.onTriggerCollisionObservable.add((e) => {
    if (e.type === 'TRIGGER_ENTERED') entered++;
    if (e.type === 'TRIGGER_EXITED') exited++;
  });
  runFrames(scene, 120);
  const finalY = ball.position.y;
  scene.dispose();
  return { entered, exited, finalY };
}

/** The constraints scene: a bob on a 1 m hinge released at 0.3 rad; returns the period measured over the swings in 6 s. */
export function hingePendulum(plugin: IPhysicsEnginePluginV2): { period: number; radius: number } {
  const scene = physicsScene(plugin);
  const pivotMesh = CreateBox('pivot', { size: 0.1 }, scene);
  pivotMesh.position.y = 2;
  const pivot = new PhysicsAggregate(pivotMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const theta0 = 0.3;
  const bobMesh = CreateSphere('bob', { diameter: 0.02 }, scene);
  bobMesh.position.set(Math.sin(theta0), 2 - Math.cos(theta0), 0);
  const bob = new PhysicsAggregate(bobMesh, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
  bob.body.setAngularDamping(0);
  const hinge = new HingeConstraint(Vector3.Zero(), new Vector3(-bobMesh.position.x, 2 - bobMesh.position.y, 0), new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene);
  pivot.body.addConstraint(bob.body, hinge);
  const crossings: number[] = [];
  let prev = bobMesh.position.x;
  for (let i = 1; i <= 360; i++) {
    runFrames(scene, 1);
    const x = bobMesh.position.x;
    if (prev < 0 && x >= 0) crossings.push((i - 1 + -prev / (x - prev)) / 60);
    prev = x;
  }
  const radius = Math.hypot(bobMesh.position.x, bobMesh.position.y - 2);
  scene.dispose();
  return { period: (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1), radius };
}

/** An ANIMATED paddle moved by setTargetTransform at 1 m/s for 2 s into a 0.5 m crate; returns where both end. */
export function animatedPush(plugin: IPhysicsEnginePluginV2): { paddleX: number; crateX: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const paddleMesh = CreateBox('paddle', { width: 0.5, height: 1, depth: 2 }, scene);
  paddleMesh.position.set(-1, 0.5, 0);
  const paddle = new PhysicsAggregate(paddleMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  paddle.body.setMotionType(PhysicsMotionType.ANIMATED);
  const crateMesh = CreateBox('crate', { size: 0.5 }, scene);
  crateMesh.position.set(0, 0.25, 0);
  new PhysicsAggregate(crateMesh, PhysicsShapeType.BOX, { mass: 1, friction: 0.5 }, scene);
  runFrames(scene, 10);
  for (let i = 1; i <= 120; i++) {
    paddle.body.setTargetTransform(new Vector3(-1 + i / 60, 0.5, 0), Quaternion.Identity());
    runFrames(scene, 1);
  }
  const out = { paddleX: paddleMesh.position.x, crateX: crateMesh.position.x };
  scene.dispose();
  return out;
}

/**
 * A table (a 2 × 0.1 × 1 top on four 0.1 × 0.9 × 0.1 legs) as one
 * PhysicsShapeContainer, dropped with its feet 1 m above the ground; returns
 * where its origin (the feet's plane) rests and how upright it stands (the
 * node's up axis · world up).
 */
export function dropTable(plugin: IPhysicsEnginePluginV2): { restY: number; up: number; x: number; z: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const node = new TransformNode('table', scene);
  node.position.set(0.5, 1, -0.25);
  node.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.4);
  const table = new PhysicsShapeContainer(scene);
  table.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(2, 0.1, 1), scene), new Vector3(0, 0.95, 0));
  for (const [x, z] of [[-0.9, -0.4], [0.9, -0.4], [-0.9, 0.4], [0.9, 0.4]] as const) {
    table.addChild(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(0.1, 0.9, 0.1), scene), new Vector3(x, 0.45, z));
  }
  const body = new PhysicsBody(node, PhysicsMotionType.DYNAMIC, false, scene);
  body.shape = table;
  body.setMassProperties({ mass: 10 });
  runFrames(scene, 180);
  const up = Vector3.Up().applyRotationQuaternion(node.rotationQuaternion).y;
  const out = { restY: node.position.y, up, x: node.position.x, z: node.position.z };
  scene.dispose();
  return out;
}

/**
 * A 20 m × 20 m bowl y = 0.05 (x² + z²) (21 × 21 vertices) placed at
 * (3, 1, −2); a 0.5 m ball dropped at (2, 4, 1) from the bowl's centre rolls
 * down and (damped) settles at its bottom. `as` picks the ground's shape: a
 * PhysicsShapeGroundMesh height field or a MESH of the same triangles.
 */
export function ballInBowl(plugin: IPhysicsEnginePluginV2, as: 'heightfield' | 'mesh' = 'heightfield'): { x: number; y: number; z: number; lowestY: number } {
  const scene = physicsScene(plugin);
  const bowl = CreateGround('bowl', { width: 20, height: 20, subdivisions: 20, updatable: true }, scene);
  const pos = bowl.getVerticesData('position')!;
  for (let i = 0; i < pos.length; i += 3) pos[i + 1] = 0.05 * (pos[i]! ** 2 + pos[i + 2]! ** 2);
  bowl.updateVerticesData('position', pos);
  bowl.refreshBoundingInfo();
  bowl.position.set(3, 1, -2);
  bowl.computeWorldMatrix(true);
  const body = new PhysicsBody(bowl, PhysicsMotionType.STATIC, false, scene);
  body.shape = as === 'heightfield' ? new PhysicsShapeGroundMesh(bowl, scene) : new PhysicsShapeMesh(bowl, scene);
  const ballMesh = CreateSphere('ball', { diameter: 1 }, scene);
  ballMesh.position.set(5, 5, -1);
  const ball = new PhysicsAggregate(ballMesh, PhysicsShapeType.SPHERE, { mass: 1, friction: 0.5 }, scene);
  ball.body.setLinearDamping(1);
  ball.body.setAngularDamping(2);
  let lowestY = Infinity;
  for (let i = 0; i < 900; i++) {
    runFrames(scene, 1);
    lowestY = Math.min(lowestY, ballMesh.position.y);
  }
  const out = { x: ballMesh.position.x, y: ballMesh.position.y, z: ballMesh.position.z, lowestY };
  scene.dispose();
  return out;
}

/**
 * A 0.5 m box (1 kg) on a SLIDER or PRISMATIC constraint along world X from a
 * small static anchor at (0, 2, 0), spun at 3 rad/s about the axis and driven
 * by a velocity motor (1 m/s, at most 100 N) for 1 s under gravity; returns
 * where it is and its spin about the axis.
 */
export function sliderMotor(plugin: IPhysicsEnginePluginV2, kind: 'slider' | 'prismatic'): { x: number; y: number; z: number; spin: number } {
  const scene = physicsScene(plugin);
  const anchorMesh = CreateBox('anchor', { size: 0.1 }, scene);
  anchorMesh.position.y = 2;
  const anchor = new PhysicsAggregate(anchorMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const cartMesh = CreateBox('cart', { size: 0.5 }, scene);
  cartMesh.position.y = 2;
  const cart = new PhysicsAggregate(cartMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
  const Ctor = kind === 'slider' ? SliderConstraint : PrismaticConstraint;
  const joint = new Ctor(Vector3.Zero(), Vector3.Zero(), new Vector3(1, 0, 0), new Vector3(1, 0, 0), scene);
  anchor.body.addConstraint(cart.body, joint);
  // SliderConstraint has no axis setters of its own (only Physics6DoFConstraint does): the plugin's.
  plugin.setAxisMotorType(joint, PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintMotorType.VELOCITY);
  plugin.setAxisMotorTarget(joint, PhysicsConstraintAxis.LINEAR_X, 1);
  plugin.setAxisMotorMaxForce(joint, PhysicsConstraintAxis.LINEAR_X, 100);
  cart.body.setAngularVelocity(new Vector3(3, 0, 0));
  runFrames(scene, 60);
  const out = { x: cartMesh.position.x, y: cartMesh.position.y, z: cartMesh.position.z, spin: cart.body.getAngularVelocity().x };
  scene.dispose();
  return out;
}

/**
 * A bob 1 m from a static pivot held by a Physics6DoFConstraint with every
 * axis locked (min = max = 0) but the twist about Z: a hinge pendulum
 * released at 0.3 rad; 'locked' locks the twist too, 'lock-constraint' uses a
 * LockConstraint instead (in both the bob should stay put).
 * Returns the period over 6 s (NaN without swings) and the bob's drift.
 */
export function sixDofPendulum(plugin: IPhysicsEnginePluginV2, mode: 'hinge' | 'locked' | 'lock-constraint'): { period: number; radius: number; drift: number } {
  const scene = physicsScene(plugin);
  const pivotMesh = CreateBox('pivot', { size: 0.1 }, scene);
  pivotMesh.position.y = 2;
  const pivot = new PhysicsAggregate(pivotMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const theta0 = 0.3;
  // A point-like bob for the pendulum; a 0.3 m ball when locked (a 0.02 m ball's tiny inertia lets
  // both engines' angular locks give way to the 1 m lever: it swings on Havok's LOCK and footing's).
  const bobMesh = CreateSphere('bob', { diameter: mode === 'hinge' ? 0.02 : 0.3 }, scene);
  bobMesh.position.set(Math.sin(theta0), 2 - Math.cos(theta0), 0);
  const start = bobMesh.position.clone();
  const bob = new PhysicsAggregate(bobMesh, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
  bob.body.setAngularDamping(0);
  const locked = [PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintAxis.LINEAR_Y, PhysicsConstraintAxis.LINEAR_Z, PhysicsConstraintAxis.ANGULAR_Y, PhysicsConstraintAxis.ANGULAR_Z];
  if (mode === 'locked') locked.push(PhysicsConstraintAxis.ANGULAR_X);
  const pivotB = new Vector3(-bobMesh.position.x, 2 - bobMesh.position.y, 0);
  const joint = mode === 'lock-constraint'
    ? new LockConstraint(Vector3.Zero(), pivotB, new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene)
    : new Physics6DoFConstraint(
      { pivotA: Vector3.Zero(), pivotB, axisA: new Vector3(0, 0, 1), axisB: new Vector3(0, 0, 1), perpAxisA: new Vector3(1, 0, 0), perpAxisB: new Vector3(1, 0, 0) },
      locked.map((axis) => ({ axis, minLimit: 0, maxLimit: 0 })), scene,
    );
  pivot.body.addConstraint(bob.body, joint);
  const crossings: number[] = [];
  let prev = bobMesh.position.x;
  for (let i = 1; i <= 360; i++) {
    runFrames(scene, 1);
    const x = bobMesh.position.x;
    if (prev < 0 && x >= 0) crossings.push((i - 1 + -prev / (x - prev)) / 60);
    prev = x;
  }
  const radius = Math.hypot(bobMesh.position.x, bobMesh.position.y - 2);
  const drift = Vector3.Distance(bobMesh.position, start);
  scene.dispose();
  const period = crossings.length >= 2 ? (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1) : NaN;
  return { period, radius, drift };
}

/** A 1 m tall, 0.6 m wide CYLINDER aggregate dropped upright from 2 m; returns its rest height and tilt (up·Y). */
export function dropCylinder(plugin: IPhysicsEnginePluginV2): { restY: number; up: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const mesh = CreateCylinder('can', { height: 1, diameter: 0.6 }, scene);
  mesh.position.y = 2;
  new PhysicsAggregate(mesh, PhysicsShapeType.CYLINDER, { mass: 1 }, scene);
  runFrames(scene, 180);
  const q = mesh.rotationQuaternion ?? Quaternion.FromEulerVector(mesh.rotation);
  const out = { restY: mesh.position.y, up: Vector3.Up().applyRotationQuaternion(q).y };
  scene.dispose();
  return out;
}

/** A 1 m cube mesh as a CONVEX_HULL aggregate, tipped 0.3 rad about Z, dropped from 2 m; returns its rest height and how far it is from face-down (|up·Y| of its nearest axis). */
export function dropHullCube(plugin: IPhysicsEnginePluginV2): { restY: number; flat: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const mesh = CreateBox('hull', { size: 1 }, scene);
  mesh.position.y = 2;
  mesh.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 0, 1), 0.3);
  new PhysicsAggregate(mesh, PhysicsShapeType.CONVEX_HULL, { mass: 1 }, scene);
  runFrames(scene, 240);
  const q = mesh.rotationQuaternion;
  const flat = Math.max(...[Vector3.Right(), Vector3.Up(), Vector3.Forward()].map((a) => Math.abs(a.applyRotationQuaternion(q).y)));
  const out = { restY: mesh.position.y, flat };
  scene.dispose();
  return out;
}
