/**
 * A Compound against any shape (a Compound too): each child whose box meets
 * the other shape's box (the compound's child tree, compound.ts) is collided
 * at its composed pose P + Q p_i, Q q_i through the dispatch table, and the
 * points of all children are reduced to one ≤ 4-point manifold by the mesh
 * colliders' reduction (deepest, farthest, largest triangle, largest quad,
 * triangle-contact.ts). With four points or fewer in all they are kept as
 * they are, so a compound touching with one child behaves as that child.
 *
 * Feature ids: the child's 32-bit id plus, above bit 32, the child index of
 * each side (layout and readers in compound-ids.ts).
 */
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CompoundGeometry as Compound } from '../../shapes/geometry';
import { ShapeKind, type Shape } from '../../shapes/shape';
import { collideTable } from './collide-table';
import { CHILD_SLOTS, TWO_32 } from './compound-ids';
import { Manifold } from './manifold';
import { narrowphaseGap, narrowphaseMargin } from './margin';
import { fromQuat, mat3 } from '../../math/mat3';
import { MeshContactCollector } from './triangle-contact';

// Rotation matrix scratch for the box transforms.
const scratchRotation = /* @__PURE__ */ mat3();

/** Candidates kept per pair (past this, further child points are dropped). */
const CAPACITY = 256;

/**
 * Scratch of the compound routines: one per table (the routines never call
 * one another: a compound holds no compound).
 */
class CompoundScratch {
  readonly child = new Manifold();
  readonly collector = new MeshContactCollector();
  readonly ids = new Float64Array(CAPACITY);
  readonly points = new Float64Array(7 * CAPACITY);
  readonly listA: number[] = [];
  readonly listB: number[] = [];
  readonly bounds = new Float64Array(6);
  readonly posA: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rotA: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly posB: Vec3 = { x: 0, y: 0, z: 0 };
  readonly rotB: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly box = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  readonly origin: Vec3 = { x: 0, y: 0, z: 0 };
  readonly identity: Quat = { x: 0, y: 0, z: 0, w: 1 };
  count = 0;
}

const S = /* @__PURE__ */ new CompoundScratch();

/** out = p + q·v (a child's world position). */
function composePosition(out: Vec3, p: Readonly<Vec3>, q: Readonly<Quat>, v: Readonly<Vec3>): void {
  const tx = 2 * (q.y * v.z - q.z * v.y), ty = 2 * (q.z * v.x - q.x * v.z), tz = 2 * (q.x * v.y - q.y * v.x);
  out.x = p.x + v.x + q.w * tx + (q.y * tz - q.z * ty);
  out.y = p.y + v.y + q.w * ty + (q.z * tx - q.x * tz);
  out.z = p.z + v.z + q.w * tz + (q.x * ty - q.y * tx);
}

/** out = a ⊗ b. */
function composeRotation(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>): void {
  const x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  out.x = x; out.y = y; out.z = z; out.w = w;
}

/**
 * S.bounds = the box of `shape` at (p, q) seen in the frame (pc, qc),
 * widened by the margin: the world box's centre taken into the frame and its
 * half extents through |Rᵀ|.
 */
function boundsInFrame(shape: Shape, p: Readonly<Vec3>, q: Readonly<Quat>, pc: Readonly<Vec3>, qc: Readonly<Quat>, margin: Float64Array): void {
  const box = shape.computeAabb(S.box, p, q);
  const cx = 0.5 * (box.min.x + box.max.x) - pc.x, cy = 0.5 * (box.min.y + box.max.y) - pc.y, cz = 0.5 * (box.min.z + box.max.z) - pc.z;
  const hx = 0.5 * (box.max.x - box.min.x), hy = 0.5 * (box.max.y - box.min.y), hz = 0.5 * (box.max.z - box.min.z);
  // R of qc; the frame's coordinates are Rᵀ (x − pc).
  const R = fromQuat(scratchRotation, qc);
  const r00 = R.m00, r01 = R.m01, r02 = R.m02;
  const r10 = R.m10, r11 = R.m11, r12 = R.m12;
  const r20 = R.m20, r21 = R.m21, r22 = R.m22;
  const lx = r00 * cx + r10 * cy + r20 * cz, ly = r01 * cx + r11 * cy + r21 * cz, lz = r02 * cx + r12 * cy + r22 * cz;
  const m = margin[0]!;
  const ex = Math.abs(r00) * hx + Math.abs(r10) * hy + Math.abs(r20) * hz + m;
  const ey = Math.abs(r01) * hx + Math.abs(r11) * hy + Math.abs(r21) * hz + m;
  const ez = Math.abs(r02) * hx + Math.abs(r12) * hy + Math.abs(r22) * hz + m;
  const b = S.bounds;
  b[0] = lx - ex; b[1] = ly - ey; b[2] = lz - ez; b[3] = lx + ex; b[4] = ly + ey; b[5] = lz + ez;
}

/** Adds the child manifold's points with ids tagged by (childA, childB). */
function gather(childA: number, childB: number): void {
  const m = S.child;
  const high = (childA + 1) + CHILD_SLOTS * (childB + 1);
  for (let k = 0; k < m.pointCount && S.count < CAPACITY; k++) {
    const p = m.points[k]!;
    const i = S.count++;
    const o = 7 * i;
    const d = S.points;
    d[o] = p.position.x; d[o + 1] = p.position.y; d[o + 2] = p.position.z;
    d[o + 3] = p.normal.x; d[o + 4] = p.normal.y; d[o + 5] = p.normal.z;
    d[o + 6] = p.depth;
    S.ids[i] = high * TWO_32 + (p.id >>> 0);
  }
}

/** Writes the gathered points to `m`: as they are when ≤ 4, else reduced. */
function finish(m: Manifold): void {
  m.pointCount = 0;
  const n = S.count;
  if (n <= 4) {
    // The id is stored after the call: an id above 2³¹ passed as an argument would be boxed.
    for (let i = 0; i < n; i++) m.points[m.addPointFrom(S.points, 7 * i, 0)]!.id = S.ids[i]!;
  } else {
    const C = S.collector;
    C.begin();
    const cand = C.cand;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 7; k++) cand[k] = S.points[7 * i + k]!;
      C.push(i, 0, false);
    }
    C.finish(m, S.origin, S.identity);
    for (let i = 0; i < m.pointCount; i++) {
      const p = m.points[i]!;
      p.id = S.ids[p.id >>> 7]!;
    }
  }
  // Some children were not tested (their boxes missed): no distance bound.
  narrowphaseGap[0] = 0;
}

/** Compound A against any shape B (a Compound included). */
export function compoundFirst(a: Shape, pa: Readonly<Vec3>, qa: Readonly<Quat>, b: Shape, pb: Readonly<Vec3>, qb: Readonly<Quat>, m: Manifold): void {
  S.count = 0;
  if (b.kind === ShapeKind.Compound) compoundPair(a as Compound, pa, qa, b as Compound, pb, qb);
  else collideChildren(a as Compound, pa, qa, b, pb, qb, true, -1);
  finish(m);
}

/** Any non-compound shape A against Compound B. */
export function compoundSecond(a: Shape, pa: Readonly<Vec3>, qa: Readonly<Quat>, b: Shape, pb: Readonly<Vec3>, qb: Readonly<Quat>, m: Manifold): void {
  S.count = 0;
  collideChildren(b as Compound, pb, qb, a, pa, qa, false, -1);
  finish(m);
}

/**
 * Collides the children of `compound` (pose pc, qc) whose boxes meet the box
 * of `other` (pose po, qo) with `other`, and gathers their points: the
 * compound is shape A when `compoundIsA`, else B; `otherChild` is the other
 * side's child index (−1 when it is not a compound's child). A's child poses
 * go to S.posA / S.rotA and its list to S.listA, B's to the B slots, so that
 * compoundPair can walk B's children inside its walk over A's.
 */
function collideChildren(
  compound: Compound, pc: Readonly<Vec3>, qc: Readonly<Quat>,
  other: Shape, po: Readonly<Vec3>, qo: Readonly<Quat>,
  compoundIsA: boolean, otherChild: number,
): void {
  boundsInFrame(other, po, qo, pc, qc, narrowphaseMargin);
  const list = compoundIsA ? S.listA : S.listB;
  const pos = compoundIsA ? S.posA : S.posB, rot = compoundIsA ? S.rotA : S.rotB;
  const count = compound.queryBoundsFrom(S.bounds, list, 0);
  for (let k = 0; k < count; k++) {
    const i = list[k]!;
    const child = compound.children[i]!;
    composePosition(pos, pc, qc, child.position);
    composeRotation(rot, qc, child.rotation);
    S.child.reset();
    if (compoundIsA) {
      collideTable[child.shape.kind]![other.kind]!(child.shape, pos, rot, other, po, qo, S.child);
      gather(i, otherChild);
    } else {
      collideTable[other.kind]![child.shape.kind]!(other, po, qo, child.shape, pos, rot, S.child);
      gather(otherChild, i);
    }
  }
}

/** Child pairs of two compounds: A's children near B, then B's children near each. */
function compoundPair(a: Compound, pa: Readonly<Vec3>, qa: Readonly<Quat>, b: Compound, pb: Readonly<Vec3>, qb: Readonly<Quat>): void {
  boundsInFrame(b, pb, qb, pa, qa, narrowphaseMargin);
  const listA = S.listA;
  const countA = a.queryBoundsFrom(S.bounds, listA, 0);
  for (let k = 0; k < countA; k++) {
    const i = listA[k]!;
    const ca = a.children[i]!;
    composePosition(S.posA, pa, qa, ca.position);
    composeRotation(S.rotA, qa, ca.rotation);
    collideChildren(b, pb, qb, ca.shape, S.posA, S.rotA, false, i);
  }
}
