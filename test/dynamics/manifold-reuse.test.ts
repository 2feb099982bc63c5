// Manifold reuse (Contact.reuseManifold): a pair at rest relative to each
// other keeps its manifold's points and re-measures only the depths.
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, World, type Shape } from '../../src/index';
import { collide } from '../../src/collision/narrowphase/dispatch';
import { Manifold } from '../../src/collision/narrowphase/manifold';
import { Contact, MANIFOLD_REUSE_DISTANCE, MARGIN_ARG } from '../../src/dynamics/contact';
import type { RigidBody } from '../../src/dynamics/body';
import { DT } from '../helpers/world';

const MARGIN = 0.02;

/** A 1 m box resting on a tilted box, 1 mm into it, as a fresh contact with its manifold computed and cached. */
function pair(): { a: RigidBody; b: RigidBody; c: Contact } {
  const world = new World();
  const s = Math.sin(0.05), co = Math.cos(0.05);
  const a = world.createBody({ type: 'static', shape: new Box({ x: 3, y: 0.5, z: 3 }), position: { x: 0, y: -0.5, z: 0 }, rotation: { x: s, y: 0, z: 0, w: co } });
  const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0.2, y: 0.499, z: 0.1 }, rotation: { x: s, y: 0, z: 0, w: co } });
  const c = new Contact();
  c.reset(a, b);
  const m = new Manifold();
  collide(a.shape, a.position, a.rotation, b.shape, b.position, b.rotation, MARGIN, m);
  c.syncPoints(m);
  MARGIN_ARG[0] = MARGIN;
  c.cacheManifold(m);
  return { a, b, c };
}

/** Largest difference in depth and in position between the contact's manifold and one computed afresh. */
function compare(c: Contact, a: RigidBody, b: RigidBody): { depth: number; position: number; count: number } {
  const fresh = new Manifold();
  collide(a.shape, a.position, a.rotation, b.shape, b.position, b.rotation, MARGIN, fresh);
  let depth = 0, position = 0;
  for (let j = 0; j < fresh.pointCount; j++) {
    const f = fresh.points[j]!;
    // The contact's point with the same feature id.
    let k = 0;
    while (k < c.pointCount && c.pointId(k) !== f.id) k++;
    expect(k).toBeLessThan(c.pointCount);
    const p = c.pointPosition(k, { x: 0, y: 0, z: 0 });
    depth = Math.max(depth, Math.abs(c.pointDepth(k) - f.depth));
    position = Math.max(position, Math.hypot(p.x - f.position.x, p.y - f.position.y, p.z - f.position.z));
  }
  return { depth, position, count: fresh.pointCount };
}

describe('manifold reuse', () => {
  it('after a move within the tolerance the reused depths match a fresh manifold to 1e-12 along the normal and points within the tolerance', () => {
    const { a, b, c } = pair();
    expect(c.pointCount).toBe(4);
    // Sink 0.8 × tolerance along the face normal.
    const n = c.pointNormal(0, { x: 0, y: 0, z: 0 });
    const d = 0.8 * MANIFOLD_REUSE_DISTANCE;
    b.setPosition({ x: b.position.x - n.x * d, y: b.position.y - n.y * d, z: b.position.z - n.z * d });
    MARGIN_ARG[0] = MARGIN;
    expect(c.reuseManifold()).toBe(true);
    const sink = compare(c, a, b);
    console.log(`reuse after sinking ${d.toExponential(1)} m: depth error ${sink.depth.toExponential(2)} m, point error ${sink.position.toExponential(2)} m`);
    expect(sink.count).toBe(4);
    expect(sink.depth).toBeLessThan(1e-12);
    expect(sink.position).toBeLessThan(1e-12);
    // Slide sideways 0.7 × tolerance: depths still exact on a face, points stale by at most the slide.
    const { a: a2, b: b2, c: c2 } = pair();
    b2.setPosition({ x: b2.position.x + 0.7 * MANIFOLD_REUSE_DISTANCE, y: b2.position.y, z: b2.position.z });
    MARGIN_ARG[0] = MARGIN;
    expect(c2.reuseManifold()).toBe(true);
    const slide = compare(c2, a2, b2);
    console.log(`reuse after sliding: depth error ${slide.depth.toExponential(2)} m, point error ${slide.position.toExponential(2)} m`);
    expect(slide.depth).toBeLessThan(1e-12);
    expect(slide.position).toBeLessThanOrEqual(0.7 * MANIFOLD_REUSE_DISTANCE);
  });

  it('capsule pairs (on a box face, crossed capsules) reuse: depths after a sink match a fresh manifold to 1e-12', () => {
    // Capsules lie along x (a quarter turn about z) or along z (a quarter turn about x).
    const h = Math.SQRT1_2;
    const alongX = { x: 0, y: 0, z: h, w: h }, alongZ = { x: h, y: 0, z: 0, w: h };
    const cases: Array<[string, Shape, { x: number; y: number; z: number; w: number }, number]> = [
      ['capsule on a box face', new Box({ x: 3, y: 0.5, z: 3 }), { x: 0, y: 0, z: 0, w: 1 }, 0.5],
      ['crossed capsules', new Capsule(0.1, 0.4), alongX, 0.1],
    ];
    for (const [name, shapeA, rotA, topA] of cases) {
      const world = new World();
      const a = world.createBody({ type: 'static', shape: shapeA, position: { x: 0, y: -topA, z: 0 }, rotation: rotA });
      // 1 mm into A.
      const b = world.createBody({ type: 'dynamic', shape: new Capsule(0.1, 0.4), position: { x: 0.05, y: 0.099, z: 0.02 }, rotation: alongZ });
      const c = new Contact();
      c.reset(a, b);
      expect(c.reusesManifold).toBe(true);
      const m = new Manifold();
      collide(a.shape, a.position, a.rotation, b.shape, b.position, b.rotation, MARGIN, m);
      c.syncPoints(m);
      MARGIN_ARG[0] = MARGIN;
      c.cacheManifold(m);
      const d = 0.8 * MANIFOLD_REUSE_DISTANCE;
      b.setPosition({ x: b.position.x, y: b.position.y - d, z: b.position.z });
      MARGIN_ARG[0] = MARGIN;
      expect(c.reuseManifold()).toBe(true);
      const sink = compare(c, a, b);
      console.log(`${name}: ${sink.count} points, depth error ${sink.depth.toExponential(2)} m after sinking ${d.toExponential(1)} m`);
      expect(sink.count).toBeGreaterThan(0);
      expect(sink.depth).toBeLessThan(1e-12);
      expect(sink.position).toBeLessThan(1e-12);
    }
    // Spheres roll: never reused.
    const world = new World();
    const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.1), position: { x: 0, y: 0.1, z: 0 } });
    const floor = world.createBody({ type: 'static', shape: new Box({ x: 3, y: 0.5, z: 3 }), position: { x: 0, y: -0.5, z: 0 } });
    const c = new Contact();
    c.reset(floor, ball);
    expect(c.reusesManifold).toBe(false);
  });

  it('a move beyond the tolerance, a turn beyond it, or a larger margin recomputes', () => {
    const moved = pair();
    moved.b.setPosition({ x: moved.b.position.x + 1.5 * MANIFOLD_REUSE_DISTANCE, y: moved.b.position.y, z: moved.b.position.z });
    MARGIN_ARG[0] = MARGIN;
    expect(moved.c.reuseManifold()).toBe(false);
    // A turn θ moves the bounding sphere (r = √0.75) by θ r: 1.5 × tolerance.
    const turned = pair();
    const r = Math.sqrt(0.75);
    const half = (1.5 * MANIFOLD_REUSE_DISTANCE) / r / 2;
    const q = turned.b.rotation;
    const s = Math.sin(half), co = Math.cos(half);
    // q ⊗ (0, sin, 0, cos): a turn about B's own y axis.
    turned.b.setRotation({ x: q.x * co - q.z * s, y: q.y * co + q.w * s, z: q.z * co + q.x * s, w: q.w * co - q.y * s });
    MARGIN_ARG[0] = MARGIN;
    expect(turned.c.reuseManifold()).toBe(false);
    const wider = pair();
    MARGIN_ARG[0] = MARGIN + 2 * MANIFOLD_REUSE_DISTANCE;
    expect(wider.c.reuseManifold()).toBe(false);
  });

  it('a resting 10-box stack reuses its manifolds and stays within 1 mm of a world that never reuses', () => {
    const build = (): { world: World; top: RigidBody } => {
      const world = new World();
      world.sleeping.enabled = false;
      world.createBody({ type: 'static', shape: new Box({ x: 5, y: 0.5, z: 5 }), position: { x: 0, y: -0.5, z: 0 } });
      let top: RigidBody | null = null;
      for (let i = 0; i < 10; i++) top = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 0, y: 0.5 + i, z: 0 }, friction: 0.6 });
      return { world, top: top! };
    };
    const reusing = build();
    const fresh = build();
    let reused = 0;
    let touching = 0;
    for (let i = 0; i < 600; i++) {
      reusing.world.step(DT);
      if (i >= 120) {
        reused += reusing.world.counters.manifoldsReused;
        reusing.world.debugDraw({ contact: (c) => { if (c.pointCount > 0) touching++; } });
      }
      // The other world forgets every cached manifold before each step (internal: no public switch for reuse).
      for (const c of fresh.world.contacts) c.manifoldCached = false;
      fresh.world.step(DT);
      expect(fresh.world.counters.manifoldsReused).toBe(0);
    }
    const total = touching;
    const p = reusing.top.position, f = fresh.top.position;
    const gap = Math.hypot(p.x - f.x, p.y - f.y, p.z - f.z);
    console.log(`10-box stack: ${reused} of ${total} touching manifolds reused over steps 120–600; top differs from the no-reuse world by ${(gap * 1000).toFixed(4)} mm`);
    expect(reused / total).toBeGreaterThan(0.9);
    expect(gap).toBeLessThan(0.001);
  });
});
