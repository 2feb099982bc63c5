/**
 * A triangle's plane, extended beyond the triangle, is no surface. Fuzz seed
 * 1002 (npm run fuzz -- --seed 1002 --worlds 1): a thin capsule sliding on
 * the floor box 10 m beside the terrain, turning fast, had a speculative
 * margin of 24 m; a terrain triangle at z ≈ 0 sloping 2° towards +z, its
 * plane extended under the capsule, gave a point 0.7 m deep. It spun the
 * capsule to 2549 rad/s and took the manifold's slots while the capsule
 * slid onto the terrain, which it went 0.14 m into.
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import type { Quat } from '../../../src/math/quat';
import { Capsule } from '../../../src/shapes/capsule';
import { TriangleMesh } from '../../../src/shapes/triangle-mesh';
import { seeded } from '../../helpers/random';

const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
const ORIGIN = { x: 0, y: 0, z: 0 };
const SLOPE = 0.03;

/** A 20 × 10 m slope from y = 0 along z = 0 down to y = −0.3 at z = 10, 2 triangles. */
function slope(): TriangleMesh {
  return new TriangleMesh([-10, 0, 0, 10, 0, 0, 10, -10 * SLOPE, 10, -10, -10 * SLOPE, 10], [0, 2, 1, 0, 3, 2]);
}

/** Distance from segment p0 + s·d (s ∈ [0, 1]) to the slope's rectangle, by dense sampling of s (the rectangle's nearest point is a clamp in its own frame). */
function segmentToSlope(p0: { x: number; y: number; z: number }, d: { x: number; y: number; z: number }): number {
  const len = Math.hypot(1, SLOPE);
  // Rectangle frame: u along x ∈ [−10, 10], v along (0, −SLOPE, 1)/len ∈ [0, 10·len], w the normal (0, 1, SLOPE)/len.
  let best = Infinity;
  for (let i = 0; i <= 2000; i++) {
    const s = i / 2000;
    const x = p0.x + d.x * s, y = p0.y + d.y * s, z = p0.z + d.z * s;
    const u = Math.min(10, Math.max(-10, x));
    const v = Math.min(10 * len, Math.max(0, (-SLOPE * y + z) / len));
    const w = (y + SLOPE * z) / len;
    const du = x - u, dv = (-SLOPE * y + z) / len - v;
    best = Math.min(best, Math.hypot(du, dv, w));
  }
  return best;
}

describe('capsule beside a mesh: no points from the plane beyond the triangle', () => {
  it('the seed 1002 capsule 10 m before the slope, margin 24 m: no point deeper than its true distance allows', () => {
    const capsule = new Capsule(0.0341, 1.22);
    const m = new Manifold();
    // The repro's pose: centre 0.44 m up, the axis 19° off horizontal, lower end on the floor (y = 0).
    const rot: Quat = { x: -0.7730524269387496, y: -0.5575937971801633, z: 0.2652644396464933, w: -0.14530615819485398 };
    const pos = { x: 0, y: 0.4406713905009899, z: -10.57 };
    collide(capsule, pos, rot, slope(), ORIGIN, ID, 24, m);
    const q = rot;
    const a = { x: 2 * (q.x * q.y - q.w * q.z), y: 1 - 2 * (q.x * q.x + q.z * q.z), z: 2 * (q.y * q.z + q.w * q.x) };
    const hh = capsule.halfHeight;
    const gap = segmentToSlope({ x: pos.x - a.x * hh, y: pos.y - a.y * hh, z: pos.z - a.z * hh }, { x: 2 * a.x * hh, y: 2 * a.y * hh, z: 2 * a.z * hh }) - capsule.radius;
    let deepest = -Infinity;
    for (let k = 0; k < m.pointCount; k++) deepest = Math.max(deepest, m.points[k]!.depth);
    console.log(`seed 1002 pose: ${m.pointCount} points, deepest ${deepest.toFixed(4)} m, true gap ${gap.toFixed(4)} m (the extended plane gave +0.32 m before)`);
    expect(gap).toBeGreaterThan(9);
    for (let k = 0; k < m.pointCount; k++) expect(m.points[k]!.depth).toBeLessThanOrEqual(-gap + 1e-6);
  });

  it('200 random capsules within 0–12 m before the slope, margins up to 30 m: every point at most as deep as −(true gap) (seed 1602)', () => {
    const rng = seeded(1602, 'capsules before the slope');
    let checked = 0, worst = -Infinity;
    for (let i = 0; i < 200; i++) {
      const capsule = new Capsule(rng.range(0.02, 0.3), rng.range(0.1, 1.5));
      const rot = rng.quat();
      const a = { x: 2 * (rot.x * rot.y - rot.w * rot.z), y: 1 - 2 * (rot.x * rot.x + rot.z * rot.z), z: 2 * (rot.y * rot.z + rot.w * rot.x) };
      const hh = capsule.halfHeight, r = capsule.radius;
      // Resting on y = 0 (a floor beside the mesh): the lowest point at y = 0, entirely at z < 0.
      const reachZ = Math.abs(a.z) * hh + r;
      const pos = { x: rng.range(-8, 8), y: Math.abs(a.y) * hh + r, z: -reachZ - rng.range(0.05, 12) };
      const m = new Manifold();
      collide(capsule, pos, rot, slope(), ORIGIN, ID, rng.range(1, 30), m);
      const gap = segmentToSlope({ x: pos.x - a.x * hh, y: pos.y - a.y * hh, z: pos.z - a.z * hh }, { x: 2 * a.x * hh, y: 2 * a.y * hh, z: 2 * a.z * hh }) - r;
      for (let k = 0; k < m.pointCount; k++) {
        worst = Math.max(worst, m.points[k]!.depth + gap);
        checked++;
      }
    }
    console.log(`${checked} points; largest depth + true gap ${worst.toExponential(2)} m (0 or less: no point claims more than the distance)`);
    expect(checked).toBeGreaterThan(50);
    expect(worst).toBeLessThan(1e-3);
  });
});
