// Scenes written only against Babylon's Physics V2 API, run by the plugin
// tests with FootingPlugin and (plugin-vs-havok.test.ts) with HavokPlugin.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { Scene } from '@babylonjs/core/scene';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent';
import type { IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsMotionType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { HingeConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
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
