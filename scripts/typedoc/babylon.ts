/**
 * The Babylon.js adapter: body links, colliders from meshes, debug views.
 * @module footing/babylon
 */
export * from '../../src/babylon/index';
