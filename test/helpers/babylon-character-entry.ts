// Entry of the library the FootingCharacterController allocation test builds
// (test/babylon/allocation.test.ts): footing, and the controller with the
// Babylon vector class its callers pass in.
export { World, Box } from '../../src/index';
export { FootingCharacterController } from '../../src/babylon/character-controller/index';
export { Vector3 } from '@babylonjs/core/Maths/math.vector';
