// The 'World + Box' game of scripts/size.mjs and test/structure/bundle-size.test.ts:
// a world with a floor and a falling box, stepped once.
import { World, Box } from 'footing';
const world = new World();
world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }) });
world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 2, z: 0 } });
world.advance(1 / 60);
globalThis.out = world;
