/**
 * Hash map from an unordered pair of non-negative int32 (a, b) to an int32
 * value: the contact lookup "do bodies a and b already have a contact?".
 *
 * Open addressing with linear probing over three parallel Int32Arrays
 * (smaller key, larger key, value); a slot is empty when its first key is -1.
 * Deletion shifts later members of the probe run back (Knuth, TAOCP vol. 3,
 * §6.4 Algorithm R) instead of leaving tombstones, so lookups never slow
 * down after churn and no periodic rehash is needed. The table doubles at
 * 50 % load; nothing is allocated in steady state.
 */

const EMPTY = -1;
const INITIAL_CAPACITY = 16;

/**
 * Mixes the two keys into a 32-bit hash. The pair is packed as a 64-bit
 * value (hi·2^32 + lo) and folded by multiply-xorshift rounds, as in
 * MurmurHash3's fmix32; consecutive body ids spread over the table.
 */
function hashPair(lo: number, hi: number): number {
  let h = Math.imul(lo, 0x9e3779b1) ^ hi;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

export class PairMap {
  private keysLo: Int32Array;
  private keysHi: Int32Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = INITIAL_CAPACITY) {
    let capacity = INITIAL_CAPACITY;
    while (capacity < initialCapacity * 2) capacity *= 2;
    this.keysLo = new Int32Array(capacity).fill(EMPTY);
    this.keysHi = new Int32Array(capacity);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** Number of stored pairs. */
  get size(): number {
    return this.count;
  }

  /** Value stored for the unordered pair (a, b), or -1 if absent. */
  get(a: number, b: number): number {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const keysLo = this.keysLo, keysHi = this.keysHi, mask = this.mask;
    let i = hashPair(lo, hi) & mask;
    for (;;) {
      const k = keysLo[i]!;
      if (k === EMPTY) return -1;
      if (k === lo && keysHi[i] === hi) return this.values[i]!;
      i = (i + 1) & mask;
    }
  }

  /** Inserts or overwrites the value for the unordered pair (a, b). */
  set(a: number, b: number, value: number): void {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    if (lo < 0) throw new Error(`PairMap: keys must be non-negative (${a}, ${b})`);
    if ((this.count + 1) * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    const keysLo = this.keysLo, keysHi = this.keysHi, mask = this.mask;
    let i = hashPair(lo, hi) & mask;
    for (;;) {
      const k = keysLo[i]!;
      if (k === EMPTY) {
        keysLo[i] = lo;
        keysHi[i] = hi;
        this.values[i] = value;
        this.count++;
        return;
      }
      if (k === lo && keysHi[i] === hi) {
        this.values[i] = value;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  /** Removes the pair; returns whether it was present. */
  delete(a: number, b: number): boolean {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const keysLo = this.keysLo, keysHi = this.keysHi, values = this.values, mask = this.mask;
    let i = hashPair(lo, hi) & mask;
    for (;;) {
      const k = keysLo[i]!;
      if (k === EMPTY) return false;
      if (k === lo && keysHi[i] === hi) break;
      i = (i + 1) & mask;
    }
    // Backward shift: walk the rest of the run; an entry whose home slot h
    // does not lie cyclically in (hole, j] would become unreachable across
    // the hole, so it moves into the hole and its old slot becomes the hole.
    let hole = i;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const k = keysLo[j]!;
      if (k === EMPTY) break;
      const home = hashPair(k, keysHi[j]!) & mask;
      const reachable = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (reachable) continue;
      keysLo[hole] = k;
      keysHi[hole] = keysHi[j]!;
      values[hole] = values[j]!;
      hole = j;
    }
    keysLo[hole] = EMPTY;
    this.count--;
    return true;
  }

  /** Removes every pair, keeping the capacity. */
  clear(): void {
    if (this.count === 0) return;
    this.keysLo.fill(EMPTY);
    this.count = 0;
  }

  private rehash(capacity: number): void {
    const oldLo = this.keysLo, oldHi = this.keysHi, oldValues = this.values;
    this.keysLo = new Int32Array(capacity).fill(EMPTY);
    this.keysHi = new Int32Array(capacity);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
    const keysLo = this.keysLo, keysHi = this.keysHi, mask = this.mask;
    for (let s = 0; s < oldLo.length; s++) {
      const lo = oldLo[s]!;
      if (lo === EMPTY) continue;
      const hi = oldHi[s]!;
      let i = hashPair(lo, hi) & mask;
      while (keysLo[i] !== EMPTY) i = (i + 1) & mask;
      keysLo[i] = lo;
      keysHi[i] = hi;
      this.values[i] = oldValues[s]!;
    }
  }
}
