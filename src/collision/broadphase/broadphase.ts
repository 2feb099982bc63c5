/**
 * Broadphase: two dynamic AABB trees (one for static proxies, one for
 * kinematic and dynamic ones) and a move buffer, after Box2D's b2BroadPhase.
 *
 * Splitting the trees means the many static proxies of a level are never
 * queried against each other and never rebalanced by moving bodies. Pair
 * finding only looks at proxies re-inserted since the last call (the move
 * buffer): fat boxes change only on re-insertion, so a pair that newly
 * overlaps always involves a queued proxy.
 *
 * A handle is `proxyId · 2 + tree` (tree 0 = static, 1 = moving), so it is a
 * non-negative integer that names the tree without a lookup.
 */
import type { Aabb } from '../aabb';
import type { Vec3 } from '../../math/vec3';
import { DynamicTree, type TreeLeafSink, type TreeRayCallback } from './dynamic-tree';
import { resizedInt32, resizedUint8 } from '../../math/typed-arrays';

/** Body categories as the broadphase sees them. */
export const BodyCategory = { Static: 0, Kinematic: 1, Dynamic: 2 } as const;
export type BodyCategoryValue = 0 | 1 | 2;

/** Receives candidate pairs from {@link BroadPhase.updatePairs}. */
export interface PairCallback {
  addPair(userDataA: number, userDataB: number): void;
}

/** Receives ray candidates from {@link BroadPhase.raycast}: return the new maxT, the same maxT, or < 0 to stop. */
export interface BroadPhaseRayCallback {
  rayCallback(userData: number, maxT: number): number;
}

/**
 * A growable list of ints that never shrinks (a plain array reset with
 * `length = 0` drops its storage, so every query would allocate again).
 */
export class IdList {
  ids = new Int32Array(64);
  count = 0;
  push(value: number): void {
    if (this.count === this.ids.length) this.ids = resizedInt32(this.ids, 2 * this.ids.length);
    this.ids[this.count++] = value;
  }
}

/** Tree sink appending the user data of visited leaves to an IdList. */
class ListSink implements TreeLeafSink {
  list: IdList | null = null;
  tree: DynamicTree | null = null;
  visitLeaf(proxyId: number): void {
    this.list!.push(this.tree!.getUserData(proxyId));
  }
}

const STATIC_TREE = 0;
const MOVING_TREE = 1;
const NOT_QUEUED = -1;
const ZERO: Readonly<Vec3> = { x: 0, y: 0, z: 0 };

/**
 * Tree callback of the pair finder: one per broadphase, created once, so the
 * query loop allocates nothing.
 */
class PairFinder implements TreeLeafSink {
  /** Handle of the queued proxy being processed. */
  queryHandle = 0;
  queryCategory = 0;
  queryUserData = 0;
  /** Tree being searched (its bit in hit handles). */
  treeBit = 0;
  tree: DynamicTree;
  callback: PairCallback | null = null;

  constructor(
    private readonly owner: BroadPhase,
    tree: DynamicTree,
  ) {
    this.tree = tree;
  }

  visitLeaf(proxyId: number): void {
    const hit = proxyId * 2 + this.treeBit;
    if (hit === this.queryHandle) return;
    const hitCategory = this.owner.getCategory(hit);
    // Only pairs with at least one dynamic proxy can make a contact.
    if (this.queryCategory !== BodyCategory.Dynamic && hitCategory !== BodyCategory.Dynamic) return;
    // Both queued: the pair is found from both sides; keep the one where the
    // query proxy has the larger handle.
    if (this.owner.isQueued(hit) && hit > this.queryHandle) return;
    this.callback!.addPair(this.queryUserData, this.tree.getUserData(proxyId));
  }
}

/** Forwards tree ray hits as user data and remembers the clipped maxT and stop. */
class RayForwarder implements TreeRayCallback {
  tree: DynamicTree;
  callback: BroadPhaseRayCallback | null = null;
  maxT = 0;
  stopped = false;

  constructor(tree: DynamicTree) {
    this.tree = tree;
  }

  rayCallback(proxyId: number, maxT: number): number {
    const value = this.callback!.rayCallback(this.tree.getUserData(proxyId), maxT);
    if (value < 0) this.stopped = true;
    else if (value < this.maxT) this.maxT = value;
    return value;
  }

  /**
   * Raycasts this forwarder's tree into `callback` up to clip[0]; returns
   * whether the callback stopped the ray, else leaves the clipped maxT in
   * clip[0]. The state of a raycast in progress (a callback may start
   * another) is kept and restored.
   */
  cast(origin: Readonly<Vec3>, dir: Readonly<Vec3>, callback: BroadPhaseRayCallback, clip: Float64Array): boolean {
    const prevCallback = this.callback, prevMax = this.maxT, prevStopped = this.stopped;
    this.callback = callback;
    this.maxT = clip[0]!;
    this.stopped = false;
    this.tree.raycast(origin, dir, this.maxT, this);
    const stopped = this.stopped;
    clip[0] = this.maxT;
    this.callback = prevCallback;
    this.maxT = prevMax;
    this.stopped = prevStopped;
    return stopped;
  }
}

export class BroadPhase {
  private readonly staticTree: DynamicTree;
  private readonly movingTree: DynamicTree;

  /** Handles queued for pair finding, in queue order; NOT_QUEUED marks a destroyed entry. */
  private moveBuffer = new Int32Array(64);
  private moveCount = 0;
  /** Per handle: its index in the move buffer, or NOT_QUEUED. */
  private moveIndex = new Int32Array(64).fill(NOT_QUEUED);
  /** Per handle: its BodyCategory (static handles are always 0). */
  private categories = new Uint8Array(64);

  private readonly staticFinder: PairFinder;
  private readonly movingFinder: PairFinder;
  private readonly staticRay: RayForwarder;
  private readonly movingRay: RayForwarder;
  private readonly fat = new Float64Array(6);
  private readonly rayClip = new Float64Array(1);
  private readonly listSink = new ListSink();

  constructor(margin = 0.1) {
    this.staticTree = new DynamicTree(margin);
    this.movingTree = new DynamicTree(margin);
    this.staticFinder = new PairFinder(this, this.staticTree);
    this.staticFinder.treeBit = STATIC_TREE;
    this.movingFinder = new PairFinder(this, this.movingTree);
    this.movingFinder.treeBit = MOVING_TREE;
    this.staticRay = new RayForwarder(this.staticTree);
    this.movingRay = new RayForwarder(this.movingTree);
  }

  /** Number of live proxies in both trees. */
  get proxyCount(): number {
    return this.staticTree.proxyCount + this.movingTree.proxyCount;
  }

  /** Static proxies go to the static tree, others to the moving tree. The new proxy is queued for pair finding. */
  createProxy(box: Readonly<Aabb>, userData: number, category: BodyCategoryValue): number {
    const isStatic = category === BodyCategory.Static;
    const tree = isStatic ? this.staticTree : this.movingTree;
    const id = tree.createProxy(box, userData);
    const handle = id * 2 + (isStatic ? STATIC_TREE : MOVING_TREE);
    this.ensureHandle(handle);
    this.categories[handle] = category;
    this.moveIndex[handle] = NOT_QUEUED;
    this.queue(handle);
    return handle;
  }

  destroyProxy(handle: number): void {
    const q = this.moveIndex[handle]!;
    if (q !== NOT_QUEUED) {
      this.moveBuffer[q] = NOT_QUEUED;
      this.moveIndex[handle] = NOT_QUEUED;
    }
    this.treeOf(handle).destroyProxy(handle >> 1);
  }

  /**
   * Moves the proxy (`displacement` the move expected next step, the fat box
   * reaching `prediction` such moves ahead; see DynamicTree.moveProxy);
   * queues it for pair finding when its fat box was rebuilt.
   */
  moveProxy(handle: number, box: Readonly<Aabb>, displacement: Readonly<Vec3>, prediction = 1, growOnly = false): void {
    if (this.treeOf(handle).moveProxy(handle >> 1, box, displacement, prediction, growOnly)) this.queue(handle);
  }

  /**
   * Changes a proxy's category (e.g. a body switched from dynamic to static).
   * Moves it to the other tree when needed; returns the (possibly new)
   * handle. The proxy is queued so pairs allowed by the new category appear.
   */
  setCategory(handle: number, box: Readonly<Aabb>, category: BodyCategoryValue): number {
    const wasStatic = (handle & 1) === STATIC_TREE;
    const isStatic = category === BodyCategory.Static;
    if (wasStatic !== isStatic) {
      const userData = this.getUserData(handle);
      this.destroyProxy(handle);
      return this.createProxy(box, userData, category);
    }
    this.categories[handle] = category;
    const tree = this.treeOf(handle);
    tree.moveProxy(handle >> 1, box, ZERO);
    this.queue(handle);
    return handle;
  }

  /** Queues the proxy for pair finding as if it had moved: its body's filter changed, and pairs it refused may now be allowed. */
  requeue(handle: number): void {
    this.queue(handle);
  }

  getFatAabb(handle: number, out: Aabb): Aabb {
    return this.treeOf(handle).getFatAabb(handle >> 1, out);
  }

  getUserData(handle: number): number {
    return this.treeOf(handle).getUserData(handle >> 1);
  }

  /** The proxy's BodyCategory. */
  getCategory(handle: number): number {
    return this.categories[handle]!;
  }

  /**
   * Reports each pair (queued proxy, any proxy) whose fat boxes overlap and
   * that has at least one dynamic member, once per call, via
   * `callback.addPair(userDataA, userDataB)` (A/B order carries no meaning).
   * Clears the queue. The callback must not create, destroy or move proxies.
   */
  updatePairs(callback: PairCallback): void {
    const fat = this.fat;
    this.staticFinder.callback = callback;
    this.movingFinder.callback = callback;
    for (let i = 0; i < this.moveCount; i++) {
      const handle = this.moveBuffer[i]!;
      if (handle === NOT_QUEUED) continue;
      const category = this.categories[handle]!;
      const tree = this.treeOf(handle);
      const userData = tree.getUserData(handle >> 1);
      tree.readFatBounds(handle >> 1, fat, 0);

      const mf = this.movingFinder;
      mf.queryHandle = handle;
      mf.queryCategory = category;
      mf.queryUserData = userData;
      this.movingTree.overlapLeaves(fat, 0, mf);

      // Static and kinematic proxies never pair with statics.
      if (category === BodyCategory.Dynamic) {
        const sf = this.staticFinder;
        sf.queryHandle = handle;
        sf.queryCategory = category;
        sf.queryUserData = userData;
        this.staticTree.overlapLeaves(fat, 0, sf);
      }
    }
    // The "both queued" rule above reads moveIndex, so clear only afterwards.
    for (let i = 0; i < this.moveCount; i++) {
      const handle = this.moveBuffer[i]!;
      if (handle !== NOT_QUEUED) this.moveIndex[handle] = NOT_QUEUED;
    }
    this.moveCount = 0;
    this.staticFinder.callback = null;
    this.movingFinder.callback = null;
  }

  /** True when the fat boxes of the two proxies overlap. */
  testOverlap(handleA: number, handleB: number): boolean {
    const fat = this.fat;
    this.treeOf(handleA).readFatBounds(handleA >> 1, fat, 0);
    const a0 = fat[0]!, a1 = fat[1]!, a2 = fat[2]!, a3 = fat[3]!, a4 = fat[4]!, a5 = fat[5]!;
    this.treeOf(handleB).readFatBounds(handleB >> 1, fat, 0);
    return (
      a0 <= fat[3]! && a3 >= fat[0]! &&
      a1 <= fat[4]! && a4 >= fat[1]! &&
      a2 <= fat[5]! && a5 >= fat[2]!
    );
  }

  /** Appends the user data of proxies (both trees) whose fat box overlaps `box` to `list`; allocation-free. */
  queryList(box: Readonly<Aabb>, list: IdList): void {
    this.collect(box, list, true);
  }

  /** Appends the user data of static proxies whose fat box overlaps `box` to `list`; allocation-free. */
  queryStaticList(box: Readonly<Aabb>, list: IdList): void {
    this.collect(box, list, false);
  }

  private collect(box: Readonly<Aabb>, list: IdList, moving: boolean): void {
    const b = this.fat;
    b[0] = box.min.x; b[1] = box.min.y; b[2] = box.min.z;
    b[3] = box.max.x; b[4] = box.max.y; b[5] = box.max.z;
    const sink = this.listSink;
    sink.list = list;
    sink.tree = this.staticTree;
    this.staticTree.overlapLeaves(b, 0, sink);
    if (moving) {
      sink.tree = this.movingTree;
      this.movingTree.overlapLeaves(b, 0, sink);
    }
    sink.list = null;
    sink.tree = null;
  }

  /** Appends the user data of proxies (both trees) whose fat box overlaps `box` to `out`; returns the count appended. */
  query(box: Readonly<Aabb>, out: number[]): number {
    const start = out.length;
    const nStatic = this.staticTree.query(box, out);
    for (let i = start; i < start + nStatic; i++) out[i] = this.staticTree.getUserData(out[i]!);
    const mid = start + nStatic;
    const nMoving = this.movingTree.query(box, out);
    for (let i = mid; i < mid + nMoving; i++) out[i] = this.movingTree.getUserData(out[i]!);
    return nStatic + nMoving;
  }

  /**
   * Visits proxies of both trees whose fat box the segment origin + t·dir,
   * t ∈ [0, maxT], enters; `callback.rayCallback(userData, maxT)` returns the
   * new maxT (clip), the same maxT (continue) or < 0 (stop). The static tree
   * is searched first and its clipped maxT carries over to the moving tree.
   */
  raycast(origin: Readonly<Vec3>, dir: Readonly<Vec3>, maxT: number, callback: BroadPhaseRayCallback): void {
    // One slot for the clipped maxT, saved and restored: a callback may start another raycast.
    const clip = this.rayClip;
    const saved = clip[0]!;
    clip[0] = maxT;
    if (!this.staticRay.cast(origin, dir, callback, clip)) this.movingRay.cast(origin, dir, callback, clip);
    clip[0] = saved;
  }

  /**
   * Snapshot of both trees and the move buffer (World.snapshot). `ints`:
   * static and moving tree capacities, move count, handle count, the static
   * tree's ints, the moving tree's, the move buffer, then per handle its
   * move-buffer index and category; `bounds`: the static tree's node boxes,
   * then the moving tree's.
   */
  saveState(): { ints: Int32Array; bounds: Float64Array } {
    const cs = this.staticTree.nodeCapacity, cm = this.movingTree.nodeCapacity;
    const handles = this.moveIndex.length;
    const ints = new Int32Array(4 + DynamicTree.stateInts(cs) + DynamicTree.stateInts(cm) + this.moveCount + 2 * handles);
    const bounds = new Float64Array(6 * (cs + cm));
    ints[0] = cs; ints[1] = cm; ints[2] = this.moveCount; ints[3] = handles;
    let o = 4;
    this.staticTree.saveState(ints, o, bounds, 0);
    o += DynamicTree.stateInts(cs);
    this.movingTree.saveState(ints, o, bounds, 6 * cs);
    o += DynamicTree.stateInts(cm);
    ints.set(this.moveBuffer.subarray(0, this.moveCount), o);
    o += this.moveCount;
    ints.set(this.moveIndex, o);
    o += handles;
    for (let i = 0; i < handles; i++) ints[o + i] = this.categories[i]!;
    return { ints, bounds };
  }

  /**
   * Replaces the whole state by a `saveState` result. Throws an Error
   * naming the inconsistency (sizes, links, queue) — then this broadphase is
   * left half loaded, so the world loads into a scratch one first.
   */
  loadState(ints: Int32Array, bounds: Float64Array): void {
    if (ints.length < 4) throw new Error('broadphase ints truncated');
    const cs = ints[0]!, cm = ints[1]!, moveCount = ints[2]!, handles = ints[3]!;
    if (!(cs >= 1 && cm >= 1 && moveCount >= 0 && handles >= 1)) throw new Error('broadphase sizes out of range');
    const expected = 4 + DynamicTree.stateInts(cs) + DynamicTree.stateInts(cm) + moveCount + 2 * handles;
    if (ints.length !== expected) throw new Error(`broadphase ints: ${ints.length}, the sizes need ${expected}`);
    if (bounds.length !== 6 * (cs + cm)) throw new Error(`broadphase bounds: ${bounds.length}, the sizes need ${6 * (cs + cm)}`);
    let o = 4;
    this.staticTree.loadState(ints, o, bounds, 0);
    o += DynamicTree.stateInts(cs);
    this.movingTree.loadState(ints, o, bounds, 6 * cs);
    o += DynamicTree.stateInts(cm);
    this.moveBuffer = new Int32Array(Math.max(64, moveCount));
    this.moveBuffer.set(ints.subarray(o, o + moveCount));
    this.moveCount = moveCount;
    o += moveCount;
    this.moveIndex = ints.slice(o, o + handles);
    o += handles;
    this.categories = new Uint8Array(handles);
    for (let i = 0; i < handles; i++) {
      const c = ints[o + i]!;
      if (c < 0 || c > 2) throw new Error(`broadphase handle ${i} has category ${c}`);
      this.categories[i] = c;
    }
    for (let i = 0; i < moveCount; i++) {
      const h = this.moveBuffer[i]!;
      if (h === NOT_QUEUED) continue;
      if (!(h >= 0 && h < handles)) throw new Error(`broadphase move buffer entry ${i} (${h}) out of range`);
    }
    for (let h = 0; h < handles; h++) {
      const q = this.moveIndex[h]!;
      if (q !== NOT_QUEUED && !(q >= 0 && q < moveCount && this.moveBuffer[q] === h)) throw new Error(`broadphase handle ${h} queued at ${q}, not in the move buffer`);
    }
    this.validate();
  }

  /** Whether `handle` names a leaf of its tree (snapshot validation). */
  isLeaf(handle: number): boolean {
    return handle >= 0 && handle < this.moveIndex.length && this.treeOf(handle).isLeaf(handle >> 1);
  }

  /** Throws when either tree is broken or the move buffer disagrees with the queue flags (tests). */
  validate(): void {
    this.staticTree.validate();
    this.movingTree.validate();
    for (let i = 0; i < this.moveCount; i++) {
      const h = this.moveBuffer[i]!;
      if (h !== NOT_QUEUED && this.moveIndex[h] !== i) throw new Error(`move buffer entry ${i} (${h}) not indexed`);
    }
  }

  /** @internal Whether a handle waits in the move buffer (for the pair finder). */
  isQueued(handle: number): boolean {
    return this.moveIndex[handle]! !== NOT_QUEUED;
  }

  private treeOf(handle: number): DynamicTree {
    return (handle & 1) === STATIC_TREE ? this.staticTree : this.movingTree;
  }

  private queue(handle: number): void {
    if (this.moveIndex[handle] !== NOT_QUEUED) return;
    if (this.moveCount === this.moveBuffer.length) this.moveBuffer = resizedInt32(this.moveBuffer, 2 * this.moveBuffer.length);
    this.moveIndex[handle] = this.moveCount;
    this.moveBuffer[this.moveCount++] = handle;
  }

  private ensureHandle(handle: number): void {
    let n = this.moveIndex.length;
    if (handle < n) return;
    while (n <= handle) n *= 2;
    this.moveIndex = resizedInt32(this.moveIndex, n, NOT_QUEUED);
    this.categories = resizedUint8(this.categories, n);
  }
}
