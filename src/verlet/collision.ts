/**
 * Particle–world collision by projection (Jakobsen §3): a particle of radius r
 * found inside a shape is moved the shortest way out — along the surface
 * normal by the penetration depth. Restitution is zero; the Verlet velocity
 * picks up the change by itself.
 *
 * Cost model: the broadphase is asked once per system per step, with the
 * system's bounds (after integration, grown by a skin) as a box query through
 * `world.fillQueryRegion`, so no narrowphase runs. Per particle and
 * relaxation iteration only the candidates whose bounds touch the particle
 * are tested, with closed-form projections for spheres, boxes and capsules
 * and the narrowphase's sphere–mesh routine for triangle meshes. Rejected: one `world.overlap`
 * per particle, a tree walk per particle per iteration.
 */
import { aabb, type Aabb } from '../collision/aabb';
import { collide } from '../collision/narrowphase/collide-table';
import { Manifold } from '../collision/narrowphase/manifold';
import type { RigidBody } from '../dynamics/body';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Box } from '../shapes/box';
import type { Capsule } from '../shapes/capsule';
import { ShapeKind } from '../shapes/shape';
import { Sphere } from '../shapes/sphere';
import { resizedFloat64 } from '../math/typed-arrays';
import { QueryRegion } from '../world/queries';
import type { World } from '../world/world';


const IDENTITY: Readonly<Quat> = Object.freeze({ x: 0, y: 0, z: 0, w: 1 });

/** Per-system collision state: candidate bodies for this step and scratch. */
export class ParticleCollider {
  /** Candidate bodies of the current step (first `candidateCount` entries). */
  readonly candidates: RigidBody[] = [];
  candidateCount = 0;
  /** Bounds of each candidate (min xyz, max xyz). */
  candidateBounds: Float64Array = new Float64Array(6 * 8);

  /** The system's collision bits, for the gather (as a query's collisionGroup / collisionMask). */
  collisionGroup = -1;
  collisionMask = -1;
  private readonly queryBounds: Aabb = aabb();
  private readonly region = new QueryRegion();
  private readonly shapeBounds: Aabb = aabb();
  private readonly manifold = new Manifold();
  private particleSphere: Sphere;
  private readonly particlePos: Vec3 = { x: 0, y: 0, z: 0 };

  /** Output of `project`: the push-out normal of the deepest handled contact. */
  readonly normal: Vec3 = { x: 0, y: 1, z: 0 };

  constructor(radius: number) {
    this.particleSphere = new Sphere(Math.max(radius, 1e-4));
  }

  setRadius(radius: number): void {
    if (Math.max(radius, 1e-4) !== this.particleSphere.radius) this.particleSphere = new Sphere(Math.max(radius, 1e-4));
  }

  private addCandidate(body: RigidBody): void {
    const n = this.candidateCount;
    if (n === this.candidates.length) this.candidates.push(body); else this.candidates[n] = body;
    if (6 * n + 6 > this.candidateBounds.length) this.candidateBounds = resizedFloat64(this.candidateBounds, 2 * this.candidateBounds.length);
    const box = body.shape.computeAabb(this.shapeBounds, body.position, body.rotation);
    const cb = this.candidateBounds;
    cb[6 * n] = box.min.x; cb[6 * n + 1] = box.min.y; cb[6 * n + 2] = box.min.z;
    cb[6 * n + 3] = box.max.x; cb[6 * n + 4] = box.max.y; cb[6 * n + 5] = box.max.z;
    this.candidateCount = n + 1;
  }

  /**
   * Gathers the bodies whose broadphase boxes touch [min, max] (at least 2 µm
   * wide on each axis), filtered like a query: sensors left out, and bodies
   * whose collision bits and the system's do not match.
   */
  gather(world: World, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void {
    this.candidateCount = 0;
    const cx = 0.5 * (minX + maxX), cy = 0.5 * (minY + maxY), cz = 0.5 * (minZ + maxZ);
    const hx = Math.max(0.5 * (maxX - minX), 1e-6), hy = Math.max(0.5 * (maxY - minY), 1e-6), hz = Math.max(0.5 * (maxZ - minZ), 1e-6);
    const q = this.queryBounds;
    q.min.x = cx - hx; q.min.y = cy - hy; q.min.z = cz - hz;
    q.max.x = cx + hx; q.max.y = cy + hy; q.max.z = cz + hz;
    const region = world.fillQueryRegion(q, this.region);
    for (let i = 0; i < region.count; i++) {
      const body = region.bodies[i]!;
      if (body.isSensor || (this.collisionGroup & body.collisionMask) === 0 || (body.collisionGroup & this.collisionMask) === 0) continue;
      this.addCandidate(body);
    }
    // Drop references beyond the count so removed bodies can be collected.
    for (let i = this.candidateCount; i < this.candidates.length; i++) this.candidates[i] = this.candidates[0]!;
  }

  /**
   * Projects the particle at x[i..i+2] (radius r) out of every candidate.
   * Returns the index of the last candidate that pushed it (−1 if none);
   * `normal` then holds that push direction.
   */
  project(x: Float64Array, i: number, r: number): number {
    const cb = this.candidateBounds;
    let hit = -1;
    for (let k = 0, n = this.candidateCount; k < n; k++) {
      const px = x[i]!, py = x[i + 1]!, pz = x[i + 2]!;
      const o = 6 * k;
      if (px + r < cb[o]! || px - r > cb[o + 3]! || py + r < cb[o + 1]! || py - r > cb[o + 4]! || pz + r < cb[o + 2]! || pz - r > cb[o + 5]!) continue;
      const body = this.candidates[k]!;
      const shape = body.shape;
      let pushed: boolean;
      switch (shape.kind) {
        case ShapeKind.Sphere: pushed = this.projectSphere(x, i, r, body.position, (shape as Sphere).radius); break;
        case ShapeKind.Box: pushed = this.projectBox(x, i, r, body.position, body.rotation, (shape as Box).halfExtents); break;
        case ShapeKind.Capsule: pushed = this.projectCapsule(x, i, r, body.position, body.rotation, shape as Capsule); break;
        default: pushed = this.projectGeneric(x, i, body); break;
      }
      if (pushed) hit = k;
    }
    return hit;
  }

  /** Sphere (centre c, radius R): |p − c| ≥ R + r, pushed radially. */
  private projectSphere(x: Float64Array, i: number, r: number, c: Readonly<Vec3>, radius: number): boolean {
    return this.pushFromPoint(x, i, c.x, c.y, c.z, radius + r);
  }

  /** Keeps p at least `minDist` from the point q; pushes along p − q (up if they coincide). */
  private pushFromPoint(x: Float64Array, i: number, qx: number, qy: number, qz: number, minDist: number): boolean {
    const dx = x[i]! - qx, dy = x[i + 1]! - qy, dz = x[i + 2]! - qz;
    const dd = dx * dx + dy * dy + dz * dz;
    if (dd >= minDist * minDist) return false;
    const n = this.normal;
    if (dd < 1e-24) { n.x = 0; n.y = 1; n.z = 0; } else {
      const inv = 1 / Math.sqrt(dd);
      n.x = dx * inv; n.y = dy * inv; n.z = dz * inv;
    }
    x[i] = qx + n.x * minDist; x[i + 1] = qy + n.y * minDist; x[i + 2] = qz + n.z * minDist;
    return true;
  }

  /**
   * Capsule: the distance to the core segment (local Y, ±halfHeight) must be
   * at least R + r; the closest segment point is the clamped local y.
   */
  private projectCapsule(x: Float64Array, i: number, r: number, c: Readonly<Vec3>, q: Readonly<Quat>, capsule: Capsule): boolean {
    // Segment axis in world = q·(0,1,0).
    const ax = 2 * (q.x * q.y - q.w * q.z), ay = 1 - 2 * (q.x * q.x + q.z * q.z), az = 2 * (q.y * q.z + q.w * q.x);
    const t0 = (x[i]! - c.x) * ax + (x[i + 1]! - c.y) * ay + (x[i + 2]! - c.z) * az;
    const hh = capsule.halfHeight;
    const t = t0 < -hh ? -hh : t0 > hh ? hh : t0;
    return this.pushFromPoint(x, i, c.x + ax * t, c.y + ay * t, c.z + az * t, capsule.radius + r);
  }

  /**
   * Oriented box: in the box frame the closest point is the per-axis clamp of
   * the particle (Ericson 5.1.4). Outside: push along p − closest to distance
   * r. Inside: leave through the nearest face (least h_i − |p_i|).
   */
  private projectBox(x: Float64Array, i: number, r: number, c: Readonly<Vec3>, q: Readonly<Quat>, h: Readonly<Vec3>): boolean {
    // Local point: q* (p − c) q.
    const vx = x[i]! - c.x, vy = x[i + 1]! - c.y, vz = x[i + 2]! - c.z;
    const qx = -q.x, qy = -q.y, qz = -q.z;
    let tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
    const lx = vx + q.w * tx + (qy * tz - qz * ty);
    const ly = vy + q.w * ty + (qz * tx - qx * tz);
    const lz = vz + q.w * tz + (qx * ty - qy * tx);
    if (lx > h.x + r || lx < -h.x - r || ly > h.y + r || ly < -h.y - r || lz > h.z + r || lz < -h.z - r) return false;
    const cx = lx < -h.x ? -h.x : lx > h.x ? h.x : lx;
    const cy = ly < -h.y ? -h.y : ly > h.y ? h.y : ly;
    const cz = lz < -h.z ? -h.z : lz > h.z ? h.z : lz;
    const dx = lx - cx, dy = ly - cy, dz = lz - cz;
    const dd = dx * dx + dy * dy + dz * dz;
    let nx: number, ny: number, nz: number, ox: number, oy: number, oz: number;
    if (dd > 1e-24) {
      if (dd >= r * r) return false;
      const inv = 1 / Math.sqrt(dd);
      nx = dx * inv; ny = dy * inv; nz = dz * inv;
      ox = cx + nx * r; oy = cy + ny * r; oz = cz + nz * r;
    } else {
      // Inside the box: the face with the least depth.
      const ex = h.x - Math.abs(lx), ey = h.y - Math.abs(ly), ez = h.z - Math.abs(lz);
      nx = 0; ny = 0; nz = 0; ox = lx; oy = ly; oz = lz;
      if (ex <= ey && ex <= ez) { nx = lx < 0 ? -1 : 1; ox = nx * (h.x + r); }
      else if (ey <= ez) { ny = ly < 0 ? -1 : 1; oy = ny * (h.y + r); }
      else { nz = lz < 0 ? -1 : 1; oz = nz * (h.z + r); }
    }
    // Back to world: the normal by q, the new point by q and + c.
    tx = 2 * (q.y * nz - q.z * ny); ty = 2 * (q.z * nx - q.x * nz); tz = 2 * (q.x * ny - q.y * nx);
    const n = this.normal;
    n.x = nx + q.w * tx + (q.y * tz - q.z * ty);
    n.y = ny + q.w * ty + (q.z * tx - q.x * tz);
    n.z = nz + q.w * tz + (q.x * ty - q.y * tx);
    tx = 2 * (q.y * oz - q.z * oy); ty = 2 * (q.z * ox - q.x * oz); tz = 2 * (q.x * oy - q.y * ox);
    x[i] = c.x + ox + q.w * tx + (q.y * tz - q.z * ty);
    x[i + 1] = c.y + oy + q.w * ty + (q.z * tx - q.x * tz);
    x[i + 2] = c.z + oz + q.w * tz + (q.x * ty - q.y * tx);
    return true;
  }

  /**
   * Any other shape (triangle meshes): the narrowphase manifold of a sphere of
   * radius r against the body. A mesh may report one point per triangle near
   * a seam; each is applied only for the depth the pushes so far have not
   * already removed (depth_k − push·n_k), so a seam does not double the push.
   */
  private projectGeneric(x: Float64Array, i: number, body: RigidBody): boolean {
    const p = this.particlePos;
    p.x = x[i]!; p.y = x[i + 1]!; p.z = x[i + 2]!;
    const m = this.manifold;
    collide(this.particleSphere, p, IDENTITY, body.shape, body.position, body.rotation, 0, m);
    let sx = 0, sy = 0, sz = 0, best = 0;
    for (let k = 0; k < m.pointCount; k++) {
      const mp = m.points[k]!;
      // The manifold normal points from the sphere (A) to the body (B); out is −n.
      const nx = -mp.normal.x, ny = -mp.normal.y, nz = -mp.normal.z;
      const s = mp.depth - (sx * nx + sy * ny + sz * nz);
      if (s <= 0) continue;
      sx += nx * s; sy += ny * s; sz += nz * s;
      if (s > best) { best = s; this.normal.x = nx; this.normal.y = ny; this.normal.z = nz; }
    }
    if (best === 0) return false;
    x[i] = p.x + sx; x[i + 1] = p.y + sy; x[i + 2] = p.z + sz;
    return true;
  }
}
