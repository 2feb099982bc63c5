import { describe, expect, it } from 'vitest';
import { PairMap } from '../../../src/collision/broadphase/pair-set';
import { seeded } from '../../helpers/random';

const refKey = (a: number, b: number): string => (a < b ? `${a},${b}` : `${b},${a}`);

describe('PairMap', () => {
  it('treats (a, b) and (b, a) as one key', () => {
    const map = new PairMap();
    map.set(3, 7, 11);
    expect(map.get(7, 3)).toBe(11);
    map.set(7, 3, 12);
    expect(map.size).toBe(1);
    expect(map.get(3, 7)).toBe(12);
    expect(map.get(3, 3)).toBe(-1);
    map.set(5, 5, 0);
    expect(map.get(5, 5)).toBe(0);
    expect(map.delete(7, 3)).toBe(true);
    expect(map.delete(3, 7)).toBe(false);
    expect(map.size).toBe(1);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get(5, 5)).toBe(-1);
    expect(() => map.set(-1, 2, 0)).toThrow();
  });

  it('agrees with a JS Map over 100 000 random operations', () => {
    const rng = seeded(1234567, 'pair-map ops');
    const map = new PairMap();
    const ref = new Map<string, number>();
    let hits = 0, deletes = 0, maxSize = 0;
    for (let op = 0; op < 100_000; op++) {
      // Mostly a small id range so keys collide, probe runs are long and
      // deletes hit; sometimes large ids (up to 2^31 - 1).
      const range = rng.next() < 0.9 ? 120 : 0x7fffffff;
      const a = rng.int(0, range), b = rng.int(0, range);
      const r = rng.next();
      if (r < 0.45) {
        const v = rng.int(0, 0x7fffffff);
        map.set(a, b, v);
        ref.set(refKey(a, b), v);
      } else if (r < 0.75) {
        const expected = ref.delete(refKey(a, b));
        expect(map.delete(a, b)).toBe(expected);
        if (expected) deletes++;
      } else if (r < 0.9999) {
        const expected = ref.get(refKey(a, b)) ?? -1;
        const got = map.get(b, a);
        if (got !== expected) throw new Error(`op ${op}: get(${a}, ${b}) = ${got}, expected ${expected}`);
        if (expected >= 0) hits++;
      } else {
        map.clear();
        ref.clear();
      }
      if (map.size !== ref.size) throw new Error(`op ${op}: size ${map.size} vs ${ref.size}`);
      maxSize = Math.max(maxSize, ref.size);
    }
    // Every stored key is still found after all the backward shifts.
    for (const [k, v] of ref) {
      const [a, b] = k.split(',').map(Number) as [number, number];
      expect(map.get(a, b)).toBe(v);
    }
    console.log(`[pair-map ops] ${hits} hits, ${deletes} deletes, up to ${maxSize} entries`);
    expect(hits).toBeGreaterThan(1000);
    expect(deletes).toBeGreaterThan(1000);
  });

  it('grows through many pairs and shrinks back to empty', () => {
    const map = new PairMap();
    for (let i = 0; i < 20_000; i++) map.set(i, i * 7 + 1, i);
    expect(map.size).toBe(20_000);
    for (let i = 0; i < 20_000; i++) expect(map.get(i * 7 + 1, i)).toBe(i);
    for (let i = 0; i < 20_000; i += 2) expect(map.delete(i, i * 7 + 1)).toBe(true);
    expect(map.size).toBe(10_000);
    for (let i = 0; i < 20_000; i++) expect(map.get(i, i * 7 + 1)).toBe(i % 2 === 0 ? -1 : i);
  });
});
