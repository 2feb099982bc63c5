/**
 * Ray casts against one shape at a pose. The ray is taken into the shape's
 * local frame (a rotation preserves lengths, so distances carry over), solved
 * in closed form there, and the hit normal rotated back.
 *
 * Conventions: `direction` is unit; a hit needs 0 ≤ distance ≤ maxDistance;
 * a ray starting inside a convex shape hits at distance 0 with normal
 * −direction (it is already in contact, and there is no surface to name);
 * a mesh is two-sided and reports the face normal turned towards the ray.
 */
import type { Quat } from '../../math/quat';
import { inverseRotate, rotate } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { Box } from '../../shapes/box';
import type { Capsule } from '../../shapes/capsule';
import type { ConvexHull } from '../../shapes/convex-hull';
import type { Cylinder } from '../../shapes/cylinder';
import { type Shape, ShapeKind } from '../../shapes/shape';
import type { Sphere } from '../../shapes/sphere';
import { MeshRayHit, type TriangleMesh } from '../../shapes/triangle-mesh';
import type { Compound } from '../../shapes/compound';
import type { HeightField } from '../../shapes/height-field';

/** A ray hit on one shape (world space). */
export class ShapeRayHit {
  /** Distance from the ray origin along the unit direction, metres. */
  distance = 0;
  readonly point: Vec3 = { x: 0, y: 0, z: 0 };
  /** Unit surface normal at the hit (−direction when the ray starts inside). */
  readonly normal: Vec3 = { x: 0, y: 1, z: 0 };
  /** Triangle index for a TriangleMesh or HeightField, −1 otherwise. */
  triangle = -1;
  /** Child index for a Compound, −1 otherwise. */
  child = -1;
}

const localOrigin: Vec3 = { x: 0, y: 0, z: 0 };
const localDir: Vec3 = { x: 0, y: 0, z: 0 };
const localNormal: Vec3 = { x: 0, y: 0, z: 0 };
const meshHit = /* @__PURE__ */ new MeshRayHit();

/**
 * Casts the ray origin + t·direction, t ∈ [0, maxDistance], against `shape`
 * placed at (position, rotation). Returns true and fills `out` on a hit.
 */
export function raycastShape(
  shape: Shape,
  position: Readonly<Vec3>,
  rotation: Readonly<Quat>,
  origin: Readonly<Vec3>,
  direction: Readonly<Vec3>,
  maxDistance: number,
  out: ShapeRayHit,
): boolean {
  RAY_LIMIT[0] = maxDistance;
  return raycastShapeWithin(shape, position, rotation, origin, direction, out);
}

/**
 * @internal raycastShape up to RAY_LIMIT[0]: for the queries, which keep the
 * shrinking maximum in that array (a double handed to a call V8 does not
 * inline is boxed, and the character casts rays in every move).
 */
export const RAY_LIMIT = /* @__PURE__ */ new Float64Array(1);

/** @internal See RAY_LIMIT. */
export function raycastShapeWithin(
  shape: Shape,
  position: Readonly<Vec3>,
  rotation: Readonly<Quat>,
  origin: Readonly<Vec3>,
  direction: Readonly<Vec3>,
  out: ShapeRayHit,
): boolean {
  const maxDistance = RAY_LIMIT[0]!;
  const o = localOrigin;
  o.x = origin.x - position.x;
  o.y = origin.y - position.y;
  o.z = origin.z - position.z;
  inverseRotate(o, rotation, o);
  inverseRotate(localDir, rotation, direction);
  let t = -1;
  out.triangle = -1;
  out.child = -1;
  switch (shape.kind) {
    case ShapeKind.Compound:
      RAY_IO[0] = maxDistance;
      t = rayCompound(shape as Compound, o, localDir, localNormal, out) ? RAY_IO[1]! : -1;
      break;
    case ShapeKind.HeightField:
      if ((shape as HeightField).raycastLocal(o, localDir, maxDistance, meshHit)) {
        t = meshHit.t;
        out.triangle = meshHit.triangle;
        localNormal.x = meshHit.normal.x; localNormal.y = meshHit.normal.y; localNormal.z = meshHit.normal.z;
      }
      break;
    case ShapeKind.TriangleMesh: {
      const mesh = shape as TriangleMesh;
      if (mesh.raycastLocal(o, localDir, maxDistance, meshHit)) {
        t = meshHit.t;
        out.triangle = meshHit.triangle;
        const n = meshHit.normal;
        // Two-sided: face the ray whatever the mesh reports.
        const s = n.x * localDir.x + n.y * localDir.y + n.z * localDir.z > 0 ? -1 : 1;
        localNormal.x = n.x * s;
        localNormal.y = n.y * s;
        localNormal.z = n.z * s;
      }
      break;
    }
    default:
      RAY_IO[0] = maxDistance;
      t = rayConvexLocal(shape, o, localDir, localNormal) ? RAY_IO[1]! : -1;
  }
  if (t < 0) return false;
  out.distance = t;
  out.point.x = origin.x + direction.x * t;
  out.point.y = origin.y + direction.y * t;
  out.point.z = origin.z + direction.z * t;
  if (t === 0 && shape.kind !== ShapeKind.TriangleMesh && shape.kind !== ShapeKind.HeightField) {
    out.normal.x = -direction.x;
    out.normal.y = -direction.y;
    out.normal.z = -direction.z;
  } else {
    rotate(out.normal, rotation, localNormal);
  }
  return true;
}

/**
 * Doubles in and out of the ray routines: [0] the largest t (in), [1] the hit
 * t (out). A double passed to or returned from a call V8 does not inline is
 * boxed (CONTRIBUTING.md), and the character's step probes cast rays in
 * every move.
 */
const RAY_IO = new Float64Array(2);

/** Ray against a convex shape in its local frame, up to RAY_IO[0]: true with the entry t (0 inside) in RAY_IO[1] and the normal in `n`. */
function rayConvexLocal(shape: Shape, o: Readonly<Vec3>, d: Readonly<Vec3>, n: Vec3): boolean {
  switch (shape.kind) {
    case ShapeKind.Sphere: return raySphere(o, d, shape as Sphere, n);
    case ShapeKind.Box: return rayBox(o, d, shape as Box, n);
    case ShapeKind.Capsule: return rayCapsule(o, d, shape as Capsule, n);
    case ShapeKind.Cylinder: return rayCylinder(o, d, shape as Cylinder, n);
    case ShapeKind.ConvexHull: return rayHull(o, d, shape as ConvexHull, n);
    default: return false;
  }
}

const childOrigin: Vec3 = { x: 0, y: 0, z: 0 };
const childDir: Vec3 = { x: 0, y: 0, z: 0 };
const childNormal: Vec3 = { x: 0, y: 0, z: 0 };
const childList: number[] = [];
const rayBounds = new Float64Array(6);

/**
 * Ray against a Compound (its frame): the children whose boxes meet the
 * segment's box, each in its own frame; the nearest entry wins (a ray
 * starting inside any child hits at 0). Sets out.child.
 */
function rayCompound(compound: Compound, o: Readonly<Vec3>, d: Readonly<Vec3>, n: Vec3, out: ShapeRayHit): boolean {
  const maxT = RAY_IO[0]!;
  const ex = o.x + d.x * maxT, ey = o.y + d.y * maxT, ez = o.z + d.z * maxT;
  rayBounds[0] = Math.min(o.x, ex); rayBounds[1] = Math.min(o.y, ey); rayBounds[2] = Math.min(o.z, ez);
  rayBounds[3] = Math.max(o.x, ex); rayBounds[4] = Math.max(o.y, ey); rayBounds[5] = Math.max(o.z, ez);
  const count = compound.queryBoundsFrom(rayBounds, childList, 0);
  let best = -1;
  let limit = maxT;
  for (let k = 0; k < count; k++) {
    const i = childList[k]!;
    const child = compound.children[i]!;
    childOrigin.x = o.x - child.position.x; childOrigin.y = o.y - child.position.y; childOrigin.z = o.z - child.position.z;
    inverseRotate(childOrigin, child.rotation, childOrigin);
    inverseRotate(childDir, child.rotation, d);
    RAY_IO[0] = limit;
    if (!rayConvexLocal(child.shape, childOrigin, childDir, childNormal)) continue;
    const t = RAY_IO[1]!;
    if (best >= 0 && t >= best) continue;
    best = t;
    limit = t;
    out.child = i;
    rotate(n, child.rotation, childNormal);
  }
  RAY_IO[1] = best;
  return best >= 0;
}

/**
 * Ray against the sphere |p| = r: |o + t d|² = r² with |d| = 1 gives
 * t² + 2 b t + c = 0, b = o·d, c = |o|² − r²; entry root t = −b − √(b² − c).
 * The root is evaluated as c / (−b + √(b² − c)) when that avoids
 * cancellation (b < 0, the approaching case), the stable form of the
 * quadratic formula (Ericson §5.3.2; Press et al. §5.6).
 */
function raySphere(o: Readonly<Vec3>, d: Readonly<Vec3>, sphere: Sphere, n: Vec3): boolean {
  const r = sphere.radius, maxT = RAY_IO[0]!;
  const c = o.x * o.x + o.y * o.y + o.z * o.z - r * r;
  if (c <= 0) { RAY_IO[1] = 0; return true; }
  const b = o.x * d.x + o.y * d.y + o.z * d.z;
  if (b >= 0) return false;
  const disc = b * b - c;
  if (disc < 0) return false;
  const t = c / (-b + Math.sqrt(disc));
  if (t > maxT) return false;
  const inv = 1 / r;
  n.x = (o.x + t * d.x) * inv;
  n.y = (o.y + t * d.y) * inv;
  n.z = (o.z + t * d.z) * inv;
  RAY_IO[1] = t;
  return true;
}

/**
 * Slab test (Kay & Kajiya; Ericson §5.3.3): the ray is inside the box for t
 * in the intersection of the three slab intervals; it enters at the largest
 * entry time, through the face of that slab.
 */
function rayBox(o: Readonly<Vec3>, d: Readonly<Vec3>, box: Box, n: Vec3): boolean {
  const h = box.halfExtents, maxT = RAY_IO[0]!;
  let tEnter = -Infinity;
  let tExit = Infinity;
  let axis = -1;
  let sign = 0;
  for (let i = 0; i < 3; i++) {
    const oi = i === 0 ? o.x : i === 1 ? o.y : o.z;
    const di = i === 0 ? d.x : i === 1 ? d.y : d.z;
    const hi = i === 0 ? h.x : i === 1 ? h.y : h.z;
    if (di === 0) {
      if (oi < -hi || oi > hi) return false;
      continue;
    }
    const inv = 1 / di;
    let t0 = (-hi - oi) * inv;
    let t1 = (hi - oi) * inv;
    // Entering through −h when moving +, through +h when moving −.
    let s = -1;
    if (t0 > t1) {
      const tmp = t0;
      t0 = t1;
      t1 = tmp;
      s = 1;
    }
    if (t0 > tEnter) {
      tEnter = t0;
      axis = i;
      sign = s;
    }
    if (t1 < tExit) tExit = t1;
  }
  if (tEnter > tExit || tExit < 0) return false;
  if (tEnter <= 0) { RAY_IO[1] = 0; return true; } // origin inside (every slab already entered)
  if (tEnter > maxT) return false;
  n.x = axis === 0 ? sign : 0;
  n.y = axis === 1 ? sign : 0;
  n.z = axis === 2 ? sign : 0;
  RAY_IO[1] = tEnter;
  return true;
}

/**
 * Ray against a capsule (segment (0, ±h, 0), radius r). The capsule is the
 * union of the finite cylinder and the two end spheres; from outside, its
 * entry point is the earliest entry into any of them (the cylinder's flat
 * caps lie inside the spheres, so only its side counts: x² + z² = r² with
 * |y| ≤ h). Compare Ericson §5.3.7 (ray vs cylinder).
 */
function rayCapsule(o: Readonly<Vec3>, d: Readonly<Vec3>, capsule: Capsule, n: Vec3): boolean {
  const r = capsule.radius, h = capsule.halfHeight, maxT = RAY_IO[0]!;
  // Inside: distance from the origin to the segment ≤ r.
  const cy = o.y < -h ? -h : o.y > h ? h : o.y;
  const ey = o.y - cy;
  if (o.x * o.x + ey * ey + o.z * o.z <= r * r) { RAY_IO[1] = 0; return true; }
  let best = Infinity;
  // Side: (ox + t dx)² + (oz + t dz)² = r², a t² + 2 b t + c = 0.
  const a = d.x * d.x + d.z * d.z;
  const c = o.x * o.x + o.z * o.z - r * r;
  const b = o.x * d.x + o.z * d.z;
  if (a > 0 && c > 0 && b < 0) {
    const disc = b * b - a * c;
    if (disc >= 0) {
      // Stable entry root of the quadratic: t = c / (−b + √disc).
      const t = c / (-b + Math.sqrt(disc));
      const y = o.y + t * d.y;
      if (y >= -h && y <= h) {
        best = t;
        const inv = 1 / r;
        n.x = (o.x + t * d.x) * inv;
        n.y = 0;
        n.z = (o.z + t * d.z) * inv;
      }
    }
  }
  // End spheres.
  for (let k = 0; k < 2; k++) {
    const sy = k === 0 ? h : -h;
    const ox = o.x, oy = o.y - sy, oz = o.z;
    const cc = ox * ox + oy * oy + oz * oz - r * r;
    const bb = ox * d.x + oy * d.y + oz * d.z;
    if (cc <= 0 || bb >= 0) continue;
    const disc = bb * bb - cc;
    if (disc < 0) continue;
    const t = cc / (-bb + Math.sqrt(disc));
    if (t < best) {
      best = t;
      const inv = 1 / r;
      n.x = (ox + t * d.x) * inv;
      n.y = (oy + t * d.y) * inv;
      n.z = (oz + t * d.z) * inv;
    }
  }
  if (best > maxT) return false;
  RAY_IO[1] = best;
  return true;
}

/**
 * Ray against a solid cylinder: the intersection of the slab |y| ≤ h and the
 * infinite cylinder x² + z² ≤ r², both convex, so the ray is inside for t in
 * the overlap of their two intervals and enters at the later entry (Ericson
 * §5.3.7 in interval form). The side's entry root uses the stable quadratic
 * form, as rayCapsule does.
 */
function rayCylinder(o: Readonly<Vec3>, d: Readonly<Vec3>, cylinder: Cylinder, n: Vec3): boolean {
  const r = cylinder.radius, h = cylinder.halfHeight, maxT = RAY_IO[0]!;
  let slabIn = -Infinity, slabOut = Infinity;
  if (d.y === 0) {
    if (o.y < -h || o.y > h) return false;
  } else {
    const inv = 1 / d.y;
    const t0 = (-h - o.y) * inv, t1 = (h - o.y) * inv;
    slabIn = t0 < t1 ? t0 : t1;
    slabOut = t0 < t1 ? t1 : t0;
  }
  let sideIn = -Infinity, sideOut = Infinity;
  const a = d.x * d.x + d.z * d.z;
  const c = o.x * o.x + o.z * o.z - r * r;
  if (a === 0) {
    if (c > 0) return false;
  } else {
    const b = o.x * d.x + o.z * d.z;
    const disc = b * b - a * c;
    if (disc < 0) return false;
    const sq = Math.sqrt(disc);
    // Roots (−b ∓ √disc)/a, each evaluated without cancellation.
    const q = b < 0 ? -b + sq : -b - sq;
    const r0 = q / a, r1 = q !== 0 ? c / q : 0;
    sideIn = r0 < r1 ? r0 : r1;
    sideOut = r0 < r1 ? r1 : r0;
  }
  const tIn = slabIn > sideIn ? slabIn : sideIn;
  const tOut = slabOut < sideOut ? slabOut : sideOut;
  if (tIn > tOut || tOut < 0) return false;
  if (tIn <= 0) { RAY_IO[1] = 0; return true; }
  if (tIn > maxT) return false;
  if (slabIn >= sideIn) {
    n.x = 0; n.y = d.y > 0 ? -1 : 1; n.z = 0;
  } else {
    const inv = 1 / r;
    n.x = (o.x + tIn * d.x) * inv; n.y = 0; n.z = (o.z + tIn * d.z) * inv;
  }
  RAY_IO[1] = tIn;
  return true;
}

/**
 * Ray against a convex hull, clipped by its face planes (Cyrus–Beck): a plane
 * the ray moves into (n·d < 0) bounds the entry, one it moves out of the exit.
 */
function rayHull(o: Readonly<Vec3>, d: Readonly<Vec3>, hull: ConvexHull, n: Vec3): boolean {
  const maxT = RAY_IO[0]!;
  const N = hull.faceNormals, D = hull.faceOffsets;
  let tIn = -Infinity, tOut = Infinity;
  let face = -1;
  for (let f = 0; f < hull.faceCount; f++) {
    const nx = N[3 * f]!, ny = N[3 * f + 1]!, nz = N[3 * f + 2]!;
    const denom = nx * d.x + ny * d.y + nz * d.z;
    const dist = nx * o.x + ny * o.y + nz * o.z - D[f]!;
    if (denom === 0) {
      if (dist > 0) return false;
      continue;
    }
    const t = -dist / denom;
    if (denom < 0) {
      if (t > tIn) { tIn = t; face = f; }
    } else if (t < tOut) {
      tOut = t;
    }
    if (tIn > tOut) return false;
  }
  if (tOut < 0) return false;
  if (tIn <= 0 || face < 0) { RAY_IO[1] = 0; return true; }
  if (tIn > maxT) return false;
  n.x = N[3 * face]!; n.y = N[3 * face + 1]!; n.z = N[3 * face + 2]!;
  RAY_IO[1] = tIn;
  return true;
}
