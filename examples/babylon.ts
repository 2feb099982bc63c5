import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { Scene } from '@babylonjs/core/scene';
import { Box, World } from 'footing';
import { CharacterController, Walker } from 'footing/character';
import { BodyLinks, CharacterLink, FollowCamera, PhysicsDebugView, createStaticMeshCollider, meshFromShape } from 'footing/babylon';

export function createGame(engine: AbstractEngine) {
  const scene = new Scene(engine);
  const camera = new TargetCamera('camera', new Vector3(0, 3, -6), scene);
  new HemisphericLight('light', new Vector3(0, 1, 0), scene);
  const world = new World({ fixedTimeStep: 1 / 60 });

  // Static level geometry straight from Babylon meshes.
  createStaticMeshCollider(world, CreateGround('ground', { width: 40, height: 40 }, scene));

  // A crate: a body, a mesh of its shape, and a link that moves the mesh.
  const crate = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.4, z: 0.4 }), position: { x: 0, y: 0.4, z: 4 }, mass: 20 });
  const links = new BodyLinks();
  links.add(meshFromShape(crate.shape, 'crate', scene), crate);

  // The character: the world steps its walker (the link is a stepper), the
  // link draws it interpolated and turned to where it walks, the camera follows.
  const controller = new CharacterController(world, { position: { x: 0, y: 0.91, z: 0 } });
  const walker = new Walker(controller);
  const player = meshFromShape(controller.capsule, 'player', scene);
  const character = new CharacterLink(world, walker, player);
  const follow = new FollowCamera(world, camera, player, { exclude: controller.body });

  const debug = new PhysicsDebugView(scene, world);
  debug.enabled = false;

  /** One rendered frame: physics in fixed steps, then every link, then the camera and the debug view. */
  function frame(seconds: number): void {
    const alpha = world.advance(seconds);
    links.sync(alpha);
    character.sync(alpha);
    follow.update(seconds);
    debug.update(alpha);
  }

  return { scene, world, walker, character, player, crate, debug, frame };
}

// In a page: keys to walker input, one frame per render.
if (typeof document !== 'undefined') {
  const canvas = document.querySelector('canvas')!;
  const { Engine } = await import('@babylonjs/core/Engines/engine');
  const engine = new Engine(canvas);
  const game = createGame(engine);
  const held = new Set<string>();
  const input = (): void => game.walker.setInput(
    (held.has('KeyD') ? 1 : 0) - (held.has('KeyA') ? 1 : 0), 0, (held.has('KeyW') ? 1 : 0) - (held.has('KeyS') ? 1 : 0));
  window.addEventListener('keydown', (e) => {
    held.add(e.code);
    if (e.code === 'Space') game.walker.jump();
    if (e.code === 'F1') game.debug.enabled = !game.debug.enabled;
    input();
  });
  window.addEventListener('keyup', (e) => { held.delete(e.code); input(); });
  engine.runRenderLoop(() => {
    game.frame(engine.getDeltaTime() / 1000);
    game.scene.render();
  });
}
