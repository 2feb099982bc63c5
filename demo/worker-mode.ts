// The demo with its physics in a Web Worker (`?worker`): physics.worker.ts
// builds and steps the world (level, platforms, props, ragdolls, the
// character's walker); this page draws the level from the same numbers,
// makes a mesh for each body the worker tracks, sends the keyboard input
// every frame and draws the poses the worker streams, interpolated by
// footing/worker's PhysicsClient.
import type { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { Matrix, Quaternion } from '@babylonjs/core/Maths/math.vector';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import type { Quat, Vec3 } from '../src/index';
import { meshFromShape } from '../src/babylon/index';
import { PhysicsClient, STATE_AIRBORNE, STATE_GROUNDED, STATE_SLEEPING, STATE_SLIDING, shapeFromDesc } from '../src/worker/index';
import { buildLevel, material } from './level';
import { LANDMARKS, PROP_FRICTION, type Landmarks } from './level-data';
import { createPlayerMesh, PLAYER_SHAPE } from './player';
import { MAX_BALLS, MESH_DETAIL, propMaterials } from './props';
import { createScene, isTyping } from './scene-setup';
import { FrameTimer } from './step-timer';
import type { WorkerBodyTag } from './worker-tags';

const FIXED_STEP = 1 / 60;
/** As in the main-thread mode: software WebGL renders at 5–10 fps. */
const MAX_STEPS_PER_TICK = 12;
const FRAMES_BEFORE_READY = 3;
const HUD_INTERVAL_MS = 250;
const THROW_SPEED = 14;
/** The camera pivot's height above the capsule's centre (FollowCamera's default). */
const CAMERA_HEIGHT = 0.5;
const NOT_IN_WORKER_MODE =
  'worker mode: not available here (yet): F1 collider view, F2 character solver view and its plot,\n' +
  '  F3 Inspector solver/character sliders, R ragdolls, run (Shift) and crouch (C), P/N pause and step,\n' +
  '  the camera keeping out of walls. Open the page without ?worker for those.';

/** The page hook `window.footingWorkerDemo` in worker mode. */
export interface FootingWorkerDemoHandle {
  ready: boolean;
  mode: 'worker';
  /** Poses through a SharedArrayBuffer (the page is cross-origin isolated) rather than transferred buffers. */
  shared: boolean;
  engine: Engine;
  scene: Scene;
  landmarks: Landmarks;
  /** The character's drawn (interpolated) position and its walker's state in the newest frame. */
  character(): { x: number; y: number; z: number; state: string };
  /** Every body the worker tracks: its material (or platform name), drawn position, and state. */
  bodies(): { tag: WorkerBodyTag; x: number; y: number; z: number; sleeping: boolean }[];
  teleport(x: number, y: number, z: number): void;
  setCameraYaw(yaw: number): void;
  /** Main-thread ms of each frame's JS work before rendering, since the last reset. */
  frameMs(): { frames: number; mean: number; p95: number };
  resetFrameMs(): void;
}

declare global {
  interface Window {
    footingWorkerDemo?: FootingWorkerDemoHandle;
  }
}

const STATE_NAMES: Record<number, string> = {
  [STATE_GROUNDED]: 'grounded', [STATE_AIRBORNE]: 'airborne', [STATE_SLIDING]: 'sliding',
};

export async function runWorkerMode(): Promise<void> {
  const canvas = document.getElementById('renderCanvas') as HTMLCanvasElement;
  const hudText = document.getElementById('hud') as HTMLElement;
  (document.getElementById('plot') as HTMLCanvasElement).style.display = 'none';
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true });
  const { scene, camera } = createScene(engine);
  const level = buildLevel(null, scene);
  const platformMeshes = new Map(level.meshes.map((m) => [m.name, m]));
  const mats = propMaterials(scene);

  const worker = new Worker(new URL('./physics.worker.ts', import.meta.url), { type: 'module' });
  const physics = new PhysicsClient(worker, { gravity: { x: 0, y: -9.81, z: 0 }, fixedTimeStep: FIXED_STEP, maxStepsPerAdvance: MAX_STEPS_PER_TICK });
  /** Every drawn body: the worker's tracked bodies and the balls thrown from here. */
  const drawn = new Map<number, { mesh: Mesh; tag: WorkerBodyTag }>();
  physics.onBodyAdded = (handle, { shape, tag }) => {
    const t = tag as WorkerBodyTag;
    let mesh: Mesh;
    if (t.kind === 'platform') {
      mesh = platformMeshes.get(t.name)!;
    } else {
      mesh = meshFromShape(shapeFromDesc(shape), `body${handle}`, scene, MESH_DETAIL);
      mesh.material = mats[t.material];
    }
    mesh.rotationQuaternion ??= new Quaternion();
    drawn.set(handle, { mesh, tag: t });
  };
  physics.onBodyRemoved = (handle) => {
    drawn.get(handle)?.mesh.dispose();
    drawn.delete(handle);
  };

  const hero = physics.createCharacter({
    position: LANDMARKS.spawn, radius: PLAYER_SHAPE.radius, halfHeight: PLAYER_SHAPE.halfHeight, walker: { speed: PLAYER_SHAPE.walkSpeed },
  });
  const heroMesh = createPlayerMesh(scene, material(scene, 'playerMat', 0.85, 0.3, 0.2));
  heroMesh.rotationQuaternion = new Quaternion();
  const balls: number[] = [];

  const keys = { forward: false, back: false, left: false, right: false };
  let jump = false;
  let yaw = 0, pitch = 0.35, distance = 6;
  const setKey = (code: string, down: boolean): boolean => {
    switch (code) {
      case 'KeyW': case 'ArrowUp': keys.forward = down; return true;
      case 'KeyS': case 'ArrowDown': keys.back = down; return true;
      case 'KeyA': case 'ArrowLeft': keys.left = down; return true;
      case 'KeyD': case 'ArrowRight': keys.right = down; return true;
      default: return false;
    }
  };
  window.addEventListener('keydown', (e) => {
    if (isTyping(e.target)) return;
    if (setKey(e.code, true)) { e.preventDefault(); return; }
    if (e.code === 'Space' && !e.repeat) { jump = true; e.preventDefault(); }
  });
  window.addEventListener('keyup', (e) => { if (setKey(e.code, false)) e.preventDefault(); });
  window.addEventListener('blur', () => { keys.forward = keys.back = keys.left = keys.right = false; });

  // Mouse: drag to orbit, wheel to zoom, click (without dragging) to throw a ball.
  let dragX = 0, dragY = 0, downX = 0, downY = 0, dragging = false;
  canvas.addEventListener('pointerdown', (e) => {
    dragging = true; dragX = downX = e.clientX; dragY = downY = e.clientY;
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    yaw += (e.clientX - dragX) * 0.006;
    pitch = Math.min(1.3, Math.max(-0.3, pitch + (e.clientY - dragY) * 0.005));
    dragX = e.clientX; dragY = e.clientY;
  });
  canvas.addEventListener('pointerup', (e) => {
    dragging = false;
    if (Math.hypot(e.clientX - downX, e.clientY - downY) > 5) return;
    const rect = canvas.getBoundingClientRect();
    const ray = scene.createPickingRay((e.clientX - rect.left) * engine.getHardwareScalingLevel(), (e.clientY - rect.top) * engine.getHardwareScalingLevel(), Matrix.Identity(), camera);
    const o = ray.origin.add(ray.direction.scale(0.5));
    const d = ray.direction;
    const radius = 0.15;
    const handle = physics.createBody({
      type: 'dynamic', shape: { kind: 'sphere', radius }, position: { x: o.x, y: o.y, z: o.z }, density: 800, friction: PROP_FRICTION,
      linearVelocity: { x: d.x * THROW_SPEED, y: d.y * THROW_SPEED, z: d.z * THROW_SPEED },
    });
    physics.onBodyAdded?.(handle, { type: 'dynamic', shape: { kind: 'sphere', radius }, tag: { kind: 'prop', material: 'ball' } });
    balls.push(handle);
    if (balls.length > MAX_BALLS) {
      const old = balls.shift()!;
      physics.removeBody(old);
      physics.onBodyRemoved?.(old);
    }
  });
  canvas.addEventListener('wheel', (e) => {
    distance = Math.min(20, Math.max(2, distance * (1 + Math.sign(e.deltaY) * 0.1)));
    e.preventDefault();
  }, { passive: false });

  const frameTimer = new FrameTimer();
  const p: Vec3 = { x: 0, y: 0, z: 0 };
  const q: Quat = { x: 0, y: 0, z: 0, w: 1 };
  const handle: FootingWorkerDemoHandle = {
    ready: false, mode: 'worker', shared: false, engine, scene, landmarks: level.landmarks,
    character: () => {
      const c = physics.getPosition(hero, { x: 0, y: 0, z: 0 });
      return { x: c.x, y: c.y, z: c.z, state: STATE_NAMES[physics.getState(hero)] ?? 'unknown' };
    },
    bodies: () => [...drawn].map(([h, { tag }]) => {
      const b = physics.getPosition(h, { x: 0, y: 0, z: 0 });
      return { tag, x: b.x, y: b.y, z: b.z, sleeping: physics.getState(h) === STATE_SLEEPING };
    }),
    teleport: (x, y, z) => physics.teleport(hero, { x, y, z }),
    setCameraYaw: (v) => { yaw = v; },
    frameMs: () => frameTimer.summary(),
    resetFrameMs: () => frameTimer.reset(),
  };

  await physics.ready;
  handle.shared = physics.sharedMemory;
  await scene.whenReadyAsync();

  let frames = 0, lastHud = -Infinity;
  scene.onBeforeRenderObservable.add(() => {
    const frameStart = performance.now();
    // Input relative to the camera: forward (sin yaw, 0, cos yaw), right (cos yaw, 0, −sin yaw).
    const f = (keys.forward ? 1 : 0) - (keys.back ? 1 : 0);
    const r = (keys.right ? 1 : 0) - (keys.left ? 1 : 0);
    const sy = Math.sin(yaw), cy = Math.cos(yaw);
    let x = f * sy + r * cy, z = f * cy - r * sy;
    const len = Math.hypot(x, z);
    if (len > 1) { x /= len; z /= len; }
    physics.setCharacterInput(hero, x, 0, z, jump);
    jump = false;
    physics.update();
    for (const [h, { mesh }] of drawn) {
      physics.getPosition(h, p);
      physics.getRotation(h, q);
      mesh.position.set(p.x, p.y, p.z);
      mesh.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
    }
    physics.getPosition(hero, p);
    physics.getRotation(hero, q);
    heroMesh.position.set(p.x, p.y, p.z);
    heroMesh.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
    placeCamera(camera, p, yaw, pitch, distance);
    frameTimer.add(performance.now() - frameStart);
  });
  scene.onAfterRenderObservable.add(() => {
    frames++;
    const now = performance.now();
    if (now - lastHud >= HUD_INTERVAL_MS) {
      lastHud = now;
      let asleep = 0;
      for (const h of drawn.keys()) if (physics.getState(h) === STATE_SLEEPING) asleep++;
      const c = physics.getPosition(hero, { x: 0, y: 0, z: 0 });
      const ms = frameTimer.summary();
      hudText.textContent =
        `fps       ${engine.getFps().toFixed(1)}\n` +
        `physics   in a Web Worker (${physics.sharedMemory ? 'SharedArrayBuffer' : 'transferred frames'}), step ${physics.step}\n` +
        `main      ${ms.mean.toFixed(2)} ms/frame JS before rendering (mean since load)\n` +
        `bodies    ${drawn.size} drawn from the worker, ${asleep} asleep\n` +
        `character ${STATE_NAMES[physics.getState(hero)] ?? '…'}  (${c.x.toFixed(2)}, ${c.y.toFixed(2)}, ${c.z.toFixed(2)})\n` +
        NOT_IN_WORKER_MODE;
    }
    if (!handle.ready && frames >= FRAMES_BEFORE_READY) handle.ready = true;
  });
  window.addEventListener('resize', () => engine.resize());
  window.footingWorkerDemo = handle;
  engine.runRenderLoop(() => scene.render());
}

/** The orbit camera of FollowCamera, without its probe against walls (that needs the world). */
function placeCamera(camera: TargetCamera, target: Vec3, yaw: number, pitch: number, distance: number): void {
  const cp = Math.cos(pitch);
  camera.position.set(
    target.x - Math.sin(yaw) * cp * distance,
    target.y + CAMERA_HEIGHT + Math.sin(pitch) * distance,
    target.z - Math.cos(yaw) * cp * distance,
  );
  camera.rotationQuaternion ??= new Quaternion();
  Quaternion.RotationYawPitchRollToRef(yaw, pitch, 0, camera.rotationQuaternion);
}
