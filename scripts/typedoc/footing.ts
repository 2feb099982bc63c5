/**
 * The rigid-body world, shapes, queries, joints, ragdolls and Verlet particles.
 * TypeDoc names a module after its entry file's `@module` tag; this file gives
 * the `footing` entry point its package name.
 * @module footing
 */
export * from '../../src/index';
