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
import * as quat from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { magnitude, requireCollisionBits } from '../math/validate';
import { ShapeKind, type ConvexShape } from '../shapes/shape';

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
    // An entry the caller froze (kept from an earlier answer) stays theirs: a fresh one takes its place.
    if (!c || Object.isFrozen(c) || Object.isFrozen(c.point) || Object.isFrozen(c.normal)) {
      c = { body: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, depth: 0, child: -1 };
      if (n < this.pool.length) this.pool[n] = c; else this.pool.push(c);
    }
    this.contacts.push(c);
    return c;
  }
}

/** Broadphase ray callback for `world.raycast`; one per query depth (QueryFrame), reused. */
class RayQuery implements BroadPhaseRayCallback {
  constructor(private readonly bodyById: ReadonlyMap<number, RigidBody>) {}
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
  if (o.out !== undefined) {
    if (!isHitRecord(o.out)) throw new TypeError(`${method}: options.out must be a hit object with point and normal (got ${String(o.out)})`);
    // Checked here: a frozen record would throw half-way through writing the answer.
    const h = o.out as { point: object; normal: object };
    if (cannotWrite(h, method === 'raycast' ? RAY_HIT_FIELDS : CAST_HIT_FIELDS)) throw unwritable(method, 'options.out', 'frozen, or sealed without a field the query writes');
    if (cannotWrite(h.point, VEC_FIELDS)) throw unwritable(method, 'options.out.point', 'frozen, or sealed without x, y or z');
    if (cannotWrite(h.normal, VEC_FIELDS)) throw unwritable(method, 'options.out.normal', 'frozen, or sealed without x, y or z');
  }
  if (o.collector !== undefined) {
    if (!(o.collector instanceof OverlapCollector)) throw new TypeError(`${method}: options.collector must be an OverlapCollector (got ${String(o.collector)})`);
    const found: unknown = o.collector.contacts;
    if (!Array.isArray(found) || !Object.isExtensible(found)) throw unwritable(method, 'options.collector.contacts', 'not an array, or frozen, sealed or not extensible: the query refills it');
  }
}

/** Fields raycast and shapeCast write on `out`, and on its point and normal. */
const RAY_HIT_FIELDS: readonly string[] = ['body', 'point', 'normal', 'distance', 'fraction', 'triangle', 'child'];
const CAST_HIT_FIELDS: readonly string[] = ['fraction', 'point', 'normal', 'body', 'triangle', 'child'];
const VEC_FIELDS: readonly string[] = ['x', 'y', 'z'];

/** Whether writing `fields` on `o` would throw: it is frozen, or cannot take a field it lacks. */
function cannotWrite(o: object, fields: readonly string[]): boolean {
  if (Object.isExtensible(o)) return false;
  if (Object.isFrozen(o)) return true;
  for (let i = 0; i < fields.length; i++) if (!(fields[i]! in o)) return true;
  return false;
}

function unwritable(method: string, field: string, why: string): TypeError {
  return new TypeError(`${method}: ${field} must be writable (it is ${why})`);
}

/** 'a Compound' for a shape, or what was passed instead of one (the non-convex shape messages). */
function shapeKindName(shape: unknown): string {
  if (shape === null || typeof shape !== 'object') return String(shape);
  const kind = (shape as { kind?: unknown }).kind;
  for (const name of Object.keys(ShapeKind)) if (ShapeKind[name as keyof typeof ShapeKind] === kind) return `a ${name}`;
  return `an object of no shape kind (kind ${String(kind)})`;
}

/**
 * `q` as a unit quaternion: normalised into `out` (quat.normalize rescales
 * one whose squared length overflows), or `q` itself when it is unit to
 * rounding, so that the answers for unit rotations keep their bits.
 */
function unitRotation(q: Readonly<Quat>, out: Quat): Readonly<Quat> {
  const n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return n2 >= 1 - 1e-12 && n2 <= 1 + 1e-12 ? q : quat.normalize(out, q);
}

/**
 * The scratch of one query. A filter or collector may run another query
 * while its own is half done, so each nesting depth has its own
 * (SceneQueries.enter); only the first nested call at a new depth allocates.
 */
class QueryFrame {
  readonly ray: RayQuery;
  /** The query's reach (raycast, shapeCast) or its shape's box (overlap). */
  readonly box = aabb();
  /** A candidate body's box. */
  readonly bodyBox = aabb();
  readonly rotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly castHit = new ShapeCastPairHit();
  readonly bestCast = new ShapeCastPairHit();
  readonly manifold = new Manifold();
  readonly candidateScratch: RigidBody[] = [];
  /** Candidates of the query (candidateScratch or a QueryRegion's bodies). */
  candidates: RigidBody[] = this.candidateScratch;
  /** The region the query reads and the collector it fills (refused to a nested fillQueryRegion / overlap). */
  region: QueryRegion | null = null;
  collector: OverlapCollector | null = null;
  constructor(bodyById: ReadonlyMap<number, RigidBody>) {
    this.ray = new RayQuery(bodyById);
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
  private readonly queryIds = new IdList();
  /** Scratch per nesting depth; `depth` queries are running. */
  private readonly frames: QueryFrame[];
  private depth = 0;

  constructor(private readonly broadphase: BroadPhase, private readonly bodyById: ReadonlyMap<number, RigidBody>) {
    this.frames = [new QueryFrame(bodyById)];
  }

  /** The scratch of a query starting now; `leave` gives it back (in a finally: a filter may throw). */
  private enter(): QueryFrame {
    const d = this.depth;
    if (d === this.frames.length) this.frames.push(new QueryFrame(this.bodyById));
    this.depth = d + 1;
    return this.frames[d]!;
  }

  private leave(f: QueryFrame): void {
    f.ray.options = undefined;
    f.ray.bestBody = null;
    f.candidates = f.candidateScratch;
    f.region = null;
    f.collector = null;
    this.depth--;
  }

  /** Whether a query running around this call (its filter or collector called it) reads `region` / fills `collector`. */
  private inUse(region: QueryRegion | null, collector: OverlapCollector | null): boolean {
    for (let i = 0; i < this.depth; i++) {
      const f = this.frames[i]!;
      if ((region !== null && f.region === region) || (collector !== null && f.collector === collector)) return true;
    }
    return false;
  }

  /** Closest body hit by the segment from → to, or null. */
  raycast(from: Readonly<Vec3>, to: Readonly<Vec3>, options?: RaycastOptions): RaycastHit | null {
    validate.requireFiniteVec(from, 'from');
    validate.requireFiniteVec(to, 'to');
    checkQueryOptions(options, 'raycast');
    const f = this.enter();
    try {
      return this.raycastIn(f, from, to, options);
    } finally {
      this.leave(f);
    }
  }

  private raycastIn(f: QueryFrame, from: Readonly<Vec3>, to: Readonly<Vec3>, options: RaycastOptions | undefined): RaycastHit | null {
    const q = f.ray;
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
    const box = f.box;
    box.min.x = Math.min(from.x, to.x); box.min.y = Math.min(from.y, to.y); box.min.z = Math.min(from.z, to.z);
    box.max.x = Math.max(from.x, to.x); box.max.y = Math.max(from.y, to.y); box.max.z = Math.max(from.z, to.z);
    if (region !== undefined && this.regionCovers(box, region)) {
      // The region's bodies instead of a walk down both trees: each one
      // whose box the segment crosses is tested, shortening the segment.
      f.region = region;
      const inv = q.invDir;
      inv.x = 1 / q.dir.x; inv.y = 1 / q.dir.y; inv.z = 1 / q.dir.z;
      q.limit[0] = len;
      for (let i = 0; i < region.found; i++) {
        const body = region.candidates[i]!;
        body.shape.computeAabb(f.bodyBox, body.position, body.rotation);
        if (!aabbRayCrosses(f.bodyBox, q.origin, inv, q.limit)) continue;
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
    if (!shape || shape.isConvex !== true) throw new TypeError(`shapeCast: shape must be a convex shape (Sphere, Box, Capsule, Cylinder or ConvexHull; got ${shapeKindName(shape)})`);
    validate.requireFiniteVec(position, 'position');
    validate.requireFiniteQuat(rotation, 'rotation');
    validate.requireFiniteVec(translation, 'translation');
    checkQueryOptions(options, 'shapeCast');
    const f = this.enter();
    try {
      return this.shapeCastIn(f, shape, position, unitRotation(rotation, f.rotation), translation, options);
    } finally {
      this.leave(f);
    }
  }

  private shapeCastIn(f: QueryFrame, shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>, options: ShapeCastOptions | undefined): ShapeCastHit | null {
    const box = shape.computeAabb(f.box, position, rotation);
    const t = translation;
    if (t.x < 0) box.min.x += t.x; else box.max.x += t.x;
    if (t.y < 0) box.min.y += t.y; else box.max.y += t.y;
    if (t.z < 0) box.min.z += t.z; else box.max.z += t.z;
    const count = this.gatherCandidates(f, box, options?.region);
    const list = f.candidates;
    const usedRegion = list !== f.candidateScratch;
    let bestBody: RigidBody | null = null;
    let bestFraction = Infinity;
    const hit = f.castHit, best = f.bestCast;
    for (let i = 0; i < count; i++) {
      const body = list[i]!;
      if (!passesFilter(body, options)) continue;
      if (usedRegion) {
        // The broadphase would have culled bodies whose boxes miss the sweep.
        body.shape.computeAabb(f.bodyBox, body.position, body.rotation);
        if (!aabbOverlaps(f.bodyBox, box)) continue;
      }
      if (!shapeCastPair(shape, position, rotation, translation, body.shape, body.position, body.rotation, hit)) continue;
      if (hit.fraction < bestFraction || (hit.fraction === bestFraction && bestBody !== null && body.id < bestBody.id)) {
        bestFraction = hit.fraction;
        bestBody = body;
        best.fraction = hit.fraction;
        best.point.x = hit.point.x; best.point.y = hit.point.y; best.point.z = hit.point.z;
        best.normal.x = hit.normal.x; best.normal.y = hit.normal.y; best.normal.z = hit.normal.z;
        best.triangle = hit.triangle;
        best.child = hit.child;
      }
    }
    if (bestBody === null) return null;
    // Written once the walk is done: a nested query's filter may be handed the same `out`.
    const out = options?.out ?? { fraction: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body: bestBody, triangle: -1, child: -1 };
    out.fraction = best.fraction;
    out.point.x = best.point.x; out.point.y = best.point.y; out.point.z = best.point.z;
    out.normal.x = best.normal.x; out.normal.y = best.normal.y; out.normal.z = best.normal.z;
    out.body = bestBody;
    out.triangle = best.triangle;
    out.child = best.child;
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
    if (this.depth > 0 && this.inUse(region, null)) throw new Error('fillQueryRegion: region is being read by the query whose filter or collector is running; fill another one');
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
   * f.candidates; returns their count.
   */
  private gatherCandidates(f: QueryFrame, box: Readonly<Aabb>, region: QueryRegion | undefined): number {
    if (region !== undefined && this.regionCovers(box, region)) {
      f.candidates = region.candidates;
      f.region = region;
      return region.found;
    }
    f.candidates = f.candidateScratch;
    return this.bodiesInBox(box, f.candidateScratch);
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
  overlap(shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, options?: OverlapOptions): readonly OverlapContact[] {
    if (!shape || shape.isConvex !== true) throw new TypeError(`overlap: shape must be a convex shape (Sphere, Box, Capsule, Cylinder or ConvexHull; got ${shapeKindName(shape)})`);
    validate.requireFiniteVec(position, 'position');
    validate.requireFiniteQuat(rotation, 'rotation');
    checkQueryOptions(options, 'overlap');
    const collector = options?.collector ?? new OverlapCollector();
    if (this.depth > 0 && this.inUse(null, collector)) {
      throw new Error('overlap: options.collector is being filled by the query whose filter or collector is running; pass another one');
    }
    const f = this.enter();
    try {
      return this.overlapIn(f, shape, position, unitRotation(rotation, f.rotation), options, collector);
    } finally {
      this.leave(f);
    }
  }

  private overlapIn(f: QueryFrame, shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, options: OverlapOptions | undefined, collector: OverlapCollector): readonly OverlapContact[] {
    f.collector = collector;
    // Resetting length to 0 drops the array storage in V8: skip it when already empty.
    // pop() keeps the backing store (`length = 0` would drop it, and the next push reallocates).
    const found = collector.contacts;
    while (found.length > 0) found.pop();
    const box = f.box;
    shape.computeAabb(box, position, rotation);
    const count = this.gatherCandidates(f, box, options?.region);
    const list = f.candidates;
    const m = f.manifold;
    for (let i = 0; i < count; i++) {
      const body = list[i]!;
      if (!passesFilter(body, options)) continue;
      body.shape.computeAabb(f.bodyBox, body.position, body.rotation);
      if (!aabbOverlaps(f.bodyBox, box)) continue;
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
