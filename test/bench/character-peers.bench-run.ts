/**
 * Character peer table: footing's CharacterController against Rapier's
 * KinematicCharacterController (@dimforge/rapier3d-compat) and Jolt's
 * CharacterVirtual (jolt-physics), same level and protocol
 * (test/character/level.ts, level-runners.ts): 100 characters walking at
 * 4 m/s with slowly turning headings through 200 boxes, a 20° ramp, stairs
 * and a TriangleMesh heightfield, 60 Hz.
 *
 * Run: npx vitest run --config test/bench/vitest.character-peers.config.ts
 * Optional environment: CHAR_PEERS_FRAMES=600 (timed frames), CHAR_PEERS_OUT=path.md,
 * CHAR_PEERS_TIMES=path.json (every timed frame, per engine, in order).
 *
 * Interleaved: the three engines' levels are built, then warmed up and timed
 * in turns of about TURN_MS each (the engine that goes first rotates every
 * turn) until each has run the timed frames. This 2-core host's speed drifts
 * by ±30 % over seconds (all of an engine's functions slow down together);
 * timed one after another, an engine could land in a fast phase and the next
 * in a slow one, and same-run ratios moved from 0.8 to 1.3 between runs.
 * Taking turns, every engine sees the same phases.
 *
 * Per engine: build, 600 warm-up frames (10 s: landing, and the JavaScript
 * engines' JIT — V8 optimises a function called once per move only after
 * thousands of calls; a game runs for minutes, so the steady state is what
 * counts), then the timed frames,
 * each timed alone with performance.now(). After every frame (outside the
 * timing) each capsule centre is checked against the static level with
 * footing's overlap query; a frame counts as bad when any character
 * penetrates more than 1 mm. Settings, as close as the engines allow: radius
 * 0.3, half height 0.6, max slope 45°, step up 0.3, snap / stick-to-floor
 * 0.3, skin 0.01 (Rapier offset 0.01; Jolt keeps its default padding 0.02).
 * Differences: footing's and Rapier's characters see each other (kinematic
 * bodies); Jolt's CharacterVirtual does not collide with other characters
 * unless a CharacterVsCharacterCollision is set up (not done), so Jolt does
 * slightly less work. Rapier needs a world.step() per frame to move its
 * kinematic bodies; that step is timed (it is part of using the controller).
 */
import { writeFileSync } from 'node:fs';
import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics';
import { describe, expect, it } from 'vitest';
import { boxRotation, characterLevel, LEVEL_GRAVITY, LEVEL_SPEED, levelHeading, type CharacterLevel } from '../character/level';
import { footingRunner, LEVEL_DT, PenetrationChecker, type LevelRunner } from '../character/level-runners';

const FRAMES = Number(process.env.CHAR_PEERS_FRAMES ?? 600);
const WARMUP = 600;
/**
 * Length of an engine's turn (ms of frames, at least one frame): long enough
 * that the cold caches after a switch cost little (they cost the JavaScript
 * engine more than the WASM ones), short against the host's speed phases.
 */
const TURN_MS = 250;
const MAX_SLOPE = (45 * Math.PI) / 180;

async function rapierRunner(level: CharacterLevel): Promise<LevelRunner> {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: LEVEL_GRAVITY, z: 0 });
  world.timestep = LEVEL_DT;
  for (const b of level.boxes) {
    const q = boxRotation(b);
    world.createCollider(RAPIER.ColliderDesc.cuboid(b.half.x, b.half.y, b.half.z).setTranslation(b.position.x, b.position.y, b.position.z).setRotation(q));
  }
  world.createCollider(RAPIER.ColliderDesc.trimesh(new Float32Array(level.meshPositions), new Uint32Array(level.meshIndices)));
  const controller = world.createCharacterController(0.01);
  controller.enableAutostep(0.3, 0.2, false);
  controller.enableSnapToGround(0.3);
  controller.setMaxSlopeClimbAngle(MAX_SLOPE);
  controller.setMinSlopeSlideAngle(MAX_SLOPE);
  controller.setApplyImpulsesToDynamicBodies(false);
  const bodies: RAPIER.RigidBody[] = [];
  const colliders: RAPIER.Collider[] = [];
  for (const p of level.starts) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(p.x, p.y, p.z));
    bodies.push(body);
    colliders.push(world.createCollider(RAPIER.ColliderDesc.capsule(level.halfHeight, level.radius), body));
  }
  world.step();
  const vy = new Float64Array(bodies.length);
  const grounded = new Uint8Array(bodies.length);
  const desired = { x: 0, y: 0, z: 0 };
  const next = { x: 0, y: 0, z: 0 };
  let t = 0;
  return {
    name: 'Rapier KinematicCharacterController',
    frame() {
      t += LEVEL_DT;
      for (let i = 0; i < bodies.length; i++) {
        const a = levelHeading(i, t);
        vy[i] = grounded[i] ? 0 : Math.max(vy[i]! + LEVEL_GRAVITY * LEVEL_DT, -50);
        desired.x = Math.cos(a) * LEVEL_SPEED * LEVEL_DT;
        desired.y = vy[i]! * LEVEL_DT;
        desired.z = Math.sin(a) * LEVEL_SPEED * LEVEL_DT;
        controller.computeColliderMovement(colliders[i]!, desired);
        const m = controller.computedMovement();
        grounded[i] = controller.computedGrounded() ? 1 : 0;
        const p = bodies[i]!.translation();
        next.x = p.x + m.x; next.y = p.y + m.y; next.z = p.z + m.z;
        bodies[i]!.setNextKinematicTranslation(next);
      }
      world.step();
    },
    readPositions(out) {
      for (let i = 0; i < bodies.length; i++) {
        const p = bodies[i]!.translation();
        out[3 * i] = p.x; out[3 * i + 1] = p.y; out[3 * i + 2] = p.z;
      }
    },
    dispose() {
      world.free();
    },
  };
}

async function joltRunner(level: CharacterLevel): Promise<LevelRunner> {
  const Jolt = await initJolt();
  const LAYER_NON_MOVING = 0, LAYER_MOVING = 1;
  const settings = new Jolt.JoltSettings();
  const objectFilter = new Jolt.ObjectLayerPairFilterTable(2);
  objectFilter.EnableCollision(LAYER_NON_MOVING, LAYER_MOVING);
  objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const bpNonMoving = new Jolt.BroadPhaseLayer(0), bpMoving = new Jolt.BroadPhaseLayer(1);
  const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_NON_MOVING, bpNonMoving);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, bpMoving);
  Jolt.destroy(bpNonMoving); Jolt.destroy(bpMoving);
  settings.mObjectLayerPairFilter = objectFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  const bodyInterface = system.GetBodyInterface();
  const addStatic = (shape: InstanceType<typeof Jolt.Shape>, p: { x: number; y: number; z: number }, q: { x: number; y: number; z: number; w: number }): void => {
    const pos = new Jolt.RVec3(p.x, p.y, p.z), rot = new Jolt.Quat(q.x, q.y, q.z, q.w);
    const creation = new Jolt.BodyCreationSettings(shape, pos, rot, Jolt.EMotionType_Static, LAYER_NON_MOVING);
    const body = bodyInterface.CreateBody(creation);
    bodyInterface.AddBody(body.GetID(), Jolt.EActivation_DontActivate);
    Jolt.destroy(creation); Jolt.destroy(pos); Jolt.destroy(rot);
  };
  for (const b of level.boxes) {
    const h = new Jolt.Vec3(b.half.x, b.half.y, b.half.z);
    // convex radius 0: sharp boxes like the other engines (Jolt's default 0.05 m rounds edges inwards)
    addStatic(new Jolt.BoxShape(h, 0), b.position, boxRotation(b));
    Jolt.destroy(h);
  }
  const list = new Jolt.TriangleList();
  const P = level.meshPositions, I = level.meshIndices;
  for (let k = 0; k < I.length; k += 3) {
    const v = [0, 1, 2].map((j) => new Jolt.Vec3(P[3 * I[k + j]!]!, P[3 * I[k + j]! + 1]!, P[3 * I[k + j]! + 2]!));
    list.push_back(new Jolt.Triangle(v[0]!, v[1]!, v[2]!));
    for (const x of v) Jolt.destroy(x);
  }
  const meshSettings = new Jolt.MeshShapeSettings(list);
  const meshShape = meshSettings.Create().Get();
  addStatic(meshShape, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
  system.OptimizeBroadPhase();

  const characters: InstanceType<typeof Jolt.CharacterVirtual>[] = [];
  for (const p of level.starts) {
    const cs = new Jolt.CharacterVirtualSettings();
    cs.mShape = new Jolt.CapsuleShape(level.halfHeight, level.radius);
    cs.mMaxSlopeAngle = MAX_SLOPE;
    cs.mMass = 80;
    cs.mMaxStrength = 100;
    const up = new Jolt.Vec3(0, 1, 0);
    // contacts below the bottom sphere's centre support the character
    cs.mSupportingVolume = new Jolt.Plane(up, level.halfHeight);
    Jolt.destroy(up);
    const pos = new Jolt.RVec3(p.x, p.y, p.z), rot = new Jolt.Quat(0, 0, 0, 1);
    characters.push(new Jolt.CharacterVirtual(cs, pos, rot, system));
    Jolt.destroy(pos); Jolt.destroy(rot);
  }
  const update = new Jolt.ExtendedUpdateSettings();
  update.mStickToFloorStepDown = new Jolt.Vec3(0, -0.3, 0);
  update.mWalkStairsStepUp = new Jolt.Vec3(0, 0.3, 0);
  const bpFilter = new Jolt.DefaultBroadPhaseLayerFilter(jolt.GetObjectVsBroadPhaseLayerFilter(), LAYER_MOVING);
  const objFilter = new Jolt.DefaultObjectLayerFilter(jolt.GetObjectLayerPairFilter(), LAYER_MOVING);
  const bodyFilter = new Jolt.BodyFilter();
  const shapeFilter = new Jolt.ShapeFilter();
  const gravity = new Jolt.Vec3(0, LEVEL_GRAVITY, 0);
  const velocity = new Jolt.Vec3(0, 0, 0);
  const allocator = jolt.GetTempAllocator();
  const vy = new Float64Array(characters.length);
  let t = 0;
  return {
    name: 'Jolt CharacterVirtual',
    frame() {
      t += LEVEL_DT;
      for (let i = 0; i < characters.length; i++) {
        const c = characters[i]!;
        const a = levelHeading(i, t);
        const onGround = c.GetGroundState() === Jolt.EGroundState_OnGround;
        vy[i] = onGround ? 0 : Math.max(vy[i]! + LEVEL_GRAVITY * LEVEL_DT, -50);
        velocity.Set(Math.cos(a) * LEVEL_SPEED, vy[i]!, Math.sin(a) * LEVEL_SPEED);
        c.SetLinearVelocity(velocity);
        c.ExtendedUpdate(LEVEL_DT, gravity, update, bpFilter, objFilter, bodyFilter, shapeFilter, allocator);
      }
    },
    readPositions(out) {
      for (let i = 0; i < characters.length; i++) {
        const p = characters[i]!.GetPosition();
        out[3 * i] = p.GetX(); out[3 * i + 1] = p.GetY(); out[3 * i + 2] = p.GetZ();
      }
    },
    dispose() {},
  };
}

interface Row { name: string; median: number; mean: number; p95: number; deepest: number; bad: number; travel: number }

/** One engine's level, runner and measurements. */
interface Lane {
  runner: LevelRunner;
  start: Float64Array;
  pos: Float64Array;
  times: number[];
  deepest: number;
  bad: number;
}

/** Builds every engine's level, then warms up and times them in turns of about TURN_MS. */
async function measureInterleaved(makers: (() => LevelRunner | Promise<LevelRunner>)[], level: CharacterLevel): Promise<Row[]> {
  const n = level.starts.length;
  const checker = new PenetrationChecker(level);
  const lanes: Lane[] = [];
  for (const make of makers) {
    const runner = await make();
    lanes.push({ runner, start: new Float64Array(3 * n), pos: new Float64Array(3 * n), times: [], deepest: 0, bad: 0 });
  }
  // The warm-up takes turns too: an engine left idle for seconds while the
  // others warm up comes back slower (V8 ages out code it has not run).
  const warmed = new Int32Array(lanes.length);
  for (let turn = 0; warmed.some((w) => w < WARMUP); turn++) {
    for (let j = 0; j < lanes.length; j++) {
      const e = (turn + j) % lanes.length;
      const t0 = performance.now();
      while (warmed[e]! < WARMUP && performance.now() - t0 < TURN_MS) { lanes[e]!.runner.frame(); warmed[e]!++; }
    }
  }
  for (const lane of lanes) lane.runner.readPositions(lane.start);
  for (let turn = 0; lanes.some((l) => l.times.length < FRAMES); turn++) {
    for (let j = 0; j < lanes.length; j++) {
      const lane = lanes[(turn + j) % lanes.length]!;
      const t0 = performance.now();
      while (lane.times.length < FRAMES && performance.now() - t0 < TURN_MS) {
        const a = performance.now();
        lane.runner.frame();
        lane.times.push(performance.now() - a);
        lane.runner.readPositions(lane.pos);
        const d = checker.deepest(lane.pos, n);
        if (d > 0.001) lane.bad++;
        if (d > lane.deepest) lane.deepest = d;
      }
    }
  }
  if (process.env.CHAR_PEERS_TIMES) writeFileSync(process.env.CHAR_PEERS_TIMES, JSON.stringify(lanes.map((l) => ({ name: l.runner.name, times: l.times }))));
  return lanes.map((lane) => {
    const { runner, pos, start, times } = lane;
    let travel = 0;
    for (let i = 0; i < n; i++) travel += Math.hypot(pos[3 * i]! - start[3 * i]!, pos[3 * i + 2]! - start[3 * i + 2]!);
    runner.dispose();
    times.sort((x, y) => x - y);
    const mean = times.reduce((s, x) => s + x, 0) / times.length;
    return { name: runner.name, median: times[Math.floor(times.length / 2)]!, mean, p95: times[Math.floor(times.length * 0.95)]!, deepest: lane.deepest, bad: lane.bad, travel: travel / n };
  });
}

describe('character peers', () => {
  it('prints the table', async () => {
    const level = characterLevel(100, 200);
    const rows = await measureInterleaved([() => footingRunner(level), () => rapierRunner(level), () => joltRunner(level)], level);
    const lines = [
      `Character level: 100 characters, ${level.boxes.length - 1} boxes + ground, ramp, stairs, TriangleMesh (${level.meshIndices.length / 3} triangles); ${FRAMES} timed frames at 60 Hz after ${WARMUP} warm-up frames, the engines taking turns of about ${TURN_MS} ms.`,
      '',
      '| engine | median ms/frame | mean | p95 | frames with penetration > 1 mm | deepest (mm) | mean travel (m) |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows.map((r) => `| ${r.name} | ${r.median.toFixed(3)} | ${r.mean.toFixed(3)} | ${r.p95.toFixed(3)} | ${r.bad} | ${(r.deepest * 1000).toFixed(2)} | ${r.travel.toFixed(1)} |`),
    ];
    const table = lines.join('\n');
    console.log(table);
    if (process.env.CHAR_PEERS_OUT) writeFileSync(process.env.CHAR_PEERS_OUT, table + '\n');
    expect(rows.length).toBe(3);
  });
});
