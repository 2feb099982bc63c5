import { describe, expect, it } from 'vitest';
import { aabb, aabbOverlaps, aabbRayCrosses, type Aabb } from '../../../src/collision/aabb';

const rayLimit = new Float64Array(2);
/** Entry t of the segment into the box, or -1 (aabbRayCrosses with the limit in a plain number). */
function aabbRayEntry(a: Aabb, origin: Readonly<Vec3>, invDir: Readonly<Vec3>, maxT: number): number {
  rayLimit[0] = maxT;
  return aabbRayCrosses(a, origin, invDir, rayLimit) ? rayLimit[1]! : -1;
}
import { BodyCategory, BroadPhase, type PairCallback } from '../../../src/collision/broadphase/broadphase';
import type { Vec3 } from '../../../src/math/vec3';
import { seeded, type Random } from '../../helpers/random';

type Category = 0 | 1 | 2;

interface Body {
  user: number;
  handle: number;
  category: Category;
  box: Aabb;
  velocity: Vec3;
}

function randomBox(rng: Random, extent: number, minSize: number, maxSize: number): Aabb {
  const b = aabb();
  const cx = rng.range(-extent, extent), cy = rng.range(-extent, extent), cz = rng.range(-extent, extent);
  const hx = rng.range(minSize, maxSize) / 2, hy = rng.range(minSize, maxSize) / 2, hz = rng.range(minSize, maxSize) / 2;
  b.min.x = cx - hx; b.min.y = cy - hy; b.min.z = cz - hz;
  b.max.x = cx + hx; b.max.y = cy + hy; b.max.z = cz + hz;
  return b;
}

const key = (a: number, b: number): number => (a < b ? a * 100000 + b : b * 100000 + a);

class PairRecorder implements PairCallback {
  calls: number[] = [];
  addPair(a: number, b: number): void {
    this.calls.push(a, b);
  }
}

/**
 * Drives a broadphase through random motion, churn and category changes and
 * records, per round, the pairs it reports. With `check`, compares the kept
 * pair set (reported ∪ still-overlapping kept pairs) against brute force.
 */
function simulate(seed: number, rounds: number, check: boolean): number[] {
  const rng = seeded(seed, 'broadphase pairs');
  const bp = new BroadPhase(0.1);
  const EXTENT = 12;
  const bodies = new Map<number, Body>();
  let nextUser = 0;
  const create = (category: Category): void => {
    const box = randomBox(rng, EXTENT, 0.3, category === BodyCategory.Static ? 4 : 1.5);
    const user = nextUser++;
    const handle = bp.createProxy(box, user, category);
    bodies.set(user, { user, handle, category, box, velocity: rng.vec3(-0.3, 0.3) });
  };
  const pickCategory = (): Category => {
    const r = rng.next();
    return r < 0.25 ? 0 : r < 0.4 ? 1 : 2;
  };
  for (let i = 0; i < 500; i++) create(pickCategory());

  const kept = new Set<number>();
  const log: number[] = [];
  const recorder = new PairRecorder();
  const fatA = aabb(), fatB = aabb();
  let reportedTotal = 0, maxKept = 0;

  for (let round = 0; round < rounds; round++) {
    for (const body of bodies.values()) {
      if (body.category === BodyCategory.Static && rng.next() > 0.01) continue;
      const v = body.velocity;
      if (rng.next() < 0.05) body.velocity = rng.vec3(-1, 1);
      body.box.min.x += v.x; body.box.min.y += v.y; body.box.min.z += v.z;
      body.box.max.x += v.x; body.box.max.y += v.y; body.box.max.z += v.z;
      // Keep them in the arena so density stays up.
      if (Math.abs(body.box.min.x) > EXTENT) v.x = -Math.sign(body.box.min.x) * Math.abs(v.x);
      if (Math.abs(body.box.min.y) > EXTENT) v.y = -Math.sign(body.box.min.y) * Math.abs(v.y);
      if (Math.abs(body.box.min.z) > EXTENT) v.z = -Math.sign(body.box.min.z) * Math.abs(v.z);
      bp.moveProxy(body.handle, body.box, v);
    }
    // Churn: destroy, create (and move the new one at once), change category.
    for (let k = rng.int(0, 8); k > 0; k--) {
      const users = [...bodies.keys()];
      const user = users[rng.int(0, users.length)]!;
      bp.destroyProxy(bodies.get(user)!.handle);
      bodies.delete(user);
    }
    for (let k = rng.int(0, 8); k > 0; k--) {
      create(pickCategory());
      if (rng.next() < 0.5) {
        const body = bodies.get(nextUser - 1)!;
        body.box.min.x += 0.5; body.box.max.x += 0.5;
        bp.moveProxy(body.handle, body.box, body.velocity);
      }
    }
    for (let k = rng.int(0, 4); k > 0; k--) {
      const users = [...bodies.keys()];
      const body = bodies.get(users[rng.int(0, users.length)]!)!;
      body.category = pickCategory();
      body.handle = bp.setCategory(body.handle, body.box, body.category);
    }

    recorder.calls.length = 0;
    bp.updatePairs(recorder);
    log.push(-1, ...recorder.calls);
    if (!check) continue;

    bp.validate();
    const thisCall = new Set<number>();
    for (let i = 0; i < recorder.calls.length; i += 2) {
      const a = bodies.get(recorder.calls[i]!)!, b = bodies.get(recorder.calls[i + 1]!)!;
      expect(a.user).not.toBe(b.user);
      const k = key(a.user, b.user);
      // At most once per call.
      expect(thisCall.has(k)).toBe(false);
      thisCall.add(k);
      // Only pairs with a dynamic member, and only overlapping fat boxes.
      expect(a.category === BodyCategory.Dynamic || b.category === BodyCategory.Dynamic).toBe(true);
      expect(bp.testOverlap(a.handle, b.handle)).toBe(true);
    }
    reportedTotal += thisCall.size;

    // What a world would keep: old pairs whose bodies live, still qualify and
    // still overlap (fat), plus the new reports.
    for (const k of [...kept]) {
      const a = bodies.get(Math.floor(k / 100000)), b = bodies.get(k % 100000);
      const keep = a !== undefined && b !== undefined &&
        (a.category === BodyCategory.Dynamic || b.category === BodyCategory.Dynamic) &&
        bp.testOverlap(a.handle, b.handle);
      if (!keep) kept.delete(k);
    }
    for (const k of thisCall) kept.add(k);
    maxKept = Math.max(maxKept, kept.size);

    const list = [...bodies.values()];
    const fats = list.map((b) => bp.getFatAabb(b.handle, aabb()));
    const expected = new Set<number>();
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (list[i]!.category !== BodyCategory.Dynamic && list[j]!.category !== BodyCategory.Dynamic) continue;
        if (aabbOverlaps(fats[i]!, fats[j]!)) expected.add(key(list[i]!.user, list[j]!.user));
      }
    }
    expect(kept.size).toBe(expected.size);
    for (const k of expected) {
      if (!kept.has(k)) throw new Error(`round ${round}: missing pair ${Math.floor(k / 100000)}-${k % 100000}`);
    }
    // testOverlap agrees with the fat boxes.
    const a = list[0]!, b = list[1]!;
    expect(bp.testOverlap(a.handle, b.handle)).toBe(aabbOverlaps(bp.getFatAabb(a.handle, fatA), bp.getFatAabb(b.handle, fatB)));
  }
  if (check) {
    console.log(`[broadphase pairs] ${reportedTotal} pairs reported over ${rounds} rounds, up to ${maxKept} kept at once`);
    expect(reportedTotal).toBeGreaterThan(rounds);
    expect(maxKept).toBeGreaterThan(50);
  }
  return log;
}

describe('BroadPhase', () => {
  it('updatePairs over 200 rounds: reported ∪ kept equals brute force, each pair once, only with a dynamic', () => {
    simulate(424242, 200, true);
  });

  it('is deterministic: the same calls give the same pairs in the same order', () => {
    const a = simulate(99, 40, false);
    const b = simulate(99, 40, false);
    expect(a.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
  });

  it('never pairs statics and kinematics with each other; handles encode the tree', () => {
    const bp = new BroadPhase(0.1);
    const unit = (x: number): Aabb => ({ min: { x, y: 0, z: 0 }, max: { x: x + 1, y: 1, z: 1 } });
    const s1 = bp.createProxy(unit(0), 10, BodyCategory.Static);
    const s2 = bp.createProxy(unit(0.5), 11, BodyCategory.Static);
    const k1 = bp.createProxy(unit(0.2), 12, BodyCategory.Kinematic);
    const k2 = bp.createProxy(unit(0.3), 13, BodyCategory.Kinematic);
    expect(s1 & 1).toBe(0);
    expect(k1 & 1).toBe(1);
    const rec = new PairRecorder();
    bp.updatePairs(rec);
    expect(rec.calls.length).toBe(0);

    const d = bp.createProxy(unit(0.4), 14, BodyCategory.Dynamic);
    bp.updatePairs(rec);
    const pairs = new Set<number>();
    for (let i = 0; i < rec.calls.length; i += 2) pairs.add(key(rec.calls[i]!, rec.calls[i + 1]!));
    expect(pairs).toEqual(new Set([key(14, 10), key(14, 11), key(14, 12), key(14, 13)]));
    expect(rec.calls.length).toBe(8);

    // Nothing moved: nothing reported.
    rec.calls.length = 0;
    bp.updatePairs(rec);
    expect(rec.calls.length).toBe(0);

    // Kinematic k1 becomes dynamic: pairs with the statics and k2 appear.
    const k1d = bp.setCategory(k1, unit(0.2), BodyCategory.Dynamic);
    expect(k1d).toBe(k1);
    bp.updatePairs(rec);
    pairs.clear();
    for (let i = 0; i < rec.calls.length; i += 2) pairs.add(key(rec.calls[i]!, rec.calls[i + 1]!));
    expect(pairs).toEqual(new Set([key(12, 10), key(12, 11), key(12, 13), key(12, 14)]));

    // The dynamic one becomes static: moves to the static tree, pairs only with dynamic k1.
    rec.calls.length = 0;
    const ds = bp.setCategory(d, unit(0.4), BodyCategory.Static);
    expect(ds & 1).toBe(0);
    expect(bp.getUserData(ds)).toBe(14);
    bp.updatePairs(rec);
    expect(rec.calls.length).toBe(2);
    expect(key(rec.calls[0]!, rec.calls[1]!)).toBe(key(12, 14));

    // query and raycast see both trees and return user data.
    const out: number[] = [];
    expect(bp.query(unit(0.1), out)).toBe(5);
    expect(new Set(out)).toEqual(new Set([10, 11, 12, 13, 14]));
    const hits: number[] = [];
    bp.raycast({ x: -5, y: 0.5, z: 0.5 }, { x: 1, y: 0, z: 0 }, 10, { rayCallback: (u, t) => { hits.push(u); return t; } });
    expect(new Set(hits)).toEqual(new Set([10, 11, 12, 13, 14]));
    bp.destroyProxy(s1); bp.destroyProxy(s2); bp.destroyProxy(k1d); bp.destroyProxy(k2); bp.destroyProxy(ds);
    expect(bp.proxyCount).toBe(0);
  });

  it('raycast over both trees matches brute force, clips across trees and stops on a negative return', () => {
    const rng = seeded(3141, 'broadphase ray');
    const bp = new BroadPhase(0.1);
    const handles: number[] = [];
    for (let i = 0; i < 800; i++) handles.push(bp.createProxy(randomBox(rng, 20, 0.5, 3), i, (i % 3) as Category));
    bp.updatePairs({ addPair: () => {} });
    const fats = handles.map((h) => bp.getFatAabb(h, aabb()));
    const inv = { x: 0, y: 0, z: 0 };
    for (let r = 0; r < 100; r++) {
      const origin = rng.vec3(-25, 25);
      const dir = rng.unitVec3();
      inv.x = 1 / dir.x; inv.y = 1 / dir.y; inv.z = 1 / dir.z;
      const seen: number[] = [];
      bp.raycast(origin, dir, 60, { rayCallback: (u, t) => { seen.push(u); return t; } });
      const expected: number[] = [];
      let nearest = Infinity;
      fats.forEach((f, i) => {
        const t = aabbRayEntry(f, origin, inv, 60);
        if (t >= 0) { expected.push(i); nearest = Math.min(nearest, t); }
      });
      expect([...seen].sort((a, b) => a - b)).toEqual(expected);

      let best = Infinity;
      bp.raycast(origin, dir, 60, {
        rayCallback: (u, maxT) => {
          const t = aabbRayEntry(fats[u]!, origin, inv, maxT);
          expect(t).toBeGreaterThanOrEqual(0);
          best = Math.min(best, t);
          return t;
        },
      });
      if (nearest === Infinity) expect(best).toBe(Infinity);
      else expect(best).toBeCloseTo(nearest, 12);

      let calls = 0;
      bp.raycast(origin, dir, 60, { rayCallback: () => { calls++; return -1; } });
      expect(calls).toBe(expected.length > 0 ? 1 : 0);
    }
  });

  it('creating, moving at once and destroying thousands of proxies between updates', () => {
    const rng = seeded(8080, 'broadphase churn');
    const bp = new BroadPhase();
    const rec = new PairRecorder();
    let live: number[] = [];
    for (let cycle = 0; cycle < 4; cycle++) {
      for (let i = 0; i < 3000; i++) {
        const box = randomBox(rng, 40, 0.5, 1.5);
        const h = bp.createProxy(box, cycle * 10000 + i, (i % 3) as Category);
        box.min.x += 2; box.max.x += 2;
        bp.moveProxy(h, box, { x: 2, y: 0, z: 0 });
        live.push(h);
      }
      // Destroy half before they were ever paired: their queue entries must vanish.
      const doomed = live.filter((_, i) => i % 2 === 0);
      live = live.filter((_, i) => i % 2 === 1);
      for (const h of doomed) bp.destroyProxy(h);
      rec.calls.length = 0;
      bp.updatePairs(rec);
      bp.validate();
      const liveUsers = new Set(live.map((h) => bp.getUserData(h)));
      for (const u of rec.calls) expect(liveUsers.has(u)).toBe(true);
      expect(bp.proxyCount).toBe(live.length);
    }
  });
});
