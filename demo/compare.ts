// The same box pyramid and pile simulated by footing (left, Babylon.js with
// footing/babylon's PhysicsDebugView) and cannon-es (right, three.js with
// cannon-es-debugger), from the same start, stepped the same number of fixed
// steps per frame, with each engine's wall-clock cost per step.
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Scene } from '@babylonjs/core/scene';
import * as CANNON from 'cannon-es';
import CannonDebugger from 'cannon-es-debugger';
import * as THREE from 'three';
import { Box, World } from '../src/index';
import { PhysicsDebugView } from '../src/babylon/index';

const DT = 1 / 60;
const MAX_STEPS_PER_FRAME = 6;
const HALF = 0.25;
const CAMERA = { x: 7, y: 5, z: 9 };
const TARGET = { x: 0, y: 1, z: 0 };

interface Start { x: number; y: number; z: number; angle: number }

/** The shared start: a base-6 pyramid of 0.5 m cubes and a pile of 16 cubes dropped beside it. */
function startPoses(): Start[] {
  const out: Start[] = [];
  const base = 6;
  for (let row = 0; row < base; row++) {
    for (let i = 0; i < base - row; i++) {
      out.push({ x: -1.5 + (i - (base - 1 - row) / 2) * (2 * HALF + 0.01), y: HALF + row * 2 * HALF, z: 0, angle: 0 });
    }
  }
  // deterministic pile: a 2 × 2 column of 4 layers, each layer turned a little
  for (let layer = 0; layer < 4; layer++) {
    for (let k = 0; k < 4; k++) {
      out.push({ x: 2 + (k % 2) * 0.6 - 0.3, y: 1 + layer * 0.7, z: Math.floor(k / 2) * 0.6 - 0.3, angle: 0.35 * layer + 0.2 * k });
    }
  }
  return out;
}

/** Rolling mean of step times over the last samples. */
class Timing {
  private ms = 0;
  private steps = 0;
  private totalMs = 0;
  private totalSteps = 0;
  /** Mean over the last window (bodies fall asleep, so this drops), and over every step so far. */
  mean = 0;
  overall = 0;
  add(ms: number, steps: number): void { this.ms += ms; this.steps += steps; this.totalMs += ms; this.totalSteps += steps; }
  flush(): void {
    if (this.steps > 0) this.mean = this.ms / this.steps;
    if (this.totalSteps > 0) this.overall = this.totalMs / this.totalSteps;
    this.ms = 0; this.steps = 0;
  }
  text(): string { return `${this.mean.toFixed(3)} ms/step now, ${this.overall.toFixed(3)} mean`; }
}

function setupFooting(canvas: HTMLCanvasElement, starts: Start[]): { world: World; engine: Engine; scene: Scene; view: PhysicsDebugView } {
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true });
  const scene = new Scene(engine);
  // cannon/three are right-handed; render footing the same way so the two pictures match.
  scene.useRightHandedSystem = true;
  scene.clearColor = new Color4(0.07, 0.09, 0.12, 1);
  const camera = new TargetCamera('camera', new Vector3(CAMERA.x, CAMERA.y, CAMERA.z), scene);
  camera.setTarget(new Vector3(TARGET.x, TARGET.y, TARGET.z));
  camera.fov = (50 * Math.PI) / 180;
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
  world.createBody({ type: 'static', shape: new Box({ x: 8, y: 0.5, z: 8 }), position: { x: 0, y: -0.5, z: 0 }, friction: 0.5 });
  const box = new Box({ x: HALF, y: HALF, z: HALF });
  for (const s of starts) {
    world.createBody({
      type: 'dynamic', shape: box, position: { x: s.x, y: s.y, z: s.z },
      rotation: { x: 0, y: Math.sin(s.angle / 2), z: 0, w: Math.cos(s.angle / 2) }, density: 500, friction: 0.5,
    });
  }
  const view = new PhysicsDebugView(scene, world, { color: '#00ff00', contacts: false, joints: false });
  return { world, engine, scene, view };
}

function setupCannon(canvas: HTMLCanvasElement, starts: Start[]): { world: CANNON.World; render: () => void; resize: () => void } {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -9.81, 0) });
  world.broadphase = new CANNON.SAPBroadphase(world);
  world.allowSleep = true;
  (world.solver as CANNON.GSSolver).iterations = 10;
  world.defaultContactMaterial.friction = 0.5;
  const ground = new CANNON.Body({ mass: 0, shape: new CANNON.Box(new CANNON.Vec3(8, 0.5, 8)), position: new CANNON.Vec3(0, -0.5, 0) });
  world.addBody(ground);
  const mass = 500 * (2 * HALF) ** 3;
  for (const s of starts) {
    const body = new CANNON.Body({ mass, shape: new CANNON.Box(new CANNON.Vec3(HALF, HALF, HALF)), position: new CANNON.Vec3(s.x, s.y, s.z) });
    body.quaternion.setFromAxisAngle(new CANNON.Vec3(0, 1, 0), s.angle);
    world.addBody(body);
  }
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
  renderer.setClearColor(0x12171f);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 100);
  camera.position.set(CAMERA.x, CAMERA.y, CAMERA.z);
  camera.lookAt(TARGET.x, TARGET.y, TARGET.z);
  const debug = CannonDebugger(scene, world, { color: 0x00ff00 });
  const resize = (): void => {
    const w = canvas.clientWidth, h = canvas.clientHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
  };
  resize();
  return { world, render: () => { debug.update(); renderer.render(scene, camera); }, resize };
}

function main(): void {
  const starts = startPoses();
  const footingCanvas = document.getElementById('footingCanvas') as HTMLCanvasElement;
  const cannonCanvas = document.getElementById('cannonCanvas') as HTMLCanvasElement;
  const footingLabel = document.getElementById('footingLabel')!;
  const cannonLabel = document.getElementById('cannonLabel')!;
  const f = setupFooting(footingCanvas, starts);
  const c = setupCannon(cannonCanvas, starts);
  const footingTime = new Timing();
  const cannonTime = new Timing();
  let accumulator = 0;
  let steps = 0;
  let lastLabel = 0;
  const handle = { ready: false, footing: f.world, cannon: c.world, steps: 0, footingMsPerStep: 0, cannonMsPerStep: 0 };
  (window as unknown as { footingCompare: typeof handle }).footingCompare = handle;

  f.engine.runRenderLoop(() => {
    accumulator += Math.min(f.engine.getDeltaTime() / 1000, 0.25);
    let n = 0;
    while (accumulator >= DT && n < MAX_STEPS_PER_FRAME) { accumulator -= DT; n++; }
    if (accumulator >= DT) accumulator %= DT;
    // Same number of steps for both, timed separately.
    let t0 = performance.now();
    for (let i = 0; i < n; i++) f.world.step(DT);
    footingTime.add(performance.now() - t0, n);
    t0 = performance.now();
    for (let i = 0; i < n; i++) c.world.step(DT);
    cannonTime.add(performance.now() - t0, n);
    steps += n;
    handle.steps = steps;
    f.view.update(1);
    f.scene.render();
    c.render();
    const now = performance.now();
    if (now - lastLabel > 500) {
      lastLabel = now;
      footingTime.flush();
      cannonTime.flush();
      handle.footingMsPerStep = footingTime.overall;
      handle.cannonMsPerStep = cannonTime.overall;
      const bodies = starts.length;
      footingLabel.textContent = `footing (Babylon.js, footing/babylon PhysicsDebugView)\n${bodies} boxes · ${footingTime.text()} · ${f.world.contactCount} contacts\nstep ${steps} · ${f.engine.getFps().toFixed(1)} fps`;
      cannonLabel.textContent = `cannon-es (three.js + cannon-es-debugger)\n${bodies} boxes · ${cannonTime.text()} · ${c.world.contacts.length} contacts\nstep ${steps}`;
    }
    if (!handle.ready && steps > 0) handle.ready = true;
  });
  window.addEventListener('resize', () => { f.engine.resize(); c.resize(); });
}

main();
