/**
 * One adapter per engine for the peer table (test/bench/peer-table.bench-run.ts).
 * An adapter builds a `Scene` (test/scenes) in its engine with settings chosen
 * to make the engines do comparable work, steps it, and reads positions back.
 */
import type { Scene } from '../../scenes/scene';

/** Settings every adapter applies where its engine lets it. */
export const COMPARABLE = Object.freeze({
  /** Velocity (impulse) iterations per step: Jolt's and crashcat's default, cannon-es's GSSolver default. */
  velocityIterations: 10,
  /** Off for the timing, so every engine simulates every body every step. */
  sleeping: false,
});

export interface EngineInstance {
  /** One fixed step of `scene.dt`. */
  step(): void;
  /** Writes the centre of every scene body (scene order) as x, y, z triples into `out`. */
  readPositions(out: Float64Array): void;
  /** Frees engine memory (WASM engines); safe to call once. */
  dispose(): void;
}

export interface EngineAdapter {
  readonly name: string;
  /** Package and version, for the table notes. */
  readonly version: string;
  /** How this adapter's settings differ from the engine's defaults or from the others. */
  readonly notes: string;
  create(scene: Scene): Promise<EngineInstance>;
}
