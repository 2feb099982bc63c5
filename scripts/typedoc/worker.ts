/**
 * Physics in a Web Worker: a host that owns the world and a main-thread client.
 * @module footing/worker
 */
export * from '../../src/worker/index';
