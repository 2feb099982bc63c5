import { Box, Sphere, World } from 'footing';

// A world with gravity, a static floor whose top is at y = 0, and a crate.
const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
const crate = world.createBody({
  type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }),
  position: { x: 0, y: 3, z: 0 }, mass: 10, friction: 0.6,
});

// Two seconds at a fixed 60 Hz step: the crate falls and comes to rest.
for (let i = 0; i < 120; i++) world.step(1 / 60);

// Scene queries: a ray straight down, and a sphere swept along +x.
const hit = world.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 });
const cast = world.shapeCast(new Sphere(0.25), { x: -5, y: 0.5, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, { x: 10, y: 0, z: 0 });

export const quickStart = { restHeight: crate.position.y, rayHitY: hit?.point.y, castFraction: cast?.fraction, castBody: cast?.body };
console.log(`crate rests at y = ${crate.position.y.toFixed(3)}; ray hit y = ${hit?.point.y.toFixed(3)}; cast stops at ${cast?.fraction.toFixed(3)}`);
