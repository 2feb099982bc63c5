// footing/worker example: 200 bodies and a walking character simulated in a
// Web Worker and drawn with Babylon.js on the main thread, which only sends
// input and interpolates the poses the worker streams.
//
// URL parameters (for comparison and the e2e test):
//   ?mode=main     the same scene stepped on the main thread instead
//   ?bodies=N      number of dropped bodies (default 200)
//   ?scene=heap    the bodies fall onto each other (default: each lands alone)
//   ?shared=0|1    poses through transferred buffers / a SharedArrayBuffer
//                  (default: shared when the page is cross-origin isolated)
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import '@babylonjs/core/Meshes/instancedMesh';
import { Scene } from '@babylonjs/core/scene';
import { World, type Quat, type RigidBody, type Vec3 } from 'footing';
import { CharacterController, Walker } from 'footing/character';
import { PhysicsClient, shapeFromDesc, STATE_SLEEPING, type BodyDescData } from 'footing/worker';
import { droppedBodies, FLOOR, heapBodies, HERO } from './scene';

const params = new URLSearchParams(location.search);
const MODE: 'worker' | 'main' = params.get('mode') === 'main' ? 'main' : 'worker';
const BODY_COUNT = Number(params.get('bodies') ?? 200);
const SCENE = params.get('scene') === 'heap' ? 'heap' : 'grid';
const SHARED = params.has('shared') ? params.get('shared') === '1' : undefined;
const H = 1 / 60;
/** Steps per frame at most, on both threads: software WebGL renders at 5–15 fps. */
const MAX_STEPS_PER_TICK = 12;

/** One simulation, in the worker or on this thread, behind the same few calls. */
interface Simulation {
  readonly ready: Promise<void>;
  readonly shared: boolean;
  /** Once per frame, before reading poses. */
  frame(seconds: number): void;
  setInput(x: number, z: number): void;
  position(i: number, out: Vec3): Vec3;
  rotation(i: number, out: Quat): Quat;
  heroPosition(out: Vec3): Vec3;
  sleeping(i: number): boolean;
  /** A token for the input the next `frame` sends; `applied(token)` tells when a step has used it. */
  nextInputToken(): number;
  applied(token: number): boolean;
}

function workerSimulation(bodies: BodyDescData[]): Simulation {
  const worker = new Worker(new URL('./physics.worker.ts', import.meta.url), { type: 'module' });
  const client = new PhysicsClient(worker, { fixedTimeStep: H, maxStepsPerAdvance: MAX_STEPS_PER_TICK }, { shared: SHARED });
  client.createBody(FLOOR);
  const handles = bodies.map((b) => client.createBody(b));
  const hero = client.createCharacter(HERO);
  let x = 0, z = 0, lastSeq = 0;
  return {
    ready: client.ready,
    get shared() { return client.sharedMemory; },
    frame() {
      // Input goes every frame, so a lost or late message is replaced by the next one.
      lastSeq = client.setCharacterInput(hero, x, 0, z);
      client.update();
    },
    setInput(ix, iz) { x = ix; z = iz; },
    position: (i, out) => client.getPosition(handles[i]!, out),
    rotation: (i, out) => client.getRotation(handles[i]!, out),
    heroPosition: (out) => client.getPosition(hero, out),
    sleeping: (i) => client.getState(handles[i]!) === STATE_SLEEPING,
    nextInputToken: () => lastSeq + 1,
    applied: (token) => client.appliedInputSeq >= token,
  };
}

function mainThreadSimulation(descs: BodyDescData[]): Simulation {
  const world = new World({ fixedTimeStep: H });
  world.createBody({ ...FLOOR, shape: shapeFromDesc(FLOOR.shape) });
  const bodies: RigidBody[] = descs.map((d) => world.createBody({ ...d, shape: shapeFromDesc(d.shape) }));
  const walker = new Walker(new CharacterController(world, { position: HERO.position }), HERO.walker);
  let accumulator = 0, alpha = 0;
  const prevHero = { x: 0, y: 0, z: 0 };
  return {
    ready: Promise.resolve(),
    shared: false,
    frame(seconds) {
      accumulator += seconds;
      let steps = 0;
      while (accumulator >= H && steps < MAX_STEPS_PER_TICK) {
        const p = walker.controller.position;
        prevHero.x = p.x; prevHero.y = p.y; prevHero.z = p.z;
        world.step(H);
        walker.update(H);
        accumulator -= H;
        steps++;
      }
      if (accumulator >= H) accumulator %= H;
      alpha = accumulator / H;
    },
    setInput(x, z) { walker.setInput(x, 0, z); },
    position: (i, out) => bodies[i]!.getInterpolatedPosition(out, alpha),
    rotation: (i, out) => bodies[i]!.getInterpolatedRotation(out, alpha),
    heroPosition(out) {
      const p = walker.controller.position;
      out.x = prevHero.x + (p.x - prevHero.x) * alpha;
      out.y = prevHero.y + (p.y - prevHero.y) * alpha;
      out.z = prevHero.z + (p.z - prevHero.z) * alpha;
      return out;
    },
    sleeping: (i) => bodies[i]!.isSleeping,
    nextInputToken: () => world.stepCount + 1,
    applied: (token) => world.stepCount >= token,
  };
}

// ------------------------------------------------------------------ scene

const canvas = document.getElementById('renderCanvas') as HTMLCanvasElement;
const hud = document.getElementById('hud')!;
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true });
const scene = new Scene(engine);
scene.clearColor = new Color4(0.62, 0.74, 0.86, 1);
const camera = new FreeCamera('camera', new Vector3(0, 22, 30), scene);
camera.setTarget(new Vector3(0, 0, -2));
new HemisphericLight('light', new Vector3(0.3, 1, 0.2), scene);
const colour = (name: string, r: number, g: number, b: number): StandardMaterial => {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(r, g, b);
  return m;
};
const floor = CreateBox('floor', { width: 40, height: 1, depth: 40 }, scene);
floor.position.y = -0.5;
floor.material = colour('floor', 0.45, 0.5, 0.42);
const boxTemplate = CreateBox('box', { size: 1 }, scene);
boxTemplate.material = colour('crate', 0.75, 0.55, 0.3);
const sphereTemplate = CreateSphere('ball', { diameter: 1, segments: 8 }, scene);
sphereTemplate.material = colour('ball', 0.3, 0.5, 0.8);
const heroMesh = CreateCapsule('hero', { radius: 0.3, height: 1.8 }, scene);
heroMesh.material = colour('hero', 0.8, 0.2, 0.15);

const descs = SCENE === 'heap' ? heapBodies(BODY_COUNT) : droppedBodies(BODY_COUNT);
const sim = MODE === 'worker' ? workerSimulation(descs) : mainThreadSimulation(descs);
const meshes: AbstractMesh[] = descs.map((d, i) => {
  const m = (d.shape.kind === 'sphere' ? sphereTemplate : boxTemplate).createInstance(`body${i}`);
  m.rotationQuaternion = new Quaternion();
  return m;
});
for (const t of [boxTemplate, sphereTemplate] as Mesh[]) t.isVisible = false;

// ------------------------------------------------------------------ loop and measurements

const keys = new Set<string>();
window.addEventListener('keydown', (e) => keys.add(e.key.toLowerCase()));
window.addEventListener('keyup', (e) => keys.delete(e.key.toLowerCase()));
/** Input set by the page hook (latency test), overriding the keyboard. */
let scripted: { x: number; z: number } | null = null;

const p: Vec3 = { x: 0, y: 0, z: 0 };
const q: Quat = { x: 0, y: 0, z: 0, w: 1 };
const mainMs: number[] = [];
const frameMs: number[] = [];
let frames = 0;
let lastFrame = performance.now();
let latencyProbe: { frame: number; token: number; from: Vec3; applied: number; moved: number; resolve: () => void } | null = null;

function renderFrame(): void {
  const now = performance.now();
  const seconds = Math.min((now - lastFrame) / 1000, 0.25);
  frameMs.push(now - lastFrame);
  lastFrame = now;
  frames++;

  const t0 = performance.now();
  const x = scripted ? scripted.x : (keys.has('d') ? 1 : 0) - (keys.has('a') ? 1 : 0);
  const z = scripted ? scripted.z : (keys.has('s') ? 1 : 0) - (keys.has('w') ? 1 : 0);
  sim.setInput(x, z);
  if (latencyProbe && latencyProbe.token < 0) {
    latencyProbe.token = sim.nextInputToken();
    latencyProbe.frame = frames;
  }
  sim.frame(seconds);
  for (let i = 0; i < meshes.length; i++) {
    const m = meshes[i]!;
    sim.position(i, p);
    m.position.set(p.x, p.y, p.z);
    sim.rotation(i, q);
    m.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
  }
  sim.heroPosition(p);
  heroMesh.position.set(p.x, p.y, p.z);
  mainMs.push(performance.now() - t0);

  const probe = latencyProbe;
  if (probe) {
    const elapsed = frames - probe.frame;
    if (probe.applied < 0 && sim.applied(probe.token)) probe.applied = elapsed;
    if (probe.moved < 0 && Math.hypot(p.x - probe.from.x, p.z - probe.from.z) > 1e-4) probe.moved = elapsed;
    if ((probe.applied >= 0 && probe.moved >= 0) || elapsed > 120) probe.resolve();
  }
  scene.render();
}

const mean = (a: number[]): number => a.reduce((s, v) => s + v, 0) / Math.max(1, a.length);
const percentile = (a: number[], k: number): number => {
  const s = [...a].sort((u, v) => u - v);
  return s[Math.min(s.length - 1, Math.floor(k * s.length))] ?? 0;
};

const hook = {
  ready: false,
  mode: MODE,
  scene: SCENE,
  bodies: BODY_COUNT,
  get shared() { return sim.shared; },
  get crossOriginIsolated() { return globalThis.crossOriginIsolated === true; },
  frames: () => frames,
  engineInfo: () => ({ webgl: engine.webGLVersion, renderer: engine.getGlInfo().renderer }),
  /** Main-thread milliseconds per frame spent on physics and pose sync (not rendering), since the last reset. */
  stats: () => ({ frames: mainMs.length, mainMsMean: mean(mainMs), mainMsP95: percentile(mainMs, 0.95), frameMsMean: mean(frameMs) }),
  resetStats: () => { mainMs.length = 0; frameMs.length = 0; },
  /** Rendered body heights and how many bodies the newest poses report asleep. */
  bodyState: () => {
    const ys: number[] = [];
    let sleeping = 0;
    for (let i = 0; i < meshes.length; i++) {
      ys.push(sim.position(i, p).y);
      if (sim.sleeping(i)) sleeping++;
    }
    return { ys, sleeping };
  },
  heroPosition: () => ({ ...sim.heroPosition({ x: 0, y: 0, z: 0 }) }),
  /**
   * Input → motion latency in rendered frames: from the frame that first
   * sends a walk input (0) to the first frame that shows poses of a step
   * that used it (`applied`) and to the first frame where the drawn
   * character has moved (`moved`).
   */
  async latency(): Promise<{ applied: number; moved: number }> {
    scripted = { x: 0, z: 0 };
    // Stand still until the drawn character stops moving.
    let last = sim.heroPosition({ x: 0, y: 0, z: 0 });
    for (let still = 0; still < 10;) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = sim.heroPosition({ x: 0, y: 0, z: 0 });
      still = Math.hypot(now.x - last.x, now.z - last.z) < 1e-6 ? still + 1 : 0;
      last = now;
    }
    const result = await new Promise<{ applied: number; moved: number }>((resolve) => {
      const probe = { frame: -1, token: -1, from: last, applied: -1, moved: -1, resolve: () => { latencyProbe = null; resolve({ applied: probe.applied, moved: probe.moved }); } };
      latencyProbe = probe;
      scripted = { x: 0, z: -1 };
    });
    scripted = { x: 0, z: 0 };
    return result;
  },
};
(window as unknown as { footingWorker: typeof hook }).footingWorker = hook;

await sim.ready;
let readyFrames = 0;
engine.runRenderLoop(() => {
  renderFrame();
  if (!hook.ready && ++readyFrames >= 3) hook.ready = true;
});
setInterval(() => {
  const s = hook.stats();
  hud.textContent = `${MODE === 'worker' ? `worker (${sim.shared ? 'SharedArrayBuffer' : 'transferred frames'})` : 'main thread'} · ${BODY_COUNT} bodies (${SCENE})\n` +
    `${(1000 / s.frameMsMean).toFixed(1)} fps · main thread physics + sync ${s.mainMsMean.toFixed(2)} ms/frame\nWASD: walk`;
}, 500);
window.addEventListener('resize', () => engine.resize());
