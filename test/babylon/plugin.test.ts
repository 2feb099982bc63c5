// FootingPlugin through Babylon's own Physics V2 classes, in Node with the
// NullEngine. Frames of 1/60 s (the plugin's fixed step) unless a test says
// otherwise; gravity 9.81 m/s². One test per method group (create, mutate,
// read back, dispose) and numeric checks of what the physics does.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Matrix } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import '@babylonjs/core/Meshes/thinInstanceMesh';
import {
  PhysicsConstraintAxis, PhysicsConstraintAxisLimitMode, PhysicsConstraintMotorType, PhysicsMotionType, PhysicsPrestepType, PhysicsShapeType,
} from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import { PhysicsShape, PhysicsShapeBox, PhysicsShapeContainer, PhysicsShapeMesh, PhysicsShapeSphere } from '@babylonjs/core/Physics/v2/physicsShape';
import { BallAndSocketConstraint, DistanceConstraint, HingeConstraint, LockConstraint, SliderConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import { PhysicsRaycastResult } from '@babylonjs/core/Physics/physicsRaycastResult';
import type { PhysicsEngine } from '@babylonjs/core/Physics/v2/physicsEngine';
import { PhysicsViewer } from '@babylonjs/core/Debug/physicsViewer';
import '@babylonjs/core/Rendering/edgesRenderer';
import { FootingPlugin, FootingPluginUnsupportedError } from '../../src/babylon/index';
import { World } from '../../src/index';
import { ground, physicsScene, runFrames } from './plugin-scenes';

const G = 9.81;

describe('FootingPlugin: world', () => {
  it('steps the World it is given; options are checked by name', () => {
    const world = new World({ gravity: { x: 0, y: -1, z: 0 } });
    const plugin = new FootingPlugin(world);
    expect(plugin.world).toBe(world);
    const scene = physicsScene(plugin, new Vector3(0, -2, 0));
    expect(world.gravity.y).toBe(-2);
    const ball = CreateSphere('b', { diameter: 0.2 }, scene);
    new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    expect(world.bodies.length).toBe(1);
    expect(world.bodies[0]!.userData).toBeDefined();
    expect(() => new FootingPlugin(undefined, { maxSubSteps: 0 })).toThrow(/maxSubSteps/);
    scene.dispose();
    expect(world.bodies.length).toBe(0);
  });

  it('gravity, time step and velocity limits are set and read back; bad values are refused by name', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, -3, 0));
    const engine = scene.getPhysicsEngine() as PhysicsEngine;
    expect(plugin.getPluginVersion()).toBe(2);
    // HavokPlugin's default limits.
    expect(engine.getMaxLinearVelocity()).toBe(200);
    expect(engine.getMaxAngularVelocity()).toBe(100);
    expect(plugin.world.gravity.y).toBe(-3);
    engine.setTimeStep(1 / 120);
    expect(engine.getTimeStep()).toBeCloseTo(1 / 120, 12);
    expect(() => plugin.setTimeStep(0)).toThrow(/timeStep/);
    expect(() => plugin.setTimeStep(NaN)).toThrow(/timeStep/);
    engine.setVelocityLimits(5, 7);
    expect(engine.getMaxLinearVelocity()).toBe(5);
    expect(engine.getMaxAngularVelocity()).toBe(7);
    expect(() => plugin.setVelocityLimits(-1, 1)).toThrow(/setVelocityLimits/);
    expect(() => plugin.setGravity(new Vector3(NaN, 0, 0))).toThrow(/gravity\.x/);
    expect(plugin.world.gravity.x).toBe(0);
    // The velocity limit holds a falling body at 5 m/s.
    const ball = CreateSphere('b', { diameter: 0.2 }, scene);
    const agg = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    scene.getPhysicsEngine()!.setGravity(new Vector3(0, -100, 0));
    runFrames(scene, 60);
    expect(agg.body.getLinearVelocity().length()).toBeCloseTo(5, 6);
    scene.dispose();
  });

  it('fixed steps: a frame shorter than a step moves the node by interpolation, the body by whole steps', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const ball = CreateSphere('b', { diameter: 0.2 }, scene);
    const agg = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    agg.body.setLinearVelocity(new Vector3(6, 0, 0));
    // 1/120 s frames: a step every second frame; the node advances 6/120 = 0.05 m every frame.
    // The world runs up to a step ahead of the frame's time; the node sits at the frame's time.
    const xs: number[] = [];
    for (let i = 0; i < 8; i++) { runFrames(scene, 1, 1 / 120); xs.push(ball.position.x); }
    for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeCloseTo(0.05, 6);
    // Without interpolation the node shows the last step: 1/120 s frames move it 0.1 m every second frame.
    plugin.interpolate = false;
    const x0 = ball.position.x;
    runFrames(scene, 1, 1 / 120);
    const x1 = ball.position.x;
    runFrames(scene, 1, 1 / 120);
    const moves = [x1 - x0, ball.position.x - x1];
    expect(Math.min(...moves)).toBeCloseTo(0, 6);
    expect(Math.max(...moves)).toBeCloseTo(0.1, 6);
    plugin.interpolate = true;
    // HavokPlugin's behaviour, a step with each frame's delta, on request.
    plugin.useDeltaForWorldStep = true;
    const before = ball.position.x;
    runFrames(scene, 1, 1 / 30);
    expect(ball.position.x - before).toBeCloseTo(0.2, 6);
    // A 0.1 s frame with one sub-step allowed: one step of 0.05 s (the most footing takes), the rest dropped.
    const limited = new FootingPlugin(undefined, { useDeltaForWorldStep: true, maxSubSteps: 1 });
    const scene2 = physicsScene(limited, Vector3.Zero());
    const ball2 = CreateSphere('b2', { diameter: 0.2 }, scene2);
    new PhysicsAggregate(ball2, PhysicsShapeType.SPHERE, { mass: 1 }, scene2).body.setLinearVelocity(new Vector3(1, 0, 0));
    runFrames(scene2, 1, 0.1);
    expect(ball2.position.x).toBeCloseTo(0.05, 9);
    scene2.dispose();
    scene.dispose();
  });

  it('executeStep: a delta that is not a finite number ≥ 0 counts as 0 s; the time already accumulated is kept', () => {
    // Two like scenes (a ball at 6 m/s, no gravity, frames of 1/120 s: a fixed step every second
    // frame); one also gets executeStep(bad) between frames and must go on exactly as the other.
    for (const useDeltaForWorldStep of [false, true]) {
      for (const bad of [NaN, -1, Infinity, -Infinity]) {
        const make = () => {
          const plugin = new FootingPlugin(undefined, { useDeltaForWorldStep });
          const scene = physicsScene(plugin, Vector3.Zero());
          const ball = CreateSphere('ball', { diameter: 0.2 }, scene);
          const agg = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
          agg.body.setLinearVelocity(new Vector3(6, 0, 0));
          return { plugin, scene, ball, body: agg.body };
        };
        const ref = make(), hit = make();
        runFrames(ref.scene, 3, 1 / 120);
        runFrames(hit.scene, 3, 1 / 120);
        const steps = hit.plugin.world.stepCount, x = hit.ball.position.x;
        // A force pending for the frame acts over 0 s: no impulse, and no throw from the render loop.
        hit.body.applyForce(new Vector3(100, 0, 0), hit.ball.position);
        hit.plugin.executeStep(bad, [hit.body]);
        expect(hit.plugin.world.stepCount).toBe(steps);
        expect(hit.ball.position.x).toBe(x);
        runFrames(ref.scene, 5, 1 / 120);
        runFrames(hit.scene, 5, 1 / 120);
        expect(hit.plugin.world.stepCount).toBe(ref.plugin.world.stepCount);
        expect(hit.ball.position.x).toBe(ref.ball.position.x);
        expect(hit.body.getLinearVelocity().x).toBe(6);
        ref.scene.dispose();
        hit.scene.dispose();
      }
    }
  });
});

describe('FootingPlugin: bodies', () => {
  it('a PhysicsAggregate box dropped on a static ground rests at 0.5 m (half its size)', () => {
    const scene = physicsScene(new FootingPlugin());
    ground(scene);
    const mesh = CreateBox('box', { size: 1 }, scene);
    mesh.position.set(0.3, 3, -0.2);
    new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    runFrames(scene, 180);
    expect(mesh.position.y).toBeCloseTo(0.5, 2);
    // The aggregate's friction 0.2 against the ground's 0.5 mixes to 0.2 (MINIMUM, Havok's default mode):
    // the bounce of the landing (restitution 0.2) slides it 0.7 mm.
    expect(Math.abs(mesh.position.x - 0.3)).toBeLessThan(2e-3);
    expect(mesh.rotationQuaternion!.w).toBeCloseTo(1, 4);
    scene.dispose();
  });

  it('an impulse of 4 N·s on 2 kg gives 2 m/s; a force of 2 N for 1 s adds 1 m/s; an angular impulse spins a sphere at J/I', () => {
    const scene = physicsScene(new FootingPlugin(), new Vector3(0, 0, 0));
    const ball = CreateSphere('b', { diameter: 1 }, scene);
    const agg = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 2 }, scene);
    agg.body.applyImpulse(new Vector3(4, 0, 0), ball.getAbsolutePosition());
    expect(agg.body.getLinearVelocity().x).toBeCloseTo(2, 12);
    runFrames(scene, 60);
    expect(ball.position.x).toBeCloseTo(2, 6);
    const push = scene.onBeforePhysicsObservable.add(() => agg.body.applyForce(new Vector3(0, 2, 0), ball.position));
    runFrames(scene, 60);
    push.remove();
    expect(agg.body.getLinearVelocity().y).toBeCloseTo(1, 6);
    // The same force in 144 Hz frames: it acts for each frame's time, so 1 s still adds 1 m/s.
    const push144 = scene.onBeforePhysicsObservable.add(() => agg.body.applyForce(new Vector3(0, 2, 0), ball.position));
    runFrames(scene, 144, 1 / 144);
    push144.remove();
    expect(agg.body.getLinearVelocity().y).toBeCloseTo(2, 6);
    // A force off the centre turns the body: 1 N at 0.5 m for 1 s is 0.5 N·m·s on I = 0.2 kg·m².
    agg.body.setAngularVelocity(Vector3.Zero());
    agg.body.setAngularDamping(0);
    const off = scene.onBeforePhysicsObservable.add(() => agg.body.applyForce(new Vector3(0, 0, 1), ball.position.add(new Vector3(0.5, 0, 0))));
    runFrames(scene, 60);
    off.remove();
    expect(agg.body.getAngularVelocity().y).toBeCloseTo(-2.5, 6);
    // I = 2/5 m r² = 0.2 kg·m²; 0.1 N·m·s → 0.5 rad/s
    agg.body.setAngularVelocity(Vector3.Zero());
    agg.body.applyAngularImpulse(new Vector3(0, 0.1, 0));
    expect(agg.body.getAngularVelocity().y).toBeCloseTo(0.5, 9);
    scene.dispose();
  });

  it('a frame of 1e9 s applies its forces over the time it steps (4 steps), and a force past the speed limits is scaled down, not thrown half-way', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const a = CreateSphere('a', { diameter: 1 }, scene);
    const b = CreateSphere('b', { diameter: 1 }, scene);
    b.position.x = -5; // behind a, which is launched along +x
    const aggA = new PhysicsAggregate(a, PhysicsShapeType.SPHERE, { mass: 2 }, scene);
    const aggB = new PhysicsAggregate(b, PhysicsShapeType.SPHERE, { mass: 2 }, scene);
    aggA.body.setAngularDamping(0);
    aggA.body.applyForce(new Vector3(1e300, 0, 0), a.position);
    plugin.applyTorque(aggA.body, new Vector3(0, 1e300, 0)); // (PhysicsBody.applyTorque is newer than Babylon 8.0)
    aggB.body.applyForce(new Vector3(0, 3, 0), b.position);
    // Before, the first body's impulse (1e309 N·s) was refused by name and the frame stopped there.
    expect(() => plugin.executeStep(1e9, [aggA.body, aggB.body])).not.toThrow();
    const vA = aggA.body.getLinearVelocity(), wA = aggA.body.getAngularVelocity(), vB = aggB.body.getLinearVelocity();
    console.log(`[plugin] frame of 1e9 s: body A at ${vA.x} m/s, ${wA.y} rad/s; body B ${vB.y} m/s`);
    // 3 N on 2 kg over 4 fixed steps of 1/60 s: 0.1 m/s.
    expect(vB.y).toBeCloseTo(0.1, 9);
    // The plugin's own limits (Havok's defaults, 200 m/s and 100 rad/s) apply after the steps.
    expect(vA.x).toBeGreaterThan(199);
    expect(vA.x).toBeLessThanOrEqual(200 + 1e-9);
    expect(wA.y).toBeGreaterThan(99);
    expect(wA.y).toBeLessThanOrEqual(100 + 1e-9);
    expect(Number.isFinite(a.position.x)).toBe(true);
    scene.dispose();
  });

  it('velocities, damping, gravity factor, event mask: set, read back, dispose', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const mesh = CreateBox('b', { size: 1 }, scene);
    const body = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene);
    body.setLinearVelocity(new Vector3(1, 2, 3));
    body.setAngularVelocity(new Vector3(0.5, 0, 0));
    expect(body.getLinearVelocity().asArray()).toEqual([1, 2, 3]);
    expect(body.getAngularVelocity().x).toBe(0.5);
    body.setLinearDamping(0.3); body.setAngularDamping(0.4);
    expect(body.getLinearDamping()).toBe(0.3);
    expect(body.getAngularDamping()).toBe(0.4);
    expect(() => body.setLinearDamping(-1)).toThrow(/setLinearDamping/);
    expect(() => body.setGravityFactor(NaN)).toThrow(/setGravityFactor/);
    expect(() => body.applyForce(new Vector3(NaN, 0, 0), Vector3.Zero())).toThrow(/applyForce force/);
    expect(body.getLinearDamping()).toBe(0.3);
    body.setGravityFactor(0);
    expect(body.getGravityFactor()).toBe(0);
    body.setLinearVelocity(Vector3.Zero());
    runFrames(scene, 30);
    expect(mesh.position.y).toBeCloseTo(0, 9);
    body.setEventMask(5);
    expect(body.getEventMask()).toBe(5);
    body.setCollisionCallbackEnabled(true);
    expect(body.getEventMask()).toBe(7);
    expect(plugin.world.bodies.length).toBe(1);
    body.dispose();
    expect(plugin.world.bodies.length).toBe(0);
    scene.dispose();
  });

  it('motion types and mass properties: switch STATIC / ANIMATED / DYNAMIC, compute, set and read mass', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const mesh = CreateBox('b', { size: 1 }, scene);
    const agg = new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 3 }, scene);
    const body = agg.body;
    expect(body.getMotionType()).toBe(PhysicsMotionType.DYNAMIC);
    expect(body.getMassProperties().mass).toBeCloseTo(3, 12);
    // Box of side 1 at density 1000: 1000 kg, I = m (1 + 1) / 12 = 166.67
    const computed = body.computeMassProperties();
    expect(computed.mass).toBeCloseTo(1000, 9);
    // Per unit mass, as Havok's (1/6 m² for a 1 m box; it reported 1000/6 kg·m² for the box's 1000 kg before).
    expect(computed.inertia!.x).toBeCloseTo(1 / 6, 9);
    body.setMassProperties({ mass: 5 });
    expect(body.getMassProperties().mass).toBeCloseTo(5, 12);
    expect(body.getMassProperties().inertia!.y).toBeCloseTo(1 / 6, 9);
    expect(() => body.setMassProperties({ mass: -1 })).toThrow(/mass/);
    expect(body.getMassProperties().mass).toBeCloseTo(5, 12);
    // A mass footing refuses (1/m overflows) leaves the body as it was.
    const footingBody = plugin.world.bodies[0];
    expect(() => body.setMassProperties({ mass: 1e-320 })).toThrow(/mass/);
    expect(body.getMassProperties().mass).toBeCloseTo(5, 12);
    expect(plugin.world.bodies.length).toBe(1);
    expect(plugin.world.bodies[0]!.mass).toBeCloseTo(5, 12);
    expect(plugin.world.bodies[0]).not.toBe(footingBody);
    body.setMotionType(PhysicsMotionType.STATIC);
    expect(body.getMotionType()).toBe(PhysicsMotionType.STATIC);
    runFrames(scene, 30);
    expect(mesh.position.y).toBe(0);
    body.setMotionType(PhysicsMotionType.DYNAMIC);
    runFrames(scene, 30);
    // 30 steps (0.5 s) from rest: between the exact fall ½ g t² and semi-implicit Euler's g h² n(n+1)/2.
    expect(-mesh.position.y).toBeGreaterThanOrEqual(0.5 * G * 0.25 - 1e-9);
    expect(-mesh.position.y).toBeLessThanOrEqual(G * (1 / 60) ** 2 * 30 * 31 / 2 + 1e-9);
    scene.dispose();
  });

  it('ANIMATED bodies follow setTargetTransform and push dynamic ones', () => {
    const scene = physicsScene(new FootingPlugin());
    ground(scene);
    const pusherMesh = CreateBox('pusher', { width: 0.5, height: 1, depth: 2 }, scene);
    pusherMesh.position.set(-1, 0.5, 0);
    const pusher = new PhysicsAggregate(pusherMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
    pusher.body.setMotionType(PhysicsMotionType.ANIMATED);
    const crateMesh = CreateBox('crate', { size: 0.5 }, scene);
    crateMesh.position.set(0, 0.25, 0);
    new PhysicsAggregate(crateMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    runFrames(scene, 10);
    // 1 m/s along +x for 2 s.
    for (let i = 1; i <= 120; i++) {
      pusher.body.setTargetTransform(new Vector3(-1 + i / 60, 0.5, 0), Quaternion.Identity());
      runFrames(scene, 1);
      expect(pusherMesh.position.x).toBeCloseTo(-1 + i / 60, 6);
    }
    // The pusher's face ends at 1.25; the crate (0.25 half size) is in front of it.
    expect(crateMesh.position.x).toBeGreaterThan(1.45);
    expect(crateMesh.position.x).toBeLessThan(1.6);
    // ACTION prestep: moving the node drives the body there.
    pusher.body.setPrestepType(PhysicsPrestepType.ACTION);
    pusherMesh.position.set(1, 0.5, 3);
    runFrames(scene, 2);
    expect(pusherMesh.position.z).toBeCloseTo(3, 6);
    scene.dispose();
  });

  it('TELEPORT prestep moves a body to where its node was put; a parented node syncs in its parent frame', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, new Vector3(0, 0, 0));
    const parent = new TransformNode('p', scene);
    parent.position.set(10, 0, 0);
    parent.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), Math.PI / 2);
    const child = CreateSphere('c', { diameter: 0.5 }, scene);
    child.parent = parent;
    child.position.set(1, 0, 0);
    const agg = new PhysicsAggregate(child, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    agg.body.setLinearVelocity(new Vector3(0, 0, -3)); // world −z is the parent's +x
    runFrames(scene, 60);
    child.computeWorldMatrix(true);
    expect(child.getAbsolutePosition().z).toBeCloseTo(-1 - 3, 5);
    expect(child.position.x).toBeCloseTo(4, 5);
    agg.body.disablePreStep = false;
    agg.body.setLinearVelocity(Vector3.Zero());
    child.position.set(0, 2, 0);
    runFrames(scene, 1);
    child.computeWorldMatrix(true);
    expect(child.getAbsolutePosition().y).toBeCloseTo(2, 5);
    expect(child.getAbsolutePosition().x).toBeCloseTo(10, 5);
    // A static body moved through its node (disableSync, prestep on): teleported once, then left alone.
    const wallMesh = CreateBox('wall', { size: 1 }, scene);
    const wall = new PhysicsAggregate(wallMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
    wall.body.disablePreStep = false;
    wallMesh.position.set(0, 0, 5);
    runFrames(scene, 1);
    const footingWall = (wall.body._pluginData as { rigid: { position: { z: number } } }).rigid;
    expect(footingWall.position.z).toBeCloseTo(5, 9);
    // Count the world's pose changes (a teleport is one).
    let moves = 0;
    const original = plugin.world.bodyPoseChanged.bind(plugin.world);
    plugin.world.bodyPoseChanged = (b) => { moves++; original(b); };
    runFrames(scene, 10);
    expect(moves).toBe(0);
    scene.dispose();
  });

  it('setMotionType and initBody refuse a value that is not a PhysicsMotionType by name; the body stays as it was', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const agg = new PhysicsAggregate(CreateBox('b', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    const footingBody = plugin.world.bodies[0]!;
    expect(() => agg.body.setMotionType(99 as PhysicsMotionType)).toThrow(/FootingPlugin\.setMotionType: motionType must be a PhysicsMotionType \(STATIC 0, ANIMATED 1, DYNAMIC 2; got 99\)/);
    expect(agg.body.getMotionType()).toBe(PhysicsMotionType.DYNAMIC);
    expect(plugin.world.bodies.length).toBe(1);
    expect(plugin.world.bodies[0]).toBe(footingBody);
    expect(footingBody.type).toBe('dynamic');
    expect(() => new PhysicsBody(CreateBox('c', { size: 1 }, scene), 1.5 as PhysicsMotionType, false, scene)).toThrow(/initBody: motionType .*got 1\.5/);
    expect(plugin.world.bodies.length).toBe(1);
    scene.dispose();
  });

  it('a node the prestep cannot carry to its body (NaN, past MAX_POSITION) is refused naming the node; no body moves', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, Vector3.Zero());
    const firstMesh = CreateBox('first', { size: 1 }, scene);
    const first = new PhysicsAggregate(firstMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    const crateMesh = CreateBox('crate 7', { size: 1 }, scene);
    crateMesh.position.set(3, 0, 0);
    const crate = new PhysicsAggregate(crateMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    first.body.disablePreStep = false;
    crate.body.disablePreStep = false;
    runFrames(scene, 1);
    const rigid = (a: PhysicsAggregate) => (a.body._pluginData as { rigid: { position: { x: number; y: number } } }).rigid;
    const steps = plugin.world.stepCount;
    // A valid move of the body stepped before the bad one: refused with it, as the frame is.
    firstMesh.position.set(0, 5, 0);
    const cases: [() => void, RegExp][] = [
      [() => { crateMesh.position.x = NaN; }, /FootingPlugin: node 'crate 7' position\.x must be a finite number \(got NaN\)/],
      [() => { crateMesh.position.x = 2e6; }, /FootingPlugin: node 'crate 7' position\.x must be within ±1000000 m \(MAX_POSITION; got 2000000\)/],
      [() => { crateMesh.position.x = 3; crateMesh.rotationQuaternion = new Quaternion(0, NaN, 0, 1); }, /FootingPlugin: node 'crate 7' rotation\.\w must be a finite number \(got NaN\)/],
    ];
    for (const [move, message] of cases) {
      move();
      expect(() => runFrames(scene, 1)).toThrow(message);
      expect(rigid(first).position.y).toBe(0);
      expect(rigid(crate).position.x).toBe(3);
      expect(plugin.world.stepCount).toBe(steps);
    }
    crateMesh.rotationQuaternion = Quaternion.Identity();
    crateMesh.position.set(4, 0, 0);
    runFrames(scene, 1);
    expect(rigid(first).position.y).toBeCloseTo(5, 9);
    expect(rigid(crate).position.x).toBeCloseTo(4, 9);
    scene.dispose();
  });

  it('thin instances are bodies that move independently', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    ground(scene);
    // The NullEngine reports no instanced arrays, and Babylon then ignores thin instances.
    (scene.getEngine().getCaps() as { instancedArrays: boolean }).instancedArrays = true;
    const mesh = CreateBox('boxes', { size: 1 }, scene);
    const m = [Matrix.Translation(-2, 1, 0), Matrix.Translation(0, 2, 0), Matrix.Translation(2, 3, 0)];
    mesh.thinInstanceAdd(m);
    const body = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene);
    body.setMassProperties({ mass: 1 });
    expect(body.numInstances).toBe(3);
    expect(plugin.world.bodies.length).toBe(4);
    runFrames(scene, 150);
    // Instance i's translation in the thin instance matrix buffer the plugin writes.
    const at = (i: number, k: number): number => mesh._thinInstanceDataStorage.matrixData![i * 16 + 12 + k]!;
    for (let i = 0; i < 3; i++) {
      expect(at(i, 1)).toBeCloseTo(0.5, 2);
      expect(at(i, 0)).toBeCloseTo(-2 + 2 * i, 2);
    }
    body.applyImpulse(new Vector3(0, 5, 0), new Vector3(0, 0.5, 0), 1);
    expect(body.getLinearVelocity(1).y).toBeCloseTo(5, 9);
    expect(body.getLinearVelocity(0).y).toBeCloseTo(0, 6);
    runFrames(scene, 20);
    // 5 m/s up for 1/3 s: 0.5 + 5/3 − ½ g (1/3)² = 1.62 m
    expect(at(1, 1)).toBeCloseTo(0.5 + 5 / 3 - 0.5 * G / 9, 1);
    expect(at(0, 1)).toBeCloseTo(0.5, 2);
    expect(at(2, 1)).toBeCloseTo(0.5, 2);
    // Fewer instances: the last body goes.
    mesh.thinInstanceCount = 2;
    body.updateBodyInstances();
    expect(body.numInstances).toBe(2);
    expect(plugin.world.bodies.length).toBe(3);
    scene.dispose();
  });
});

describe('FootingPlugin: shapes', () => {
  it('types, masks, material, density, trigger, bounding boxes, geometry: set and read back', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const shape = new PhysicsShapeSphere(new Vector3(0, 1, 0), 0.5, scene);
    expect(shape.type).toBe(PhysicsShapeType.SPHERE);
    shape.filterMembershipMask = 2;
    shape.filterCollideMask = 4;
    expect(shape.filterMembershipMask).toBe(2);
    expect(shape.filterCollideMask).toBe(4);
    shape.material = { friction: 0.8, staticFriction: 0.9, restitution: 0.3 };
    expect(shape.material.friction).toBe(0.8);
    expect(shape.material.staticFriction).toBe(0.9);
    expect(shape.material.restitution).toBe(0.3);
    expect(() => { shape.material = { restitution: 2 }; }).toThrow(/restitution/);
    expect(shape.material.restitution).toBe(0.3);
    shape.density = 500;
    expect(shape.density).toBe(500);
    expect(() => { shape.density = 0; }).toThrow(/density/);
    const bb = shape.getBoundingBox();
    expect(bb.minimum.y).toBeCloseTo(0.5, 9);
    expect(bb.maximum.y).toBeCloseTo(1.5, 9);
    const mesh = CreateSphere('s', { diameter: 1 }, scene);
    mesh.position.set(3, 0, 0);
    const body = new PhysicsBody(mesh, PhysicsMotionType.STATIC, false, scene);
    body.shape = shape;
    const r = plugin.world.bodies[0]!;
    expect(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), Vector3.One(), scene).filterMembershipMask).toBe(~0);
    expect(r.collisionGroup >>> 0).toBe(2);
    expect(r.collisionMask >>> 0).toBe(4);
    expect(r.friction).toBe(0.8);
    // The centre (0, 1, 0) is an offset of the footing body from the node.
    expect(r.position.y).toBeCloseTo(1, 9);
    const wbb = plugin.getBodyBoundingBox(body);
    expect(wbb.minimumWorld.x).toBeCloseTo(2.5, 6);
    const geom = body.getGeometry() as { positions: Float32Array; indices: Uint32Array };
    let maxY = -Infinity;
    for (let i = 1; i < geom.positions.length; i += 3) maxY = Math.max(maxY, geom.positions[i]!);
    expect(maxY).toBeCloseTo(1.5, 5);
    shape.isTrigger = true;
    expect(plugin.world.bodies[0]!.isSensor).toBe(true);
    // Another shape without the offset: the node stays, the footing body moves to it.
    body.shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), Vector3.One(), scene);
    expect(plugin.world.bodies.length).toBe(1);
    expect(plugin.world.bodies[0]!.position.y).toBeCloseTo(0, 9);
    expect(plugin.world.bodies[0]!.position.x).toBeCloseTo(3, 9);
    body.shape = shape;
    const capsule = new PhysicsShape({ type: PhysicsShapeType.CAPSULE, parameters: { pointA: new Vector3(-1, 0, 0), pointB: new Vector3(1, 0, 0), radius: 0.25 } }, scene);
    const cb = capsule.getBoundingBox();
    expect(cb.maximum.x).toBeCloseTo(1.25, 9);
    expect(cb.maximum.y).toBeCloseTo(0.25, 9);
    shape.dispose();
    scene.dispose();
  });

  it('filter masks refuse a value that is not 32 bits (1.5, NaN, 2^32) by name; the mask and the footing body stay', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const agg = new PhysicsAggregate(CreateBox('b', { size: 1 }, scene), PhysicsShapeType.BOX, { mass: 1 }, scene);
    const shape = agg.shape;
    shape.filterMembershipMask = 6;
    shape.filterCollideMask = 0xffffffff;
    const footingBody = plugin.world.bodies[0]!;
    expect([footingBody.collisionGroup, footingBody.collisionMask]).toEqual([6, -1]);
    for (const bad of [1.5, NaN, 2 ** 32]) {
      expect(() => { shape.filterMembershipMask = bad; }).toThrow(new RegExp(`setShapeFilterMembershipMask: membershipMask must be an integer .*got ${bad}`));
      expect(() => { shape.filterCollideMask = bad; }).toThrow(new RegExp(`setShapeFilterCollideMask: collideMask must be an integer .*got ${bad}`));
      expect([shape.filterMembershipMask, shape.filterCollideMask]).toEqual([6, -1]);
      expect([footingBody.collisionGroup, footingBody.collisionMask]).toEqual([6, -1]);
    }
    scene.dispose();
  });

  it('a MESH shape is a static triangle mesh a box rests on; a CONTAINER with one child collides as it', () => {
    const scene = physicsScene(new FootingPlugin());
    const floor = CreateBox('floor', { width: 10, height: 1, depth: 10 }, scene);
    floor.position.y = -0.5;
    new PhysicsAggregate(floor, PhysicsShapeType.MESH, { mass: 0 }, scene);
    const node = new TransformNode('c', scene);
    node.position.y = 2;
    const container = new PhysicsShapeContainer(scene);
    container.addChildFromParent(node, new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), scene), node);
    expect(container.getNumChildren()).toBe(1);
    const body = new PhysicsBody(node, PhysicsMotionType.DYNAMIC, false, scene);
    body.shape = container;
    body.setMassProperties({ mass: 1 });
    runFrames(scene, 150);
    expect(node.position.y).toBeCloseTo(0.5, 2);
    // A MESH beside another child would need a Compound of non-convex children: refused by name, the container unchanged.
    const meshChild = new PhysicsShapeMesh(CreateBox('mc', { size: 0.5 }, scene), scene);
    expect(() => container.addChild(meshChild, new Vector3(1, 0, 0))).toThrow(FootingPluginUnsupportedError);
    expect(container.getNumChildren()).toBe(1);
    expect(node.position.y).toBeCloseTo(0.5, 2);
    scene.dispose();
  });

  it('a HEIGHTFIELD without data, or a CONVEX_HULL without a mesh, names the options it needs', () => {
    const scene = physicsScene(new FootingPlugin());
    expect(() => new PhysicsShape({ type: PhysicsShapeType.CONVEX_HULL, parameters: {} }, scene)).toThrow(/options.mesh/);
    expect(() => new PhysicsShape({ type: PhysicsShapeType.HEIGHTFIELD, parameters: {} }, scene)).toThrow(/heightFieldData/);
    scene.dispose();
  });
});

describe('FootingPlugin: constraints', () => {
  it('a hinge swings with the pendulum period 2π √(L/g)', () => {
    const scene = physicsScene(new FootingPlugin());
    const pivotMesh = CreateBox('pivot', { size: 0.1 }, scene);
    pivotMesh.position.y = 2;
    const pivot = new PhysicsAggregate(pivotMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
    // A small heavy bob 1 m below the pivot, released at 0.1 rad.
    const L = 1, theta0 = 0.1;
    const bobMesh = CreateSphere('bob', { diameter: 0.02 }, scene);
    bobMesh.position.set(L * Math.sin(theta0), 2 - L * Math.cos(theta0), 0);
    const bob = new PhysicsAggregate(bobMesh, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    bob.body.setAngularDamping(0);
    const hinge = new HingeConstraint(new Vector3(0, 0, 0), new Vector3(-bobMesh.position.x, 2 - bobMesh.position.y, 0), new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene);
    pivot.body.addConstraint(bob.body, hinge);
    // Period from successive upward zero crossings of x.
    const crossings: number[] = [];
    let prev = bobMesh.position.x;
    for (let i = 1; i <= 600; i++) {
      runFrames(scene, 1);
      const x = bobMesh.position.x;
      if (prev < 0 && x >= 0) crossings.push((i - 1 + -prev / (x - prev)) / 60);
      prev = x;
    }
    const T = 2 * Math.PI * Math.sqrt(L / G);
    expect(crossings.length).toBeGreaterThanOrEqual(4);
    const measured = (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1);
    expect(Math.abs(measured - T) / T).toBeLessThan(0.01);
    // The bob stays on its 1 m circle.
    expect(Math.hypot(bobMesh.position.x, bobMesh.position.y - 2)).toBeCloseTo(L, 3);
    scene.dispose();
  });

  it('ball, distance and lock constraints hold; enable, collisions, axis settings read back; a velocity motor turns the hinge', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const anchorMesh = CreateBox('a', { size: 0.2 }, scene);
    anchorMesh.position.y = 5;
    const anchor = new PhysicsAggregate(anchorMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
    const make = (x: number): PhysicsAggregate => {
      const m = CreateBox('b' + x, { size: 0.2 }, scene);
      m.position.set(x, 5, 0);
      return new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, scene);
    };
    const b1 = make(1), b2 = make(2), b3 = make(3);
    const ball = new BallAndSocketConstraint(new Vector3(1, 0, 0), Vector3.Zero(), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    anchor.body.addConstraint(b1.body, ball);
    const rod = new DistanceConstraint(1, scene);
    b1.body.addConstraint(b2.body, rod);
    const lock = new LockConstraint(new Vector3(0.5, 0, 0), new Vector3(-0.5, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    b2.body.addConstraint(b3.body, lock);
    expect(plugin.world.joints.length).toBe(3);
    runFrames(scene, 120);
    const p = (a: PhysicsAggregate): Vector3 => a.transformNode.getAbsolutePosition();
    expect(Vector3.Distance(p(anchor), p(b1))).toBeCloseTo(1, 2);
    expect(Vector3.Distance(p(b1), p(b2))).toBeCloseTo(1, 2);
    expect(Vector3.Distance(p(b2), p(b3))).toBeCloseTo(1, 2);
    expect(ball.getBodiesUsingConstraint()[0]!.childBody).toBe(b1.body);
    lock.isCollisionsEnabled = true;
    expect(lock.isCollisionsEnabled).toBe(true);
    lock.isEnabled = false;
    expect(lock.isEnabled).toBe(false);
    expect(plugin.world.joints.length).toBe(2);
    lock.isEnabled = true;
    expect(plugin.world.joints.length).toBe(3);
    rod.dispose();
    expect(plugin.world.joints.length).toBe(2);

    // A hinge motor at 2 rad/s on a free wheel (no gravity on it).
    const wheelMesh = CreateBox('w', { size: 0.5 }, scene);
    wheelMesh.position.set(10, 5, 0);
    const wheel = new PhysicsAggregate(wheelMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
    wheel.body.setGravityFactor(0);
    wheel.body.setAngularDamping(0);
    const hinge = new HingeConstraint(new Vector3(10, 0, 0), Vector3.Zero(), new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene);
    anchor.body.addConstraint(wheel.body, hinge);
    // (Babylon's HingeConstraint class has no axis methods; Physics6DoFConstraint has. The plugin's are the same calls.)
    const X = PhysicsConstraintAxis.ANGULAR_X;
    plugin.setAxisMotorType(hinge, X, PhysicsConstraintMotorType.VELOCITY);
    plugin.setAxisMotorTarget(hinge, X, 2);
    plugin.setAxisMotorMaxForce(hinge, X, 100);
    plugin.setAxisMode(hinge, X, PhysicsConstraintAxisLimitMode.FREE);
    plugin.setAxisFriction(hinge, X, 0);
    expect(plugin.getAxisMotorTarget(hinge, X)).toBe(2);
    expect(plugin.getAxisMotorType(hinge, X)).toBe(PhysicsConstraintMotorType.VELOCITY);
    expect(plugin.getAxisMotorMaxForce(hinge, X)).toBe(100);
    expect(plugin.getAxisMode(hinge, X)).toBe(PhysicsConstraintAxisLimitMode.FREE);
    expect(plugin.getAxisFriction(hinge, X)).toBe(0);
    expect(plugin.getAxisMinLimit(hinge, X)).toBe(null);
    expect(() => plugin.setAxisMotorTarget(hinge, X, NaN)).toThrow(/motorTarget/);
    expect(plugin.getAxisMotorTarget(hinge, X)).toBe(2);
    runFrames(scene, 30);
    expect(Math.abs(wheel.body.getAngularVelocity().z)).toBeCloseTo(2, 3);
    // A SLIDER is made (footing's SixDofJoint; its numbers are in plugin-joints.test.ts).
    const jointsBefore = plugin.world.joints.length;
    b1.body.addConstraint(b3.body, new SliderConstraint(Vector3.Zero(), Vector3.Zero(), Vector3.Right(), Vector3.Right(), scene));
    expect(plugin.world.joints.length).toBe(jointsBefore + 1);
    scene.dispose();
  });
});

describe('FootingPlugin: events and queries', () => {
  it('collision events carry point, normal and impulse; a trigger reports enter and exit once', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    ground(scene);
    const mesh = CreateSphere('s', { diameter: 1 }, scene);
    mesh.position.y = 1;
    const agg = new PhysicsAggregate(mesh, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    agg.body.setCollisionCallbackEnabled(true);
    agg.body.setCollisionEndedCallbackEnabled(true);
    const starts: { y: number; ny: number; impulse: number }[] = [];
    let continued = 0;
    plugin.onCollisionObservable.add((e) => {
      if (e.type === 'COLLISION_STARTED') starts.push({ y: e.point!.y, ny: e.normal!.y, impulse: e.impulse });
      if (e.type === 'COLLISION_CONTINUED') continued++;
    });
    let own = 0;
    agg.body.getCollisionObservable().add((e) => { if (e.collider === agg.body) own++; });
    runFrames(scene, 60);
    // Babylon's default restitution 0.2: the ball rebounds at 0.63 m/s, 2 cm up, and lands
    // again (Havok, same scene: 3 starts, its second landing bounces once more).
    expect(starts.length).toBe(2);
    expect(starts[0]!.y).toBeCloseTo(0, 2);
    expect(Math.abs(starts[0]!.ny)).toBeCloseTo(1, 6);
    // Landing at √(2 g 0.5) = 3.13 m/s on 1 kg: the first step's impulse stops it.
    expect(starts[0]!.impulse).toBeGreaterThan(2.5);
    expect(continued).toBeGreaterThan(20);
    expect(own).toBe(starts.length + continued);
    scene.dispose();
  });

  it('raycast returns the first body and its distance; ignoreBody, masks and an array of results', () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin, Vector3.Zero());
    const at = (x: number, membership: number): PhysicsAggregate => {
      const m = CreateBox('b' + x, { size: 1 }, scene);
      m.position.x = x;
      const a = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 0 }, scene);
      a.shape.filterMembershipMask = membership;
      return a;
    };
    const near = at(5, 1), far = at(10, 2);
    const engine = scene.getPhysicsEngine() as PhysicsEngine;
    const result = new PhysicsRaycastResult();
    engine.raycastToRef(Vector3.Zero(), new Vector3(20, 0, 0), result);
    expect(result.hasHit).toBe(true);
    expect(result.body).toBe(near.body);
    expect(result.hitDistance).toBeCloseTo(4.5, 9);
    expect(result.hitPointWorld.x).toBeCloseTo(4.5, 9);
    expect(result.hitNormalWorld.x).toBeCloseTo(-1, 9);
    engine.raycastToRef(Vector3.Zero(), new Vector3(20, 0, 0), result, { ignoreBody: near.body });
    expect(result.body).toBe(far.body);
    expect(result.hitDistance).toBeCloseTo(9.5, 9);
    engine.raycastToRef(Vector3.Zero(), new Vector3(20, 0, 0), result, { collideWith: 2 });
    expect(result.body).toBe(far.body);
    engine.raycastToRef(Vector3.Zero(), new Vector3(3, 0, 0), result);
    expect(result.hasHit).toBe(false);
    const all: PhysicsRaycastResult[] = [];
    plugin.raycast(Vector3.Zero(), new Vector3(20, 0, 0), all);
    expect(all.map((r) => r.hitDistance)).toEqual([4.5, 9.5]);
    scene.dispose();
  });
});

describe('FootingPlugin: debug tools', () => {
  it("PhysicsViewer draws bodies, inertia and constraints from the plugin's geometry and mass properties; the Inspector's body fields read back", () => {
    const plugin = new FootingPlugin();
    const scene = physicsScene(plugin);
    const a = CreateBox('a', { width: 2, height: 1, depth: 1 }, scene);
    const aggA = new PhysicsAggregate(a, PhysicsShapeType.BOX, { mass: 0 }, scene);
    const b = CreateSphere('b', { diameter: 1 }, scene);
    b.position.x = 2;
    const aggB = new PhysicsAggregate(b, PhysicsShapeType.SPHERE, { mass: 2 }, scene);
    const joint = new BallAndSocketConstraint(new Vector3(1, 0, 0), new Vector3(-1, 0, 0), Vector3.Up(), Vector3.Up(), scene);
    aggA.body.addConstraint(aggB.body, joint);
    const viewer = new PhysicsViewer(scene);
    const bodyMesh = viewer.showBody(aggA.body)!;
    expect(bodyMesh).not.toBeNull();
    bodyMesh.refreshBoundingInfo({});
    // The debug box spans the 2 m × 1 m × 1 m shape.
    const ext = bodyMesh.getBoundingInfo().boundingBox.extendSize;
    expect(ext.x).toBeCloseTo(1, 5);
    expect(ext.y).toBeCloseTo(0.5, 5);
    expect(viewer.showInertia(aggB.body)).not.toBeNull();
    expect(viewer.showConstraint(joint)).not.toBeNull();
    runFrames(scene, 5);
    // What the Inspector's physics panel reads and writes.
    expect(aggB.body.getMotionType()).toBe(PhysicsMotionType.DYNAMIC);
    expect(aggB.body.getPrestepType()).toBe(PhysicsPrestepType.DISABLED);
    expect(aggB.body.getMassProperties().mass).toBeCloseTo(2, 12);
    aggB.body.setMassProperties({ mass: 4 });
    expect(aggB.body.getMassProperties().mass).toBeCloseTo(4, 12);
    expect(plugin.world.joints.length).toBe(1);
    viewer.dispose();
    scene.dispose();
  });
});
