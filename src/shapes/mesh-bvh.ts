/**
 * The bounding-volume hierarchy of a TriangleMesh, built once by its
 * constructor: binned surface-area heuristic over the triangle centroids;
 * and the box query that TriangleMesh and Compound share over their trees.
 */

const LEAF_SIZE = 4;
const SAH_BINS = 16;
/** Past this depth the builder splits at the median so the tree depth stays bounded. */
const MAX_SAH_DEPTH = 48;

/**
 * Builds the BVH over `n` triangles whose boxes are `triBounds` (6 per
 * triangle): binned SAH, median splits past MAX_SAH_DEPTH, leaves of at most
 * LEAF_SIZE triangles. The node arrays hold 2n nodes; `nodeCount` are used.
 */
export function buildMeshBvh(triBounds: Float64Array, n: number): BvhBuilder {
  const maxNodes = 2 * n;
  const builder: BvhBuilder = {
    bounds: new Float64Array(6 * maxNodes),
    right: new Int32Array(maxNodes),
    start: new Int32Array(maxNodes),
    count: new Int32Array(maxNodes),
    order: new Uint32Array(n),
    centroids: new Float64Array(3 * n),
    triBounds,
    nodeCount: 0,
    maxDepth: 0,
    binCount: new Int32Array(SAH_BINS),
    binBounds: new Float64Array(6 * SAH_BINS),
    rightCost: new Float64Array(SAH_BINS),
  };
  for (let t = 0; t < n; t++) {
    builder.order[t] = t;
    for (let axis = 0; axis < 3; axis++) {
      builder.centroids[3 * t + axis] = 0.5 * (triBounds[6 * t + axis]! + triBounds[6 * t + 3 + axis]!);
    }
  }
  buildNode(builder, 0, n, 0);
  return builder;
}

/** The builder's state; its node arrays become the mesh's. */
export interface BvhBuilder {
  bounds: Float64Array;
  right: Int32Array;
  start: Int32Array;
  count: Int32Array;
  order: Uint32Array;
  centroids: Float64Array;
  triBounds: Float64Array;
  nodeCount: number;
  maxDepth: number;
  binCount: Int32Array;
  binBounds: Float64Array;
  rightCost: Float64Array;
}

function halfArea(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number {
  const dx = maxX - minX, dy = maxY - minY, dz = maxZ - minZ;
  return dx * dy + dy * dz + dz * dx;
}

/** Builds the subtree over order[start, end) and returns its node index. */
function buildNode(B: BvhBuilder, start: number, end: number, depth: number): number {
  const node = B.nodeCount++;
  if (depth > B.maxDepth) B.maxDepth = depth;
  const tb = B.triBounds;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let cminX = Infinity, cminY = Infinity, cminZ = Infinity, cmaxX = -Infinity, cmaxY = -Infinity, cmaxZ = -Infinity;
  for (let k = start; k < end; k++) {
    const t = B.order[k]!;
    const o = 6 * t;
    if (tb[o]! < minX) minX = tb[o]!;
    if (tb[o + 1]! < minY) minY = tb[o + 1]!;
    if (tb[o + 2]! < minZ) minZ = tb[o + 2]!;
    if (tb[o + 3]! > maxX) maxX = tb[o + 3]!;
    if (tb[o + 4]! > maxY) maxY = tb[o + 4]!;
    if (tb[o + 5]! > maxZ) maxZ = tb[o + 5]!;
    const cx = B.centroids[3 * t]!, cy = B.centroids[3 * t + 1]!, cz = B.centroids[3 * t + 2]!;
    if (cx < cminX) cminX = cx;
    if (cy < cminY) cminY = cy;
    if (cz < cminZ) cminZ = cz;
    if (cx > cmaxX) cmaxX = cx;
    if (cy > cmaxY) cmaxY = cy;
    if (cz > cmaxZ) cmaxZ = cz;
  }
  const b = 6 * node;
  B.bounds[b] = minX; B.bounds[b + 1] = minY; B.bounds[b + 2] = minZ;
  B.bounds[b + 3] = maxX; B.bounds[b + 4] = maxY; B.bounds[b + 5] = maxZ;
  const n = end - start;
  const ex = cmaxX - cminX, ey = cmaxY - cminY, ez = cmaxZ - cminZ;
  const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
  const lo = axis === 0 ? cminX : axis === 1 ? cminY : cminZ;
  const extent = axis === 0 ? ex : axis === 1 ? ey : ez;
  if (n <= LEAF_SIZE) {
    B.start[node] = start;
    B.count[node] = n;
    return node;
  }

  let mid = -1;
  if (extent > 0 && depth < MAX_SAH_DEPTH) {
    // Binned SAH: cost(split) = A_left·N_left + A_right·N_right (constant
    // traversal cost dropped); 16 bins along the widest centroid axis.
    const bins = SAH_BINS;
    const scale = bins / extent;
    B.binCount.fill(0);
    const bb = B.binBounds;
    for (let i = 0; i < bins; i++) {
      bb[6 * i] = Infinity; bb[6 * i + 1] = Infinity; bb[6 * i + 2] = Infinity;
      bb[6 * i + 3] = -Infinity; bb[6 * i + 4] = -Infinity; bb[6 * i + 5] = -Infinity;
    }
    for (let k = start; k < end; k++) {
      const t = B.order[k]!;
      const bin = Math.min(bins - 1, Math.floor((B.centroids[3 * t + axis]! - lo) * scale));
      B.binCount[bin]!++;
      const o = 6 * t;
      const q = 6 * bin;
      for (let j = 0; j < 3; j++) {
        if (tb[o + j]! < bb[q + j]!) bb[q + j] = tb[o + j]!;
        if (tb[o + 3 + j]! > bb[q + 3 + j]!) bb[q + 3 + j] = tb[o + 3 + j]!;
      }
    }
    // Sweep from the right to get A·N of every right part, then from the left.
    let rMinX = Infinity, rMinY = Infinity, rMinZ = Infinity, rMaxX = -Infinity, rMaxY = -Infinity, rMaxZ = -Infinity;
    let rCount = 0;
    for (let i = bins - 1; i > 0; i--) {
      const q = 6 * i;
      rCount += B.binCount[i]!;
      if (bb[q]! < rMinX) rMinX = bb[q]!;
      if (bb[q + 1]! < rMinY) rMinY = bb[q + 1]!;
      if (bb[q + 2]! < rMinZ) rMinZ = bb[q + 2]!;
      if (bb[q + 3]! > rMaxX) rMaxX = bb[q + 3]!;
      if (bb[q + 4]! > rMaxY) rMaxY = bb[q + 4]!;
      if (bb[q + 5]! > rMaxZ) rMaxZ = bb[q + 5]!;
      B.rightCost[i] = rCount === 0 ? Infinity : rCount * halfArea(rMinX, rMinY, rMinZ, rMaxX, rMaxY, rMaxZ);
    }
    let lMinX = Infinity, lMinY = Infinity, lMinZ = Infinity, lMaxX = -Infinity, lMaxY = -Infinity, lMaxZ = -Infinity;
    let lCount = 0;
    let bestCost = Infinity;
    let bestSplit = -1;
    for (let i = 0; i < bins - 1; i++) {
      const q = 6 * i;
      lCount += B.binCount[i]!;
      if (bb[q]! < lMinX) lMinX = bb[q]!;
      if (bb[q + 1]! < lMinY) lMinY = bb[q + 1]!;
      if (bb[q + 2]! < lMinZ) lMinZ = bb[q + 2]!;
      if (bb[q + 3]! > lMaxX) lMaxX = bb[q + 3]!;
      if (bb[q + 4]! > lMaxY) lMaxY = bb[q + 4]!;
      if (bb[q + 5]! > lMaxZ) lMaxZ = bb[q + 5]!;
      if (lCount === 0 || lCount === n) continue;
      const cost = lCount * halfArea(lMinX, lMinY, lMinZ, lMaxX, lMaxY, lMaxZ) + B.rightCost[i + 1]!;
      if (cost < bestCost) {
        bestCost = cost;
        bestSplit = i;
      }
    }
    if (bestSplit >= 0) {
      // Partition in place: triangles in bins ≤ bestSplit go left.
      let i = start;
      let j = end - 1;
      while (i <= j) {
        const t = B.order[i]!;
        const bin = Math.min(bins - 1, Math.floor((B.centroids[3 * t + axis]! - lo) * scale));
        if (bin <= bestSplit) {
          i++;
        } else {
          B.order[i] = B.order[j]!;
          B.order[j] = t;
          j--;
        }
      }
      mid = i;
    }
  }
  if (mid <= start || mid >= end) {
    // Coincident centroids or a deep chain: split at the median of the axis.
    medianSplit(B, start, end, axis);
    mid = (start + end) >> 1;
  }
  buildNode(B, start, mid, depth + 1);
  B.right[node] = buildNode(B, mid, end, depth + 1);
  B.count[node] = 0;
  return node;
}

function medianSplit(B: BvhBuilder, start: number, end: number, axis: number): void {
  const part = Array.from(B.order.subarray(start, end));
  const c = B.centroids;
  part.sort((a, b) => c[3 * a + axis]! - c[3 * b + axis]!);
  for (let k = 0; k < part.length; k++) B.order[start + k] = part[k]!;
}

/**
 * Writes to out[start], out[start + 1], … the leaves (order entries) whose
 * boxes `leafBounds` (6 per leaf) overlap `bounds` = [min xyz, max xyz]
 * (closed intervals) and returns how many. The tree layout is the one both
 * TriangleMesh and Compound keep: node i has bounds nodeBounds[6i .. 6i+5];
 * a leaf has nodeCount > 0 and covers order[nodeStart .. nodeStart +
 * nodeCount); an inner node's left child is i + 1, its right nodeRight[i].
 */
export function queryBvh(
  nodeBounds: Float64Array, nodeRight: Int32Array, nodeStart: Int32Array, nodeCount: Int32Array, order: Uint32Array,
  leafBounds: Float64Array, stack: Int32Array, bounds: Float64Array, out: number[], start: number,
): number {
  const minX = bounds[0]!, minY = bounds[1]!, minZ = bounds[2]!;
  const maxX = bounds[3]!, maxY = bounds[4]!, maxZ = bounds[5]!;
  const nb = nodeBounds;
  const lb = leafBounds;
  let count = 0;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const node = stack[--sp]!;
    const b = 6 * node;
    if (nb[b]! > maxX || nb[b + 3]! < minX || nb[b + 1]! > maxY || nb[b + 4]! < minY || nb[b + 2]! > maxZ || nb[b + 5]! < minZ) continue;
    const leafCount = nodeCount[node]!;
    if (leafCount > 0) {
      const first = nodeStart[node]!;
      for (let k = first; k < first + leafCount; k++) {
        const t = order[k]!;
        const o = 6 * t;
        if (lb[o]! > maxX || lb[o + 3]! < minX || lb[o + 1]! > maxY || lb[o + 4]! < minY || lb[o + 2]! > maxZ || lb[o + 5]! < minZ) continue;
        out[start + count] = t;
        count++;
      }
    } else {
      stack[sp++] = nodeRight[node]!;
      stack[sp++] = node + 1;
    }
  }
  return count;
}
