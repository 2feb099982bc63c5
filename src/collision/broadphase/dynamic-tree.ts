/**
 * Dynamic AABB tree (the bounding-volume hierarchy of Box2D's b2DynamicTree,
 * after Erin Catto, and of Bullet's btDbvt, after Nathanael Presson).
 *
 * Leaves hold "fat" boxes: the object's box grown by a margin and stretched
 * along its predicted displacement, so an object that jiggles or moves
 * steadily stays inside its leaf for several steps and the tree is only
 * edited when it leaves.
 *
 * Proxies and queries; the node store, insertion, removal and the
 * rotations that keep the tree shallow are in tree-structure.ts.
 */
import type { Aabb } from '../aabb';
import type { Vec3 } from '../../math/vec3';
import { resizedFloat64, resizedInt32 } from '../../math/typed-arrays';
import { TreeStructure } from './tree-structure';

/** Receives the leaves a ray reaches; see {@link DynamicTree.raycast}. */
export interface TreeRayCallback {
  rayCallback(proxyId: number, maxT: number): number;
}

/** Receives the leaves a box overlaps; see {@link DynamicTree.overlapLeaves}. */
export interface TreeLeafSink {
  visitLeaf(proxyId: number): void;
}

const NULL = -1;

/** The sink of `DynamicTree.query`: appends leaf ids to an array. */
class ArraySink implements TreeLeafSink {
  out: number[] | null = null;
  visitLeaf(proxyId: number): void {
    this.out!.push(proxyId);
  }
}
/** Slots per raycast frame: ox, oy, oz, 1/dx, 1/dy, 1/dz, maxT (+1 padding). */
const RAY_FRAME = 8;

/**
 * A fat box is considered stale (and re-inserted on the next move) when it
 * reaches further than this many margins, plus the current displacement,
 * beyond the box it would be built from now. Box2D v2.4 uses the same factor:
 * a body that sped and then stopped otherwise keeps a huge leaf forever.
 */
const STALE_MARGIN_FACTOR = 4;

/** The tree's proxies (fat leaves) and its queries: boxes, rays and the broadphase's leaf walks. */
export class DynamicTree extends TreeStructure {
  /** Fattening added to every side of a proxy's box, metres. */
  readonly margin: number = 0;

  // Traversal stack shared by query, overlapLeaves and raycast. Each traversal
  // starts at the current `stackTop` and restores it when done, so a callback
  // may start another traversal of this tree (the nested one works above).
  private stack = new Int32Array(64);
  private stackTop = 0;
  /** Ray parameters per active raycast: origin, 1/dir, maxT (RAY_FRAME slots each). */
  private rayFrames = new Float64Array(RAY_FRAME * 4);
  private rayDepth = 0;
  private readonly queryBox = new Float64Array(6);
  private readonly arraySink = new ArraySink();

  constructor(margin = 0.1) {
    super();
    this.margin = margin;
  }

  /** Number of live proxies (leaves). */
  get proxyCount(): number {
    return this.leafCount;
  }

  /** Inserts a leaf holding `box` grown by the margin; returns its proxy id. */
  createProxy(box: Readonly<Aabb>, userData: number): number {
    return this.createProxyWithMargin(box, userData, this.margin);
  }

  private createProxyWithMargin(box: Readonly<Aabb>, userData: number, m: number): number {
    const id = this.allocateNode();
    const b = this.bounds;
    const o = id * 6;
    b[o] = box.min.x - m; b[o + 1] = box.min.y - m; b[o + 2] = box.min.z - m;
    b[o + 3] = box.max.x + m; b[o + 4] = box.max.y + m; b[o + 5] = box.max.z + m;
    this.userData[id] = userData;
    this.heights[id] = 0;
    this.child1[id] = NULL;
    this.child2[id] = NULL;
    this.insertLeaf(id);
    this.leafCount++;
    return id;
  }

  destroyProxy(id: number): void {
    this.assertLeaf(id);
    this.removeLeaf(id);
    this.freeNode(id);
    this.leafCount--;
  }

  /**
   * Re-inserts only when `box` swept by `displacement` (the move expected
   * next step) is no longer inside the stored fat box, or the stored box has
   * gone stale (reaches more than 4 margins plus the predicted sweep beyond
   * what it would be rebuilt as). The new fat box is `box` grown by the
   * margin and extended by `prediction` × `displacement`, so a body moving
   * steadily is re-inserted every `prediction` steps or so, not every step.
   * With `growOnly`, a stored box that still holds the swept box is kept
   * however loose it is (the step-start refit of bodies pushed between
   * steps must not shrink a box that setPosition stretched ahead).
   * Returns true when re-inserted.
   */
  moveProxy(id: number, box: Readonly<Aabb>, displacement: Readonly<Vec3>, prediction = 1, growOnly = false): boolean {
    this.assertLeaf(id);
    const b = this.bounds;
    const o = id * 6;
    const m = this.margin;
    // New fat box: box ± margin, then swept by k·d (stretched on the side d points to).
    const dx = displacement.x, dy = displacement.y, dz = displacement.z;
    const px = prediction * dx, py = prediction * dy, pz = prediction * dz;
    let nMinX = box.min.x - m, nMinY = box.min.y - m, nMinZ = box.min.z - m;
    let nMaxX = box.max.x + m, nMaxY = box.max.y + m, nMaxZ = box.max.z + m;
    if (px < 0) nMinX += px; else nMaxX += px;
    if (py < 0) nMinY += py; else nMaxY += py;
    if (pz < 0) nMinZ += pz; else nMaxZ += pz;

    // The stored box must hold the box swept by d, not just the box: a body
    // that speeds up (falling) would otherwise keep a fat box that no longer
    // reaches where it will be next step, and its speculative contacts would
    // come a step late (a falling limb sank 4 cm into the floor).
    const inside =
      b[o]! <= box.min.x + (dx < 0 ? dx : 0) && b[o + 1]! <= box.min.y + (dy < 0 ? dy : 0) && b[o + 2]! <= box.min.z + (dz < 0 ? dz : 0) &&
      b[o + 3]! >= box.max.x + (dx > 0 ? dx : 0) && b[o + 4]! >= box.max.y + (dy > 0 ? dy : 0) && b[o + 5]! >= box.max.z + (dz > 0 ? dz : 0);
    if (inside) {
      if (growOnly) return false;
      // Stale test: the stored box must lie within the new one grown by
      // (4 - 1)·margin + |k·d| per axis; both sides get |k·d| so that a body
      // at constant velocity (whose old box trails behind) is not flagged.
      const sx = (STALE_MARGIN_FACTOR - 1) * m + Math.abs(px);
      const sy = (STALE_MARGIN_FACTOR - 1) * m + Math.abs(py);
      const sz = (STALE_MARGIN_FACTOR - 1) * m + Math.abs(pz);
      const tight =
        b[o]! >= nMinX - sx && b[o + 1]! >= nMinY - sy && b[o + 2]! >= nMinZ - sz &&
        b[o + 3]! <= nMaxX + sx && b[o + 4]! <= nMaxY + sy && b[o + 5]! <= nMaxZ + sz;
      if (tight) return false;
    }

    this.removeLeaf(id);
    b[o] = nMinX; b[o + 1] = nMinY; b[o + 2] = nMinZ;
    b[o + 3] = nMaxX; b[o + 4] = nMaxY; b[o + 5] = nMaxZ;
    this.insertLeaf(id);
    return true;
  }

  getFatAabb(id: number, out: Aabb): Aabb {
    const b = this.bounds;
    const o = id * 6;
    out.min.x = b[o]!; out.min.y = b[o + 1]!; out.min.z = b[o + 2]!;
    out.max.x = b[o + 3]!; out.max.y = b[o + 4]!; out.max.z = b[o + 5]!;
    return out;
  }

  getUserData(id: number): number {
    return this.userData[id]!;
  }

  /** True when the fat boxes of two proxies of this tree overlap. */
  testOverlap(idA: number, idB: number): boolean {
    const b = this.bounds;
    const a = idA * 6, c = idB * 6;
    return (
      b[a]! <= b[c + 3]! && b[a + 3]! >= b[c]! &&
      b[a + 1]! <= b[c + 4]! && b[a + 4]! >= b[c + 1]! &&
      b[a + 2]! <= b[c + 5]! && b[a + 5]! >= b[c + 2]!
    );
  }

  /** Appends ids of proxies whose fat box overlaps `box`; returns the count appended. */
  query(box: Readonly<Aabb>, out: number[]): number {
    const q = this.queryBox;
    q[0] = box.min.x; q[1] = box.min.y; q[2] = box.min.z;
    q[3] = box.max.x; q[4] = box.max.y; q[5] = box.max.z;
    const start = out.length;
    const sink = this.arraySink;
    const outer = sink.out;
    sink.out = out;
    this.overlapLeaves(q, 0, sink);
    sink.out = outer;
    return out.length - start;
  }

  /**
   * Calls `sink.visitLeaf(id)` for every proxy whose fat box overlaps the box
   * stored as (minX, minY, minZ, maxX, maxY, maxZ) at `box[offset..]`. The
   * allocation-free form of `query` for callers that consume hits as they
   * come (the broadphase pair finder). The box comes in a Float64Array, not
   * six number arguments.
   */
  overlapLeaves(box: Float64Array, offset: number, sink: TreeLeafSink): void {
    if (this.root === NULL) return;
    const minX = box[offset]!, minY = box[offset + 1]!, minZ = box[offset + 2]!;
    const maxX = box[offset + 3]!, maxY = box[offset + 4]!, maxZ = box[offset + 5]!;
    const base = this.stackTop;
    this.push(this.root);
    while (this.stackTop > base) {
      const node = this.stack[--this.stackTop]!;
      const b = this.bounds;
      const o = node * 6;
      if (b[o]! > maxX || b[o + 3]! < minX || b[o + 1]! > maxY || b[o + 4]! < minY || b[o + 2]! > maxZ || b[o + 5]! < minZ) {
        continue;
      }
      if (this.child1[node] === NULL) {
        sink.visitLeaf(node);
      } else {
        // child2 first so child1's subtree is visited first (stable order).
        this.push(this.child2[node]!);
        this.push(this.child1[node]!);
      }
    }
  }

  /** Reads the fat box of proxy `id` as six numbers into `out[offset..offset+5]`. */
  readFatBounds(id: number, out: Float64Array, offset: number): void {
    const b = this.bounds;
    const o = id * 6;
    out[offset] = b[o]!; out[offset + 1] = b[o + 1]!; out[offset + 2] = b[o + 2]!;
    out[offset + 3] = b[o + 3]!; out[offset + 4] = b[o + 4]!; out[offset + 5] = b[o + 5]!;
  }

  /**
   * Visits proxies whose fat box the segment origin + t·dir (t ∈ [0, maxT])
   * enters, in no particular order. `callback.rayCallback(proxyId, maxT)`
   * returns the new maxT to clip the ray (a hit distance), the same maxT to
   * continue, or a negative number to stop. Boxes are tested by slabs (Kay &
   * Kajiya 1986; Ericson §5.3.3) against the current, possibly clipped, maxT.
   */
  raycast(origin: Readonly<Vec3>, dir: Readonly<Vec3>, maxT: number, callback: TreeRayCallback): void {
    if (this.root === NULL || !(maxT >= 0)) return;
    // The ray goes to the slab test through a frame of a Float64Array, not
    // as seven number arguments; one frame per active raycast, so a callback
    // may raycast this tree again.
    const frame = this.rayDepth * RAY_FRAME;
    if (frame + RAY_FRAME > this.rayFrames.length) this.rayFrames = resizedFloat64(this.rayFrames, 2 * this.rayFrames.length);
    this.rayDepth++;
    const r = this.rayFrames;
    r[frame] = origin.x; r[frame + 1] = origin.y; r[frame + 2] = origin.z;
    // 1/0 = ±Infinity marks an axis the ray is parallel to.
    r[frame + 3] = 1 / dir.x; r[frame + 4] = 1 / dir.y; r[frame + 5] = 1 / dir.z;
    r[frame + 6] = maxT;
    const base = this.stackTop;
    try {
      this.push(this.root);
      while (this.stackTop > base) {
        const node = this.stack[--this.stackTop]!;
        if (!rayHits(this.bounds, node * 6, this.rayFrames, frame)) continue;
        if (this.child1[node] === NULL) {
          const value = callback.rayCallback(node, maxT);
          if (value < 0) return;
          if (value < maxT) {
            maxT = value;
            this.rayFrames[frame + 6] = value;
          }
        } else {
          this.push(this.child2[node]!);
          this.push(this.child1[node]!);
        }
      }
    } finally {
      this.stackTop = base;
      this.rayDepth--;
    }
  }

  private push(node: number): void {
    if (this.stackTop === this.stack.length) this.stack = resizedInt32(this.stack, 2 * this.stack.length);
    this.stack[this.stackTop++] = node;
  }
}

/**
 * Slab test of origin + t·dir, t ∈ [0, maxT], against the box at `o`; the
 * ray frame at `ray[f..]` holds origin, 1/dir (±Infinity on an axis the ray
 * is parallel to) and maxT.
 * Returns whether the segment enters the box. Same arithmetic as
 * `aabbRayEntry` so that leaf results agree with it exactly. A boolean, not
 * the entry t (no double return values).
 */
function rayHits(b: Float64Array, o: number, ray: Float64Array, f: number): boolean {
  let t0 = 0;
  let t1 = ray[f + 6]!;
  for (let k = 0; k < 3; k++) {
    const origin = ray[f + k]!, inverse = ray[f + 3 + k]!;
    const lo = b[o + k]!, hi = b[o + 3 + k]!;
    if (inverse === Infinity || inverse === -Infinity) {
      if (origin < lo || origin > hi) return false;
    } else {
      let ta = (lo - origin) * inverse;
      let tb = (hi - origin) * inverse;
      if (ta > tb) { const s = ta; ta = tb; tb = s; }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      if (t0 > t1) return false;
    }
  }
  return true;
}
