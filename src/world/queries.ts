/**
 * Scene queries: raycast, shapeCast, overlap, and the QueryRegion that lets
 * several queries share one broadphase walk. Results go into objects the
 * caller supplies (out, collector) on hot paths.
 */
import { aabb, aabbContains, aabbOverlaps, aabbRayCrosses, copyAabb, type Aabb } from '../collision/aabb';
import { IdList, type BroadPhase, type BroadPhaseRayCallback } from '../collision/broadphase/broadphase';
import { pointChildB } from '../collision/narrowphase/compound-ids';
import { collide } from '../collision/narrowphase/collide-table';
import { Manifold } from '../collision/narrowphase/manifold';
import { RAY_LIMIT, raycastShapeWithin, ShapeRayHit } from '../collision/query/raycast';
import { shapeCastPair, ShapeCastPairHit } from '../collision/query/shape-cast';
import { RigidBody, validate } from '../dynamics/body';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { magnitude, requireCollisionBits } from '../math/validate';
import type { ConvexShape, Shape } from '../shapes/shape';

/**
 * Filtering shared by the scene queries. Every field is checked at each call
 * (a NaN mask would otherwise silently find nothing): a wrong one throws a
 * TypeError or RangeError naming it, e.g. `raycast: options.collisionMask`.
 */
export interface QueryOptions {
  /** Membership bits of the query, an integer in [−2³¹, 2³² − 1]. Default 0xffffffff. */
  collisionGroup?: number;
  /** Groups the query hits, an integer in [−2³¹, 2³² − 1]. Default 0xffffffff. */
  collisionMask?: number;
  /** A body to ignore (e.g. the caster's own). */
  exclude?: RigidBody | null;
  /** Report sensor bodies too (a boolean). Default false. */
  includeSensors?: boolean;
  /** Return false to skip a body. */
  filter?: ((body: RigidBody) => boolean) | null;
}

export interface RaycastHit {
  body: RigidBody;
  /** World hit point. */
  point: Vec3;
  /** Surface normal at the hit (unit, facing the ray). */
  normal: Vec3;
  /** Distance from `from`, metres. */
  distance: number;
  /** distance / |to − from|, in [0, 1]. */
  fraction: number;
  /** Triangle index for TriangleMesh and HeightField hits, else −1. */
  triangle: number;
  /** Index of the Compound child hit, else −1 (always written by the query; optional in an `out` you build). */
  child?: number;
}

/**
 * The bodies near a region of space, gathered once by `world.fillQueryRegion`
 * and handed to several overlap and shape-cast queries through their
 * `region` option, so a controller that queries the same neighbourhood many
 * times per frame walks the broadphase once. A query uses the region only if
 * its own reach lies inside `box` and nothing was created, removed, moved by
 * a pose change or stepped since the region was filled; otherwise it asks the
 * broadphase as usual, so a stale region is never wrong, only slower.
 */
export class QueryRegion {
  /** The box of the last fill (a copy for the caller: the queries read their own, so writing it changes nothing). */
  readonly box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  /** The first `count` entries are the bodies whose fat boxes overlap `box` (a copy for the caller, as `box`). */
  readonly bodies: RigidBody[] = [];
  /** Number of bodies the last fill found (read-only). */
  get count(): number { return this.found; }
  /** @internal the count, box and bodies the queries use, written only by fillQueryRegion */ found = 0;
  /** @internal */ readonly coveredBox: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  /** @internal */ readonly candidates: RigidBody[] = [];
  /** @internal world state the region was filled in */ version = -1;
  /** @internal the queries that filled it */ owner: object | null = null;
}

export interface RaycastOptions extends QueryOptions {
  /** Fill this object instead of allocating a new one (hot paths). */
  out?: RaycastHit;
  /** Candidate bodies gathered by `fillQueryRegion` (see QueryRegion). */
  region?: QueryRegion;
}

export interface ShapeCastHit {
  /** Time of impact as a fraction of the translation, in [0, 1]. */
  fraction: number;
  /** World contact point at the time of impact. */
  point: Vec3;
  /** Surface normal of the hit body (unit, facing the cast shape). */
  normal: Vec3;
  body: RigidBody;
  triangle: number;
  /** Index of the Compound child hit, else −1 (always written by the query; optional in an `out` you build). */
  child?: number;
}

export interface ShapeCastOptions extends QueryOptions {
  out?: ShapeCastHit;
  /** Candidate bodies gathered by `fillQueryRegion` (see QueryRegion). */
  region?: QueryRegion;
}

export interface OverlapContact {
  body: RigidBody;
  /** World point between the two surfaces. */
  point: Vec3;
  /** Unit normal pointing from the body towards the query shape (the direction to push the query out). */
  normal: Vec3;
  /** Penetration depth, metres (> 0). */
  depth: number;
  /** Index of the body's Compound child touched, else −1. */
  child: number;
}

export interface OverlapOptions extends QueryOptions {
  /**
   * Reuse this collector (hot paths): its `contacts` array is refilled and
   * returned. Without it a new array is returned.
   */
  collector?: OverlapCollector;
  /** Candidate bodies gathered by `fillQueryRegion` (see QueryRegion). */
  region?: QueryRegion;
}

/** Reusable storage for `world.overlap` results. */
export class OverlapCollector {
  readonly contacts: OverlapContact[] = [];
  /** @internal pooled entries (contacts.length ≤ pool.length) */ readonly pool: OverlapContact[] = [];
  /** @internal */ take(): OverlapContact {
    const n = this.contacts.length;
    let c = this.pool[n];
    if (!c) {
      c = { body: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, depth: 0, child: -1 };
      this.pool.push(c);
    }
    this.contacts.push(c);
    return c;
  }
}

/** Broadphase ray callback for `world.raycast`; one per world, reused. */
class RayQuery implements BroadPhaseRayCallback {
  bodyById!: ReadonlyMap<number, RigidBody>;
  origin: Vec3 = { x: 0, y: 0, z: 0 };
  dir: Vec3 = { x: 0, y: 0, z: 0 };
  /** 1/dir per axis (the slab test of a region's bodies). */
  invDir: Vec3 = { x: 0, y: 0, z: 0 };
  options: QueryOptions | undefined = undefined;
  readonly hit = new ShapeRayHit();
  readonly best = new ShapeRayHit();
  bestBody: RigidBody | null = null;
  /** The ray's current maximum t, shortened by each hit (hitBody). */
  readonly limit = new Float64Array(2);
  rayCallback(userData: number, maxT: number): number {
    this.limit[0] = maxT;
    this.hitBody(userData);
    return this.limit[0]!;
  }
  /** Tests body `userData` up to limit[0]; a nearer hit becomes the best and the new limit. */
  hitBody(userData: number): void {
    const body = this.bodyById.get(userData);
    if (!body || !passesFilter(body, this.options)) return;
    const L = this.limit;
    RAY_LIMIT[0] = L[0]!;
    if (raycastShapeWithin(body.shape, body.position, body.rotation, this.origin, this.dir, this.hit) && this.hit.distance <= L[0]!) {
      const h = this.hit, b = this.best;
      b.distance = h.distance;
      b.point.x = h.point.x; b.point.y = h.point.y; b.point.z = h.point.z;
      b.normal.x = h.normal.x; b.normal.y = h.normal.y; b.normal.z = h.normal.z;
      b.triangle = h.triangle;
      b.child = h.child;
      this.bestBody = body;
      L[0] = h.distance;
    }
  }
}

/** Collision bits as validate.requireCollisionBits accepts them (no message built on the way). */
function isCollisionBits(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0xffffffff;
}

/** A hit record with `point` and `normal` objects (raycast's and shapeCast's `out`). */
function isHitRecord(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const h = v as { point?: unknown; normal?: unknown };
  return h.point !== null && typeof h.point === 'object' && h.normal !== null && typeof h.normal === 'object';
}

/**
 * Checks a query's options at the call; messages are built only when a
 * check fails, so the character's queries allocate nothing here.
 */
interface AnyQueryOptions extends QueryOptions {
  region?: unknown;
  out?: unknown;
  collector?: unknown;
}

function checkQueryOptions(o: AnyQueryOptions | undefined, method: string): void {
  if (o === undefined) return;
  if (o === null || typeof o !== 'object') throw new TypeError(`${method}: options must be an object (got ${String(o)})`);
  if (o.collisionGroup !== undefined && !isCollisionBits(o.collisionGroup)) requireCollisionBits(o.collisionGroup, `${method}: options.collisionGroup`);
  if (o.collisionMask !== undefined && !isCollisionBits(o.collisionMask)) requireCollisionBits(o.collisionMask, `${method}: options.collisionMask`);
  if (o.exclude !== undefined && o.exclude !== null && !(o.exclude instanceof RigidBody)) {
    throw new TypeError(`${method}: options.exclude must be a RigidBody or null (got ${String(o.exclude)})`);
  }
  if (o.includeSensors !== undefined && typeof o.includeSensors !== 'boolean') {
    throw new TypeError(`${method}: options.includeSensors must be a boolean (got ${String(o.includeSensors)})`);
  }
  if (o.filter !== undefined && o.filter !== null && typeof o.filter !== 'function') {
    throw new TypeError(`${method}: options.filter must be a function or null (got ${String(o.filter)})`);
  }
  if (o.region !== undefined && !(o.region instanceof QueryRegion)) {
    throw new TypeError(`${method}: options.region must be a QueryRegion (got ${String(o.region)})`);
  }
  if (o.out !== undefined && !isHitRecord(o.out)) {
    throw new TypeError(`${method}: options.out must be a hit object with point and normal (got ${String(o.out)})`);
  }
  if (o.collector !== undefined && !(o.collector instanceof OverlapCollector)) {
    throw new TypeError(`${method}: options.collector must be an OverlapCollector (got ${String(o.collector)})`);
  }
}

function passesFilter(body: RigidBody, o: QueryOptions | undefined): boolean {
  if (!o) return !body.isSensor;
  if (body.isSensor && !o.includeSensors) return false;
  if (o.exclude === body) return false;
  const group = o.collisionGroup ?? -1;
  const mask = o.collisionMask ?? -1;
  if ((group & body.collisionMask) === 0 || (body.collisionGroup & mask) === 0) return false;
  if (o.filter && !o.filter(body)) return false;
  return true;
}

/** The world's query engine: the broadphase and the body lookup it reads, and the queries' scratch. */
export class SceneQueries {
  /** Bumped whenever a QueryRegion filled before would be out of date. */
  version = 0;
  private readonly box = aabb();
  private readonly box2 = aabb();
  private readonly rayQuery = new RayQuery();
  private readonly castHit = new ShapeCastPairHit();
  private readonly queryIds = new IdList();
  /** Candidates of the query in progress (candidateScratch or a QueryRegion's bodies). */
  private candidateList: RigidBody[] = [];
  private readonly candidateScratch: RigidBody[] = [];
  private readonly queryManifold = new Manifold();

  constructor(private readonly broadphase: BroadPhase, private readonly bodyById: ReadonlyMap<number, RigidBody>) {
    this.rayQuery.bodyById = bodyById;
  }

  /** Closest body hit by the segment from → to, or null. */
  raycast(from: Readonly<Vec3>, to: Readonly<Vec3>, options?: RaycastOptions): RaycastHit | null {
    validate.requireFiniteVec(from, 'from');
    validate.requireFiniteVec(to, 'to');
    checkQueryOptions(options, 'raycast');
    const q = this.rayQuery;
    const dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
    const dd = dx * dx + dy * dy + dz * dz;
    // half = |to − from| / 2; the hit fraction is (distance / 2) / half.
    let len: number, half: number;
    if (dd < Infinity) {
      len = Math.sqrt(dd);
      if (len < 1e-12) return null;
      half = 0.5 * len;
      q.dir.x = dx / len; q.dir.y = dy / len; q.dir.z = dz / len;
    } else {
      // The squares overflow beyond 1.3e154 (and to − from itself beyond
      // 9e307): halve the segment; magnitude scales it by its largest component.
      const hx = 0.5 * to.x - 0.5 * from.x, hy = 0.5 * to.y - 0.5 * from.y, hz = 0.5 * to.z - 0.5 * from.z;
      half = magnitude(hx, hy, hz);
      // The tree walk and the shapes take a finite limit; MAX_VALUE reaches every body (within ±MAX_BODY_STATE) from a finite origin.
      len = Math.min(2 * half, Number.MAX_VALUE);
      q.dir.x = hx / half; q.dir.y = hy / half; q.dir.z = hz / half;
    }
    q.origin.x = from.x; q.origin.y = from.y; q.origin.z = from.z;
    q.options = options;
    q.bestBody = null;
    const region = options?.region;
    const box = this.box;
    box.min.x = Math.min(from.x, to.x); box.min.y = Math.min(from.y, to.y); box.min.z = Math.min(from.z, to.z);
    box.max.x = Math.max(from.x, to.x); box.max.y = Math.max(from.y, to.y); box.max.z = Math.max(from.z, to.z);
    if (region !== undefined && this.regionCovers(box, region)) {
      // The region's bodies instead of a walk down both trees: each one
      // whose box the segment crosses is tested, shortening the segment.
      const inv = q.invDir;
      inv.x = 1 / q.dir.x; inv.y = 1 / q.dir.y; inv.z = 1 / q.dir.z;
      q.limit[0] = len;
      for (let i = 0; i < region.found; i++) {
        const body = region.candidates[i]!;
        body.shape.computeAabb(this.box2, body.position, body.rotation);
        if (!aabbRayCrosses(this.box2, q.origin, inv, q.limit)) continue;
        q.hitBody(body.id);
      }
    } else {
      this.broadphase.raycast(q.origin, q.dir, len, q);
    }
    q.options = undefined;
    const body = q.bestBody as RigidBody | null;
    if (body === null) return null;
    q.bestBody = null;
    const out = options?.out ?? { body, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, distance: 0, fraction: 0, triangle: -1, child: -1 };
    out.body = body;
    out.point.x = q.best.point.x; out.point.y = q.best.point.y; out.point.z = q.best.point.z;
    out.normal.x = q.best.normal.x; out.normal.y = q.best.normal.y; out.normal.z = q.best.normal.z;
    out.distance = q.best.distance;
    out.fraction = (0.5 * q.best.distance) / half;
    out.triangle = q.best.triangle;
    out.child = q.best.child;
    return out;
  }

  /**
   * Sweeps a convex shape from `position` along `translation` and returns the
   * first impact (never later than the true one), or null.
   */
  shapeCast(shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>, options?: ShapeCastOptions): ShapeCastHit | null {
    if (!shape || shape.isConvex !== true) throw new TypeError('shapeCast: shape must be a convex shape (Sphere, Box, Capsule, Cylinder or ConvexHull)');
    validate.requireFiniteVec(position, 'position');
    validate.requireFiniteQuat(rotation, 'rotation');
    validate.requireFiniteVec(translation, 'translation');
    checkQueryOptions(options, 'shapeCast');
    const box = shape.computeAabb(this.box, position, rotation);
    const t = translation;
    if (t.x < 0) box.min.x += t.x; else box.max.x += t.x;
    if (t.y < 0) box.min.y += t.y; else box.max.y += t.y;
    if (t.z < 0) box.min.z += t.z; else box.max.z += t.z;
    const count = this.gatherCandidates(box, options?.region);
    const list = this.candidateList;
    const usedRegion = list !== this.candidateScratch;
    let bestBody: RigidBody | null = null;
    let bestFraction = Infinity;
    const hit = this.castHit;
    let out: ShapeCastHit | null = null;
    for (let i = 0; i < count; i++) {
      const body = list[i]!;
      if (!passesFilter(body, options)) continue;
      if (usedRegion) {
        // The broadphase would have culled bodies whose boxes miss the sweep.
        body.shape.computeAabb(this.box2, body.position, body.rotation);
        if (!aabbOverlaps(this.box2, box)) continue;
      }
      if (!shapeCastPair(shape, position, rotation, translation, body.shape, body.position, body.rotation, hit)) continue;
      if (hit.fraction < bestFraction || (hit.fraction === bestFraction && bestBody !== null && body.id < bestBody.id)) {
        bestFraction = hit.fraction;
        bestBody = body;
        if (out === null) out = options?.out ?? { fraction: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body, triangle: -1, child: -1 };
        out.fraction = hit.fraction;
        out.point.x = hit.point.x; out.point.y = hit.point.y; out.point.z = hit.point.z;
        out.normal.x = hit.normal.x; out.normal.y = hit.normal.y; out.normal.z = hit.normal.z;
        out.body = body;
        out.triangle = hit.triangle;
        out.child = hit.child;
      }
    }
    return out;
  }

  /**
   * Fills `region` with the bodies whose fat boxes overlap `box`, for the
   * `region` option of overlap and shapeCast (see QueryRegion).
   */
  fillQueryRegion(box: Readonly<Aabb>, region: QueryRegion): QueryRegion {
    if (box === null || typeof box !== 'object') throw new TypeError(`fillQueryRegion: box must be a { min, max } object (got ${String(box)})`);
    if (!(region instanceof QueryRegion)) throw new TypeError(`fillQueryRegion: region must be a QueryRegion (got ${String(region)})`);
    validate.requireFiniteVec(box.min, 'box.min');
    validate.requireFiniteVec(box.max, 'box.max');
    // Unusable until filled: a throw on the way (frozen public copies) leaves it so.
    region.version = -1;
    const n = this.bodiesInBox(copyAabb(region.coveredBox, box), region.candidates);
    // The caller's copies; what the caller writes there does not reach the queries.
    copyAabb(region.box, box);
    for (let i = 0; i < n; i++) region.bodies[i] = region.candidates[i]!;
    region.found = n;
    region.version = this.version;
    region.owner = this;
    return region;
  }

  /**
   * Candidates for a query whose reach is `box`: the region's bodies when it
   * is current and covers `box`, else the broadphase's. They are left in
   * candidateList; returns their count.
   */
  private gatherCandidates(box: Readonly<Aabb>, region: QueryRegion | undefined): number {
    if (region !== undefined && this.regionCovers(box, region)) {
      this.candidateList = region.candidates;
      return region.found;
    }
    this.candidateList = this.candidateScratch;
    return this.bodiesInBox(box, this.candidateScratch);
  }

  /** The region was filled by this world since anything moved, and its box holds `box`. */
  private regionCovers(box: Readonly<Aabb>, region: QueryRegion): boolean {
    return region.owner === this && region.version === this.version && aabbContains(region.coveredBox, box);
  }

  /** The bodies whose fat boxes overlap `box`, written over the start of `out` (kept, not shrunk); returns their count. */
  private bodiesInBox(box: Readonly<Aabb>, out: RigidBody[]): number {
    const ids = this.queryIds;
    ids.count = 0;
    this.broadphase.queryList(box, ids);
    let n = 0;
    for (let i = 0; i < ids.count; i++) {
      const body = this.bodyById.get(ids.ids[i]!);
      if (!body) continue;
      if (n < out.length) out[n] = body; else out.push(body);
      n++;
    }
    ids.count = 0;
    return n;
  }

  /**
   * Every body overlapping the query shape, with the normal that pushes the
   * query shape out and the depth (one entry per contact point: a mesh may
   * give several).
   */
  overlap(shape: Shape, position: Readonly<Vec3>, rotation: Readonly<Quat>, options?: OverlapOptions): readonly OverlapContact[] {
    if (!shape || shape.isConvex !== true) throw new TypeError('overlap: shape must be a convex shape (Sphere, Box, Capsule, Cylinder or ConvexHull)');
    validate.requireFiniteVec(position, 'position');
    validate.requireFiniteQuat(rotation, 'rotation');
    checkQueryOptions(options, 'overlap');
    const collector = options?.collector ?? new OverlapCollector();
    // Resetting length to 0 drops the array storage in V8: skip it when already empty.
    // pop() keeps the backing store (`length = 0` would drop it, and the next push reallocates).
    const found = collector.contacts;
    while (found.length > 0) found.pop();
    shape.computeAabb(this.box2, position, rotation);
    const count = this.gatherCandidates(this.box2, options?.region);
    const list = this.candidateList;
    const m = this.queryManifold;
    for (let i = 0; i < count; i++) {
      const body = list[i]!;
      if (!passesFilter(body, options)) continue;
      body.shape.computeAabb(this.box, body.position, body.rotation);
      if (!aabbOverlaps(this.box, this.box2)) continue;
      collide(shape, position, rotation, body.shape, body.position, body.rotation, 0, m);
      for (let k = 0; k < m.pointCount; k++) {
        const p = m.points[k]!;
        if (p.depth <= 0) continue;
        const c = collector.take();
        c.body = body;
        c.point.x = p.position.x; c.point.y = p.position.y; c.point.z = p.position.z;
        c.normal.x = -p.normal.x; c.normal.y = -p.normal.y; c.normal.z = -p.normal.z;
        c.depth = p.depth;
        c.child = pointChildB(p);
      }
    }
    return collector.contacts;
  }
}
