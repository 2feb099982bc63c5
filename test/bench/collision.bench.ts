/**
 * Broadphase benchmarks. Scene: 10 000 boxes of 1 m in a 100 m cube, random
 * velocities up to 5 m/s per axis, bouncing off the walls, dt = 1/60 s,
 * margin 0.1 m. One step = move every proxy (predictive displacement v·dt)
 * + updatePairs. Query and raycast throughput run against the same scene.
 */
import { bench, describe } from 'vitest';
import type { Aabb } from '../../src/collision/aabb';
import { BodyCategory, BroadPhase, type BroadPhaseRayCallback, type PairCallback } from '../../src/collision/broadphase/broadphase';
import { Random } from '../helpers/random';

const COUNT = 10_000;
const HALF_WORLD = 50;
const HALF_BOX = 0.5;
const MAX_SPEED = 5;
const DT = 1 / 60;

class Scene {
  readonly bp = new BroadPhase(0.1);
  readonly handles = new Int32Array(COUNT);
  readonly position = new Float64Array(COUNT * 3);
  readonly velocity = new Float64Array(COUNT * 3);
  private readonly box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  private readonly displacement = { x: 0, y: 0, z: 0 };
  private readonly counter: PairCallback & { pairs: number };

  constructor(seed: number) {
    const rng = new Random(seed);
    this.counter = { pairs: 0, addPair() { this.pairs++; } };
    for (let i = 0; i < COUNT; i++) {
      for (let k = 0; k < 3; k++) {
        this.position[i * 3 + k] = rng.range(-HALF_WORLD + HALF_BOX, HALF_WORLD - HALF_BOX);
        this.velocity[i * 3 + k] = rng.range(-MAX_SPEED, MAX_SPEED);
      }
      this.fillBox(i);
      this.handles[i] = this.bp.createProxy(this.box, i, BodyCategory.Dynamic);
    }
    this.bp.updatePairs(this.counter);
  }

  private fillBox(i: number): void {
    const p = this.position;
    const b = this.box;
    b.min.x = p[i * 3]! - HALF_BOX; b.min.y = p[i * 3 + 1]! - HALF_BOX; b.min.z = p[i * 3 + 2]! - HALF_BOX;
    b.max.x = p[i * 3]! + HALF_BOX; b.max.y = p[i * 3 + 1]! + HALF_BOX; b.max.z = p[i * 3 + 2]! + HALF_BOX;
  }

  /** Move all + updatePairs; returns the number of pairs reported. */
  step(): number {
    const p = this.position, v = this.velocity, d = this.displacement;
    const limit = HALF_WORLD - HALF_BOX;
    for (let i = 0; i < COUNT; i++) {
      for (let k = 0; k < 3; k++) {
        const j = i * 3 + k;
        let x = p[j]! + v[j]! * DT;
        if (x > limit || x < -limit) {
          v[j] = -v[j]!;
          x = p[j]! + v[j]! * DT;
        }
        p[j] = x;
      }
      d.x = v[i * 3]! * DT; d.y = v[i * 3 + 1]! * DT; d.z = v[i * 3 + 2]! * DT;
      this.fillBox(i);
      this.bp.moveProxy(this.handles[i]!, this.box, d);
    }
    this.counter.pairs = 0;
    this.bp.updatePairs(this.counter);
    return this.counter.pairs;
  }
}

const scene = new Scene(2024);
const rng = new Random(7);
const QUERIES = 1000;
const queryBoxes: Aabb[] = [];
for (let i = 0; i < QUERIES; i++) {
  const c = { x: rng.range(-HALF_WORLD, HALF_WORLD), y: rng.range(-HALF_WORLD, HALF_WORLD), z: rng.range(-HALF_WORLD, HALF_WORLD) };
  queryBoxes.push({ min: { x: c.x - 2, y: c.y - 2, z: c.z - 2 }, max: { x: c.x + 2, y: c.y + 2, z: c.z + 2 } });
}
const rayOrigins = Array.from({ length: QUERIES }, () => rng.vec3(-HALF_WORLD, HALF_WORLD));
const rayDirs = Array.from({ length: QUERIES }, () => rng.unitVec3());
const queryOut: number[] = [];
const rayCounter: BroadPhaseRayCallback & { hits: number } = { hits: 0, rayCallback(_u, maxT) { this.hits++; return maxT; } };

describe('broadphase', () => {
  bench('broadphase update + pair finding for 10 000 moving boxes (one step)', () => {
    scene.step();
  }, { time: 3000, warmupTime: 500 });

  bench('1000 box queries (4 m cubes) on 10 000 boxes', () => {
    for (let i = 0; i < QUERIES; i++) {
      queryOut.length = 0;
      scene.bp.query(queryBoxes[i]!, queryOut);
    }
  }, { time: 2000 });

  bench('1000 raycasts (50 m, all hits visited) on 10 000 boxes', () => {
    rayCounter.hits = 0;
    for (let i = 0; i < QUERIES; i++) scene.bp.raycast(rayOrigins[i]!, rayDirs[i]!, 50, rayCounter);
  }, { time: 2000 });
});
