/**
 * The node store and upkeep of the dynamic AABB tree: the bounding-volume
 * hierarchy of Box2D's b2DynamicTree (after Erin Catto) and of Bullet's
 * btDbvt (after Nathanael Presson). DynamicTree (dynamic-tree.ts) builds
 * the proxies and the queries on it.
 *
 * Storage is struct-of-arrays: node i's bounds are `bounds[6i .. 6i+5]`
 * (minX, minY, minZ, maxX, maxY, maxZ) and its links live in Int32Arrays.
 * Arrays double when the free list runs dry; a leaf keeps its index until
 * it is freed.
 *
 * Insertion descends by the surface-area heuristic (Goldsmith & Salmon 1987;
 * the cost form is Box2D v2.4's InsertLeaf). On the way back up, each
 * ancestor is refitted, then improved by one area-reducing tree rotation
 * (Kensler 2008, as in Box2D v3), then, only if its children's heights
 * differ by more than MAX_HEIGHT_IMBALANCE, lifted by an AVL rotation.
 * Area rotations keep the boxes tight, the loose AVL net keeps sorted input
 * from turning the tree into a list (the measurements: docs/collision.md).
 */
import { resizedFloat64, resizedInt32 } from '../../math/typed-arrays';

const NULL = -1;
const INITIAL_CAPACITY = 16;

/**
 * Largest height difference between siblings tolerated before the AVL
 * rotation steps in. A tree where every node respects a bound K has height
 * ≤ log(n)/log(x_K), x_K the root of x^(K+1) = x^K + 1 (the Fibonacci-like
 * recurrence N(h) = N(h-1) + N(h-1-K) for the fewest leaves of height h):
 * K = 3 gives about 2.15·log2(n). A smaller K fights the area rotations
 * (looser boxes, slower queries); a larger K lets grids grow tall.
 */
const MAX_HEIGHT_IMBALANCE = 3;

/** The tree's nodes, their links and boxes, and the edits that keep it shallow and tight. */
export class TreeStructure {
  protected capacity = 0;
  protected root = NULL;
  private freeList = NULL;
  protected leafCount = 0;

  protected bounds = new Float64Array(0);
  /** Parent index, or the next free node while on the free list. */
  protected parent = new Int32Array(0);
  /** NULL for a leaf. */
  protected child1 = new Int32Array(0);
  protected child2 = new Int32Array(0);
  /** 0 for a leaf, -1 for a free node. */
  protected heights = new Int32Array(0);
  protected userData = new Int32Array(0);

  constructor() {
    this.grow(INITIAL_CAPACITY);
  }

  /** Height of the root (0 for a single leaf or an empty tree). */
  height(): number {
    return this.root === NULL ? 0 : this.heights[this.root]!;
  }

  /**
   * Throws when a structural invariant is broken: parent/child links, heights,
   * internal boxes equal to the union of their children,
   * the leaf count and the free list. (Balance is not checked: one rotation
   * per node on the modified path keeps the height low in practice without
   * guaranteeing the imbalance bound everywhere; tests bound the height.)
   */
  validate(): void {
    let reached = 0;
    let leaves = 0;
    if (this.root !== NULL) {
      if (this.parent[this.root] !== NULL) throw new Error('root has a parent');
      const todo: number[] = [this.root];
      while (todo.length > 0) {
        const node = todo.pop()!;
        reached++;
        if (reached > this.capacity) throw new Error('cycle in tree');
        const h = this.heights[node]!;
        const c1 = this.child1[node]!, c2 = this.child2[node]!;
        if (c1 === NULL) {
          if (c2 !== NULL) throw new Error(`leaf ${node} has a second child`);
          if (h !== 0) throw new Error(`leaf ${node} height ${h}`);
          leaves++;
          continue;
        }
        for (const c of [c1, c2]) {
          if (c < 0 || c >= this.capacity) throw new Error(`node ${node} has child ${c} out of range`);
          if (this.parent[c] !== node) throw new Error(`child ${c} does not point back to ${node}`);
        }
        const h1 = this.heights[c1]!, h2 = this.heights[c2]!;
        if (h !== 1 + Math.max(h1, h2)) throw new Error(`node ${node} height ${h} vs children ${h1}, ${h2}`);
        const b = this.bounds;
        for (let k = 0; k < 3; k++) {
          if (b[node * 6 + k] !== Math.min(b[c1 * 6 + k]!, b[c2 * 6 + k]!)) throw new Error(`node ${node} min bound ${k} is not the union`);
          if (b[node * 6 + 3 + k] !== Math.max(b[c1 * 6 + 3 + k]!, b[c2 * 6 + 3 + k]!)) throw new Error(`node ${node} max bound ${k} is not the union`);
        }
        todo.push(c1, c2);
      }
    }
    if (leaves !== this.leafCount) throw new Error(`leaf count ${leaves} vs proxyCount ${this.leafCount}`);
    let free = 0;
    for (let f = this.freeList; f !== NULL; f = this.parent[f]!) {
      if (this.heights[f] !== -1) throw new Error(`free node ${f} is not marked free`);
      free++;
      if (free > this.capacity) throw new Error('cycle in free list');
    }
    if (reached + free !== this.capacity) throw new Error(`${reached} reachable + ${free} free nodes != capacity ${this.capacity}`);
  }

  /** Ints of `saveState` for a tree of `capacity` nodes (the doubles are 6 per node). */
  static stateInts(capacity: number): number {
    return 4 + 5 * capacity;
  }

  /** Node count of the stored arrays (for `saveState`'s sizes). */
  get nodeCapacity(): number {
    return this.capacity;
  }

  /**
   * Snapshot of the whole tree, node for node (queries then visit leaves in
   * the same order): capacity, root, free list head, leaf count, then per
   * node parent, child1, child2, height, user data into `ints` at `io`;
   * the bounds into `bounds` at `bo`.
   */
  saveState(ints: Int32Array, io: number, bounds: Float64Array, bo: number): void {
    const n = this.capacity;
    ints[io] = n; ints[io + 1] = this.root; ints[io + 2] = this.freeList; ints[io + 3] = this.leafCount;
    ints.set(this.parent.subarray(0, n), io + 4);
    ints.set(this.child1.subarray(0, n), io + 4 + n);
    ints.set(this.child2.subarray(0, n), io + 4 + 2 * n);
    ints.set(this.heights.subarray(0, n), io + 4 + 3 * n);
    ints.set(this.userData.subarray(0, n), io + 4 + 4 * n);
    bounds.set(this.bounds.subarray(0, 6 * n), bo);
  }

  /** Replaces the tree by one `saveState` wrote (the caller checked the sizes; `validate` checks the links). */
  loadState(ints: Int32Array, io: number, bounds: Float64Array, bo: number): void {
    const n = ints[io]!;
    this.capacity = n;
    this.root = ints[io + 1]!; this.freeList = ints[io + 2]!; this.leafCount = ints[io + 3]!;
    this.parent = ints.slice(io + 4, io + 4 + n);
    this.child1 = ints.slice(io + 4 + n, io + 4 + 2 * n);
    this.child2 = ints.slice(io + 4 + 2 * n, io + 4 + 3 * n);
    this.heights = ints.slice(io + 4 + 3 * n, io + 4 + 4 * n);
    this.userData = ints.slice(io + 4 + 4 * n, io + 4 + 5 * n);
    this.bounds = bounds.slice(bo, bo + 6 * n);
  }

  /** Whether `id` is a live proxy (a leaf). */
  isLeaf(id: number): boolean {
    return id >= 0 && id < this.capacity && this.heights[id] === 0 && this.child1[id] === NULL;
  }

  protected assertLeaf(id: number): void {
    if (!(id >= 0 && id < this.capacity) || this.heights[id] !== 0) {
      throw new Error(`DynamicTree: ${id} is not a live proxy id`);
    }
  }

  private grow(capacity: number): void {
    const old = this.capacity;
    this.bounds = resizedFloat64(this.bounds, capacity * 6);
    this.parent = resizedInt32(this.parent, capacity);
    this.child1 = resizedInt32(this.child1, capacity);
    this.child2 = resizedInt32(this.child2, capacity);
    this.heights = resizedInt32(this.heights, capacity);
    this.userData = resizedInt32(this.userData, capacity);
    // Chain the new nodes so the lowest index is handed out first.
    for (let i = capacity - 1; i >= old; i--) {
      this.heights[i] = -1;
      this.child1[i] = NULL;
      this.child2[i] = NULL;
      this.parent[i] = this.freeList;
      this.freeList = i;
    }
    this.capacity = capacity;
  }

  protected allocateNode(): number {
    if (this.freeList === NULL) this.grow(this.capacity * 2);
    const node = this.freeList;
    this.freeList = this.parent[node]!;
    this.parent[node] = NULL;
    this.child1[node] = NULL;
    this.child2[node] = NULL;
    this.heights[node] = 0;
    return node;
  }

  protected freeNode(node: number): void {
    this.heights[node] = -1;
    this.child1[node] = NULL;
    this.child2[node] = NULL;
    this.parent[node] = this.freeList;
    this.freeList = node;
  }

  /**
   * SAH descent. At node N with box B_N, pairing the leaf L with the whole of
   * N under a new parent costs 2·A(B_N ∪ B_L) (the new parent's area, counted
   * again for N's deeper queries). Going down instead costs, for child C,
   * A(B_C ∪ B_L) − A(B_C) (growth of C; the full area if C is a leaf, since a
   * new parent is created there) plus the inherited growth
   * 2·(A(B_N ∪ B_L) − A(B_N)) every ancestor pays anyway. A is half the
   * surface area. Stop where staying is cheaper than both children.
   */
  protected insertLeaf(leaf: number): void {
    if (this.root === NULL) {
      this.root = leaf;
      this.parent[leaf] = NULL;
      return;
    }
    const b = this.bounds;
    const l = leaf * 6;

    let index = this.root;
    while (this.child1[index] !== NULL) {
      const c1 = this.child1[index]!;
      const c2 = this.child2[index]!;
      // Areas through AREA[0] (see there).
      areaOf(b, index * 6);
      const area = AREA[0]!;
      unionArea(b, index * 6, l);
      const combined = AREA[0]!;
      const stayCost = 2 * combined;
      const inherited = 2 * (combined - area);
      unionArea(b, c1 * 6, l);
      let cost1 = AREA[0]! + inherited;
      if (this.child1[c1] !== NULL) {
        areaOf(b, c1 * 6);
        cost1 -= AREA[0]!;
      }
      unionArea(b, c2 * 6, l);
      let cost2 = AREA[0]! + inherited;
      if (this.child1[c2] !== NULL) {
        areaOf(b, c2 * 6);
        cost2 -= AREA[0]!;
      }
      if (stayCost < cost1 && stayCost < cost2) break;
      index = cost1 <= cost2 ? c1 : c2;
    }

    // A new internal node takes the sibling's place with (sibling, leaf) below.
    const sibling = index;
    const oldParent = this.parent[sibling]!;
    const newParent = this.allocateNode();
    this.parent[newParent] = oldParent;
    this.userData[newParent] = -1;
    this.child1[newParent] = sibling;
    this.child2[newParent] = leaf;
    this.parent[sibling] = newParent;
    this.parent[leaf] = newParent;
    if (oldParent === NULL) {
      this.root = newParent;
    } else if (this.child1[oldParent] === sibling) {
      this.child1[oldParent] = newParent;
    } else {
      this.child2[oldParent] = newParent;
    }
    // Start at the new parent: when the descent stopped at a tall subtree the
    // new parent is itself lopsided and may need a rotation.
    this.fixUpwards(newParent);
  }

  protected removeLeaf(leaf: number): void {
    if (leaf === this.root) {
      this.root = NULL;
      return;
    }
    const p = this.parent[leaf]!;
    const grandParent = this.parent[p]!;
    const sibling = this.child1[p] === leaf ? this.child2[p]! : this.child1[p]!;
    if (grandParent === NULL) {
      this.root = sibling;
      this.parent[sibling] = NULL;
    } else {
      if (this.child1[grandParent] === p) this.child1[grandParent] = sibling;
      else this.child2[grandParent] = sibling;
      this.parent[sibling] = grandParent;
    }
    this.freeNode(p);
    this.parent[leaf] = NULL;
    this.fixUpwards(grandParent);
  }

  /**
   * Refits, rotates by area and rebalances every node from `node` up to the
   * root. Walking the whole path on every removal and insertion is what
   * keeps the tree good under churn: each move doubles as an optimisation
   * pass over ~log n nodes. Rejected: stopping once a node's box and height
   * come out unchanged (Box2D v3's refit): cheaper moves, but the boxes
   * loosen under churn and queries slow down more (docs/collision.md).
   */
  private fixUpwards(node: number): void {
    let index = node;
    while (index !== NULL) {
      const c1 = this.child1[index]!, c2 = this.child2[index]!;
      this.heights[index] = 1 + Math.max(this.heights[c1]!, this.heights[c2]!);
      this.refit(index);
      this.rotateByArea(index);
      index = this.balance(index);
      index = this.parent[index]!;
    }
  }

  /**
   * Tree rotation by area (Kensler 2008, "Tree Rotations for Improving
   * Bounding Volume Hierarchies"; Box2D v3 applies it on insertion). With
   * a = (B, C), B = (D, E), C = (F, G), swapping B with a grandchild under C
   * leaves a's box unchanged and replaces C's box by the union of B and the
   * grandchild that stays; symmetrically for C with D or E. Of the four
   * swaps, take the one that shrinks the changed child's area the most, if
   * any does: the summed area of internal nodes is what queries pay
   * (the SAH cost), and a, with every ancestor, keeps its box.
   */
  private rotateByArea(a: number): void {
    if (this.heights[a]! < 2) return;
    const b = this.child1[a]!, c = this.child2[a]!;
    const bb = this.bounds;
    let bestDelta = 0;
    let move = 0; // 0: none, 1: B↔F, 2: B↔G, 3: C↔D, 4: C↔E
    if (this.child1[c] !== NULL) {
      const f = this.child1[c]!, g = this.child2[c]!;
      areaOf(bb, c * 6);
      const areaC = AREA[0]!;
      unionArea(bb, b * 6, g * 6);
      const dBF = AREA[0]! - areaC;
      unionArea(bb, b * 6, f * 6);
      const dBG = AREA[0]! - areaC;
      if (dBF < bestDelta) { bestDelta = dBF; move = 1; }
      if (dBG < bestDelta) { bestDelta = dBG; move = 2; }
    }
    if (this.child1[b] !== NULL) {
      const d = this.child1[b]!, e = this.child2[b]!;
      areaOf(bb, b * 6);
      const areaB = AREA[0]!;
      unionArea(bb, c * 6, e * 6);
      const dCD = AREA[0]! - areaB;
      unionArea(bb, c * 6, d * 6);
      const dCE = AREA[0]! - areaB;
      if (dCD < bestDelta) { bestDelta = dCD; move = 3; }
      if (dCE < bestDelta) { bestDelta = dCE; move = 4; }
    }
    if (move === 0) return;
    if (move === 1 || move === 2) {
      const x = move === 1 ? this.child1[c]! : this.child2[c]!;
      this.child1[a] = x; this.parent[x] = a;
      if (move === 1) this.child1[c] = b; else this.child2[c] = b;
      this.parent[b] = c;
      this.refit(c);
      this.heights[c] = 1 + Math.max(this.heights[this.child1[c]!]!, this.heights[this.child2[c]!]!);
    } else {
      const x = move === 3 ? this.child1[b]! : this.child2[b]!;
      this.child2[a] = x; this.parent[x] = a;
      if (move === 3) this.child1[b] = c; else this.child2[b] = c;
      this.parent[c] = b;
      this.refit(b);
      this.heights[b] = 1 + Math.max(this.heights[this.child1[b]!]!, this.heights[this.child2[b]!]!);
    }
    this.heights[a] = 1 + Math.max(this.heights[this.child1[a]!]!, this.heights[this.child2[a]!]!);
  }

  /** Sets an internal node's box to the union of its children's. */
  private refit(node: number): void {
    const b = this.bounds;
    const o = node * 6;
    const a = this.child1[node]! * 6;
    const c = this.child2[node]! * 6;
    b[o] = Math.min(b[a]!, b[c]!);
    b[o + 1] = Math.min(b[a + 1]!, b[c + 1]!);
    b[o + 2] = Math.min(b[a + 2]!, b[c + 2]!);
    b[o + 3] = Math.max(b[a + 3]!, b[c + 3]!);
    b[o + 4] = Math.max(b[a + 4]!, b[c + 4]!);
    b[o + 5] = Math.max(b[a + 5]!, b[c + 5]!);
  }

  /**
   * AVL rotation at `a` when its children's heights differ by more than
   * MAX_HEIGHT_IMBALANCE (Adelson-Velsky & Landis 1962; the tree form is
   * Box2D v2.4's Balance, there with a bound of 1).
   * The taller child T is lifted into a's place; a keeps its short child and
   * adopts the shorter of T's two children, T keeps the taller one:
   *
   *        a                T
   *      /   \            /   \
   *     S     T    →     a     X       (X = taller of T's children,
   *          / \        / \             Y = the other)
   *         X   Y      S   Y
   *
   * Returns the node now in a's place. Heights and boxes of a and T are
   * recomputed here; the caller refits the returned node again (cheap).
   */
  private balance(a: number): number {
    if (this.child1[a] === NULL || this.heights[a]! < 2) return a;
    const c1 = this.child1[a]!, c2 = this.child2[a]!;
    const diff = this.heights[c2]! - this.heights[c1]!;
    if (diff > MAX_HEIGHT_IMBALANCE) return this.rotateUp(a, c2, true);
    if (diff < -MAX_HEIGHT_IMBALANCE) return this.rotateUp(a, c1, false);
    return a;
  }

  /** Lifts child `t` of `a` above `a`; `tIsChild2` says which slot t was in. */
  private rotateUp(a: number, t: number, tIsChild2: boolean): number {
    const t1 = this.child1[t]!, t2 = this.child2[t]!;
    const h1 = this.heights[t1]!, h2 = this.heights[t2]!;
    const x = h1 > h2 ? t1 : t2;
    const y = h1 > h2 ? t2 : t1;

    // t takes a's place under a's parent.
    const ap = this.parent[a]!;
    this.parent[t] = ap;
    if (ap === NULL) this.root = t;
    else if (this.child1[ap] === a) this.child1[ap] = t;
    else this.child2[ap] = t;

    // a goes below t (first slot), x stays with t (second slot).
    this.child1[t] = a;
    this.child2[t] = x;
    this.parent[a] = t;
    this.parent[x] = t;

    // y replaces t in a.
    if (tIsChild2) this.child2[a] = y;
    else this.child1[a] = y;
    this.parent[y] = a;

    this.refit(a);
    this.heights[a] = 1 + Math.max(this.heights[this.child1[a]!]!, this.heights[this.child2[a]!]!);
    this.refit(t);
    this.heights[t] = 1 + Math.max(this.heights[a]!, this.heights[x]!);
    return t;
  }
}

/** Results of the area helpers (no double return values: CONTRIBUTING.md, hot path). */
const AREA = new Float64Array(1);

/** Half the surface area of the box at `o`, into AREA[0]. */
function areaOf(b: Float64Array, o: number): void {
  const dx = b[o + 3]! - b[o]!;
  const dy = b[o + 4]! - b[o + 1]!;
  const dz = b[o + 5]! - b[o + 2]!;
  AREA[0] = dx * dy + dy * dz + dz * dx;
}

/** Half the surface area of the union of the boxes at `o` and `p`, into AREA[0]. */
function unionArea(b: Float64Array, o: number, p: number): void {
  const dx = Math.max(b[o + 3]!, b[p + 3]!) - Math.min(b[o]!, b[p]!);
  const dy = Math.max(b[o + 4]!, b[p + 4]!) - Math.min(b[o + 1]!, b[p + 1]!);
  const dz = Math.max(b[o + 5]!, b[p + 5]!) - Math.min(b[o + 2]!, b[p + 2]!);
  AREA[0] = dx * dy + dy * dz + dz * dx;
}
