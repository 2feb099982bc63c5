/**
 * TriangleMesh benchmarks against a 10 000-triangle terrain (100 × 50 cells
 * of 0.5 m, heights in ±0.3 m). Each bench iteration runs 1000 queries, so
 * queries/s = 1000 × the reported hz.
 * - raycast: random downward-ish rays of length 20 m from above the terrain;
 * - sphere (r 0.4), box (0.4 × 0.25 × 0.3), capsule (r 0.25, half 0.5):
 *   resting on the terrain at random spots and orientations, margin 0.02 m.
 */
import { bench, describe } from 'vitest';
import { collide } from '../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../src/collision/narrowphase/manifold';
import type { Quat } from '../../src/math/quat';
import type { Vec3 } from '../../src/math/vec3';
import { Box } from '../../src/shapes/box';
import { Capsule } from '../../src/shapes/capsule';
import { Sphere } from '../../src/shapes/sphere';
import { MeshRayHit, TriangleMesh } from '../../src/shapes/triangle-mesh';
import { Random } from '../helpers/random';

const QUERIES = 1000;
const COLS = 100;
const ROWS = 50;
const CELL = 0.5;

function terrain(rng: Random): TriangleMesh {
  const positions: number[] = [];
  for (let j = 0; j <= ROWS; j++) for (let i = 0; i <= COLS; i++) positions.push(i * CELL, rng.range(-0.3, 0.3), j * CELL);
  const indices: number[] = [];
  const id = (i: number, j: number): number => j * (COLS + 1) + i;
  for (let j = 0; j < ROWS; j++) {
    for (let i = 0; i < COLS; i++) indices.push(id(i, j), id(i, j + 1), id(i + 1, j), id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
  }
  return new TriangleMesh(positions, indices);
}

const rng = new Random(9301);
const mesh = terrain(rng);
const identity: Quat = { x: 0, y: 0, z: 0, w: 1 };
const origin: Vec3 = { x: 0, y: 0, z: 0 };
const manifold = new Manifold();
const hit = new MeshRayHit();

const rayOrigins: Vec3[] = [];
const rayDirs: Vec3[] = [];
for (let k = 0; k < QUERIES; k++) {
  rayOrigins.push({ x: rng.range(0, COLS * CELL), y: 5, z: rng.range(0, ROWS * CELL) });
  const d = { x: rng.range(-0.5, 0.5), y: -1, z: rng.range(-0.5, 0.5) };
  const len = Math.hypot(d.x, d.y, d.z);
  rayDirs.push({ x: d.x / len, y: d.y / len, z: d.z / len });
}
const poses: Vec3[] = [];
const rotations: Quat[] = [];
for (let k = 0; k < QUERIES; k++) {
  poses.push({ x: rng.range(1, COLS * CELL - 1), y: rng.range(0.1, 0.5), z: rng.range(1, ROWS * CELL - 1) });
  rotations.push(rng.quat());
}
const sphere = new Sphere(0.4);
const box = new Box({ x: 0.4, y: 0.25, z: 0.3 });
const capsule = new Capsule(0.25, 0.5);

describe(`TriangleMesh, ${mesh.triangleCount} triangles, ${QUERIES} queries per iteration`, () => {
  bench('raycastLocal (closest hit)', () => {
    for (let k = 0; k < QUERIES; k++) mesh.raycastLocal(rayOrigins[k]!, rayDirs[k]!, 20, hit);
  });
  bench('collideSphereMesh', () => {
    for (let k = 0; k < QUERIES; k++) collide(sphere, poses[k]!, identity, mesh, origin, identity, 0.02, manifold);
  });
  bench('collideBoxMesh', () => {
    for (let k = 0; k < QUERIES; k++) collide(box, poses[k]!, rotations[k]!, mesh, origin, identity, 0.02, manifold);
  });
  bench('collideCapsuleMesh', () => {
    for (let k = 0; k < QUERIES; k++) collide(capsule, poses[k]!, rotations[k]!, mesh, origin, identity, 0.02, manifold);
  });
});

describe('TriangleMesh construction', () => {
  const cols = 250, rows = 200;
  const positions = new Float32Array((cols + 1) * (rows + 1) * 3);
  for (let j = 0, k = 0; j <= rows; j++) {
    for (let i = 0; i <= cols; i++, k += 3) {
      positions[k] = i * 0.25; positions[k + 1] = Math.sin(i * 0.3) * Math.cos(j * 0.2); positions[k + 2] = j * 0.25;
    }
  }
  const indices = new Uint32Array(cols * rows * 6);
  for (let j = 0, k = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++, k += 6) {
      const a = j * (cols + 1) + i, b = a + cols + 1;
      indices[k] = a; indices[k + 1] = b; indices[k + 2] = a + 1;
      indices[k + 3] = a + 1; indices[k + 4] = b; indices[k + 5] = b + 1;
    }
  }
  bench('build 100 000 triangles', () => {
    new TriangleMesh(positions, indices);
  });
});
