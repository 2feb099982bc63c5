import { describe, expect, it } from 'vitest';
import { aabb, aabbOverlaps, aabbRayCrosses, type Aabb } from '../../../src/collision/aabb';

const rayLimit = new Float64Array(2);
/** Entry t of the segment into the box, or -1 (aabbRayCrosses with the limit in a plain number). */
function aabbRayEntry(a: Aabb, origin: Readonly<Vec3>, invDir: Readonly<Vec3>, maxT: number): number {
  rayLimit[0] = maxT;
  return aabbRayCrosses(a, origin, invDir, rayLimit) ? rayLimit[1]! : -1;
}
import { DynamicTree, type TreeRayCallback } from '../../../src/collision/broadphase/dynamic-tree';
import type { Vec3 } from '../../../src/math/vec3';
import { seeded, type Random } from '../../helpers/random';

function randomBox(rng: Random, extent: number, minSize: number, maxSize: number): Aabb {
  const b = aabb();
  const cx = rng.range(-extent, extent), cy = rng.range(-extent, extent), cz = rng.range(-extent, extent);
  const hx = rng.range(minSize, maxSize) / 2, hy = rng.range(minSize, maxSize) / 2, hz = rng.range(minSize, maxSize) / 2;
  b.min.x = cx - hx; b.min.y = cy - hy; b.min.z = cz - hz;
  b.max.x = cx + hx; b.max.y = cy + hy; b.max.z = cz + hz;
  return b;
}

function translate(b: Aabb, d: Vec3): void {
  b.min.x += d.x; b.min.y += d.y; b.min.z += d.z;
  b.max.x += d.x; b.max.y += d.y; b.max.z += d.z;
}

class Collector implements TreeRayCallback {
  visited: number[] = [];
  rayCallback(proxyId: number, maxT: number): number {
    this.visited.push(proxyId);
    return maxT;
  }
}

function sorted(a: number[]): number[] {
  return [...a].sort((x, y) => x - y);
}

describe('DynamicTree', () => {
  it('stores the box grown by the margin and re-inserts only when the box swept by its displacement leaves it', () => {
    const tree = new DynamicTree(0.1);
    const box = aabb();
    box.max.x = 1; box.max.y = 1; box.max.z = 1;
    const id = tree.createProxy(box, 42);
    const fat = tree.getFatAabb(id, aabb());
    expect(fat.min.x).toBeCloseTo(-0.1, 12);
    expect(fat.max.z).toBeCloseTo(1.1, 12);
    expect(tree.getUserData(id)).toBe(42);

    // Inside the fat box, swept by the displacement too: no re-insertion, fat box unchanged.
    translate(box, { x: 0.05, y: 0, z: 0 });
    expect(tree.moveProxy(id, box, { x: 0.04, y: 0, z: 0 })).toBe(false);
    expect(tree.getFatAabb(id, fat).max.x).toBeCloseTo(1.1, 12);

    // Inside, but the box swept by a larger displacement is not (a body
    // speeding up): re-inserted so that the fat box reaches next step's pose.
    const other = new DynamicTree(0.1);
    const still = aabb();
    still.max.x = 1; still.max.y = 1; still.max.z = 1;
    const otherId = other.createProxy(still, 7);
    expect(other.moveProxy(otherId, still, { x: 0, y: -0.05, z: 0 })).toBe(false);
    expect(other.moveProxy(otherId, still, { x: 0, y: -0.2, z: 0 })).toBe(true);
    expect(other.getFatAabb(otherId, aabb()).min.y).toBeCloseTo(-0.3, 12);

    // prediction k: the fat box reaches k moves ahead, and is kept while the
    // box swept by one move fits: a steady mover is re-inserted every few moves.
    const mover = new DynamicTree(0.1);
    const mb = aabb();
    mb.max.x = 1; mb.max.y = 1; mb.max.z = 1;
    const moverId = mover.createProxy(mb, 3);
    const step = { x: 0.25, y: 0, z: 0 };
    expect(mover.moveProxy(moverId, mb, step, 4)).toBe(true);
    expect(mover.getFatAabb(moverId, aabb()).max.x).toBeCloseTo(1 + 0.1 + 1, 12);
    let reinserted = 0;
    for (let k = 0; k < 12; k++) {
      translate(mb, step);
      if (mover.moveProxy(moverId, mb, step, 4)) reinserted++;
    }
    expect(reinserted).toBe(3);

    // Out of it: re-inserted as box ± margin, swept by the displacement.
    translate(box, { x: 0.1, y: 0, z: 0 });
    expect(tree.moveProxy(id, box, { x: 0.5, y: -0.25, z: 0 })).toBe(true);
    tree.getFatAabb(id, fat);
    expect(fat.min.x).toBeCloseTo(0.15 - 0.1, 12);
    expect(fat.max.x).toBeCloseTo(1.15 + 0.1 + 0.5, 12);
    expect(fat.min.y).toBeCloseTo(-0.1 - 0.25, 12);
    expect(fat.max.y).toBeCloseTo(1.1, 12);

    // Same prediction again: the stored box is exactly what would be built.
    expect(tree.moveProxy(id, box, { x: 0.5, y: -0.25, z: 0 })).toBe(false);
    // Stopping: the stored box reaches 0.5 m past box ± margin, more than the
    // 3 spare margins (0.3 m) allowed, so it goes stale and shrinks.
    expect(tree.moveProxy(id, box, { x: 0, y: 0, z: 0 })).toBe(true);
    expect(tree.getFatAabb(id, fat).max.x).toBeCloseTo(1.25, 12);
    // Within the spare margins it is kept.
    translate(box, { x: 0.05, y: 0, z: 0 });
    expect(tree.moveProxy(id, box, { x: 0.04, y: 0, z: 0 })).toBe(false);
    expect(tree.getFatAabb(id, fat).max.x).toBeCloseTo(1.25, 12);
    tree.validate();
    expect(tree.proxyCount).toBe(1);
  });

  it('random create/move/destroy of 2000 proxies over 200 rounds: valid, exact queries and rays, low height', () => {
    const rng = seeded(20240611, 'dynamic-tree churn');
    const tree = new DynamicTree(0.1);
    const EXTENT = 25;
    const TARGET = 2000;
    const boxes = new Map<number, Aabb>(); // proxy id -> tight box
    const userOf = new Map<number, number>();
    let nextUser = 0;
    const create = (): void => {
      const b = randomBox(rng, EXTENT, 0.2, 3);
      const user = nextUser++;
      const id = tree.createProxy(b, user);
      expect(boxes.has(id)).toBe(false);
      boxes.set(id, b);
      userOf.set(id, user);
    };
    for (let i = 0; i < TARGET; i++) create();

    const fat = aabb();
    const fatOf = (id: number): Aabb => tree.getFatAabb(id, aabb());
    const out: number[] = [];
    const collector = new Collector();
    const invDir = { x: 0, y: 0, z: 0 };
    let maxHeight = 0;
    let queries = 0, rayChecks = 0, totalHits = 0, totalRayHits = 0;

    for (let round = 0; round < 200; round++) {
      const ids = [...boxes.keys()];
      // Move a quarter of the proxies, some by small steps, some by jumps.
      for (let k = 0; k < 500; k++) {
        const id = ids[rng.int(0, ids.length)]!;
        const b = boxes.get(id)!;
        const big = rng.next() < 0.1;
        const d = rng.vec3(big ? -8 : -0.15, big ? 8 : 0.15);
        translate(b, d);
        const wasInside = tree.getFatAabb(id, fat).min.x <= b.min.x && fat.min.y <= b.min.y && fat.min.z <= b.min.z &&
          fat.max.x >= b.max.x && fat.max.y >= b.max.y && fat.max.z >= b.max.z;
        const moved = tree.moveProxy(id, b, d);
        if (!wasInside) expect(moved).toBe(true);
      }
      // Churn: destroy and create, drifting the count around the target.
      const destroys = rng.int(0, 60);
      for (let k = 0; k < destroys; k++) {
        const live = [...boxes.keys()];
        const id = live[rng.int(0, live.length)]!;
        tree.destroyProxy(id);
        boxes.delete(id);
        userOf.delete(id);
      }
      while (boxes.size < TARGET - 30 + rng.int(0, 60)) create();
      expect(tree.proxyCount).toBe(boxes.size);

      tree.validate();
      for (const [id, user] of userOf) {
        if (tree.getUserData(id) !== user) throw new Error(`user data of ${id}`);
      }
      const height = tree.height();
      maxHeight = Math.max(maxHeight, height);
      expect(height).toBeLessThanOrEqual(2.5 * Math.log2(boxes.size));

      // Queries vs brute force over fat boxes.
      const fats = new Map<number, Aabb>();
      for (const id of boxes.keys()) fats.set(id, fatOf(id));
      for (let q = 0; q < 5; q++) {
        const qb = randomBox(rng, EXTENT, 0.5, 20);
        out.length = 0;
        out.push(-7); // appends after existing content
        const n = tree.query(qb, out);
        expect(out[0]).toBe(-7);
        expect(n).toBe(out.length - 1);
        const expected: number[] = [];
        for (const [id, f] of fats) if (aabbOverlaps(f, qb)) expected.push(id);
        expect(sorted(out.slice(1))).toEqual(sorted(expected));
        queries++;
        totalHits += n;
      }
      // Rays vs brute force; some axis-parallel so the slab test's parallel branch runs.
      for (let r = 0; r < 5; r++) {
        const origin = rng.vec3(-EXTENT * 1.2, EXTENT * 1.2);
        const dir = r === 0 ? { x: 0, y: 0, z: rng.next() < 0.5 ? 1 : -1 } : r === 1 ? { x: 1, y: -1, z: 0 } : rng.unitVec3();
        const maxT = rng.range(10, 200);
        collector.visited.length = 0;
        tree.raycast(origin, dir, maxT, collector);
        invDir.x = 1 / dir.x; invDir.y = 1 / dir.y; invDir.z = 1 / dir.z;
        const expected: number[] = [];
        for (const [id, f] of fats) if (aabbRayEntry(f, origin, invDir, maxT) >= 0) expected.push(id);
        expect(sorted(collector.visited)).toEqual(sorted(expected));
        expect(new Set(collector.visited).size).toBe(collector.visited.length);
        rayChecks++;
        totalRayHits += expected.length;
      }
    }
    console.log(`[dynamic-tree churn] max height ${maxHeight} (bound ${(2.5 * Math.log2(TARGET)).toFixed(1)}), ` +
      `${queries} queries with ${totalHits} hits, ${rayChecks} rays with ${totalRayHits} hits`);
    expect(totalHits).toBeGreaterThan(queries); // the queries are not trivially empty
    expect(totalRayHits).toBeGreaterThan(rayChecks);
    for (const id of [...boxes.keys()]) tree.destroyProxy(id);
    tree.validate();
    expect(tree.proxyCount).toBe(0);
    expect(tree.height()).toBe(0);
  });

  it('raycast clipping finds the nearest fat box and a negative return stops', () => {
    const rng = seeded(77, 'dynamic-tree ray clip');
    const tree = new DynamicTree(0.05);
    const boxes = new Map<number, Aabb>(); // proxy id -> fat box
    for (let i = 0; i < 1500; i++) {
      const id = tree.createProxy(randomBox(rng, 30, 0.5, 2), i);
      boxes.set(id, tree.getFatAabb(id, aabb()));
    }
    const invDir = { x: 0, y: 0, z: 0 };
    const nearest = {
      best: Infinity, bestId: -1, calls: 0,
      origin: { x: 0, y: 0, z: 0 } as Vec3, inv: invDir,
      rayCallback(proxyId: number, maxT: number): number {
        this.calls++;
        const t = aabbRayEntry(boxes.get(proxyId)!, this.origin, this.inv, maxT);
        // The tree only reports boxes the clipped segment enters.
        expect(t).toBeGreaterThanOrEqual(0);
        if (t < this.best) { this.best = t; this.bestId = proxyId; }
        return t;
      },
    };
    let totalCalls = 0;
    for (let r = 0; r < 200; r++) {
      const origin = rng.vec3(-40, 40);
      const dir = rng.unitVec3();
      const maxT = 100;
      invDir.x = 1 / dir.x; invDir.y = 1 / dir.y; invDir.z = 1 / dir.z;
      nearest.best = Infinity; nearest.bestId = -1; nearest.calls = 0; nearest.origin = origin;
      tree.raycast(origin, dir, maxT, nearest);
      let expected = Infinity;
      for (const b of boxes.values()) {
        const t = aabbRayEntry(b, origin, invDir, maxT);
        if (t >= 0 && t < expected) expected = t;
      }
      if (expected === Infinity) expect(nearest.bestId).toBe(-1);
      else expect(nearest.best).toBeCloseTo(expected, 12);
      totalCalls += nearest.calls;

      let calls = 0;
      tree.raycast(origin, dir, maxT, { rayCallback: () => { calls++; return -1; } });
      expect(calls).toBe(expected === Infinity ? 0 : 1);
    }
    expect(totalCalls).toBeGreaterThan(0);
  });

  it('allows a raycast or query from inside a raycast callback', () => {
    const tree = new DynamicTree(0);
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) ids.push(tree.createProxy({ min: { x: i * 2, y: 0, z: 0 }, max: { x: i * 2 + 1, y: 1, z: 1 } }, i));
    const inner = new Collector();
    const outerSeen: number[] = [];
    const out: number[] = [];
    tree.raycast({ x: -1, y: 0.5, z: 0.5 }, { x: 1, y: 0, z: 0 }, 200, {
      rayCallback: (id, maxT) => {
        outerSeen.push(id);
        inner.visited.length = 0;
        tree.raycast({ x: -1, y: 0.5, z: 0.5 }, { x: 1, y: 0, z: 0 }, 10, inner); // boxes at x = 0, 2, 4, 6, 8
        expect(inner.visited.length).toBe(5);
        out.length = 0;
        expect(tree.query({ min: { x: 0.2, y: 0, z: 0 }, max: { x: 2.5, y: 1, z: 1 } }, out)).toBe(2);
        return maxT;
      },
    });
    expect(sorted(outerSeen)).toEqual(sorted(ids));
  });

  it('keeps sorted inputs (a line, a grid) shallow', () => {
    for (const kind of ['line', 'grid'] as const) {
      const tree = new DynamicTree(0.1);
      const n = 4096;
      for (let i = 0; i < n; i++) {
        const x = kind === 'line' ? i * 1.1 : (i % 64) * 1.1;
        const z = kind === 'line' ? 0 : Math.floor(i / 64) * 1.1;
        tree.createProxy({ min: { x, y: 0, z }, max: { x: x + 1, y: 1, z: z + 1 } }, i);
      }
      tree.validate();
      // log2(4096) = 12: bound 30; a pure SAH descent makes the line a list (height 4095).
      expect(tree.height()).toBeLessThanOrEqual(2.5 * Math.log2(n));
      const out: number[] = [];
      expect(tree.query({ min: { x: 0.5, y: 0, z: 0.5 }, max: { x: 1.5, y: 1, z: 1.5 } }, out)).toBe(kind === 'line' ? 2 : 4);
    }
  });

  it('survives creating and destroying thousands of proxies with id reuse', () => {
    const rng = seeded(5150, 'dynamic-tree mass churn');
    const tree = new DynamicTree();
    const live: number[] = [];
    for (let cycle = 0; cycle < 5; cycle++) {
      for (let i = 0; i < 4000; i++) live.push(tree.createProxy(randomBox(rng, 100, 0.5, 2), i));
      tree.validate();
      expect(tree.height()).toBeLessThanOrEqual(2.5 * Math.log2(live.length));
      // Destroy 90 % in random order.
      for (let i = live.length - 1; i > 0; i--) {
        const j = rng.int(0, i + 1);
        const s = live[i]!; live[i] = live[j]!; live[j] = s;
      }
      const keep = Math.floor(live.length / 10);
      for (const id of live.splice(keep)) tree.destroyProxy(id);
      tree.validate();
      expect(tree.proxyCount).toBe(live.length);
    }
    expect(() => tree.destroyProxy(-1)).toThrow();
  });
});
