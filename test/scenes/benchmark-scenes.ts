/**
 * The benchmark scene list. Kept apart from index.ts so that the peer table
 * can load the scenes without loading footing (index.ts re-exports the
 * footing builder).
 */
import { massRatioTowerScene } from './mass-ratio-tower';
import { pileScene } from './pile';
import { pyramidScene } from './pyramid';
import type { Scene } from './scene';

/** Names accepted by `benchmarkScene`, in table order. */
export const BENCHMARK_SCENE_NAMES = ['pyramid-20', 'pyramid-40', 'pile-1000', 'pile-1000-mixed', 'tower-10to1'] as const;
export type BenchmarkSceneName = (typeof BENCHMARK_SCENE_NAMES)[number];

export function benchmarkScene(name: BenchmarkSceneName): Scene {
  switch (name) {
    case 'pyramid-20': return pyramidScene(20);
    case 'pyramid-40': return pyramidScene(40);
    case 'pile-1000': return pileScene(1000);
    case 'pile-1000-mixed': return pileScene(1000, undefined, true);
    case 'tower-10to1': return massRatioTowerScene(10, 10);
  }
}
