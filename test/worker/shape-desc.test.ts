// Cylinder and ConvexHull as worker shape descriptions: describe → rebuild
// gives the same shape (hull vertices within 1e-12 m), bad ones are refused by name.
import { describe, expect, it } from 'vitest';
import { ConvexHull, Cylinder } from '../../src/index';
import { describeShape } from '../../src/worker/describe';
import { shapeFromDesc } from '../../src/worker/host';

describe('worker shape descriptions', () => {
  it('round-trips a cylinder and a hull', () => {
    const c = shapeFromDesc(describeShape(new Cylinder(0.3, 0.7))) as Cylinder;
    expect(c).toBeInstanceOf(Cylinder);
    expect(c.radius).toBe(0.3);
    expect(c.halfHeight).toBe(0.7);
    const h = new ConvexHull([
      { x: 1, y: 0.2, z: 0 }, { x: -0.5, y: 0.1, z: 0.8 }, { x: -0.4, y: -0.2, z: -0.9 }, { x: 0.1, y: 1.1, z: 0.1 }, { x: 0, y: -0.9, z: 0.2 }, { x: 0.3, y: 0.3, z: 0.3 },
    ]);
    const back = shapeFromDesc(describeShape(h)) as ConvexHull;
    expect(back.vertexCount).toBe(h.vertexCount);
    expect(back.faceCount).toBe(h.faceCount);
    expect(back.volume()).toBeCloseTo(h.volume(), 12);
    expect(Math.hypot(back.centerOfMass.x, back.centerOfMass.y, back.centerOfMass.z)).toBeLessThan(1e-12);
    expect(Math.abs(back.rotation.w)).toBeCloseTo(1, 12);
    for (let k = 0; k < h.vertexCount; k++) {
      let best = Infinity;
      for (let j = 0; j < back.vertexCount; j++) {
        best = Math.min(best, Math.hypot(back.vertices[3 * j]! - h.vertices[3 * k]!, back.vertices[3 * j + 1]! - h.vertices[3 * k + 1]!, back.vertices[3 * j + 2]! - h.vertices[3 * k + 2]!));
      }
      expect(best).toBeLessThan(1e-12);
    }
  });
  it('refuses bad descriptions naming the field', () => {
    expect(() => shapeFromDesc({ kind: 'cylinder', radius: Number.NaN, halfHeight: 1 })).toThrow(/Cylinder\.radius/);
    expect(() => shapeFromDesc({ kind: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0] })).toThrow(/coplanar/);
    expect(() => shapeFromDesc({ kind: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], maxVertices: 2 })).toThrow(/maxVertices/);
  });
});
