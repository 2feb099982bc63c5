/** The shared scenes (see scene.ts for the data format) and the footing builder. */
export { pyramidScene } from './pyramid';
export { pileScene, PILE_SEED } from './pile';
export { massRatioTowerScene } from './mass-ratio-tower';
export { BENCHMARK_SCENE_NAMES, benchmarkScene, type BenchmarkSceneName } from './benchmark-scenes';
export { buildFootingWorld, type FootingSceneOptions, type FootingScene } from './build-footing';
export { countDynamic, DT, EARTH_GRAVITY, IDENTITY, type BodyDesc, type Scene, type SceneBounds, type ShapeDesc } from './scene';
