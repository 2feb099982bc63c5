import type { Engine } from '@babylonjs/core/Engines/engine';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import type { World } from '../src/index';
import type { CharacterController, Walker } from '../character/index';
import type { CharacterDebugView, CharacterLink, FollowCamera, PhysicsDebugView } from '../src/babylon/index';
import type { Landmarks } from './level-data';
import type { Props } from './props';

/** Timing of the physics, refreshed every frame. */
export interface StepStats {
  /** Fixed steps taken since the page loaded. */
  steps: number;
  /** Simulated seconds since the page loaded. */
  simSeconds: number;
  /** Mean wall-clock milliseconds per fixed step (world step + character) over the last HUD window. */
  msPerStep: number;
  /** Mean fixed steps per rendered frame over the last HUD window. */
  stepsPerFrame: number;
  /** Rendered frames since the page loaded. */
  frames: number;
  paused: boolean;
}

/** The page hook `window.footingDemo`, set once the scene has rendered its first frames. */
export interface FootingDemoHandle {
  ready: boolean;
  world: World;
  character: CharacterController;
  walker: Walker;
  scene: Scene;
  engine: Engine;
  /** The character's capsule mesh; it carries the Inspector properties (inspectableCustomProperties). */
  characterMesh: Mesh;
  /** Steps the walker inside world.advance and places characterMesh (interpolated). */
  characterLink: CharacterLink;
  /** The third-person camera. */
  followCamera: FollowCamera;
  landmarks: Landmarks;
  props: Props;
  stats: StepStats;
  /** The collider wireframes (created by the first F1). */
  debugView: PhysicsDebugView | null;
  /** The character solver view (its meshes are made by the first F2). */
  characterView: CharacterDebugView;
  /** Teleports the character and stops it. */
  teleport(x: number, y: number, z: number): void;
  /** Sets the camera orbit (yaw 0 looks along +z). */
  setCameraYaw(yaw: number): void;
  /** Opens the Babylon Inspector (F3) and resolves once it is shown. */
  showInspector(): Promise<void>;
  mode: 'main';
  /** Main-thread ms of each frame's JS work before rendering, since the last reset. */
  frameMs(): { frames: number; mean: number; p95: number };
  resetFrameMs(): void;
}

declare global {
  interface Window {
    footingDemo?: FootingDemoHandle;
  }
}
