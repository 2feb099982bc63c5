// A box lying across another box's edge (a ragdoll's pelvis across a stair
// nose) crosses it with two parallel edges at nearly equal depth. The
// edge–edge axis wins there, and one point at the deeper crossing let the
// box rock about it until the other crossing became deeper, then back: a
// two-step limit cycle, and the ragdoll never slept. Both crossings are
// points now, with the same two ids whichever crossing is deeper.
import { describe, expect, it } from 'vitest';
import { Box } from '../../../src/shapes/box';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import { collide } from '../../../src/collision/narrowphase/dispatch';

function unit(q: { x: number; y: number; z: number; w: number }): { x: number; y: number; z: number; w: number } {
  const l = Math.hypot(q.x, q.y, q.z, q.w);
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
}

describe('box across a box edge', () => {
  // The two poses the pelvis alternated between (from the stairs run), on the step whose nose runs along x at y = 2.1, z = 1.6.
  const step = new Box({ x: 10, y: 1.55, z: 0.2 });
  const pelvis = new Box({ x: 0.15, y: 0.09, z: 0.1 });
  const stepPos = { x: 0, y: 0.55, z: 1.4 }, stepRot = { x: 0, y: 0, z: 0, w: 1 };
  const poses = [
    { p: { x: -0.5458, y: 2.1930, z: 1.5962 }, q: unit({ x: -0.0444, y: -0.6547, z: -0.7525, w: 0.0551 }) },
    { p: { x: -0.5455, y: 2.1931, z: 1.5961 }, q: unit({ x: -0.0496, y: -0.6552, z: -0.7520, w: 0.0518 }) },
  ];

  it('both crossings are points, with the same ids in both poses and both argument orders', () => {
    const ids: string[] = [];
    for (const { p, q } of poses) {
      const ab = new Manifold(), ba = new Manifold();
      collide(step, stepPos, stepRot, pelvis, p, q, 0.02, ab);
      collide(pelvis, p, q, step, stepPos, stepRot, 0.02, ba);
      const pts = ab.points.slice(0, ab.pointCount);
      console.log(`pose: ${pts.map((pt) => `id ${pt.id} x ${pt.position.x.toFixed(3)} depth ${(pt.depth * 1000).toFixed(2)} mm`).join(' | ')}`);
      expect(ab.pointCount).toBe(2);
      expect(ba.pointCount).toBe(2);
      // The crossings are the pelvis's two edges 0.3 m apart, both in contact.
      expect(Math.abs(pts[0]!.position.x - pts[1]!.position.x)).toBeCloseTo(0.3, 2);
      for (const pt of pts) expect(pt.depth).toBeGreaterThan(0.005);
      ids.push(pts.map((pt) => pt.id).sort().join(','));
    }
    expect(ids[0]).toBe(ids[1]);
  });
});
