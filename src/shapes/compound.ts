/**
 * A compound: convex children (Sphere, Box, Capsule, …) fixed in one rigid
 * frame — a chair, a table, a car body.
 *
 * The centre of mass (documented choice). A body's position is its centre of
 * mass and its local axes are the principal axes of inertia: the solver has
 * no separate centre-of-mass offset. So the constructor moves the children
 * into that frame: with the children given in a frame U (the "user" frame,
 * the one the parts were modelled in), the compound's own frame S has its
 * origin at the centre of mass c (in U) and its axes along the principal axes
 * (rotation `principalRotation` = R_p, from S to U): p_U = c + R_p p_S.
 * `children` holds the parts in S. A body created at (P, Q) therefore puts
 * the U frame at Q_U = Q R_p⁻¹, P_U = P − Q_U c; {@link Compound.bodyPose} and
 * {@link Compound.userPose} convert between the two. For a part list with
 * mirror symmetry (a table, a chair) R_p is the identity and only c moves.
 *
 * Mass (uniform density ρ): each child's mass m_i and principal inertia
 * diag(I_i) are taken to U by the rotation R_i and the parallel-axis theorem,
 *   I_U = Σ R_i diag(I_i) R_iᵀ + m_i (|d_i|² E − d_i d_iᵀ),  d_i = p_i − c,
 * c = Σ m_i p_i / Σ m_i, and I_U = R_p diag(λ) R_pᵀ is diagonalised by cyclic
 * Jacobi rotations (Golub & Van Loan §8.5). Overlapping children count twice
 * (their volumes add); model parts that touch but do not overlap.
 *
 * Children are convex; a Compound inside a Compound is refused (flatten it
 * into one child list: the per-child tree below covers the large case).
 * Contacts and queries run per child (collide-compound.ts), with the child
 * found through a bounding-volume tree over the children's boxes in S.
 */
import { rotatedBoxAabb, type Aabb } from '../collision/aabb';
import { addCompoundPairs } from '../collision/narrowphase/dispatch';
import { addCompoundCasts } from '../collision/query/shape-cast';
import { normalize, type Quat } from '../math/quat';
import { jacobiEigen, makeProperRotation, quatFromMatrix } from '../math/sym3';
import { requireFiniteQuat } from '../math/validate';
import type { Vec3 } from '../math/vec3';
import type { CompoundChild, CompoundGeometry } from './geometry';
import { ConvexShape, lockShapeFields, type MassProperties, Shape, ShapeKind } from './shape';
import { queryBvh } from './mesh-bvh';

export type { CompoundChild };

/** One part as given to the constructor: a convex shape at a pose in the compound's modelling frame. */
export interface CompoundChildDesc {
  shape: ConvexShape;
  /** Metres, in the frame the parts are modelled in. Default (0, 0, 0). */
  position?: Readonly<Vec3>;
  /** Unit quaternion (normalised on input). Default identity. */
  rotation?: Readonly<Quat>;
}

/**
 * Most children a Compound may have: a contact's feature id carries the child
 * index of each side in 10 bits above its 32-bit narrowphase id (collide-compound.ts).
 */
export const MAX_COMPOUND_CHILDREN = 1023;

const LEAF_SIZE = 2;

export class Compound extends Shape implements CompoundGeometry {
  readonly kind = ShapeKind.Compound;
  readonly isConvex = false;
  readonly children: readonly CompoundChild[];
  /** The centre of mass in the frame the children were given in (metres). */
  readonly centerOfMass: Readonly<Vec3>;
  /** Rotation from the compound's principal frame to the frame the children were given in. */
  readonly principalRotation: Readonly<Quat>;
  /** Radius of a sphere about the centre of mass holding every child (metres). */
  readonly boundingRadius: number;
  /** The smallest half size of any child (metres): how thin the compound's thinnest part is. */
  readonly thinnestHalfSize: number;
  /** Mass and principal inertia at density 1. */
  private readonly unitMass: number;
  private readonly unitInertia: Readonly<Vec3>;
  private readonly totalVolume: number;
  /** Child bounds in the compound frame, 6 per child (min xyz, max xyz). */
  readonly childBounds: Float64Array;
  // Tree over the children, as in TriangleMesh: node i has bounds
  // nodeBounds[6i..6i+5]; a leaf has nodeCount > 0 and covers
  // order[nodeStart .. nodeStart + nodeCount); an inner node's left child is
  // i + 1, its right child nodeRight[i].
  private readonly nodeBounds: Float64Array;
  private readonly nodeRight: Int32Array;
  private readonly nodeStart: Int32Array;
  private readonly nodeCount: Int32Array;
  private readonly order: Uint32Array;
  private readonly stack: Int32Array;

  constructor(children: readonly CompoundChildDesc[]) {
    super();
    addCompoundPairs();
    addCompoundCasts();
    if (!Array.isArray(children)) throw new TypeError('Compound.children must be an array of { shape, position?, rotation? }');
    const n = children.length;
    if (n === 0) throw new RangeError('Compound.children must not be empty');
    if (n > MAX_COMPOUND_CHILDREN) throw new RangeError(`Compound.children may hold at most ${MAX_COMPOUND_CHILDREN} children (got ${n})`);
    const shapes: ConvexShape[] = [];
    const pos = new Float64Array(3 * n);
    const rot = new Float64Array(4 * n);
    const unitRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
    for (let i = 0; i < n; i++) {
      const c = children[i];
      const field = `Compound.children[${i}]`;
      if (c === null || typeof c !== 'object') throw new TypeError(`${field} must be a { shape, position?, rotation? } object`);
      if (c.shape instanceof Compound) throw new TypeError(`${field}.shape: a Compound cannot hold a Compound (flatten the children into one list)`);
      if (!(c.shape instanceof ConvexShape)) throw new TypeError(`${field}.shape must be a convex shape (Sphere, Box, Capsule; got ${String(c.shape)})`);
      shapes.push(c.shape);
      const p = c.position ?? { x: 0, y: 0, z: 0 };
      const q = c.rotation ?? { x: 0, y: 0, z: 0, w: 1 };
      if (p === null || typeof p !== 'object') throw new TypeError(`${field}.position must be a { x, y, z } object`);
      if (q === null || typeof q !== 'object') throw new TypeError(`${field}.rotation must be a { x, y, z, w } object`);
      const comps = [p.x, p.y, p.z];
      for (let k = 0; k < 3; k++) {
        const v = comps[k]!;
        if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 1e6) throw new RangeError(`${field}.position.${'xyz'[k]} must be a finite number within ±1e6 m (got ${String(v)})`);
        pos[3 * i + k] = v;
      }
      requireFiniteQuat(q, `${field}.rotation`);
      // quat.normalize rescales a quaternion whose squared length over- or underflows ({ w: 1e200 }).
      const u = normalize(unitRotation, q);
      rot[4 * i] = u.x; rot[4 * i + 1] = u.y; rot[4 * i + 2] = u.z; rot[4 * i + 3] = u.w;
    }

    // Centre of mass and inertia in U at density 1.
    let mass = 0, volume = 0;
    let cx = 0, cy = 0, cz = 0;
    const masses = new Float64Array(n);
    const inertias = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      const props = shapes[i]!.massProperties(1);
      masses[i] = props.mass;
      inertias[3 * i] = props.inertia.x; inertias[3 * i + 1] = props.inertia.y; inertias[3 * i + 2] = props.inertia.z;
      // Every convex shape here has its centre of mass at its origin.
      mass += props.mass;
      volume += shapes[i]!.volume();
      cx += props.mass * pos[3 * i]!; cy += props.mass * pos[3 * i + 1]!; cz += props.mass * pos[3 * i + 2]!;
    }
    cx /= mass; cy /= mass; cz /= mass;
    const I = new Float64Array(9);
    const R = new Float64Array(9);
    for (let i = 0; i < n; i++) {
      rotationMatrix(R, rot, 4 * i);
      const a = inertias[3 * i]!, b = inertias[3 * i + 1]!, c = inertias[3 * i + 2]!;
      const m = masses[i]!;
      const dx = pos[3 * i]! - cx, dy = pos[3 * i + 1]! - cy, dz = pos[3 * i + 2]! - cz;
      const d2 = dx * dx + dy * dy + dz * dz;
      const d = [dx, dy, dz];
      for (let r = 0; r < 3; r++) {
        for (let s = 0; s < 3; s++) {
          // (R diag R^T)_rs = Σ_k R_rk I_k R_sk
          const rot = R[3 * r]! * a * R[3 * s]! + R[3 * r + 1]! * b * R[3 * s + 1]! + R[3 * r + 2]! * c * R[3 * s + 2]!;
          const shift = m * ((r === s ? d2 : 0) - d[r]! * d[s]!);
          I[3 * r + s] = I[3 * r + s]! + rot + shift;
        }
      }
    }
    // Principal axes: I's diagonal becomes the moments, V the axes, read as a quaternion R_p.
    const V = new Float64Array(9);
    jacobiEigen(I, V, 1e-15);
    makeProperRotation(V);
    const qp = quatFromMatrix(V);
    this.centerOfMass = Object.freeze({ x: cx, y: cy, z: cz });
    this.principalRotation = Object.freeze(qp);
    this.unitMass = mass;
    this.totalVolume = volume;
    this.unitInertia = Object.freeze({ x: I[0]!, y: I[4]!, z: I[8]! });

    // Children in S: p_S = R_p⁻¹ (p_U − c), q_S = R_p⁻¹ q_U.
    const list: CompoundChild[] = [];
    const bounds = new Float64Array(6 * n);
    const box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
    let radius = 0;
    let thinnest = Infinity;
    for (let i = 0; i < n; i++) {
      const ux = pos[3 * i]! - cx, uy = pos[3 * i + 1]! - cy, uz = pos[3 * i + 2]! - cz;
      // V's columns are S's axes in U: p_S = Vᵀ (p_U − c).
      const position = Object.freeze({
        x: V[0]! * ux + V[3]! * uy + V[6]! * uz,
        y: V[1]! * ux + V[4]! * uy + V[7]! * uz,
        z: V[2]! * ux + V[5]! * uy + V[8]! * uz,
      });
      const qx = rot[4 * i]!, qy = rot[4 * i + 1]!, qz = rot[4 * i + 2]!, qw = rot[4 * i + 3]!;
      // conj(qp) ⊗ q
      const px = -qp.x, py = -qp.y, pz = -qp.z, pw = qp.w;
      const rq = {
        x: pw * qx + px * qw + py * qz - pz * qy,
        y: pw * qy - px * qz + py * qw + pz * qx,
        z: pw * qz + px * qy - py * qx + pz * qw,
        w: pw * qw - px * qx - py * qy - pz * qz,
      };
      const rl = 1 / Math.sqrt(rq.x * rq.x + rq.y * rq.y + rq.z * rq.z + rq.w * rq.w);
      const rotation = Object.freeze({ x: rq.x * rl, y: rq.y * rl, z: rq.z * rl, w: rq.w * rl });
      const shape = shapes[i]!;
      list.push(Object.freeze({ shape, position, rotation }));
      shape.computeAabb(box, position, rotation);
      bounds[6 * i] = box.min.x; bounds[6 * i + 1] = box.min.y; bounds[6 * i + 2] = box.min.z;
      bounds[6 * i + 3] = box.max.x; bounds[6 * i + 4] = box.max.y; bounds[6 * i + 5] = box.max.z;
      const s = shape as ConvexShape & { radius?: number; halfHeight?: number; halfExtents?: Vec3 };
      const childRadius = s.halfExtents ? Math.sqrt(s.halfExtents.x ** 2 + s.halfExtents.y ** 2 + s.halfExtents.z ** 2) : (s.radius ?? 0) + (s.halfHeight ?? 0);
      const reach = Math.sqrt(position.x * position.x + position.y * position.y + position.z * position.z) + (childRadius > 0 ? childRadius : halfDiagonal(bounds, i));
      if (reach > radius) radius = reach;
      const thin = s.halfExtents ? Math.min(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z) : s.radius ?? 0.5 * Math.min(bounds[6 * i + 3]! - bounds[6 * i]!, bounds[6 * i + 4]! - bounds[6 * i + 1]!, bounds[6 * i + 5]! - bounds[6 * i + 2]!);
      if (thin < thinnest) thinnest = thin;
    }
    this.children = Object.freeze(list);
    this.childBounds = bounds;
    this.boundingRadius = radius;
    this.thinnestHalfSize = thinnest;

    // Median-split tree over the child boxes (built once; small).
    const maxNodes = 2 * n;
    this.nodeBounds = new Float64Array(6 * maxNodes);
    this.nodeRight = new Int32Array(maxNodes);
    this.nodeStart = new Int32Array(maxNodes);
    this.nodeCount = new Int32Array(maxNodes);
    this.order = new Uint32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    const depth = { nodes: 0, max: 0 };
    this.build(0, n, 0, depth);
    this.stack = new Int32Array(depth.max + 2);
    lockShapeFields(this);
  }

  private build(start: number, end: number, level: number, state: { nodes: number; max: number }): number {
    const node = state.nodes++;
    if (level > state.max) state.max = level;
    const b = this.childBounds;
    const nb = this.nodeBounds;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    for (let k = start; k < end; k++) {
      const o = 6 * this.order[k]!;
      minX = Math.min(minX, b[o]!); minY = Math.min(minY, b[o + 1]!); minZ = Math.min(minZ, b[o + 2]!);
      maxX = Math.max(maxX, b[o + 3]!); maxY = Math.max(maxY, b[o + 4]!); maxZ = Math.max(maxZ, b[o + 5]!);
    }
    nb[6 * node] = minX; nb[6 * node + 1] = minY; nb[6 * node + 2] = minZ;
    nb[6 * node + 3] = maxX; nb[6 * node + 4] = maxY; nb[6 * node + 5] = maxZ;
    if (end - start <= LEAF_SIZE) {
      this.nodeStart[node] = start;
      this.nodeCount[node] = end - start;
      return node;
    }
    const ex = maxX - minX, ey = maxY - minY, ez = maxZ - minZ;
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
    const part = Array.from(this.order.subarray(start, end));
    part.sort((p, q) => (b[6 * p + axis]! + b[6 * p + 3 + axis]!) - (b[6 * q + axis]! + b[6 * q + 3 + axis]!) || p - q);
    for (let k = 0; k < part.length; k++) this.order[start + k] = part[k]!;
    const mid = (start + end) >> 1;
    this.build(start, mid, level + 1, state);
    this.nodeRight[node] = this.build(mid, end, level + 1, state);
    this.nodeCount[node] = 0;
    return node;
  }

  /**
   * Writes to out[start], out[start + 1], … the indices of the children whose
   * boxes overlap `bounds` = [minX, minY, minZ, maxX, maxY, maxZ] (compound
   * frame) and returns how many (the list is reused, never shrunk).
   */
  queryBoundsFrom(bounds: Float64Array, out: number[], start: number): number {
    return queryBvh(this.nodeBounds, this.nodeRight, this.nodeStart, this.nodeCount, this.order, this.childBounds, this.stack, bounds, out, start);
  }

  computeAabb(out: Aabb, position: Readonly<Vec3>, q: Readonly<Quat>): Aabb {
    rotatedBoxAabb(out, this.nodeBounds, 0, position, q);
    // Never wider than the bounding sphere (a turned long box's box is).
    const r = this.boundingRadius;
    const cx = 0.5 * (out.min.x + out.max.x), cy = 0.5 * (out.min.y + out.max.y), cz = 0.5 * (out.min.z + out.max.z);
    out.min.x = Math.max(out.min.x, cx - r, position.x - r); out.min.y = Math.max(out.min.y, cy - r, position.y - r); out.min.z = Math.max(out.min.z, cz - r, position.z - r);
    out.max.x = Math.min(out.max.x, cx + r, position.x + r); out.max.y = Math.min(out.max.y, cy + r, position.y + r); out.max.z = Math.min(out.max.z, cz + r, position.z + r);
    return out;
  }


  volume(): number {
    return this.totalVolume;
  }

  /** Mass properties at a uniform density (kg/m³): centre of mass at the origin, principal inertia along the local axes. */
  massProperties(density: number): MassProperties {
    return {
      mass: this.unitMass * density,
      centerOfMass: { x: 0, y: 0, z: 0 },
      inertia: { x: this.unitInertia.x * density, y: this.unitInertia.y * density, z: this.unitInertia.z * density },
    };
  }

  /**
   * The body pose that puts the modelling frame at (userPosition,
   * userRotation): Q = Q_U R_p, P = P_U + Q_U c. Pass the result to createBody.
   */
  bodyPose(userPosition: Readonly<Vec3>, userRotation: Readonly<Quat>, outPosition: Vec3, outRotation: Quat): void {
    const c = this.centerOfMass, p = this.principalRotation, q = userRotation;
    rotateInto(outPosition, q, c.x, c.y, c.z);
    outPosition.x += userPosition.x; outPosition.y += userPosition.y; outPosition.z += userPosition.z;
    const x = q.w * p.x + q.x * p.w + q.y * p.z - q.z * p.y;
    const y = q.w * p.y - q.x * p.z + q.y * p.w + q.z * p.x;
    const z = q.w * p.z + q.x * p.y - q.y * p.x + q.z * p.w;
    const w = q.w * p.w - q.x * p.x - q.y * p.y - q.z * p.z;
    outRotation.x = x; outRotation.y = y; outRotation.z = z; outRotation.w = w;
  }

  /**
   * Where the modelling frame is for a body at (position, rotation): Q_U =
   * Q R_p⁻¹, P_U = P − Q_U c (what a render mesh built in that frame follows).
   */
  userPose(position: Readonly<Vec3>, rotation: Readonly<Quat>, outPosition: Vec3, outRotation: Quat): void {
    const p = this.principalRotation, q = rotation, c = this.centerOfMass;
    // Q ⊗ conj(R_p)
    const px = -p.x, py = -p.y, pz = -p.z, pw = p.w;
    const x = q.w * px + q.x * pw + q.y * pz - q.z * py;
    const y = q.w * py - q.x * pz + q.y * pw + q.z * px;
    const z = q.w * pz + q.x * py - q.y * px + q.z * pw;
    const w = q.w * pw - q.x * px - q.y * py - q.z * pz;
    outRotation.x = x; outRotation.y = y; outRotation.z = z; outRotation.w = w;
    const px0 = position.x, py0 = position.y, pz0 = position.z;
    rotateInto(outPosition, outRotation, c.x, c.y, c.z);
    outPosition.x = px0 - outPosition.x; outPosition.y = py0 - outPosition.y; outPosition.z = pz0 - outPosition.z;
  }
}

function rotateInto(out: Vec3, q: Readonly<Quat>, vx: number, vy: number, vz: number): void {
  const tx = 2 * (q.y * vz - q.z * vy), ty = 2 * (q.z * vx - q.x * vz), tz = 2 * (q.x * vy - q.y * vx);
  out.x = vx + q.w * tx + (q.y * tz - q.z * ty);
  out.y = vy + q.w * ty + (q.z * tx - q.x * tz);
  out.z = vz + q.w * tz + (q.x * ty - q.y * tx);
}

function halfDiagonal(b: Float64Array, i: number): number {
  const o = 6 * i;
  const dx = b[o + 3]! - b[o]!, dy = b[o + 4]! - b[o + 1]!, dz = b[o + 5]! - b[o + 2]!;
  return 0.5 * Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** Row-major rotation matrix of the unit quaternion rot[o..o+3]. */
function rotationMatrix(out: Float64Array, rot: Float64Array, o: number): void {
  const x = rot[o]!, y = rot[o + 1]!, z = rot[o + 2]!, w = rot[o + 3]!;
  out[0] = 1 - 2 * (y * y + z * z); out[1] = 2 * (x * y - w * z); out[2] = 2 * (x * z + w * y);
  out[3] = 2 * (x * y + w * z); out[4] = 1 - 2 * (x * x + z * z); out[5] = 2 * (y * z - w * x);
  out[6] = 2 * (x * z - w * y); out[7] = 2 * (y * z + w * x); out[8] = 1 - 2 * (x * x + y * y);
}

