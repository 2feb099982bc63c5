// The scene both modes draw in: sky colour, camera, lights; and the keyboard
// helper that keeps typing in the Inspector from moving the character.
import { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import type { Engine } from '@babylonjs/core/Engines/engine';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Scene } from '@babylonjs/core/scene';

export function createScene(engine: Engine): { scene: Scene; camera: TargetCamera } {
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0.62, 0.74, 0.86, 1);
  const camera = new TargetCamera('camera', new Vector3(0, 3, -6), scene);
  camera.minZ = 0.05;
  camera.maxZ = 200;
  camera.fov = 1.0;
  const sky = new HemisphericLight('sky', new Vector3(0, 1, 0), scene);
  sky.intensity = 0.7;
  sky.groundColor = new Color3(0.3, 0.3, 0.35);
  const sun = new DirectionalLight('sun', new Vector3(-0.4, -1, 0.5), scene);
  sun.intensity = 0.65;
  return { scene, camera };
}

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}
