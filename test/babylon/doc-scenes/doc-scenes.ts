// Scenes after Babylon's Physics V2 documentation pages and playgrounds
// (getting started with aggregates, constraints and motors, collision
// events, thin instances, the character controller, a chain of ball-and-
// socket links), rewritten as functions that take the plugin, so that the
// same code runs on HavokPlugin and FootingPlugin. Each returns the numbers
// doc-scenes.test.ts compares.
import { Quaternion, Vector3, Matrix } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import type { IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsConstraintAxis, PhysicsConstraintMotorType, PhysicsEventType, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { BallAndSocketConstraint, HingeConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import type { Scene } from '@babylonjs/core/scene';
import { ground, physicsScene, runFrames } from '../plugin-scenes';
import type { BabylonCharacter, CharacterFactory } from './pile-scene';

const DT = 1 / 60;

/** The rotation of a node (rotationQuaternion, or its Euler angles). */
function rotationOf(m: Mesh): Quaternion {
  return m.rotationQuaternion ?? Quaternion.FromEulerVector(m.rotation);
}

/**
 * Getting started / aggregates: a sphere, a box, an upright cylinder and a
 * capsule lying on its side, each a PhysicsAggregate dropped from 2–5 m on
 * the ground. Returns each one's rest height and how far it drifted
 * sideways, after 3 s.
 */
export function aggregatesScene(plugin: IPhysicsEnginePluginV2): Record<'sphere' | 'box' | 'cylinder' | 'capsule', { y: number; drift: number; upright: number }> {
  const scene = physicsScene(plugin);
  ground(scene);
  const sphere = CreateSphere('sphere', { diameter: 1, segments: 16 }, scene);
  sphere.position.set(-3, 4, 0);
  const box = CreateBox('box', { size: 1 }, scene);
  box.position.set(-1, 5, 0);
  const cylinder = CreateCylinder('cylinder', { height: 1.5, diameter: 1 }, scene);
  cylinder.position.set(1, 3, 0);
  const capsule = CreateCapsule('capsule', { height: 2, radius: 0.5 }, scene);
  capsule.position.set(3, 2, 0);
  capsule.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 0, 1), Math.PI / 2);
  new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 1, restitution: 0.3 }, scene);
  new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1, restitution: 0.3 }, scene);
  new PhysicsAggregate(cylinder, PhysicsShapeType.CYLINDER, { mass: 1, restitution: 0.3 }, scene);
  const capsuleAgg = new PhysicsAggregate(capsule, PhysicsShapeType.CAPSULE, { mass: 1, restitution: 0.3 }, scene);
  // A lying capsule rolls: damping lets it stop within the 3 s.
  capsuleAgg.body.setAngularDamping(2);
  const starts = [sphere, box, cylinder, capsule].map((m) => m.position.clone());
  runFrames(scene, 180);
  const read = (m: Mesh, i: number, axis: Vector3): { y: number; drift: number; upright: number } => ({
    y: m.position.y, drift: Math.hypot(m.position.x - starts[i]!.x, m.position.z - starts[i]!.z),
    upright: Math.abs(axis.applyRotationQuaternion(rotationOf(m)).y),
  });
  const out = {
    sphere: read(sphere, 0, Vector3.Up()), box: read(box, 1, Vector3.Up()),
    cylinder: read(cylinder, 2, Vector3.Up()), capsule: read(capsule, 3, Vector3.Right()),
  };
  scene.dispose();
  return out;
}

/**
 * Constraints and motors: a 1 m wheel (cylinder, 10 kg) on a HingeConstraint
 * about world Z to a static axle, driven by a velocity motor at 2 rad/s (max
 * 500 N·m) for 1 s, then reversed to −1 rad/s for 1 s; and a door (1 × 2 m
 * box) on a HingeConstraint about Y with a position motor to 0.8 rad.
 * Returns the wheel's spin after each second and the door's angle after 3 s.
 */
export function motorScene(plugin: IPhysicsEnginePluginV2): { spin1: number; spin2: number; wheelDrift: number; doorAngle: number } {
  const scene = physicsScene(plugin);
  const axleMesh = CreateBox('axle', { size: 0.1 }, scene);
  axleMesh.position.set(0, 2, 0);
  const axle = new PhysicsAggregate(axleMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const wheelMesh = CreateCylinder('wheel', { height: 0.2, diameter: 1 }, scene);
  wheelMesh.position.set(0, 2, 0.3);
  wheelMesh.rotationQuaternion = Quaternion.RotationAxis(new Vector3(1, 0, 0), Math.PI / 2);
  const wheel = new PhysicsAggregate(wheelMesh, PhysicsShapeType.CYLINDER, { mass: 10 }, scene);
  wheel.body.setAngularDamping(0);
  // Pivot on the wheel: its own axis is its local Y (the cylinder's), world Z after the turn.
  const hinge = new HingeConstraint(new Vector3(0, 0, 0.3), Vector3.Zero(), new Vector3(0, 0, 1), new Vector3(0, 1, 0), scene);
  axle.body.addConstraint(wheel.body, hinge);
  hinge.isCollisionsEnabled = false;
  plugin.setAxisMotorType(hinge, PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
  plugin.setAxisMotorMaxForce(hinge, PhysicsConstraintAxis.ANGULAR_X, 500);
  plugin.setAxisMotorTarget(hinge, PhysicsConstraintAxis.ANGULAR_X, 2);
  const frameMesh = CreateBox('frame', { width: 0.1, height: 2, depth: 0.1 }, scene);
  frameMesh.position.set(5, 1, 0);
  const frame = new PhysicsAggregate(frameMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const doorMesh = CreateBox('door', { width: 1, height: 2, depth: 0.05 }, scene);
  doorMesh.position.set(5.55, 1, 0);
  const door = new PhysicsAggregate(doorMesh, PhysicsShapeType.BOX, { mass: 5 }, scene);
  door.body.setGravityFactor(0);
  const doorHinge = new HingeConstraint(new Vector3(0.05, 0, 0), new Vector3(-0.5, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
  frame.body.addConstraint(door.body, doorHinge);
  doorHinge.isCollisionsEnabled = false;
  plugin.setAxisMotorType(doorHinge, PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintMotorType.POSITION);
  plugin.setAxisMotorMaxForce(doorHinge, PhysicsConstraintAxis.ANGULAR_X, 200);
  plugin.setAxisMotorTarget(doorHinge, PhysicsConstraintAxis.ANGULAR_X, 0.8);
  const spinZ = (): number => wheel.body.getAngularVelocity().z;
  runFrames(scene, 60);
  const spin1 = spinZ();
  plugin.setAxisMotorTarget(hinge, PhysicsConstraintAxis.ANGULAR_X, -1);
  runFrames(scene, 60);
  const spin2 = spinZ();
  runFrames(scene, 60);
  const wheelDrift = Vector3.Distance(wheelMesh.position, new Vector3(0, 2, 0.3));
  // The door's turn about Y: the angle of its local X axis from world X.
  const x = Vector3.Right().applyRotationQuaternion(rotationOf(doorMesh));
  const doorAngle = Math.atan2(-x.z, x.x);
  scene.dispose();
  return { spin1, spin2, wheelDrift, doorAngle };
}

/**
 * Collision events: four 0.5 m balls with their bottoms 1, 2, 3 and 4 m
 * above the ground, each with collision callbacks on and its own collision
 * observable; restitution 0 (they land and stay). Returns per ball the
 * time of its first COLLISION_STARTED, the normal that event carries (y,
 * from the ball's side), how many started/ended it saw, and the plugin-wide
 * started count.
 */
export function collisionEventsScene(plugin: IPhysicsEnginePluginV2): { firstHit: number[]; normalY: number[]; started: number[]; ended: number[]; global: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const n = 4;
  const firstHit = new Array<number>(n).fill(NaN), normalY = new Array<number>(n).fill(NaN);
  const started = new Array<number>(n).fill(0), ended = new Array<number>(n).fill(0);
  let frame = 0;
  for (let i = 0; i < n; i++) {
    const m = CreateSphere(`ball${i}`, { diameter: 0.5 }, scene);
    m.position.set(2 * i - 3, i + 1 + 0.25, 0);
    const agg = new PhysicsAggregate(m, PhysicsShapeType.SPHERE, { mass: 1, restitution: 0 }, scene);
    agg.body.setCollisionCallbackEnabled(true);
    agg.body.setCollisionEndedCallbackEnabled(true);
    agg.body.getCollisionObservable().add((e) => {
      if (e.type !== PhysicsEventType.COLLISION_STARTED) return;
      started[i]!++;
      if (Number.isNaN(firstHit[i]!)) {
        firstHit[i] = frame * DT;
        normalY[i] = e.normal ? e.normal.y : NaN;
      }
    });
    agg.body.getCollisionEndedObservable().add(() => { ended[i]!++; });
  }
  let global = 0;
  plugin.onCollisionObservable.add((e) => { if (e.type === PhysicsEventType.COLLISION_STARTED) global++; });
  for (frame = 1; frame <= 150; frame++) runFrames(scene, 1);
  scene.dispose();
  return { firstHit, normalY, started, ended, global };
}

/**
 * Thin instances: one box mesh with 16 thin instances (4 × 4 grid, 1.5 m
 * apart, 2–5 m up, each turned a little), made physical by one
 * PhysicsAggregate (initBodyInstances); after 2 s an impulse of 5 N·s along
 * +X on instance 5 only (it slides into instance 6, the next in its row).
 * Returns every instance's position at 2 s and at 4 s.
 */
export function thinInstancesScene(plugin: IPhysicsEnginePluginV2): { rest: Vector3[]; after: Vector3[] } {
  const scene = physicsScene(plugin);
  ground(scene);
  const mesh = CreateBox('crates', { size: 1 }, scene);
  const count = 16;
  const matrices = new Float32Array(16 * count);
  for (let i = 0; i < count; i++) {
    const q = Quaternion.RotationAxis(new Vector3(0, 1, 0), 0.2 * i);
    Matrix.Compose(new Vector3(1, 1, 1), q, new Vector3(1.5 * (i % 4) - 2.25, 2 + (i % 4) + 0.3 * Math.floor(i / 4), 1.5 * Math.floor(i / 4) - 2.25)).copyToArray(matrices, 16 * i);
  }
  mesh.thinInstanceSetBuffer('matrix', matrices, 16, false);
  const agg = new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
  // From the instance matrices the plugins write (thinInstanceGetWorldMatrices keeps its first copy).
  const positions = (): Vector3[] => {
    const m = mesh._thinInstanceDataStorage.matrixData!;
    return Array.from({ length: count }, (_, i) => new Vector3(m[16 * i + 12], m[16 * i + 13], m[16 * i + 14]));
  };
  runFrames(scene, 120);
  const rest = positions();
  agg.body.applyImpulse(new Vector3(5, 0, 0), rest[5]!, 5);
  runFrames(scene, 120);
  const after = positions();
  scene.dispose();
  return { rest, after };
}

/**
 * The character controller playground, reduced: a capsule character (1.8 m,
 * r 0.3) starts 1 m above a flat ground, falls and lands (state 'air' →
 * 'ground' when checkSupport reports SUPPORTED), walks +X at 3 m/s through
 * calculateMovement for 2 s onto a 10° ramp, then jumps (5 m/s up) and lands
 * again. Returns when it first landed, where it is after the walk (x, feet
 * height), the jump's apex (feet above the take-off) and when it landed.
 */
export function characterScene(plugin: IPhysicsEnginePluginV2, makeCharacter: CharacterFactory, withRamp = true, trace?: number[]): { landed: number; walkX: number; walkFeet: number; apex: number; airTime: number } {
  const scene = physicsScene(plugin);
  ground(scene);
  const slope = (10 * Math.PI) / 180;
  // A ramp whose top face rises from (3, 0, 0) at 10°.
  const ramp = CreateBox('ramp', { width: 8, height: 0.2, depth: 4 }, scene);
  ramp.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 0, 1), slope);
  ramp.position.set(3 + 4 * Math.cos(slope) + 0.1 * Math.sin(slope), 4 * Math.sin(slope) - 0.1 * Math.cos(slope), 0);
  if (withRamp) new PhysicsAggregate(ramp, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const half = 0.9;
  const ch: BabylonCharacter & { calculateMovement(dt: number, f: Vector3, n: Vector3, v: Vector3, sv: Vector3, d: Vector3, up: Vector3): Vector3 } =
    makeCharacter(new Vector3(0, half + 1, 0), scene) as never;
  const gravity = new Vector3(0, -9.81, 0), down = new Vector3(0, -1, 0), up = Vector3.Up(), forward = new Vector3(1, 0, 0);
  let state: 'air' | 'ground' = 'air';
  let landed = NaN, walkX = NaN, walkFeet = NaN, takeoff = NaN, apex = -Infinity, airTime = NaN, jumpFrame = -1;
  for (let frame = 1; frame <= 300; frame++) {
    const support = ch.checkSupport(DT, down);
    const v = ch.getVelocity();
    const wantsJump = frame === 181;
    if (state === 'ground' && wantsJump) {
      walkX = ch.getPosition().x; walkFeet = ch.getPosition().y - half; takeoff = walkFeet;
      v.set(3, 5, 0);
      state = 'air';
      jumpFrame = frame;
    } else if (state === 'ground') {
      const desired = jumpFrame < 0 ? new Vector3(3, 0, 0) : Vector3.Zero();
      const out = ch.calculateMovement(DT, forward, support.averageSurfaceNormal, v, support.averageSurfaceVelocity, desired, up);
      v.copyFrom(out);
      if (support.supportedState !== 2) state = 'air';
    } else {
      v.addInPlace(gravity.scale(DT));
      if (support.supportedState === 2 && v.y <= 0 && frame !== jumpFrame) {
        state = 'ground';
        if (Number.isNaN(landed)) landed = frame * DT;
        else if (jumpFrame > 0 && Number.isNaN(airTime)) airTime = (frame - jumpFrame) * DT;
        v.y = 0;
      }
    }
    ch.setVelocity(v);
    ch.integrate(DT, support, gravity);
    trace?.push(ch.getPosition().x, ch.getVelocity().x, support.supportedState);
    if (jumpFrame > 0 && Number.isNaN(airTime)) apex = Math.max(apex, ch.getPosition().y - half - takeoff);
    runFrames(scene, 1);
  }
  scene.dispose();
  return { landed, walkX, walkFeet, apex, airTime };
}

/**
 * A chain of eight 0.5 m links (ball-and-socket at the shared ends, 1 kg,
 * damped) from a static anchor 6 m up, released lying along +X. Returns when
 * its free end first swings under the anchor, the largest gap any joint
 * opened, and where the free end hangs after 8 s.
 */
export function chainScene(plugin: IPhysicsEnginePluginV2): { firstPass: number; maxGap: number; endX: number; endY: number } {
  const scene = physicsScene(plugin);
  const anchorMesh = CreateBox('anchor', { size: 0.2 }, scene);
  anchorMesh.position.set(0, 6, 0);
  let parent = new PhysicsAggregate(anchorMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const L = 0.5, n = 8;
  const links: Mesh[] = [];
  const rot = Quaternion.RotationAxis(new Vector3(0, 0, 1), Math.PI / 2);
  for (let i = 0; i < n; i++) {
    const m = CreateBox(`link${i}`, { width: 0.1, height: L, depth: 0.1 }, scene);
    // Turned +90° about Z, a link's local +Y points to −X (the anchor): the chain lies from x = 0 to x = 4.
    m.rotationQuaternion = rot.clone();
    m.position.set(L * (i + 0.5), 6, 0);
    const agg = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, scene);
    agg.body.setLinearDamping(0.3);
    agg.body.setAngularDamping(0.3);
    // Local −Y of the turned link points to +X: the joint with the parent is at its +Y end.
    const pivotA = i === 0 ? Vector3.Zero() : new Vector3(0, -L / 2, 0);
    const joint = new BallAndSocketConstraint(pivotA, new Vector3(0, L / 2, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    parent.body.addConstraint(agg.body, joint);
    joint.isCollisionsEnabled = false;
    links.push(m);
    parent = agg;
  }
  const endOf = (m: Mesh, sign: number): Vector3 => new Vector3(0, sign * L / 2, 0).applyRotationQuaternion(rotationOf(m)).addInPlace(m.position);
  let firstPass = NaN, maxGap = 0;
  let prevX = endOf(links[n - 1]!, -1).x;
  for (let frame = 1; frame <= 480; frame++) {
    runFrames(scene, 1);
    const end = endOf(links[n - 1]!, -1);
    if (Number.isNaN(firstPass) && prevX > 0 && end.x <= 0) firstPass = (frame - 1 + prevX / (prevX - end.x)) * DT;
    prevX = end.x;
    maxGap = Math.max(maxGap, Vector3.Distance(endOf(links[0]!, 1), anchorMesh.position));
    for (let i = 1; i < n; i++) maxGap = Math.max(maxGap, Vector3.Distance(endOf(links[i]!, 1), endOf(links[i - 1]!, -1)));
  }
  const end = endOf(links[n - 1]!, -1);
  scene.dispose();
  return { firstPass, maxGap, endX: end.x, endY: end.y };
}

export type { Scene };
