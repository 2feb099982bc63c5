/**
 * Scene queries with endpoints far beyond the world (a finite `to` whose
 * squared distance overflows), and a QueryRegion whose public fields were
 * written. A 20 m floor box with its top at y = 0; rays from 10 m above it.
 * Tolerances: 1e-9 m on points and distances, 1e-12 relative on fractions.
 */
import { describe, expect, it } from 'vitest';
import {
  Box, Compound, OverlapCollector, QueryRegion, Sphere, TriangleMesh, World, type OverlapContact, type RaycastHit, type RigidBody, type ShapeCastHit, type WorldSnapshot,
} from '../../src/index';

function floorWorld(): World {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  return world;
}

describe('raycast to a far endpoint (|to − from|² overflows beyond 1.3e154)', () => {
  for (const far of [1e155, 1e200, 1e300, Number.MAX_VALUE]) {
    it(`straight down to y = −${far}: hits the floor top 10 m below, fraction 10 / (${far} + 10)`, () => {
      const hit = floorWorld().raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -far, z: 0 });
      expect(hit).not.toBeNull();
      expect(Math.abs(hit!.point.y)).toBeLessThan(1e-9);
      expect(hit!.point.x).toBe(0);
      expect(hit!.point.z).toBe(0);
      expect(hit!.normal).toEqual({ x: 0, y: 1, z: 0 });
      expect(Math.abs(hit!.distance - 10)).toBeLessThan(1e-9);
      expect(Math.abs(hit!.fraction / (10 / far) - 1)).toBeLessThan(1e-12);
    });
  }

  it('slanted to (1e300, −1e300, 0): along (1, −1, 0)/√2 it meets the floor top at x = 10, 10√2 m away', () => {
    const hit = floorWorld().raycast({ x: 0, y: 10, z: 0 }, { x: 1e300, y: -1e300, z: 0 });
    expect(hit).not.toBeNull();
    expect(Math.abs(hit!.point.x - 10)).toBeLessThan(1e-9);
    expect(Math.abs(hit!.point.y)).toBeLessThan(1e-9);
    expect(Math.abs(hit!.distance - 10 * Math.SQRT2)).toBeLessThan(1e-9);
    // |to − from| = √2·1e300 (the 10 m offset is below the last bit).
    expect(Math.abs(hit!.fraction / (10 / 1e300) - 1)).toBeLessThan(1e-12);
  });

  it('a small slope far away: to (1e-3, −1e200, 0) from (0, 10, 0) is straight down to the last bit', () => {
    const hit = floorWorld().raycast({ x: 0, y: 10, z: 0 }, { x: 1e-3, y: -1e200, z: 0 });
    expect(hit).not.toBeNull();
    expect(Math.abs(hit!.point.x)).toBeLessThan(1e-9);
    expect(Math.abs(hit!.distance - 10)).toBeLessThan(1e-9);
  });

  it('both ends at ±1.7e308 (to − from overflows itself): the ray along the floor box hits its side at half the segment', () => {
    // From x = −1.7e308 the side x = −10 is 1.7e308 − 10 away, which rounds to 1.7e308: fraction 1/2.
    const hit = floorWorld().raycast({ x: -1.7e308, y: -0.5, z: 0 }, { x: 1.7e308, y: -0.5, z: 0 });
    expect(hit).not.toBeNull();
    expect(hit!.normal).toEqual({ x: -1, y: 0, z: 0 });
    expect(hit!.distance).toBe(1.7e308);
    expect(hit!.fraction).toBe(0.5);
  });
});

describe('QueryRegion: what a caller writes on it does not reach the queries', () => {
  const ROT = { x: 0, y: 0, z: 0, w: 1 };
  /** The floor, a crate 10 m off to the side, and a region filled around the origin (±2 m: the floor only). */
  function scene(): { world: World; region: QueryRegion; crateId: number } {
    const world = floorWorld();
    const crate = world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 0.5, z: 0.5 }), position: { x: 10, y: 3, z: 0 } });
    const region = new QueryRegion();
    world.fillQueryRegion({ min: { x: -2, y: -2, z: -2 }, max: { x: 2, y: 2, z: 2 } }, region);
    expect(region.count).toBe(1);
    return { world, region, crateId: crate.id };
  }
  /** A 1 m sphere centred on the floor top: one contact, depth 1 m, normal up. */
  function expectFloorContact(found: readonly OverlapContact[]): void {
    expect(found.length).toBe(1);
    expect(found[0]!.body.id).toBe(0);
    expect(Math.abs(found[0]!.depth - 1)).toBeLessThan(1e-9);
    expect(Math.abs(found[0]!.normal.x) + Math.abs(found[0]!.normal.z)).toBe(0);
    expect(found[0]!.normal.y).toBe(1);
  }

  for (const value of [50, 0, NaN, '1']) {
    it(`count is read-only: writing ${String(value)} throws a TypeError and the region still gives the floor contact`, () => {
      const { world, region } = scene();
      expect(() => { (region as { count: unknown }).count = value; }).toThrow(TypeError);
      expect(region.count).toBe(1);
      // It used to throw "Cannot read properties of undefined (reading 'isSensor')" (50) or find nothing.
      expectFloorContact(world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ROT, { region }));
      const hit = world.raycast({ x: 0, y: 1, z: 0 }, { x: 0, y: -1, z: 0 }, { region });
      expect(hit!.distance).toBe(1);
    });
  }

  it('emptying or overwriting bodies changes nothing the queries use; the next fill writes them again', () => {
    const { world, region, crateId } = scene();
    region.bodies.length = 0;
    expectFloorContact(world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ROT, { region }));
    expect(world.shapeCast(new Sphere(0.25), { x: 0, y: 1, z: 0 }, ROT, { x: 0, y: -1, z: 0 }, { region })!.fraction).toBeCloseTo(0.75, 5);
    expect(world.raycast({ x: 0, y: 1, z: 0 }, { x: 0, y: -1, z: 0 }, { region })!.distance).toBe(1);
    region.bodies.push(world.getBodyById(crateId)!);
    expectFloorContact(world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ROT, { region }));
    world.fillQueryRegion({ min: { x: -2, y: -2, z: -2 }, max: { x: 2, y: 2, z: 2 } }, region);
    expect(region.bodies.length).toBe(1);
    expect(region.bodies[0]!.id).toBe(0);
  });

  it('refused calls (step(NaN), createBody with a bad shape, removeBody of a removed body) leave a filled region current', () => {
    const { world, region } = scene();
    const loose = world.createBody({ type: 'dynamic', shape: new Sphere(0.1), position: { x: 5, y: 5, z: 5 } });
    world.removeBody(loose);
    world.fillQueryRegion({ min: { x: -2, y: -2, z: -2 }, max: { x: 2, y: 2, z: 2 } }, region);
    // Internal: the world's query version, which a region must match to be used.
    const current = (): boolean => (region as unknown as { version: number }).version === (world as unknown as { queries: { version: number } }).queries.version;
    expect(current()).toBe(true);
    expect(() => world.step(NaN)).toThrow(/dt/);
    expect(() => world.createBody({ type: 'dynamic', shape: { kind: 0 } as never })).toThrow(/shape/);
    expect(() => world.removeBody(loose)).toThrow(/already removed/);
    expect(current()).toBe(true);
    world.step(1 / 60);
    expect(current()).toBe(false);
  });

  it('widening box does not make the region cover a query outside what was filled: the crate 10 m away is found', () => {
    const { world, region, crateId } = scene();
    region.box.min.x = -100; region.box.max.x = 100;
    region.box.min.y = -100; region.box.max.y = 100;
    // A 1 m sphere at the crate's centre: one contact with it, not the empty answer of a region holding only the floor.
    const found = world.overlap(new Sphere(1), { x: 10, y: 3, z: 0 }, ROT, { region });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => c.body.id === crateId)).toBe(true);
    expect(world.raycast({ x: 10, y: 10, z: 0 }, { x: 10, y: 0, z: 0 }, { region })!.distance).toBeCloseTo(6.5, 9);
  });
});

/** The first difference between two snapshots, or '' when they are the same bit for bit (queries must never change the world). */
function snapshotDiff(x: WorldSnapshot, y: WorldSnapshot): string {
  for (const k of ['world', 'bodies', 'bodyInts', 'contacts', 'contactInts', 'broadphaseInts', 'broadphaseBounds', 'joints', 'jointInts'] as const) {
    const p = x[k] as ArrayLike<number>, q = y[k] as ArrayLike<number>;
    if (p.length !== q.length) return `${k}: length ${p.length} vs ${q.length}`;
    for (let i = 0; i < p.length; i++) if (!Object.is(p[i], q[i])) return `${k}[${i}]: ${p[i]} vs ${q[i]}`;
  }
  return '';
}

describe('queries run from inside another query\'s filter answer as they would alone (third probe)', () => {
  const ID = { x: 0, y: 0, z: 0, w: 1 };
  /** The probe's scene: the floor, a wall at x = 5 and six 0.4 m balls in a row at y = 3, x = −4 … 3.5. */
  function ballRow(): { world: World; balls: RigidBody[] } {
    const world = floorWorld();
    world.createBody({ type: 'static', shape: new Box({ x: 0.5, y: 5, z: 5 }), position: { x: 5, y: 0, z: 0 } });
    const balls: RigidBody[] = [];
    for (let i = 0; i < 6; i++) balls.push(world.createBody({ type: 'static', shape: new Sphere(0.4), position: { x: -4 + i * 1.5, y: 3, z: 0 } }));
    world.step(1 / 60);
    return { world, balls };
  }
  const copyHit = (h: RaycastHit | ShapeCastHit | null): unknown => (h === null ? null : { ...h, body: h.body.id, point: { ...h.point }, normal: { ...h.normal } });
  const copyContacts = (cs: readonly OverlapContact[]): unknown[] => cs.map((c) => ({ ...c, body: c.body.id, point: { ...c.point }, normal: { ...c.normal } }));

  it('raycast in a raycast filter: the outer hit is the floor top at the origin, not the sideways ray\'s point (−10, 0, 0); the inner hits equal the ray alone', () => {
    const { world } = ballRow();
    const down = [{ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 }] as const, side = [{ x: -20, y: 0, z: 0 }, { x: 20, y: 0, z: 0 }] as const;
    const aloneDown = copyHit(world.raycast(...down));
    const aloneSide = copyHit(world.raycast(...side));
    const inner: unknown[] = [];
    const before = world.snapshot();
    const nested = copyHit(world.raycast(...down, { filter: () => { inner.push(copyHit(world.raycast(...side))); return true; } }));
    expect(nested).toEqual(aloneDown);
    expect((nested as RaycastHit).point).toEqual({ x: 0, y: 0, z: 0 });
    expect(inner.length).toBeGreaterThan(0);
    for (const h of inner) expect(h).toEqual(aloneSide);
    expect((aloneSide as RaycastHit).point.x).toBe(-10);
    expect(snapshotDiff(before, world.snapshot())).toBe('');
  });

  it('raycast along the balls skipping ball 0, its filter running a raycast: ball 1 at x = −2.9 (it missed)', () => {
    const { world, balls } = ballRow();
    const from = { x: -20, y: 3, z: 0 }, to = { x: 20, y: 3, z: 0 };
    const alone = copyHit(world.raycast(from, to, { filter: (b) => b !== balls[0] }));
    const nested = copyHit(world.raycast(from, to, { filter: (b) => { world.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 }); return b !== balls[0]; } }));
    expect(nested).toEqual(alone);
    expect((nested as { body: number }).body).toBe(balls[1]!.id);
    expect(Math.abs((nested as RaycastHit).point.x + 2.9)).toBeLessThan(1e-9);
  });

  it('overlap in an overlap filter: all 8 bodies (it found 2); the inner overlaps equal the same overlap alone', () => {
    const { world } = ballRow();
    const wide = new Box({ x: 10, y: 4, z: 1 }), small = new Sphere(0.1);
    const alone = copyContacts(world.overlap(wide, { x: 0, y: 1, z: 0 }, ID));
    const innerAlone = copyContacts(world.overlap(small, { x: 5, y: 0, z: 0 }, ID));
    const inner: unknown[][] = [];
    const nested = copyContacts(world.overlap(wide, { x: 0, y: 1, z: 0 }, ID, { filter: () => { inner.push(copyContacts(world.overlap(small, { x: 5, y: 0, z: 0 }, ID))); return true; } }));
    expect(nested).toEqual(alone);
    expect(new Set((nested as { body: number }[]).map((c) => c.body)).size).toBe(8);
    expect(inner.length).toBe(8);
    for (const c of inner) expect(c).toEqual(innerAlone);
    expect(innerAlone.length).toBeGreaterThan(0);
  });

  it('shapeCast, overlap and raycast nested three deep, through a QueryRegion, and sharing one `out`: each equals its query alone', () => {
    const { world, balls } = ballRow();
    const region = new QueryRegion();
    world.fillQueryRegion({ min: { x: -25, y: -2, z: -2 }, max: { x: 25, y: 6, z: 2 } }, region);
    const probe = new Sphere(0.2), from = { x: -20, y: 3, z: 0 }, along = { x: 40, y: 0, z: 0 };
    const skip0 = (b: RigidBody): boolean => b !== balls[0];
    const castAlone = copyHit(world.shapeCast(probe, from, ID, along, { filter: skip0, region }));
    const overlapAlone = copyContacts(world.overlap(new Sphere(1), { x: 2, y: 3, z: 0 }, ID, { region }));
    const rayAlone = copyHit(world.raycast({ x: 2, y: 10, z: 0 }, { x: 2, y: -10, z: 0 }));
    const shared: ShapeCastHit = { fraction: -1, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body: balls[0]!, triangle: -1, child: -1 };
    let inner = 0;
    const nested = world.shapeCast(probe, from, ID, along, {
      region, out: shared,
      filter: (b) => {
        const o = world.overlap(new Sphere(1), { x: 2, y: 3, z: 0 }, ID, {
          region,
          filter: () => { expect(copyHit(world.raycast({ x: 2, y: 10, z: 0 }, { x: 2, y: -10, z: 0 }))).toEqual(rayAlone); inner++; return true; },
        });
        expect(copyContacts(o)).toEqual(overlapAlone);
        // The same `out` as the running cast: it is written after the walk, so the outer answer is still its own.
        world.shapeCast(probe, { x: 0, y: 10, z: 0 }, ID, { x: 0, y: -20, z: 0 }, { out: shared });
        return skip0(b);
      },
    });
    expect(nested).toBe(shared);
    expect(copyHit(nested)).toEqual(castAlone);
    expect((castAlone as { body: number }).body).toBe(balls[1]!.id);
    expect(inner).toBeGreaterThan(0);
  });

  it('refused by name: a nested overlap filling the running overlap\'s collector, a nested fill of the region a running query reads', () => {
    const { world } = ballRow();
    const collector = new OverlapCollector();
    const region = new QueryRegion();
    // It covers the wide box's reach (y −3 … 5), so the overlap reads its bodies.
    world.fillQueryRegion({ min: { x: -25, y: -4, z: -2 }, max: { x: 25, y: 6, z: 2 } }, region);
    const alone = copyContacts(world.overlap(new Box({ x: 10, y: 4, z: 1 }), { x: 0, y: 1, z: 0 }, ID, { region }));
    const errors: string[] = [];
    const found = world.overlap(new Box({ x: 10, y: 4, z: 1 }), { x: 0, y: 1, z: 0 }, ID, {
      collector, region,
      filter: () => {
        try { world.overlap(new Sphere(0.1), { x: 5, y: 0, z: 0 }, ID, { collector }); } catch (e) { errors.push((e as Error).message); }
        try { world.fillQueryRegion({ min: { x: 4, y: -1, z: -1 }, max: { x: 6, y: 1, z: 1 } }, region); } catch (e) { errors.push((e as Error).message); }
        return true;
      },
    });
    expect(errors.length).toBe(16);
    expect(errors[0]).toBe('overlap: options.collector is being filled by the query whose filter or collector is running; pass another one');
    expect(errors[1]).toBe('fillQueryRegion: region is being read by the query whose filter or collector is running; fill another one');
    expect(copyContacts(found)).toEqual(alone);
    expect(region.count).toBe(8);
  });
});

describe('query rotations are normalised (third probe)', () => {
  // A 1 m cube centred on the floor top: four corners 0.5 m deep. A half turn about (1, 1, 0)/√2 maps the cube onto itself.
  const cube = new Box({ x: 0.5, y: 0.5, z: 0.5 });
  for (const q of [{ x: 1e200, y: 1e200, z: 0, w: 0 }, { x: 1, y: 1, z: 0, w: 0 }, { x: 1e-200, y: 1e-200, z: 0, w: 0 }]) {
    it(`overlap and shapeCast with rotation (${q.x}, ${q.y}, 0, 0) answer as the unit half turn: 4 contacts 0.5 m deep; a cast from y = 5 stops at 0.45`, () => {
      const world = floorWorld();
      const found = world.overlap(cube, { x: 0, y: 0, z: 0 }, q);
      expect(found.length).toBe(4);
      for (const c of found) {
        expect(Math.abs(c.depth - 0.5)).toBeLessThan(1e-9);
        expect(Math.abs(c.normal.y - 1)).toBeLessThan(1e-9);
      }
      const hit = world.shapeCast(cube, { x: 0, y: 5, z: 0 }, q, { x: 0, y: -10, z: 0 });
      expect(hit).not.toBeNull();
      // The bottom face (y = 4.5) meets the floor top after 4.5 of the 10 m.
      expect(Math.abs(hit!.fraction - 0.45)).toBeLessThan(1e-6);
    });
  }

  it('the overflowing rotation gives the same contacts, bit for bit, as its unit-sized multiple', () => {
    const world = floorWorld();
    const big = world.overlap(cube, { x: 0.3, y: 0.2, z: 0 }, { x: 1e200, y: 2e200, z: 0, w: 1e200 }).map((c) => ({ ...c, point: { ...c.point }, normal: { ...c.normal } }));
    const unit = world.overlap(cube, { x: 0.3, y: 0.2, z: 0 }, { x: 1, y: 2, z: 0, w: 1 }).map((c) => ({ ...c, point: { ...c.point }, normal: { ...c.normal } }));
    expect(big.length).toBeGreaterThan(0);
    expect(big).toEqual(unit);
  });
});

describe('results written into frozen objects are refused at the call (third probe)', () => {
  const ID = { x: 0, y: 0, z: 0, w: 1 };
  function hitRecord(): RaycastHit {
    return { body: null as unknown as RigidBody, point: { x: 7, y: 7, z: 7 }, normal: { x: 7, y: 7, z: 7 }, distance: 7, fraction: 7, triangle: 7, child: 7 };
  }
  const cases: [string, (w: World) => unknown, RegExp, () => RaycastHit][] = [];
  for (const [what, make, message] of [
    ['a frozen out', () => Object.freeze(hitRecord()), /^raycast: options\.out must be writable/],
    ['a frozen out.point', () => { const h = hitRecord(); Object.freeze(h.point); return h; }, /^raycast: options\.out\.point must be writable/],
    ['a sealed out without child', () => { const h = hitRecord(); delete h.child; return Object.seal(h); }, /^raycast: options\.out must be writable/],
    ['a frozen out.normal', () => { const h = hitRecord(); Object.freeze(h.normal); return h; }, /^raycast: options\.out\.normal must be writable/],
  ] as const) {
    let out: RaycastHit | null = null;
    cases.push([`raycast into ${what}`, (w) => w.raycast({ x: 0, y: 10, z: 0 }, { x: 0, y: -10, z: 0 }, { out: out = make() }), message, () => out!]);
  }
  for (const [what, message] of [['a frozen out.normal', /^shapeCast: options\.out\.normal must be writable/]] as const) {
    let out: RaycastHit | null = null;
    cases.push([`shapeCast into ${what}`, (w) => { out = hitRecord(); Object.freeze(out.normal); return w.shapeCast(new Sphere(0.5), { x: 0, y: 5, z: 0 }, ID, { x: 0, y: -10, z: 0 }, { out: out as never }); }, message, () => out!]);
  }
  for (const [label, call, message, outOf] of cases) {
    it(`${label}: a TypeError naming the field; out and the world untouched (it used to half-write out)`, () => {
      const world = floorWorld();
      const before = world.snapshot();
      expect(() => call(world)).toThrow(message);
      const out = outOf();
      expect(out.body).toBe(null);
      expect([out.point.x, out.normal.y, out.distance, out.fraction, out.triangle]).toEqual([7, 7, 7, 7, 7]);
      expect(snapshotDiff(before, world.snapshot())).toBe('');
    });
  }

  it('overlap with a collector whose contacts array is frozen or sealed: a TypeError naming options.collector.contacts', () => {
    const world = floorWorld();
    const before = world.snapshot();
    for (const lock of [Object.freeze, Object.seal, Object.preventExtensions]) {
      const collector = new OverlapCollector();
      lock(collector.contacts);
      expect(() => world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ID, { collector })).toThrow(/^overlap: options\.collector\.contacts must be writable/);
      expect(collector.contacts.length).toBe(0);
    }
    expect(snapshotDiff(before, world.snapshot())).toBe('');
  });

  it('a pooled contact the caller froze after an earlier overlap is left as it was; the next overlap answers in a fresh one', () => {
    const world = floorWorld();
    const collector = new OverlapCollector();
    const first = world.overlap(new Sphere(1), { x: 0, y: 0, z: 0 }, ID, { collector })[0]!;
    expect(first.depth).toBe(1);
    Object.freeze(first);
    const again = world.overlap(new Sphere(0.5), { x: 0, y: 0.25, z: 0 }, ID, { collector });
    expect(again.length).toBe(1);
    expect(again[0]).not.toBe(first);
    expect(Math.abs(again[0]!.depth - 0.25)).toBeLessThan(1e-9);
    expect(first.depth).toBe(1);
  });

  it('a shape overlap and shapeCast cannot take is refused naming its kind', () => {
    const world = floorWorld();
    const mesh = new TriangleMesh([0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 1, 2]);
    const compound = new Compound([{ shape: new Sphere(0.5), position: { x: 0, y: 0, z: 0 } }]);
    expect(() => world.overlap(compound as never, { x: 0, y: 0, z: 0 }, ID)).toThrow(/^overlap: shape must be a convex shape \(Sphere, Box, Capsule, Cylinder or ConvexHull; got a Compound\)$/);
    expect(() => world.overlap(mesh as never, { x: 0, y: 0, z: 0 }, ID)).toThrow(/; got a TriangleMesh\)$/);
    expect(() => world.shapeCast(mesh as never, { x: 0, y: 0, z: 0 }, ID, { x: 1, y: 0, z: 0 })).toThrow(/^shapeCast: shape must be a convex shape .*; got a TriangleMesh\)$/);
    expect(() => world.shapeCast(null as never, { x: 0, y: 0, z: 0 }, ID, { x: 1, y: 0, z: 0 })).toThrow(/; got null\)$/);
  });
});
