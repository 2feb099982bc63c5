/**
 * A persistent contact between two bodies whose fat boxes overlap. It lives
 * from the broadphase pair until the fat boxes separate, and carries the
 * accumulated impulses of its points from step to step, matched by feature id
 * (warm starting, and the 'constant' friction bound).
 */
import { type Manifold, MAX_MANIFOLD_POINTS } from '../collision/narrowphase/manifold';
import type { RigidBody } from './body';
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { ShapeKind } from '../shapes/shape';

/**
 * A point's record at the start of a contact's block (ContactStore):
 * position x, y, z, normal x, y, z (A towards B), depth, feature id.
 */
export const POINT_POSITION = 0, POINT_NORMAL = 3, POINT_DEPTH = 6, POINT_ID = 7;
/** Doubles per point at the start of a contact's block. */
export const POINT_STRIDE = 8;
/** Offsets in a contact's block. */
export const NORMAL_IMPULSE = POINT_STRIDE * MAX_MANIFOLD_POINTS;
export const FRICTION_IMPULSE = NORMAL_IMPULSE + MAX_MANIFOLD_POINTS;
export const PERSISTED = FRICTION_IMPULSE + 3 * MAX_MANIFOLD_POINTS;
const DATA_LENGTH = PERSISTED + MAX_MANIFOLD_POINTS;

// ---- Manifold reuse (Contact.reuseManifold): offsets within the cache, which starts at CACHE_OFFSET in the block.
/** Speculative margin the manifold was computed with. */
const CACHE_MARGIN = 0;
/** B's position and rotation in A's frame at that moment, 3 + 4. */
const CACHE_POSITION = 1;
const CACHE_ROTATION = 4;
/** Per point: A's deepest point in A's frame, B's in B's frame, the normal in A's frame, 3 + 3 + 3. */
const CACHE_POINTS = 8;
const CACHE_POINT_STRIDE = 9;
/** Doubles of the manifold cache (after the points and impulses in a contact's block). */
export const CACHE_LENGTH = CACHE_POINTS + CACHE_POINT_STRIDE * MAX_MANIFOLD_POINTS;
/** Offset of the manifold cache in a contact's block. */
export const CACHE_OFFSET = DATA_LENGTH;
/** Doubles per contact in a ContactStore: points, impulses, flags, then the manifold cache. */
export const CONTACT_STRIDE = DATA_LENGTH + CACHE_LENGTH;

// ---- ContactStore.ints, PAIR_INTS per contact: the two bodies' indices in
// the world's body list, 1 when both shapes are convex, 1 when idle (an empty
// pair whose flags, impulse and manifold cache are all clear: the pair loop
// settles it from the store and the per-body summary alone).
export const PAIR_A = 0, PAIR_B = 1, PAIR_CONVEX = 2, PAIR_IDLE = 3, PAIR_INTS = 4;
// ---- ContactStore.gaps, PAIR_NUMS per contact: Contact.gap and gapOdometer.
export const PAIR_GAP = 0, PAIR_GAP_ODOMETER = 1, PAIR_NUMS = 2;

/**
 * The numbers of many contacts, by contact index: in `data` a block of
 * CONTACT_STRIDE doubles each, and the pair loop's dense `ints` and `gaps`
 * (PAIR_*). The world keeps them in contact-list order, so the pair loop and
 * the solver's set-up read them front to back instead of chasing one small
 * array per contact. The arrays are replaced when they grow: hold the store,
 * not an array, across contact creation.
 */
export class ContactStore {
  data: Float64Array;
  ints: Int32Array;
  gaps: Float64Array;
  constructor(capacity: number) {
    const n = Math.max(1, capacity);
    this.data = new Float64Array(CONTACT_STRIDE * n);
    this.ints = new Int32Array(PAIR_INTS * n);
    this.gaps = new Float64Array(PAIR_NUMS * n);
  }

  /** Makes room for `count` contacts, keeping the existing ones. */
  reserve(count: number): void {
    if (CONTACT_STRIDE * count <= this.data.length) return;
    const n = Math.max(count, 2 * this.data.length / CONTACT_STRIDE, 64);
    const data = new Float64Array(CONTACT_STRIDE * n);
    data.set(this.data);
    this.data = data;
    const ints = new Int32Array(PAIR_INTS * n);
    ints.set(this.ints);
    this.ints = ints;
    const gaps = new Float64Array(PAIR_NUMS * n);
    gaps.set(this.gaps);
    this.gaps = gaps;
  }

  /** Copies contact `from`'s numbers over contact `to`'s (the world's swap-removal). */
  move(from: number, to: number): void {
    this.data.copyWithin(CONTACT_STRIDE * to, CONTACT_STRIDE * from, CONTACT_STRIDE * (from + 1));
    this.ints.copyWithin(PAIR_INTS * to, PAIR_INTS * from, PAIR_INTS * (from + 1));
    this.gaps.copyWithin(PAIR_NUMS * to, PAIR_NUMS * from, PAIR_NUMS * (from + 1));
  }
}

/**
 * How far (m) B may have moved relative to A, at its centre or at its
 * bounding sphere by turning, and the last manifold still be used as it is.
 * Depths are re-measured on reuse, so only where the points sit on the
 * faces can be stale, by about this much (1/400 of the speculative
 * distance). Chosen on the pyramids (docs/world.md).
 */
export const MANIFOLD_REUSE_DISTANCE = 5e-5;
/**
 * Argument of reuseManifold / cacheManifold: the speculative margin of this
 * step (a double passed to a call V8 does not inline would be boxed).
 */
export const MARGIN_ARG = new Float64Array(1);
/** B's pose in A's frame (relativePose) and vector scratch. */
const REL_P: Vec3 = { x: 0, y: 0, z: 0 };
const REL_Q: Quat = { x: 0, y: 0, z: 0, w: 1 };
const W: Vec3 = { x: 0, y: 0, z: 0 };
const L: Vec3 = { x: 0, y: 0, z: 0 };

/** B's pose in A's frame, into REL_P, REL_Q: p = A.q*(B.p − A.p), q = A.q* B.q. */
function relativePose(a: RigidBody, b: RigidBody): void {
  W.x = b.position.x - a.position.x; W.y = b.position.y - a.position.y; W.z = b.position.z - a.position.z;
  quat.inverseRotate(REL_P, a.rotation, W);
  quat.multiplyConjugateA(REL_Q, a.rotation, b.rotation);
}

/** out[o..o+2] = q* W q: the world vector in W, in the frame of rotation q. */
function storeLocal(q: Readonly<Quat>, out: Float64Array, o: number): void {
  quat.inverseRotate(L, q, W);
  out[o] = L.x; out[o + 1] = L.y; out[o + 2] = L.z;
}

/** L = q src[o..o+2] q*: a vector stored in the frame of rotation q, in world space. */
function loadWorld(q: Readonly<Quat>, src: Float64Array, o: number): void {
  W.x = src[o]!; W.y = src[o + 1]!; W.z = src[o + 2]!;
  quat.rotate(L, q, W);
}

/**
 * Slip speed (m/s) of a contact's points below which the pair gets its static
 * friction (Body.staticFriction) instead of its sliding friction.
 */
export const STATIC_SLIP_SPEED = 0.01;

// mixMaterial's operands and result: doubles cross calls through a typed array, not arguments.
const MIX = new Float64Array(3);

/** MIX[2] = MIX[0] and MIX[1] combined by the CombineMode code (body.ts COMBINE_CODES). */
function mixInto(code: number): void {
  const a = MIX[0]!, b = MIX[1]!;
  MIX[2] = code === 0 ? Math.sqrt(a * b) : code === 1 ? Math.min(a, b) : code === 2 ? Math.max(a, b) : code === 3 ? 0.5 * (a + b) : a * b;
}

export class Contact {
  bodyA: RigidBody | null = null;
  bodyB: RigidBody | null = null;
  /** Index in the world's contact array, and of this contact's numbers in `store`. */
  index = -1;
  /**
   * The pair's friction this step (its static friction while the points do
   * not slide, else its sliding friction) and restitution, combined from the
   * bodies' by their combine modes (mixMaterial).
   */
  friction = 0;
  restitution = 0;
  /** Either body is a sensor: detect only. */
  isSensor = false;
  /** Both shapes are convex (bounding-sphere rejection applies); kept in the store's ints for the pair loop. */
  get convexPair(): boolean {
    return this.store.ints[PAIR_INTS * this.index + PAIR_CONVEX] === 1;
  }
  /** Points this step (in `data`); a contact with none is skipped without touching its arrays. */
  pointCount = 0;
  /**
   * A lower bound on the shapes' distance from the last narrowphase that found
   * them apart beyond its margin (0: none), and the sum of the two bodies'
   * odometers then. Until the odometers have grown by more than the gap less
   * the margin, the shapes cannot have come within the margin.
   */
  get gap(): number { return this.store.gaps[PAIR_NUMS * this.index + PAIR_GAP]!; }
  set gap(v: number) { this.store.gaps[PAIR_NUMS * this.index + PAIR_GAP] = v; }
  get gapOdometer(): number { return this.store.gaps[PAIR_NUMS * this.index + PAIR_GAP_ODOMETER]!; }
  set gapOdometer(v: number) { this.store.gaps[PAIR_NUMS * this.index + PAIR_GAP_ODOMETER] = v; }
  /** A point within the linear slop of contact this step (speculative points further out do not count); drives the events. */
  touching = false;
  wasTouching = false;
  /**
   * The contact's persistent numbers are the block of CONTACT_STRIDE doubles
   * at `base` in `store.data` (the world keeps the blocks in contact-list
   * order): per point world position x, y, z, normal x, y, z, depth, feature
   * id (8 × MAX_MANIFOLD_POINTS, copied from the narrowphase's manifold by
   * syncPoints, or refreshed by reuseManifold), then the normal impulses,
   * the friction impulses as world vectors (re-projected onto each step's
   * tangent basis) and the persisted flags (1 when the point matched a point
   * of the previous step; offsets NORMAL_IMPULSE, FRICTION_IMPULSE,
   * PERSISTED), then at CACHE_OFFSET the manifold in A's frame with the
   * relative pose and margin it was computed at (CACHE_*), for reuseManifold.
   */
  store: ContactStore;
  /** Offset of this contact's block in `store.data`. */
  get base(): number {
    return CONTACT_STRIDE * this.index;
  }
  /** Last step's total normal impulse (for contact events). */
  totalNormalImpulse = 0;
  /**
   * Whether the manifold may be reused: pairs of boxes, capsules and meshes,
   * whose narrowphase (clipping, segment–box and triangle queries) costs far
   * more than the check (capsule pairs were a fifth of a resting 32-ragdoll
   * pile's step). A sphere's contact is closed-form and as cheap as the
   * check, and a resting sphere may roll, so its manifolds are always
   * recomputed. A rolling capsule moves beyond the tolerance in a step or two
   * and is recomputed by the check itself.
   */
  reusesManifold = false;
  /** The manifold is the one the narrowphase computed at the pose in `cache`. */
  manifoldCached = false;

  /**
   * The pair's friction and restitution from the bodies' (public fields,
   * refreshed each step the pair has points). The mode that wins is the one
   * later in COMBINE_CODES. Static friction applies while no point slides
   * faster than STATIC_SLIP_SPEED at the bodies' current velocities.
   */
  mixMaterial(): void {
    const a = this.bodyA!, b = this.bodyB!;
    const fc = a.frictionCombineCode > b.frictionCombineCode ? a.frictionCombineCode : b.frictionCombineCode;
    const rc = a.restitutionCombineCode > b.restitutionCombineCode ? a.restitutionCombineCode : b.restitutionCombineCode;
    MIX[0] = a.restitution; MIX[1] = b.restitution;
    mixInto(rc);
    this.restitution = MIX[2]!;
    MIX[0] = a.friction; MIX[1] = b.friction;
    mixInto(fc);
    const sliding = MIX[2]!;
    MIX[0] = a.staticFriction; MIX[1] = b.staticFriction;
    mixInto(fc);
    const still = MIX[2]!;
    this.friction = still === sliding || this.slips() ? sliding : still;
  }

  /** Whether a point's tangential relative velocity exceeds STATIC_SLIP_SPEED. */
  private slips(): boolean {
    const a = this.bodyA!, b = this.bodyB!;
    const va = a.linearVelocity, wa = a.angularVelocity, pa = a.position;
    const vb = b.linearVelocity, wb = b.angularVelocity, pb = b.position;
    const d = this.store.data, base = this.base;
    const limit = STATIC_SLIP_SPEED * STATIC_SLIP_SPEED;
    for (let k = 0; k < this.pointCount; k++) {
      const o = base + k * POINT_STRIDE;
      const px = d[o + POINT_POSITION]!, py = d[o + POINT_POSITION + 1]!, pz = d[o + POINT_POSITION + 2]!;
      const nx = d[o + POINT_NORMAL]!, ny = d[o + POINT_NORMAL + 1]!, nz = d[o + POINT_NORMAL + 2]!;
      const ax = px - pa.x, ay = py - pa.y, az = pz - pa.z, bx = px - pb.x, by = py - pb.y, bz = pz - pb.z;
      const rx = vb.x + wb.y * bz - wb.z * by - (va.x + wa.y * az - wa.z * ay);
      const ry = vb.y + wb.z * bx - wb.x * bz - (va.y + wa.z * ax - wa.x * az);
      const rz = vb.z + wb.x * by - wb.y * bx - (va.z + wa.x * ay - wa.y * ax);
      const rn = rx * nx + ry * ny + rz * nz;
      const tx = rx - rn * nx, ty = ry - rn * ny, tz = rz - rn * nz;
      if (tx * tx + ty * ty + tz * tz > limit) return true;
    }
    return false;
  }

  reset(bodyA: RigidBody, bodyB: RigidBody): void {
    this.bodyA = bodyA;
    this.bodyB = bodyB;
    this.pointCount = 0;
    this.mixMaterial();
    this.isSensor = bodyA.isSensor || bodyB.isSensor;
    const ka = bodyA.shape.kind, kb = bodyB.shape.kind;
    // Not for shapes that roll: anchors fixed on a rolling body walk off the contact line and push it on.
    this.reusesManifold = ka !== ShapeKind.Sphere && kb !== ShapeKind.Sphere && ka !== ShapeKind.Cylinder && kb !== ShapeKind.Cylinder;
    this.touching = false;
    this.wasTouching = false;
    this.totalNormalImpulse = 0;
    this.store.data.fill(0, this.base, this.base + DATA_LENGTH);
    this.manifoldCached = false;
    this.pointCount = 0;
    this.gap = 0;
    this.gapOdometer = 0;
    const ints = this.store.ints, o = PAIR_INTS * this.index;
    ints[o + PAIR_A] = bodyA.index;
    ints[o + PAIR_B] = bodyB.index;
    ints[o + PAIR_CONVEX] = bodyA.shape.isConvex && bodyB.shape.isConvex ? 1 : 0;
    ints[o + PAIR_IDLE] = 0;
  }

  /**
   * Remembers `m`, the manifold just computed by the narrowphase with the margin
   * in MARGIN_ARG: per point the deepest point of A in A's frame, that of B
   * in B's frame and the normal in A's frame, with B's pose relative to A.
   */
  cacheManifold(m: Manifold): void {
    const a = this.bodyA!, b = this.bodyB!;
    const C = this.store.data, c0 = this.base + CACHE_OFFSET;
    relativePose(a, b);
    C[c0 + CACHE_POSITION] = REL_P.x; C[c0 + CACHE_POSITION + 1] = REL_P.y; C[c0 + CACHE_POSITION + 2] = REL_P.z;
    C[c0 + CACHE_ROTATION] = REL_Q.x; C[c0 + CACHE_ROTATION + 1] = REL_Q.y; C[c0 + CACHE_ROTATION + 2] = REL_Q.z; C[c0 + CACHE_ROTATION + 3] = REL_Q.w;
    C[c0 + CACHE_MARGIN] = MARGIN_ARG[0]!;
    this.manifoldCached = true;
    for (let k = 0; k < m.pointCount; k++) {
      const pt = m.points[k]!;
      const o = c0 + CACHE_POINTS + CACHE_POINT_STRIDE * k;
      const p = pt.position, n = pt.normal, h = 0.5 * pt.depth;
      // A's deepest point is position + n·depth/2, B's position − n·depth/2.
      W.x = p.x + n.x * h - a.position.x; W.y = p.y + n.y * h - a.position.y; W.z = p.z + n.z * h - a.position.z;
      storeLocal(a.rotation, C, o);
      W.x = p.x - n.x * h - b.position.x; W.y = p.y - n.y * h - b.position.y; W.z = p.z - n.z * h - b.position.z;
      storeLocal(b.rotation, C, o + 3);
      W.x = n.x; W.y = n.y; W.z = n.z;
      storeLocal(a.rotation, C, o + 6);
    }
  }

  /**
   * When B has moved less than MANIFOLD_REUSE_DISTANCE relative to A since
   * the manifold was computed (at its centre, and at its bounding sphere by
   * turning) and this step's margin (MARGIN_ARG) is no larger (within the
   * same distance), rebuilds the points from the cached anchors at the
   * bodies' current poses and returns true: the narrowphase is skipped.
   * Depths are measured anew between the two anchors along the normal (so a
   * body sinking or lifting by micrometres is seen at once, as in Bullet's
   * persistent manifold); only where on the faces the points lie is kept.
   * Feature ids are kept. A resting stack or pile moves by micrometres per
   * step, so most of its pairs take this path.
   */
  reuseManifold(): boolean {
    const C = this.store.data, c0 = this.base + CACHE_OFFSET;
    if (!this.manifoldCached || MARGIN_ARG[0]! > C[c0 + CACHE_MARGIN]! + MANIFOLD_REUSE_DISTANCE) return false;
    const a = this.bodyA!, b = this.bodyB!;
    relativePose(a, b);
    const dx = REL_P.x - C[c0 + CACHE_POSITION]!, dy = REL_P.y - C[c0 + CACHE_POSITION + 1]!, dz = REL_P.z - C[c0 + CACHE_POSITION + 2]!;
    const limit = MANIFOLD_REUSE_DISTANCE * MANIFOLD_REUSE_DISTANCE;
    if (dx * dx + dy * dy + dz * dz > limit) return false;
    // Angle θ between the two relative rotations: |dot| = cos(θ/2), so
    // 1 − |dot| ≈ θ²/8, and a point at radius r moves by θ r.
    const dot = REL_Q.x * C[c0 + CACHE_ROTATION]! + REL_Q.y * C[c0 + CACHE_ROTATION + 1]! + REL_Q.z * C[c0 + CACHE_ROTATION + 2]! + REL_Q.w * C[c0 + CACHE_ROTATION + 3]!;
    const r = b.boundingRadius;
    if (8 * (1 - Math.abs(dot)) * r * r > limit) return false;
    // Written straight into the points (ids and impulses stay).
    const d = C;
    for (let k = 0; k < this.pointCount; k++) {
      const o = c0 + CACHE_POINTS + CACHE_POINT_STRIDE * k;
      loadWorld(a.rotation, C, o + 6);
      const nx = L.x, ny = L.y, nz = L.z;
      loadWorld(a.rotation, C, o);
      const ax = a.position.x + L.x, ay = a.position.y + L.y, az = a.position.z + L.z;
      loadWorld(b.rotation, C, o + 3);
      const bx = b.position.x + L.x, by = b.position.y + L.y, bz = b.position.z + L.z;
      const p = this.base + k * POINT_STRIDE;
      d[p] = 0.5 * (ax + bx); d[p + 1] = 0.5 * (ay + by); d[p + 2] = 0.5 * (az + bz);
      d[p + POINT_NORMAL] = nx; d[p + POINT_NORMAL + 1] = ny; d[p + POINT_NORMAL + 2] = nz;
      d[p + POINT_DEPTH] = (ax - bx) * nx + (ay - by) * ny + (az - bz) * nz;
    }
    return true;
  }

  /** World position of point k (midway between the two surfaces), into `out`. */
  pointPosition(k: number, out: Vec3): Vec3 {
    const d = this.store.data, o = this.base + k * POINT_STRIDE;
    out.x = d[o]!; out.y = d[o + 1]!; out.z = d[o + 2]!;
    return out;
  }

  /** Normal of point k (from A towards B), into `out`. */
  pointNormal(k: number, out: Vec3): Vec3 {
    const d = this.store.data, o = this.base + k * POINT_STRIDE;
    out.x = d[o + POINT_NORMAL]!; out.y = d[o + POINT_NORMAL + 1]!; out.z = d[o + POINT_NORMAL + 2]!;
    return out;
  }

  /** Penetration depth of point k (negative: a speculative point that far apart). */
  pointDepth(k: number): number {
    return this.store.data[this.base + k * POINT_STRIDE + POINT_DEPTH]!;
  }

  /** Feature id of point k. */
  pointId(k: number): number {
    return this.store.data[this.base + k * POINT_STRIDE + POINT_ID]!;
  }

  /** Accumulated normal impulse of point k (last step's, for warm starting). */
  normalImpulse(k: number): number {
    return this.store.data[this.base + NORMAL_IMPULSE + k]!;
  }

  /** `store`: the world's (which sets `index` before `reset`), or one of the contact's own (index 0). */
  constructor(store?: ContactStore) {
    this.store = store ?? new ContactStore(1);
    if (store === undefined) this.index = 0;
  }

  /** Copies the points of `m` (the narrowphase's result for this pair) into the block. */
  syncPoints(m: Manifold): void {
    const d = this.store.data;
    this.pointCount = m.pointCount;
    for (let k = 0; k < m.pointCount; k++) {
      const p = m.points[k]!;
      const o = this.base + k * POINT_STRIDE;
      d[o] = p.position.x; d[o + 1] = p.position.y; d[o + 2] = p.position.z;
      d[o + POINT_NORMAL] = p.normal.x; d[o + POINT_NORMAL + 1] = p.normal.y; d[o + POINT_NORMAL + 2] = p.normal.z;
      d[o + POINT_DEPTH] = p.depth; d[o + POINT_ID] = p.id;
    }
  }
}
