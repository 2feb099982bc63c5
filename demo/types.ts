import type { Engine } from '@babylonjs/core/Engines/engine';
import type { Scene } from '@babylonjs/core/scene';
import type { Capsule, World } from '../src/index';
import type { BodyView } from './bodies';

/** What the sweeping ray and the capsule cast have seen so far (read by the e2e test). */
export interface QueryStats {
  /** Frames in which the sweeping ray hit something. */
  rayHits: number;
  /** Frames in which it missed everything. */
  rayMisses: number;
  /** The last hit's fraction along the ray in [0, 1], or -1 when the last ray missed. */
  rayFraction: number;
  /** The last hit's distance from the ray origin (metres), or -1 on a miss. */
  rayDistance: number;
  /** The last hit point and unit normal (stale after a miss). */
  rayPoint: { x: number; y: number; z: number };
  rayNormal: { x: number; y: number; z: number };
  /** Frames in which the capsule cast hit something, and the last fraction (-1 on a miss). */
  castHits: number;
  castFraction: number;
}

/** Timing of the physics step, refreshed every frame. */
export interface StepStats {
  /** Fixed steps taken since the page loaded. */
  steps: number;
  /** Simulated seconds since the page loaded. */
  simSeconds: number;
  /** Mean wall-clock milliseconds per fixed step over the last HUD window. */
  msPerStep: number;
  /** Rendered frames since the page loaded. */
  frames: number;
}

/** The page hook `window.footingDemo`, set once the scene has rendered its first frames. */
export interface FootingDemoHandle {
  ready: boolean;
  world: World;
  scene: Scene;
  engine: Engine;
  /** The dynamic bodies and the meshes that follow them. */
  dynamicBodies: readonly BodyView[];
  queries: QueryStats;
  /** The capsule the demo sweeps with `world.shapeCast`, reusable from tests. */
  castShape: Capsule;
  stats: StepStats;
}

declare global {
  interface Window {
    footingDemo?: FootingDemoHandle;
  }
}
