/**
 * Narrowphase throughput: pairs per second for each convex pair type, over a
 * fixed set of 256 seeded touching/penetrating poses per pair (vitest bench
 * reports ops/s; each op runs the 256 pairs, so pairs/s = 256 × hz).
 */
import { bench, describe } from 'vitest';
import { collide } from '../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../src/collision/narrowphase/manifold';
import { Box } from '../../src/shapes/box';
import { Capsule } from '../../src/shapes/capsule';
import type { Shape } from '../../src/shapes/shape';
import { Sphere } from '../../src/shapes/sphere';
import { Random } from '../helpers/random';
import { randomPoses, type Pose } from '../collision/narrowphase/sdf';

const N = 256;
const pairs: [string, Shape, Shape][] = [
  ['sphere-sphere', new Sphere(0.5), new Sphere(0.4)],
  ['sphere-box', new Sphere(0.5), new Box({ x: 0.5, y: 0.4, z: 0.6 })],
  ['sphere-capsule', new Sphere(0.5), new Capsule(0.3, 0.5)],
  ['capsule-capsule', new Capsule(0.3, 0.6), new Capsule(0.25, 0.5)],
  ['box-capsule', new Box({ x: 0.5, y: 0.4, z: 0.6 }), new Capsule(0.3, 0.5)],
  ['box-box', new Box({ x: 0.5, y: 0.4, z: 0.6 }), new Box({ x: 0.3, y: 0.5, z: 0.4 })],
];

describe('narrowphase pairs (×256 per op)', () => {
  for (const [name, a, b] of pairs) {
    const rng = new Random(2024);
    const poses: [Pose, Pose][] = [];
    for (let i = 0; i < N; i++) poses.push(randomPoses(rng, a, b, rng.range(0, 0.1)));
    const m = new Manifold();
    bench(name, () => {
      for (let i = 0; i < N; i++) {
        const [pa, pb] = poses[i]!;
        collide(a, pa.position, pa.rotation, b, pb.position, pb.rotation, 0.02, m);
      }
    });
  }
});
