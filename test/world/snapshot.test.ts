/**
 * Whole-simulation snapshots (world, joints, cloth, rope, particle bodies,
 * characters). 60 Hz, default settings. "Identical" means bit for bit: an
 * FNV-1a hash over the bytes of every body's pose and velocities, every
 * particle position and every character's position and velocity.
 *
 * The scene: two humanoid ragdolls (one of them kicked every second), a paddle on a
 * motorised hinge sweeping through boxes, a cloth hanging onto a dynamic
 * box, a rope hanging from a dynamic box and lying on a static one, a
 * tetrahedral particle body, a kinematic lift driven by kinematic targets
 * with a crate on it, a box pushed by an accumulated force, a resting stack
 * that is asleep by step 300 and is hit by a ball rolled at step 330, and
 * two walkers following an input script (turns and jumps).
 */
import { describe, expect, it } from 'vitest';
import {
  Box, Capsule, createCloth, createParticleBody, createRagdoll, createRope, HingeJoint, ParticleSystem, quat, Sphere, SnapshotError,
  snapshotTransferList, TriangleMesh, World, type Ragdoll, type RigidBody, type WorldSnapshot,
} from '../../src/index';
import { CharacterController, Walker, type WalkerSnapshot } from '../../character/index';
import { DT } from '../helpers/world';
import { BODY_INTS, BODY_STRIDE } from '../../src/world/snapshot';

interface Scene {
  world: World;
  ragdolls: Ragdoll[];
  walkers: Walker[];
  systems: ParticleSystem[];
  lift: RigidBody;
  pushed: RigidBody;
  ball: RigidBody;
  stack: RigidBody[];
  hinge: HingeJoint;
}

function buildScene(): Scene {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 30, y: 0.5, z: 30 }), position: { x: 0, y: -0.5, z: 0 } });
  // A static mesh ramp the walkers cross.
  const ramp = new TriangleMesh([-2, 0, 4, 2, 0, 4, 2, 0.5, 8, -2, 0.5, 8], [0, 2, 1, 0, 3, 2]);
  world.createBody({ type: 'static', shape: ramp, position: { x: 0, y: 0.001, z: 0 } });
  const ragdolls = [
    createRagdoll(world, { position: { x: -4, y: 2.5, z: 0 } }),
    createRagdoll(world, { position: { x: 4, y: 3, z: 0 }, rotation: quat.fromAxisAngle(quat.quat(), { x: 1, y: 0, z: 0 }, 1.2) }),
  ];
  // Motorised paddle sweeping through a row of boxes.
  const post = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.5, z: 0.1 }), position: { x: 0, y: 0.5, z: -6 } });
  const paddle = world.createBody({ type: 'dynamic', shape: new Box({ x: 1.5, y: 0.2, z: 0.1 }), position: { x: 1.6, y: 0.6, z: -6 }, mass: 20 });
  const hinge = world.addJoint(new HingeJoint({ bodyA: post, bodyB: paddle, anchor: { x: 0, y: 0.6, z: -6 }, axis: { x: 0, y: 1, z: 0 }, motorSpeed: 2, maxMotorTorque: 400 }));
  for (let i = 0; i < 4; i++) world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 2.2, y: 0.2, z: -6 + (i - 1.5) * 0.6 } });
  // Cloth pinned at its top, hanging onto a dynamic box.
  world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.4, z: 0.5 }), position: { x: 8, y: 0.4, z: 6 } });
  const cloth = createCloth(world, { width: 1.6, height: 1.6, segments: 8, position: { x: 8, y: 1.3, z: 6 }, rotation: quat.fromAxisAngle(quat.quat(), { x: 1, y: 0, z: 0 }, 0.5) });
  // Rope hanging from a swinging dynamic box, its end lying on a static block.
  const anchor = world.createBody({ type: 'static', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: -8, y: 4, z: 6 } });
  const swing = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: -7, y: 4, z: 6 }, mass: 2 });
  world.addJoint(new HingeJoint({ bodyA: anchor, bodyB: swing, anchor: { x: -8, y: 4, z: 6 }, axis: { x: 0, y: 0, z: 1 } }));
  world.createBody({ type: 'static', shape: new Box({ x: 1, y: 0.5, z: 1 }), position: { x: -7, y: 0.5, z: 6 } });
  const rope = createRope(world, { from: { x: -7, y: 3.8, z: 6 }, to: { x: -7, y: 1.2, z: 6 }, segments: 12, length: 3.5, startBody: swing });
  const particleBody = createParticleBody(world, { position: { x: 8.3, y: 2.5, z: 6.2 }, size: 0.2 });
  // Kinematic lift with a crate; a box pushed by a force every step.
  const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 1, y: 0.1, z: 1 }), position: { x: 0, y: 0.1, z: 12 } });
  world.createBody({ type: 'dynamic', shape: new Box({ x: 0.3, y: 0.3, z: 0.3 }), position: { x: 0, y: 0.5, z: 12 } });
  const pushed = world.createBody({ type: 'dynamic', shape: new Capsule(0.2, 0.3), position: { x: 4, y: 0.2, z: 12 }, rotation: quat.fromAxisAngle(quat.quat(), { x: 0, y: 0, z: 1 }, Math.PI / 2) });
  // A stack that falls asleep, and the ball that wakes it.
  const stack: RigidBody[] = [];
  for (let i = 0; i < 4; i++) stack.push(world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.25, z: 0.4 }), position: { x: -12, y: 0.25 + 0.5 * i, z: -12 } }));
  const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: -6, y: 0.3, z: -12 } });
  const walkers = [0, 1].map((k) => {
    const c = new CharacterController(world, { position: { x: -1 + 2 * k, y: 0.95, z: 2 } });
    return new Walker(c);
  });
  return { world, ragdolls, walkers, systems: [cloth.system, rope.system, particleBody.system], lift, pushed, ball, stack, hinge };
}

/** Frame `i` of the game: inputs, walkers, one world step, then what is queued for the next step. */
function frame(s: Scene, i: number): void {
  s.walkers.forEach((w, k) => {
    const a = 0.9 * Math.floor(i / 60) + k * 2;
    w.setInput(Math.cos(a), 0, Math.sin(a));
    if ((i + 25 * k) % 97 === 0) w.jump();
    w.update(DT);
  });
  if (i % 60 === 30) {
    const torso = s.ragdolls[(i / 60) & 1]!.bodies[0]!;
    torso.applyImpulse({ x: 40 * Math.sin(i), y: 250, z: 40 * Math.cos(i) }, { x: torso.position.x, y: torso.position.y + 0.1, z: torso.position.z });
  }
  if (i === 330) s.ball.applyImpulse({ x: -900, y: 0, z: 0 });
  s.world.step(DT);
  // Queued for the next step: kept by a snapshot taken now.
  const t = (i + 1) * DT;
  s.lift.setKinematicTarget({ x: 0, y: 0.6 + 0.5 * Math.sin(t), z: 12 }, quat.fromAxisAngle(quat.quat(), { x: 0, y: 1, z: 0 }, 0.3 * t));
  s.pushed.applyForce({ x: 30 * Math.cos(t), y: 0, z: 30 * Math.sin(2 * t) });
}

function hashScene(s: Scene): string {
  const f = new Float64Array(1);
  const bytes = new Uint8Array(f.buffer);
  let h = 0x811c9dc5;
  const add = (v: number): void => {
    f[0] = v;
    for (let i = 0; i < 8; i++) h = Math.imul(h ^ bytes[i]!, 16777619) >>> 0;
  };
  for (const b of s.world.bodies) {
    const p = b.position, q = b.rotation, v = b.linearVelocity, w = b.angularVelocity;
    add(b.id); add(p.x); add(p.y); add(p.z); add(q.x); add(q.y); add(q.z); add(q.w);
    add(v.x); add(v.y); add(v.z); add(w.x); add(w.y); add(w.z);
  }
  for (const sys of s.systems) for (let i = 0; i < 3 * sys.count; i++) add(sys.positions[i]!);
  for (const w of s.walkers) {
    const p = w.controller.position;
    add(p.x); add(p.y); add(p.z); add(w.velocity.x); add(w.velocity.y); add(w.velocity.z);
  }
  return h.toString(16);
}

interface SceneSnapshot { world: WorldSnapshot; walkers: WalkerSnapshot[] }

function takeSnapshot(s: Scene): SceneSnapshot {
  return { world: s.world.snapshot(), walkers: s.walkers.map((w) => w.snapshot()) };
}

function restoreSnapshot(s: Scene, snap: SceneSnapshot): void {
  s.world.restore(snap.world);
  s.walkers.forEach((w, k) => w.restore(snap.walkers[k]!));
}

/** Runs frames [from, to) and returns the hash after each. */
function run(s: Scene, from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    frame(s, i);
    out.push(hashScene(s));
  }
  return out;
}

/** The scene is doing what the test claims at step 300 (checked once, in the first test). */
function checkSceneIsActive(s: Scene, before: Map<number, number>): void {
  const sleeping = s.world.bodies.filter((b) => b.isSleeping).length;
  expect(s.stack.every((b) => b.isSleeping)).toBe(true);
  expect(sleeping).toBeGreaterThanOrEqual(4);
  // Ragdolls and the paddle still moving; the hinge motor at its speed (2 rad/s ± 0.5).
  const moving = s.ragdolls.flatMap((r) => r.bodies).filter((b) => Math.hypot(b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z) > 0.05).length;
  expect(moving).toBeGreaterThan(0);
  expect(Math.abs(s.hinge.bodyB.angularVelocity.y - 2)).toBeLessThan(0.5);
  // The walkers walked (more than 2 m from their start) and the cloth and rope moved.
  for (const w of s.walkers) expect(Math.hypot(w.controller.position.x, w.controller.position.z - 2)).toBeGreaterThan(2);
  for (const sys of s.systems) expect(Math.abs(sys.positions[3 * (sys.count - 1) + 1]! - before.get(sys.count)!)).toBeGreaterThan(1e-3);
}

describe('world snapshots (whole simulation)', () => {
  it('restore into an identically built world: both run 300 more steps bit-identically (ragdolls, motor, cloth, rope, walkers, sleeping stack)', () => {
    const a = buildScene();
    const before = new Map(a.systems.map((sys) => [sys.count, sys.positions[3 * (sys.count - 1) + 1]!]));
    run(a, 0, 300);
    checkSceneIsActive(a, before);
    const snap = takeSnapshot(a);
    // Through a structured clone with the buffers transferred, as to a worker.
    const sent = structuredClone(snap.world, { transfer: snapshotTransferList(snap.world) });
    expect(snap.world.bodies.length).toBe(0); // transferred, not copied
    // The twin has a history of its own (other contacts, tree, sleep state): restore must replace all of it.
    const b = buildScene();
    run(b, 0, 37);
    restoreSnapshot(b, { world: sent, walkers: structuredClone(snap.walkers) });
    expect(hashScene(b)).toBe(hashScene(a));
    const ha = run(a, 300, 600);
    const hb = run(b, 300, 600);
    let firstDiff = -1;
    for (let i = 0; i < ha.length; i++) if (ha[i] !== hb[i]) { firstDiff = 300 + i; break; }
    expect(firstDiff).toBe(-1);
    console.log(`snapshot restore hash at 600: ${ha[ha.length - 1]}`);
  });

  it('rolls back within the same world: step 300\'s snapshot restored at step 400 replays to 400 bit-identically', () => {
    const s = buildScene();
    run(s, 0, 300);
    const snap = takeSnapshot(s);
    const first = run(s, 300, 400);
    restoreSnapshot(s, snap);
    const second = run(s, 300, 400);
    let firstDiff = -1;
    for (let i = 0; i < first.length; i++) if (first[i] !== second[i]) { firstDiff = 300 + i; break; }
    expect(firstDiff).toBe(-1);
    // The same snapshot restores again (restore does not consume it).
    restoreSnapshot(s, snap);
    expect(run(s, 300, 400)[99]).toBe(first[99]);
  });

  it('a snapshot taken while bodies sleep restores their sleep: the stack stays asleep and wakes on the same step', () => {
    const a = buildScene();
    run(a, 0, 300);
    const snap = takeSnapshot(a);
    const b = buildScene();
    restoreSnapshot(b, snap);
    for (let k = 0; k < 4; k++) expect(b.stack[k]!.isSleeping).toBe(true);
    const wakeStep = (s: Scene): number => {
      for (let i = 300; i < 420; i++) {
        frame(s, i);
        if (!s.stack[0]!.isSleeping) return i;
      }
      return -1;
    };
    const wa = wakeStep(a), wb = wakeStep(b);
    expect(wa).toBeGreaterThan(330);
    expect(wb).toBe(wa);
    expect(hashScene(b)).toBe(hashScene(a));
  });

  it('a body created after the snapshot and removed before the restore: the replay creates it with the same id and the same motion', () => {
    const s = buildScene();
    run(s, 0, 60);
    const snap = takeSnapshot(s);
    const drop = (): RigidBody => s.world.createBody({ type: 'dynamic', shape: new Sphere(0.25), position: { x: 8, y: 3, z: 6.3 } });
    const first = drop();
    const h1 = run(s, 60, 90);
    s.world.removeBody(first);
    restoreSnapshot(s, snap);
    const second = drop();
    expect(second.id).toBe(first.id);
    const h2 = run(s, 60, 90);
    expect(h2[29]).toBe(h1[29]);
  });

  it('an active hinge keeps its accumulated impulses: restored one step later it continues exactly (the version-1 snapshot diverged)', () => {
    const s = buildScene();
    run(s, 0, 200);
    const snap = s.world.snapshot();
    const lower = s.hinge.motor.impulse;
    expect(Math.abs(lower)).toBeGreaterThan(0);
    run(s, 200, 201);
    s.world.restore(snap);
    expect(s.hinge.motor.impulse).toBe(lower);
  });
});

type Corruption = [name: string, corrupt: (s: WorldSnapshot) => void, message: RegExp];
type Mutable = { -readonly [K in keyof WorldSnapshot]: WorldSnapshot[K] };

const lastBody = (s: WorldSnapshot): number => s.bodies.length / BODY_STRIDE - 1;
/** Each corrupts a copy of a good snapshot, mostly in its last row (a restore that wrote as it checked would have changed the world). */
const CORRUPTIONS: Corruption[] = [
  ['wrong version', (s) => { (s as Mutable).version = 1; }, /version 1/],
  ['unknown body id (last body)', (s) => { s.bodyInts[BODY_INTS * lastBody(s)] = 9999; }, /body 9999/],
  ['a body id twice', (s) => { s.bodyInts[BODY_INTS * lastBody(s)] = s.bodyInts[0]!; }, /twice/],
  ['NaN in the last body', (s) => { s.bodies[s.bodies.length - 5] = NaN; }, /bodies\[\d+\] is NaN/],
  ['truncated body rows', (s) => { (s as Mutable).bodies = s.bodies.slice(0, s.bodies.length - 3); }, /truncated/],
  ['NaN in the last contact', (s) => { s.contacts[s.contacts.length - 2] = NaN; }, /contacts\[\d+\] is NaN/],
  ['truncated contacts', (s) => { (s as Mutable).contactInts = s.contactInts.slice(0, s.contactInts.length - 1); }, /truncated/],
  ['a contact naming an unknown body', (s) => { s.contactInts[s.contactInts.length - 3] = 7777; }, /7777/],
  ['another body type', (s) => { s.bodyInts[BODY_INTS * lastBody(s) + 1] = 0; }, /static in the snapshot, kinematic in the world/],
  ['another shape size', (s) => { s.bodies[BODY_STRIDE * lastBody(s) + 41] = 0.31; }, /dimensions/],
  ['another shape kind', (s) => { s.bodyInts[BODY_INTS * lastBody(s) + 2] = 1; }, /shape kind/],
  ['a non-unit rotation', (s) => { s.bodies[BODY_STRIDE * lastBody(s) + 3] = 2; }, /unit quaternion/],
  ['an unknown combine mode', (s) => { s.bodyInts[BODY_INTS * lastBody(s) + 8] = 5; }, /combine modes/],
  ['a negative static friction', (s) => { s.bodies[BODY_STRIDE * lastBody(s) + 44] = -0.5; }, /static friction/],
  ['another joint kind (last joint)', (s) => { s.jointInts[s.jointInts.length - 6] = 0; }, /joint \d+ is of kind 0/],
  ['a truncated joint row', (s) => { (s as Mutable).joints = s.joints.slice(0, s.joints.length - 1); }, /joints has/],
  ['NaN in a joint row', (s) => { s.joints[s.joints.length - 3] = NaN; }, /joints\[\d+\] is NaN/],
  ['a broken broadphase tree', (s) => { s.broadphaseInts[4 + 4 + 5] = 12345; }, /broadphase/],
  ['a handle that is not the body\'s proxy', (s) => { s.bodyInts[BODY_INTS * lastBody(s) + 5] = s.bodyInts[BODY_INTS * lastBody(s) + 5]! + 2; }, /broadphase handle|proxy/],
  ['a stepper missing', (s) => { (s as Mutable).steppers = s.steppers.slice(0, 2); }, /2 steppers, the world 3/],
  ['NaN in the last stepper (particle body)', (s) => { s.steppers[2]!.f64[5] = NaN; }, /particle state value 5 is NaN/],
  ['rope pinned to an unknown body', (s) => { const r = s.steppers[1]!.i32; r[r.length - 1] = 4242; }, /4242/],
];

describe('world.restore validates the whole snapshot first', () => {
  it(`refuses ${CORRUPTIONS.length} kinds of bad snapshot with a SnapshotError, and the world then steps exactly as a twin that never saw them`, () => {
    const a = buildScene(), twin = buildScene();
    run(a, 0, 60);
    run(twin, 0, 60);
    const good = a.world.snapshot();
    let step = 60;
    for (const [name, corrupt, message] of CORRUPTIONS) {
      const bad = structuredClone(good);
      corrupt(bad);
      run(a, step, step + 5);
      run(twin, step, step + 5);
      step += 5;
      let error: unknown = null;
      try {
        a.world.restore(bad);
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(SnapshotError);
      expect((error as Error).name, name).toBe('SnapshotError');
      expect((error as Error).message, name).toMatch(message);
      const ha = run(a, step, step + 5), ht = run(twin, step, step + 5);
      step += 5;
      expect(ha[4], name).toBe(ht[4]);
    }
    // And the good one still restores.
    a.world.restore(good);
    expect(a.world.stepCount).toBe(60);
  });

  it('a world built differently (one more body) refuses the snapshot and steps on unchanged', () => {
    const a = buildScene();
    run(a, 0, 60);
    const snap = a.world.snapshot();
    const b = buildScene(), twin = buildScene();
    for (const s of [b, twin]) s.world.createBody({ type: 'dynamic', shape: new Sphere(0.1), position: { x: 20, y: 1, z: 20 } });
    expect(() => b.world.restore(snap)).toThrow(SnapshotError);
    expect(run(b, 0, 60)[59]).toBe(run(twin, 0, 60)[59]);
  });
});

describe('advance() accumulator', () => {
  it('a restored world takes its sub-steps on the same frames as the original', () => {
    const a = buildScene(), b = buildScene();
    const frames = [0.007, 0.03, 0.011, 0.02, 0.016];
    for (const f of frames) a.world.advance(f);
    const snap = a.world.snapshot();
    b.world.restore(snap);
    for (const f of [0.009, 0.025, 0.004, 0.03]) {
      const alphaA = a.world.advance(f), alphaB = b.world.advance(f);
      expect(alphaB).toBe(alphaA);
      expect(b.world.stepCount).toBe(a.world.stepCount);
    }
    expect(hashScene(b)).toBe(hashScene(a));
    expect(a.world.stepCount).toBe(9); // 0.152 s of frames at 60 Hz
  });
});

describe('character and walker snapshots', () => {
  it('a walker\'s restore refuses a bad version, NaN and another capsule, and changes nothing', () => {
    const s = buildScene();
    run(s, 0, 100);
    const w = s.walkers[0]!;
    const good = w.snapshot();
    const before = JSON.stringify([w.velocity, w.controller.position, w.state, w.airTime]);
    const bad1 = structuredClone(good); (bad1 as { version: number }).version = 7;
    const bad2 = structuredClone(good); bad2.controller.f64[1] = NaN;
    const bad3 = structuredClone(good); bad3.controller.f64[4] = 0.5;
    const bad4 = structuredClone(good); bad4.f64[2] = Infinity;
    for (const bad of [bad1, bad2, bad3, bad4]) {
      run(s, 100, 101);
      const now = JSON.stringify([w.velocity, w.controller.position, w.state, w.airTime]);
      expect(() => w.restore(bad)).toThrow(SnapshotError);
      expect(JSON.stringify([w.velocity, w.controller.position, w.state, w.airTime])).toBe(now);
    }
    expect(before).not.toBe(JSON.stringify([w.velocity, w.controller.position, w.state, w.airTime]));
  });
});
