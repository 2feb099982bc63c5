// The footing demo level: a capsule character with the Walker, static level
// geometry, kinematic platforms, stacks, a seesaw and ragdolls, drawn with
// Babylon.js through footing/babylon. Deep imports keep the bundle to the
// Babylon modules actually used; the Inspector is loaded only on F3.
import '@babylonjs/core/Culling/ray';
import { Engine } from '@babylonjs/core/Engines/engine';
import { Matrix } from '@babylonjs/core/Maths/math.vector';
import { World, type WorldStepper } from '../src/index';
import { CharacterDebugView, PhysicsDebugView, exposeInspectorProperties } from '../src/babylon/index';
import { Hud } from './hud';
import { createScene, isTyping } from './scene-setup';
import { buildLevel, material, platformMeshes } from './level';
import { VerletProps } from './verlet-props';
import { Player } from './player';
import { Props } from './props';
import { FrameTimer, StepTimer } from './step-timer';
import type { FootingDemoHandle } from './types';

/** Rendered frames before the page reports ready. */
const FRAMES_BEFORE_READY = 3;
const HUD_INTERVAL_MS = 250;
const FIXED_STEP = 1 / 60;
/**
 * Most fixed steps per rendered frame. Software WebGL renders 5–10 fps, so a
 * frame can last 200 ms: 12 steps keep the simulation in real time down to
 * 5 fps (beyond that, time is dropped rather than spiralling).
 */
const MAX_STEPS_PER_FRAME = 12;
const THROW_SPEED = 14;

async function main(): Promise<void> {
  // ?worker: the same level with its physics in a Web Worker (worker-mode.ts, loaded only then).
  if (new URLSearchParams(location.search).has('worker')) {
    const { runWorkerMode } = await import('./worker-mode');
    return runWorkerMode();
  }
  const canvas = document.getElementById('renderCanvas') as HTMLCanvasElement;
  const hud = new Hud(document.getElementById('hud') as HTMLElement, document.getElementById('plot') as HTMLCanvasElement);
  // preserveDrawingBuffer lets tests read the rendered pixels back between frames.
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true });
  const { scene, camera } = createScene(engine);

  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 }, fixedTimeStep: FIXED_STEP, maxStepsPerAdvance: MAX_STEPS_PER_FRAME });
  const level = buildLevel(world, scene);
  const verlet = new VerletProps(world, scene);
  const props = new Props(world, scene);
  props.populate();
  const platforms = level.platforms!;
  for (const mesh of platformMeshes(level)) {
    const body = platforms.slider.userData === mesh.name ? platforms.slider : platforms.turntable;
    props.links.add(mesh, body);
  }
  // Kinematic platforms take the poses for the coming step: step k (stepCount k) ends at (k + 1)·h.
  const platformStepper: WorldStepper = { preStep: (w) => platforms.update((w.stepCount + 1) * FIXED_STEP), postStep: () => {} };
  world.addStepper(platformStepper);
  // The character link steps the walker inside world.advance (after the platforms' stepper: added later).
  const player = new Player(world, scene, level.landmarks.spawn, material(scene, 'playerMat', 0.85, 0.3, 0.2), camera);
  // Created disabled: its meshes are made when F2 first shows it.
  const characterView = new CharacterDebugView(scene, player.controller);
  characterView.enabled = false;
  player.link.afterStep = (result) => characterView.record(result);
  exposeInspectorProperties(player.mesh, { controller: player.controller, walker: player.walker, world });
  const timer = new StepTimer();
  const frameTimer = new FrameTimer();
  let debugView: PhysicsDebugView | null = null;

  let paused = false;
  let singleSteps = 0;
  let alpha = 1;

  let inspectorShown: Promise<void> | null = null;
  const showInspector = (): Promise<void> => {
    inspectorShown ??= (async () => {
      // The two *.query side-effect imports keep the Inspector's occlusion panel from crashing (recipe §5).
      await import('@babylonjs/core/Engines/AbstractEngine/abstractEngine.query');
      await import('@babylonjs/core/Engines/Extensions/engine.query');
      await import('@babylonjs/core/Debug/debugLayer');
      await import('@babylonjs/inspector');
      await scene.debugLayer.show({ embedMode: true });
      scene.debugLayer.select(player.mesh);
    })();
    return inspectorShown;
  };
  const toggleInspector = (): void => {
    if (inspectorShown && scene.debugLayer.isVisible()) scene.debugLayer.hide();
    else if (inspectorShown) void scene.debugLayer.show({ embedMode: true }).then(() => scene.debugLayer.select(player.mesh));
    else void showInspector();
  };

  const setKey = (code: string, down: boolean): boolean => {
    const k = player.keys;
    switch (code) {
      case 'KeyW': case 'ArrowUp': k.forward = down; return true;
      case 'KeyS': case 'ArrowDown': k.back = down; return true;
      case 'KeyA': case 'ArrowLeft': k.left = down; return true;
      case 'KeyD': case 'ArrowRight': k.right = down; return true;
      case 'ShiftLeft': case 'ShiftRight': k.run = down; return true;
      case 'KeyC': k.crouch = down; return true;
      default: return false;
    }
  };
  window.addEventListener('keydown', (e) => {
    if (isTyping(e.target)) return;
    if (setKey(e.code, true)) { e.preventDefault(); return; }
    if (e.repeat) return;
    switch (e.code) {
      case 'Space': player.walker.jump(); break;
      case 'KeyR': {
        const p = player.controller.position;
        const f = Math.sin(player.yaw), g = Math.cos(player.yaw);
        props.spawnRagdoll({ x: p.x + 2 * f, y: p.y + 0.8, z: p.z + 2 * g }, player.yaw + Math.PI);
        break;
      }
      case 'F1':
        debugView ??= new PhysicsDebugView(scene, world, { color: '#00ff00' });
        if (handle.debugView === null) handle.debugView = debugView;
        else debugView.enabled = !debugView.enabled;
        break;
      case 'F2': characterView.enabled = !characterView.enabled; break;
      case 'F3': toggleInspector(); break;
      case 'KeyP': paused = !paused; break;
      case 'KeyN': singleSteps++; break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener('keyup', (e) => {
    if (setKey(e.code, false)) e.preventDefault();
  });
  window.addEventListener('blur', () => {
    const k = player.keys;
    k.forward = k.back = k.left = k.right = k.run = k.crouch = false;
  });

  // Mouse: drag to orbit, wheel to zoom, click (without dragging) to throw a ball.
  let dragX = 0, dragY = 0, downX = 0, downY = 0, dragging = false;
  canvas.addEventListener('pointerdown', (e) => {
    dragging = true; dragX = downX = e.clientX; dragY = downY = e.clientY;
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    player.yaw += (e.clientX - dragX) * 0.006;
    player.pitch = Math.min(1.3, Math.max(-0.3, player.pitch + (e.clientY - dragY) * 0.005));
    dragX = e.clientX; dragY = e.clientY;
  });
  canvas.addEventListener('pointerup', (e) => {
    dragging = false;
    if (Math.hypot(e.clientX - downX, e.clientY - downY) > 5) return;
    const rect = canvas.getBoundingClientRect();
    const ray = scene.createPickingRay((e.clientX - rect.left) * engine.getHardwareScalingLevel(), (e.clientY - rect.top) * engine.getHardwareScalingLevel(), Matrix.Identity(), camera);
    const o = ray.origin.add(ray.direction.scale(0.5));
    props.throwBall({ x: o.x, y: o.y, z: o.z }, { x: ray.direction.x, y: ray.direction.y, z: ray.direction.z }, THROW_SPEED);
  });
  canvas.addEventListener('wheel', (e) => {
    player.distance = Math.min(20, Math.max(2, player.distance * (1 + Math.sign(e.deltaY) * 0.1)));
    e.preventDefault();
  }, { passive: false });

  const handle: FootingDemoHandle = {
    ready: false, world, character: player.controller, walker: player.walker, scene, engine,
    characterMesh: player.mesh, characterLink: player.link, followCamera: player.camera, landmarks: level.landmarks, props, stats: timer.stats,
    debugView: null, characterView, mode: 'main', frameMs: () => frameTimer.summary(), resetFrameMs: () => frameTimer.reset(),
    teleport: (x, y, z) => player.teleport({ x, y, z }),
    setCameraYaw: (yaw) => { player.yaw = yaw; },
    showInspector,
  };

  await scene.whenReadyAsync();
  let lastHud = -Infinity;
  scene.onBeforeRenderObservable.add(() => {
    // The loop: world.advance (rigid bodies, then the steppers: platforms,
    // character) → every link's sync(alpha) → the debug views' update.
    const frameStart = performance.now();
    const frameSeconds = Math.min(engine.getDeltaTime() / 1000, 0.25);
    const steps0 = world.stepCount;
    const t0 = performance.now();
    if (!paused) {
      alpha = world.advance(frameSeconds);
    } else {
      while (singleSteps > 0) { world.step(FIXED_STEP); singleSteps--; }
      alpha = 1;
    }
    singleSteps = 0;
    timer.add(performance.now() - t0, world.stepCount - steps0, FIXED_STEP);
    timer.stats.paused = paused;
    props.links.sync(alpha);
    verlet.render();
    player.render(alpha, frameSeconds);
    debugView?.update(alpha);
    characterView.update();
    hud.sample(characterView.stats.iterations);
    frameTimer.add(performance.now() - frameStart);
  });
  scene.onAfterRenderObservable.add(() => {
    timer.stats.frames++;
    const now = performance.now();
    if (now - lastHud >= HUD_INTERVAL_MS) {
      lastHud = now;
      timer.endWindow();
      hud.write(engine, world, timer.stats, player.walker, characterView.stats,
        `views     F1 colliders ${debugView?.enabled ? 'on' : 'off'} · F2 solver ${characterView.enabled ? 'on' : 'off'} · F3 inspector`);
    }
    if (!handle.ready && timer.stats.frames >= FRAMES_BEFORE_READY) handle.ready = true;
  });
  window.addEventListener('resize', () => engine.resize());
  window.footingDemo = handle;
  engine.runRenderLoop(() => scene.render());
}

main().catch((error: unknown) => {
  console.error(error);
  const hud = document.getElementById('hud');
  if (hud) hud.textContent = `error: ${String(error)}`;
});
