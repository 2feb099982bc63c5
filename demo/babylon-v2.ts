// A scene written only against Babylon's Physics V2 API (PhysicsAggregate,
// constraints, trigger shapes, the character controller), run on footing's
// FootingPlugin or on Havok: `?engine=footing` (default) or `?engine=havok`.
// The plugin and the controller class are the only lines that differ.
//
// Both engines get the same 60 Hz steps through Babylon's sub-time-step (one
// executeStep per 1/60 s of frame time), so that they are compared on equal
// steps at any frame rate: HavokPlugin would otherwise step each frame's
// delta (up to 0.1 s at 10 fps, where its pile keeps jittering).
// `?step=frame` gives Babylon's default instead: one executeStep per frame
// (Havok: one step of the frame's delta; footing: its own fixed steps, the
// meshes interpolated between them).
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Engine } from '@babylonjs/core/Engines/engine';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreatePolyhedron } from '@babylonjs/core/Meshes/Builders/polyhedronBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { CharacterSurfaceInfo, PhysicsCharacterController } from '@babylonjs/core/Physics/v2/characterController';
import { PhysicsShapeType, type IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { BallAndSocketConstraint, HingeConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import type { PhysicsEngine } from '@babylonjs/core/Physics/v2/physicsEngine';
import { Scene } from '@babylonjs/core/scene';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent';
import { FootingCharacterController, FootingPlugin } from '../src/babylon/index';

type EngineName = 'footing' | 'havok';
type Xyz = { x: number; y: number; z: number };

/** The test hook (`window.__v2`): read by test/e2e/babylon-v2.e2e.ts. */
export interface V2DemoHandle {
  ready: boolean;
  engine: EngineName;
  /** Rendered frames so far. */
  frames: number;
  /** Bodies the physics engine holds (PhysicsEngine.getBodies). */
  bodyCount(): number;
  /** TRIGGER_ENTERED events of the trigger volume so far. */
  triggerCount: number;
  /** Mean wall-clock ms of the last window's physics steps (executeStep, sync included). */
  msPerStep: number;
  /** Names of the pile's bodies, the chain's links (anchor first, then down the chain). */
  pile: string[];
  chain: string[];
  /** Centre of each named body, keyed by name. */
  positions(): Record<string, Xyz>;
  /** Half of the smallest extent of each pile body: its centre rests at least this high above the ground. */
  minHalfExtent: Record<string, number>;
  /** Largest linear speed among the pile's bodies, m/s. */
  maxPileSpeed(): number;
  character(): Xyz;
  /** Support state of the character's last step (Babylon's CharacterSupportedState: 2 supported). */
  support: number;
  renderer: string;
}

/** The part of Babylon's character controller this page calls: Havok's class and FootingCharacterController both fit. */
type Controller = Pick<PhysicsCharacterController, 'checkSupport' | 'getVelocity' | 'setVelocity' | 'integrate' | 'getPosition'>;

const GRAVITY = new Vector3(0, -9.81, 0);
const WALK_SPEED = 4;
const AIR_SPEED = 3;
const JUMP_SPEED = Math.sqrt(2 * 9.81 * 1.0);
const CAPSULE_HEIGHT = 1.8;
const CAPSULE_RADIUS = 0.4;
/** Babylon's PhysicsEngine caps a frame's physics delta at 0.1 s; the character uses the same cap. */
const MAX_DT = 0.1;
const SUPPORTED = 2;

/** Small deterministic generator (a 32-bit LCG), so that both engines drop the same pile. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function material(scene: Scene, name: string, r: number, g: number, b: number, alpha = 1): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(r, g, b);
  m.specularColor = new Color3(0.1, 0.1, 0.1);
  m.alpha = alpha;
  return m;
}

/** Distance from a convex mesh's origin to the nearest plane of its triangles. */
function inradius(mesh: Mesh): number {
  const p = mesh.getVerticesData(VertexBuffer.PositionKind)!;
  const idx = mesh.getIndices()!;
  const a = new Vector3(), b = new Vector3(), c = new Vector3();
  let best = Infinity;
  for (let t = 0; t < idx.length; t += 3) {
    Vector3.FromArrayToRef(p, 3 * idx[t]!, a);
    Vector3.FromArrayToRef(p, 3 * idx[t + 1]!, b);
    Vector3.FromArrayToRef(p, 3 * idx[t + 2]!, c);
    const n = Vector3.Cross(b.subtract(a), c.subtract(a)).normalize();
    best = Math.min(best, Math.abs(Vector3.Dot(n, a)));
  }
  return best;
}

async function createPlugin(engine: EngineName): Promise<IPhysicsEnginePluginV2> {
  if (engine === 'footing') return new FootingPlugin();
  // Havok and its WASM load only on this path. The package finds its .wasm
  // with new URL('HavokPhysics.wasm', import.meta.url): Vite's build copies
  // the file into the assets and rewrites that address; in dev it serves the
  // package's own file (vite.config.ts keeps the package out of the
  // dependency pre-bundling, which would move the module away from it).
  const [{ default: HavokPhysics }, { HavokPlugin }] = await Promise.all([
    import('@babylonjs/havok'),
    import('@babylonjs/core/Physics/v2/Plugins/havokPlugin'),
  ]);
  const havok = await HavokPhysics();
  return new HavokPlugin(true, havok);
}

async function createController(engine: EngineName, position: Vector3, scene: Scene): Promise<Controller> {
  const options = { capsuleHeight: CAPSULE_HEIGHT, capsuleRadius: CAPSULE_RADIUS };
  if (engine === 'footing') return new FootingCharacterController(position, options, scene);
  const { PhysicsCharacterController } = await import('@babylonjs/core/Physics/v2/characterController');
  return new PhysicsCharacterController(position, options, scene);
}

async function main(): Promise<void> {
  const engineName: EngineName = new URLSearchParams(location.search).get('engine') === 'havok' ? 'havok' : 'footing';
  const canvas = document.getElementById('renderCanvas') as HTMLCanvasElement;
  const hudText = document.getElementById('hud')!;
  const engine = new Engine(canvas, false, { preserveDrawingBuffer: true });
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0.62, 0.74, 0.86, 1);
  const camera = new TargetCamera('camera', new Vector3(0.5, 5.5, -10), scene);
  camera.setTarget(new Vector3(0.5, 1.2, 0));
  camera.fov = 0.8;
  const sky = new HemisphericLight('sky', new Vector3(0, 1, 0), scene);
  sky.intensity = 0.7;
  sky.groundColor = new Color3(0.3, 0.3, 0.35);
  const sun = new DirectionalLight('sun', new Vector3(-0.4, -1, 0.5), scene);
  sun.intensity = 0.6;

  const plugin = await createPlugin(engineName);
  if (!scene.enablePhysics(GRAVITY, plugin)) throw new Error('scene.enablePhysics failed');
  const physics = scene.getPhysicsEngine() as PhysicsEngine;
  const perFrame = new URLSearchParams(location.search).get('step') === 'frame';
  if (!perFrame) physics.setSubTimeStep(1000 / 60);

  // Ground: a 24 × 1 × 24 static box whose top is at y = 0.
  const ground = CreateBox('ground', { width: 24, height: 1, depth: 24 }, scene);
  ground.position.y = -0.5;
  ground.material = material(scene, 'groundMat', 0.45, 0.5, 0.42);
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0, friction: 0.6 }, scene);

  // A bin of four low walls around the 2 × 2 m square the pile falls into (spheres and cylinders would roll away).
  const binMat = material(scene, 'binMat', 0.55, 0.5, 0.45);
  for (const [x, z, w, d] of [[-3.15, 0, 0.3, 2.6], [-0.85, 0, 0.3, 2.6], [-2, -1.15, 2.0, 0.3], [-2, 1.15, 2.0, 0.3]] as const) {
    const wall = CreateBox('wall', { width: w, height: 0.8, depth: d }, scene);
    wall.position.set(x, 0.4, z);
    wall.material = binMat;
    new PhysicsAggregate(wall, PhysicsShapeType.BOX, { mass: 0, friction: 0.6 }, scene);
  }

  // The pile: three of each shape, dropped from 4–10 m over a 1.4 × 1.4 m square.
  const named = new Map<string, Mesh>();
  const pileAggregates: PhysicsAggregate[] = [];
  const minHalfExtent: Record<string, number> = {};
  const rand = lcg(20);
  const kinds = ['box', 'sphere', 'capsule', 'cylinder', 'hull'] as const;
  const colours: Record<(typeof kinds)[number], [number, number, number]> = {
    box: [0.85, 0.55, 0.2], sphere: [0.3, 0.55, 0.9], capsule: [0.8, 0.3, 0.35], cylinder: [0.45, 0.75, 0.35], hull: [0.7, 0.5, 0.85],
  };
  const mats = Object.fromEntries(kinds.map((k) => [k, material(scene, `${k}Mat`, ...colours[k])])) as Record<(typeof kinds)[number], StandardMaterial>;
  const pile: string[] = [];
  for (let i = 0; i < 15; i++) {
    const kind = kinds[i % kinds.length]!;
    const name = `${kind}${Math.floor(i / kinds.length)}`;
    let mesh: Mesh;
    let shape: PhysicsShapeType;
    switch (kind) {
      case 'box': mesh = CreateBox(name, { width: 0.7, height: 0.5, depth: 0.6 }, scene); shape = PhysicsShapeType.BOX; minHalfExtent[name] = 0.25; break;
      case 'sphere': mesh = CreateSphere(name, { diameter: 0.6, segments: 8 }, scene); shape = PhysicsShapeType.SPHERE; minHalfExtent[name] = 0.3; break;
      case 'capsule': mesh = CreateCapsule(name, { height: 0.9, radius: 0.22, tessellation: 12, subdivisions: 1 }, scene); shape = PhysicsShapeType.CAPSULE; minHalfExtent[name] = 0.22; break;
      case 'cylinder': mesh = CreateCylinder(name, { height: 0.6, diameter: 0.5, tessellation: 12 }, scene); shape = PhysicsShapeType.CYLINDER; minHalfExtent[name] = 0.25; break;
      default: mesh = CreatePolyhedron(name, { type: 2, size: 0.22 }, scene); shape = PhysicsShapeType.CONVEX_HULL; minHalfExtent[name] = 0.25; break;
    }
    mesh.position.set(-2 + (rand() - 0.5) * 1.4, 4 + i * 0.45, (rand() - 0.5) * 1.4);
    mesh.rotationQuaternion = Quaternion.RotationYawPitchRoll(rand() * 6.28, rand() * 6.28, rand() * 6.28);
    mesh.material = mats[kind];
    const aggregate = new PhysicsAggregate(mesh, shape, { mass: 1, friction: 0.6, restitution: 0.1 }, scene);
    aggregate.body.setAngularDamping(0.3);
    pileAggregates.push(aggregate);
    named.set(name, mesh);
    pile.push(name);
  }
  // A hull's centre rests at least its inradius above the ground: the distance to its nearest face plane.
  for (const name of pile) {
    if (name.startsWith('hull')) minHalfExtent[name] = inradius(named.get(name)!);
  }

  // The trigger volume the pile falls through: a static box shape marked as a trigger.
  const zone = CreateBox('trigger', { width: 2.2, height: 1, depth: 2.2 }, scene);
  zone.position.set(-2, 2.5, 0);
  zone.material = material(scene, 'triggerMat', 1, 0.9, 0.2, 0.25);
  const zoneAggregate = new PhysicsAggregate(zone, PhysicsShapeType.BOX, { mass: 0 }, scene);
  zoneAggregate.shape.isTrigger = true;
  let triggerCount = 0;
  plugin.onTriggerCollisionObservable.add((event) => {
    if (event.type === 'TRIGGER_ENTERED' && (event.collider === zoneAggregate.body || event.collidedAgainst === zoneAggregate.body)) triggerCount++;
  });

  // The chain: a static anchor and four links, alternately hinged and ball-jointed, released at 50° from the vertical.
  const anchorMesh = CreateBox('anchor', { size: 0.3 }, scene);
  anchorMesh.position.set(4, 5, 0);
  anchorMesh.material = material(scene, 'anchorMat', 0.3, 0.3, 0.3);
  const anchor = new PhysicsAggregate(anchorMesh, PhysicsShapeType.BOX, { mass: 0 }, scene);
  named.set('anchor', anchorMesh);
  const chain = ['anchor'];
  const LINK = 0.6;
  const tilt = Quaternion.RotationAxis(new Vector3(0, 0, 1), (50 * Math.PI) / 180);
  const down = new Vector3(0, -1, 0).applyRotationQuaternion(tilt);
  const linkMat = material(scene, 'linkMat', 0.9, 0.85, 0.3);
  const pivotTop = new Vector3(0, LINK / 2, 0);
  const pivotBottom = new Vector3(0, -LINK / 2, 0);
  const hingeAxis = new Vector3(0, 0, 1);
  let parent = anchor;
  let parentPivot = new Vector3(0, -0.15, 0);
  const top = anchorMesh.position.add(parentPivot);
  for (let i = 0; i < 4; i++) {
    const mesh = CreateBox(`link${i}`, { width: 0.16, height: LINK, depth: 0.16 }, scene);
    mesh.position.copyFrom(top.add(down.scale(LINK * (i + 0.5))));
    mesh.rotationQuaternion = tilt.clone();
    mesh.material = linkMat;
    const link = new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 0.5 }, scene);
    link.body.setLinearDamping(0.2);
    link.body.setAngularDamping(0.5);
    const joint = i % 2 === 0
      ? new HingeConstraint(parentPivot, pivotTop, hingeAxis, hingeAxis, scene)
      : new BallAndSocketConstraint(parentPivot, pivotTop, hingeAxis, hingeAxis, scene);
    parent.body.addConstraint(link.body, joint);
    parent = link;
    parentPivot = pivotBottom;
    named.set(mesh.name, mesh);
    chain.push(mesh.name);
  }

  // The character: a capsule driven by the keys, through Babylon's character controller API.
  const characterMesh = CreateCapsule('character', { height: CAPSULE_HEIGHT, radius: CAPSULE_RADIUS, tessellation: 12, subdivisions: 1 }, scene);
  characterMesh.material = material(scene, 'characterMat', 0.55, 0.17, 0.11);
  const controller = await createController(engineName, new Vector3(3, CAPSULE_HEIGHT / 2 + 0.1, -4), scene);
  const keys = new Set<string>();
  window.addEventListener('keydown', (e) => { keys.add(e.code); });
  window.addEventListener('keyup', (e) => { keys.delete(e.code); });
  window.addEventListener('blur', () => keys.clear());
  const wish = new Vector3();
  const velocity = new Vector3();
  const up = new Vector3(0, 1, 0);
  const downDir = new Vector3(0, -1, 0);
  let support = 0;

  // Wall-clock time of the physics step: from onBeforePhysics to the first onAfterPhysics observer.
  let stepStart = 0, windowMs = 0, windowSteps = 0, msPerStep = 0;
  scene.onBeforePhysicsObservable.add(() => { stepStart = performance.now(); });
  scene.onAfterPhysicsObservable.add(() => { windowMs += performance.now() - stepStart; windowSteps++; });

  scene.onAfterPhysicsObservable.add(() => {
    // The time this physics step covered: the sub-step, or the frame's delta capped as PhysicsEngine
    // caps it (scene.deltaTime exists only when Babylon's animation module is loaded).
    const sub = physics.getSubTimeStep();
    const dt = sub > 0 ? sub / 1000 : Math.min(engine.getDeltaTime() / 1000, MAX_DT);
    if (!(dt > 0)) return;
    const info: CharacterSurfaceInfo = controller.checkSupport(dt, downDir);
    support = info.supportedState;
    wish.set(
      (keys.has('KeyD') || keys.has('ArrowRight') ? 1 : 0) - (keys.has('KeyA') || keys.has('ArrowLeft') ? 1 : 0),
      0,
      (keys.has('KeyW') || keys.has('ArrowUp') ? 1 : 0) - (keys.has('KeyS') || keys.has('ArrowDown') ? 1 : 0),
    );
    if (wish.lengthSquared() > 1) wish.normalize();
    velocity.copyFrom(controller.getVelocity());
    if (support === SUPPORTED) {
      // On the ground: the wished walk along the surface, plus the surface's own motion.
      const n = info.averageSurfaceNormal;
      wish.scaleInPlace(WALK_SPEED);
      velocity.copyFrom(wish).subtractInPlace(n.scale(wish.dot(n))).addInPlace(info.averageSurfaceVelocity);
      if (keys.has('Space')) velocity.addInPlace(up.scale(JUMP_SPEED));
    } else {
      // In the air: steer sideways, fall with gravity.
      velocity.x = wish.x * AIR_SPEED;
      velocity.z = wish.z * AIR_SPEED;
      velocity.addInPlace(GRAVITY.scale(dt));
    }
    controller.setVelocity(velocity);
    controller.integrate(dt, info, GRAVITY);
  });
  scene.onBeforeRenderObservable.add(() => { characterMesh.position.copyFrom(controller.getPosition()); });

  const handle: V2DemoHandle = {
    ready: false,
    engine: engineName,
    frames: 0,
    bodyCount: () => physics.getBodies().length,
    triggerCount: 0,
    msPerStep: 0,
    pile,
    chain,
    positions() {
      const out: Record<string, Xyz> = {};
      for (const [name, mesh] of named) {
        const p = mesh.getAbsolutePosition();
        out[name] = { x: p.x, y: p.y, z: p.z };
      }
      return out;
    },
    minHalfExtent,
    maxPileSpeed() {
      let max = 0;
      for (const a of pileAggregates) max = Math.max(max, a.body.getLinearVelocity().length());
      return max;
    },
    character() {
      const p = controller.getPosition();
      return { x: p.x, y: p.y, z: p.z };
    },
    support: 0,
    renderer: engine.getGlInfo().renderer,
  };
  (window as unknown as { __v2: V2DemoHandle }).__v2 = handle;

  let lastHud = 0;
  scene.onAfterRenderObservable.add(() => {
    handle.frames++;
    handle.triggerCount = triggerCount;
    handle.support = support;
    const now = performance.now();
    if (now - lastHud < 250) return;
    lastHud = now;
    if (windowSteps > 0) msPerStep = windowMs / windowSteps;
    windowMs = 0; windowSteps = 0;
    handle.msPerStep = msPerStep;
    const c = controller.getPosition();
    hudText.textContent =
      `engine     ${engineName === 'footing' ? 'footing (FootingPlugin)' : 'Havok (HavokPlugin)'}\n` +
      `physics    ${msPerStep.toFixed(2)} ms/step (${perFrame ? 'one step per frame' : '60 Hz steps'})\n` +
      `bodies     ${physics.getBodies().length}\n` +
      `trigger    ${triggerCount} entered\n` +
      `character  (${c.x.toFixed(2)}, ${c.y.toFixed(2)}, ${c.z.toFixed(2)}) ${support === SUPPORTED ? 'supported' : support === 1 ? 'sliding' : 'in the air'}\n` +
      `fps        ${engine.getFps().toFixed(1)}`;
  });

  engine.runRenderLoop(() => scene.render());
  window.addEventListener('resize', () => engine.resize());
  handle.ready = true;
}

main().catch((error: unknown) => {
  const hud = document.getElementById('hud');
  if (hud) hud.textContent = `failed: ${String(error)}`;
  throw error;
});
