/**
 * loadCoreRadius (minkowski-pair.ts) reads a shape's core radius per shape
 * kind, so that the narrowphase never loads the double field megamorphically
 * (that load boxes it: docs/cylinder-hull.md). It must agree with the field
 * for every convex class, including the classes it answers 0 for by kind.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, ConvexHull, Cylinder, Sphere, type ConvexShape } from '../../../src/index';
import { loadCoreRadius } from '../../../src/collision/narrowphase/minkowski-pair';

describe('loadCoreRadius', () => {
  it('equals shape.coreRadius for every convex shape class', () => {
    const cube = [-0.5, 0.5].flatMap((x) => [-0.5, 0.5].flatMap((y) => [-0.5, 0.5].map((z) => ({ x, y, z }))));
    const shapes: ConvexShape[] = [
      new Sphere(0.37), new Sphere(2), new Capsule(0.21, 0.5), new Box({ x: 0.3, y: 0.2, z: 0.1 }),
      new Cylinder(0.4, 0.25), new ConvexHull(cube),
    ];
    const out = new Float64Array(1);
    for (const s of shapes) {
      out[0] = NaN;
      loadCoreRadius(s, out, 0);
      expect(out[0], `kind ${s.kind}`).toBe(s.coreRadius);
    }
    // The rounded kinds report their radius, the others 0.
    expect(shapes.map((s) => s.coreRadius)).toEqual([0.37, 2, 0.21, 0, 0, 0]);
  });
});
