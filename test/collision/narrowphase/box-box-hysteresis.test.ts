// Box–box manifold reduction keeps the pair's last points through near-ties.
import { describe, expect, it } from 'vitest';
import { Manifold } from '../../../src/collision/narrowphase/manifold';
import { collide } from '../../../src/collision/narrowphase/dispatch';
import { Box } from '../../../src/shapes/box';

function ids(m: Manifold): number[] {
  const out: number[] = [];
  for (let k = 0; k < m.pointCount; k++) out.push(m.points[k]!.id);
  return out.sort((a, b) => a - b);
}

describe('box–box manifold reduction', () => {
  it('a box turned 45° on another (an octagon of 8 clip points) keeps its 4 points while a tilt of ±0.2 mrad swaps the deepest', () => {
    const a = new Box({ x: 0.5, y: 0.5, z: 0.5 });
    const b = new Box({ x: 0.5, y: 0.5, z: 0.5 });
    const posA = { x: 0, y: 0, z: 0 }, rotA = { x: 0, y: 0, z: 0, w: 1 };
    const posB = { x: 0, y: 0.999, z: 0 };
    // 45° about y, then a tilt of ε about z.
    const pose = (eps: number): { x: number; y: number; z: number; w: number } => {
      const c = Math.cos(Math.PI / 8), s = Math.sin(Math.PI / 8), ct = Math.cos(eps / 2), st = Math.sin(eps / 2);
      // (0, 0, st, ct) ⊗ (0, s, 0, c)
      return { x: -st * s, y: ct * s, z: st * c, w: ct * c };
    };
    const fresh = (eps: number): number[] => {
      const m = new Manifold();
      collide(a, posA, rotA, b, posB, pose(eps), 0.02, m);
      return ids(m);
    };
    const plus = fresh(2e-4), minus = fresh(-2e-4);
    console.log(`fresh manifolds: +ε ${plus.join(',')}  −ε ${minus.join(',')}`);
    expect(plus.length).toBe(4);
    // Without history the pick follows the deepest corner: the sets differ.
    expect(minus).not.toEqual(plus);
    // With the pair's manifold carried over, the points stay through 20 flips.
    const m = new Manifold();
    collide(a, posA, rotA, b, posB, pose(2e-4), 0.02, m);
    const first = ids(m);
    let changes = 0;
    for (let k = 0; k < 20; k++) {
      collide(a, posA, rotA, b, posB, pose(k % 2 === 0 ? -2e-4 : 2e-4), 0.02, m);
      if (ids(m).join() !== first.join()) changes++;
    }
    console.log(`carried over: ${first.join(',')}, changed in ${changes} of 20 flips`);
    expect(changes).toBe(0);
  });
});
