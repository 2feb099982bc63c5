// The footing demo: a Babylon scene whose dynamic meshes follow footing bodies,
// with a sweeping raycast and a capsule shape cast drawn every frame.
// Deep imports keep the bundle to the Babylon modules actually used.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Scene } from '@babylonjs/core/scene';
import { World } from '../src/index';
import { populate, syncMeshes } from './bodies';
import { QueryView } from './query-view';
import { StepTimer } from './step-timer';
import type { FootingDemoHandle } from './types';

/** Rendered frames before the page reports ready, so that tests see bodies that have moved. */
const FRAMES_BEFORE_READY = 3;
/** How often the HUD text is rewritten, milliseconds. */
const HUD_INTERVAL_MS = 250;

function createScene(engine: Engine, canvas: HTMLCanvasElement): Scene {
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0.62, 0.74, 0.86, 1);
  const camera = new ArcRotateCamera('camera', -Math.PI / 2 + 0.5, 1.05, 17, new Vector3(0, 1.2, 0), scene);
  camera.lowerRadiusLimit = 3;
  camera.upperRadiusLimit = 60;
  camera.wheelDeltaPercentage = 0.02;
  camera.attachControl(canvas, true);
  const sky = new HemisphericLight('sky', new Vector3(0, 1, 0), scene);
  sky.intensity = 0.65;
  sky.groundColor = new Color3(0.25, 0.25, 0.3);
  const sun = new DirectionalLight('sun', new Vector3(-0.4, -1, 0.3), scene);
  sun.intensity = 0.7;
  return scene;
}

async function main(): Promise<void> {
  const canvas = document.getElementById('renderCanvas') as HTMLCanvasElement;
  const hud = document.getElementById('hud') as HTMLDivElement;
  // preserveDrawingBuffer lets tests read the rendered pixels back between frames.
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true });
  const scene = createScene(engine, canvas);

  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  const views = populate(world, scene);
  const queries = new QueryView(world, scene);
  const timer = new StepTimer(world);
  const handle: FootingDemoHandle = {
    ready: false, world, scene, engine, dynamicBodies: views, queries: queries.stats,
    castShape: queries.castShape, stats: timer.stats,
  };

  await scene.whenReadyAsync();
  let seconds = 0;
  let lastHud = -Infinity;
  scene.onBeforeRenderObservable.add(() => {
    // getDeltaTime is the previous frame's duration; the world turns it into fixed steps.
    const frameSeconds = engine.getDeltaTime() / 1000;
    seconds += frameSeconds;
    timer.advance(frameSeconds);
    syncMeshes(views);
    queries.update(seconds);
  });
  scene.onAfterRenderObservable.add(() => {
    timer.stats.frames++;
    const now = performance.now();
    if (now - lastHud >= HUD_INTERVAL_MS) {
      lastHud = now;
      timer.endWindow();
      hud.textContent =
        `physics  ${timer.stats.msPerStep.toFixed(3)} ms/step\n` +
        `bodies   ${world.bodies.length}\n` +
        `fps      ${engine.getFps().toFixed(1)}`;
    }
    if (!handle.ready && timer.stats.frames >= FRAMES_BEFORE_READY) {
      handle.ready = true;
    }
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
