import { it } from 'vitest';
import { Box, Capsule, Sphere, World } from '../../src/index';
it('probe size', () => {
  for (const size of [2e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 0.03, 0.1, 1, 10, 100, 1e3, 1e4, 1e5, 5e5]) {
    for (const gs of [1, size]) {
      const world = new World({ gravity: { x: 0, y: -9.81 * gs, z: 0 } });
      world.createBody({ type: 'static', shape: new Box({ x: Math.min(20 * size, 1e6), y: 0.5 * size, z: Math.min(20 * size, 1e6) }), position: { x: 0, y: -0.5 * size, z: 0 } });
      const bodies = [
        world.createBody({ type: 'dynamic', shape: new Sphere(0.5 * size), position: { x: -3 * size, y: 2 * size, z: 0 } }),
        world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5 * size, y: 0.5 * size, z: 0.5 * size }), position: { x: 0, y: 2 * size, z: 0 }, rotation: { x: 0.1, y: 0, z: 0.1, w: 1 } }),
        world.createBody({ type: 'dynamic', shape: new Capsule(0.5 * size, 0.5 * size), position: { x: 3 * size, y: 2 * size, z: 0 }, rotation: { x: 0, y: 0, z: 0.3, w: 1 } }),
      ];
      let finite = true;
      for (let i = 0; i < 600; i++) { world.step(1/60); }
      for (const b of bodies) if (!Number.isFinite(b.position.y + b.rotation.w + b.linearVelocity.y)) finite = false;
      console.log(size, gs === 1 ? 'g' : 'g*s', finite, bodies.map((b) => (b.position.y / size).toFixed(3)).join(' '));
    }
  }
});
