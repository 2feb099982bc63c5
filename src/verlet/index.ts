export { ParticleSystem, type ParticleSystemOptions } from './particles';
export { DistanceConstraints, PinConstraints, solveDistanceConstraints, solveBounds } from './constraints';
export { createCloth, type Cloth, type ClothOptions } from './cloth';
export { createRope, type Rope, type RopeOptions } from './rope';
export { createParticleBody, type ParticleBody, type ParticleBodyOptions } from './particle-body';
