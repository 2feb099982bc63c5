/**
 * HeightField: validation, memory per sample, ray casts with analytic
 * answers (grid walk), and contacts and shape casts against the same terrain
 * as a TriangleMesh (toTriangleMesh: the same triangles): a ball rolling
 * over both follows the same path, boxes and capsules rest at the same height.
 * Scenario steps: 1/60 s, the default solver.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, HeightField, Sphere, World, type RigidBody } from '../../src/index';
import { shapeCastPair, ShapeCastPairHit } from '../../src/index';

const DT = 1 / 60;

/** Rolling hills, heights in metres before scale.y. */
function hills(rows: number, columns: number): Float64Array {
  const s = new Float64Array(rows * columns);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) s[r * columns + c] = 0.6 * Math.sin(0.31 * c) * Math.cos(0.23 * r) + 0.02 * c;
  return s;
}

const ID = { x: 0, y: 0, z: 0, w: 1 };

describe('HeightField validation', () => {
  it('refuses bad input by name', () => {
    const one = { x: 1, y: 1, z: 1 };
    expect(() => new HeightField([0, 0], 1, 2, one)).toThrow(/rows must be an integer ≥ 2/);
    expect(() => new HeightField([0, 0], 2, 1, one)).toThrow(/columns must be an integer ≥ 2/);
    expect(() => new HeightField([0, 0, 0], 2, 2, one)).toThrow(/samples must hold rows × columns = 4/);
    expect(() => new HeightField([0, Infinity, 0, 0], 2, 2, one)).toThrow(/samples\[1\] must be a finite number or NaN/);
    expect(() => new HeightField([0, 0, 0, 0], 2, 2, { x: 1, y: 0, z: 1 })).toThrow(/scale\.y/);
    expect(() => new HeightField([0, 0, 0, 0], 2, 2, { x: -1, y: 1, z: 1 })).toThrow(/scale\.x/);
    expect(() => new HeightField([0, 0, 0, 0], 2, 2, one, { holes: [1, 0] })).toThrow(/holes must hold one flag per cell/);
    expect(() => new HeightField([NaN, 0, 0, 0], 2, 2, one)).toThrow(/every cell is a hole/);
    expect(() => new World().createBody({ type: 'dynamic', shape: new HeightField([0, 0, 0, 0], 2, 2, one) })).toThrow(/must be static/);
  });
});

describe('HeightField memory', () => {
  it('holds about 9 bytes per sample (one double, one hole byte per cell), against a TriangleMesh of the same terrain', () => {
    const n = 257;
    const field = new HeightField(hills(n, n), n, n, { x: 0.5, y: 1, z: 0.5 });
    const perSample = field.bytesPerSample;
    const mesh = field.toTriangleMesh();
    const m = mesh as unknown as Record<string, ArrayBufferView>;
    let meshBytes = 0;
    for (const key of ['vertices', 'indices', 'corners', 'normals', 'featureFlags', 'edgeNeighbors', 'nodeBounds', 'nodeRight', 'nodeStart', 'nodeCount', 'order', 'triBounds']) meshBytes += m[key]!.byteLength;
    console.log(`${n}×${n} samples: HeightField ${perSample.toFixed(3)} B/sample, TriangleMesh of the same terrain ${(meshBytes / (n * n)).toFixed(1)} B/sample`);
    expect(perSample).toBeGreaterThan(8.9);
    expect(perSample).toBeLessThan(9.5);
    expect(meshBytes / (n * n)).toBeGreaterThan(20 * perSample);
  });
});

describe('HeightField ray casts (grid walk)', () => {
  it('hits a flat field, a ramp and passes through holes and from below', () => {
    const world = new World();
    const n = 11;
    // Ramp y = 0.3 x over x ∈ [−5, 5] (scale.x 1: column c at x = c − 5).
    const samples = new Float64Array(n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) samples[r * n + c] = 0.3 * (c - 5);
    const holes = new Uint8Array((n - 1) * (n - 1));
    holes[7 * (n - 1) + 2] = 1; // cell r 7, c 2: x ∈ [−3, −2], z ∈ [2, 3]
    const field = world.createBody({ type: 'static', shape: new HeightField(samples, n, n, { x: 1, y: 1, z: 1 }, { holes }), position: { x: 0, y: 1, z: 0 } });
    // Straight down at x = 1.7: surface y = 1 + 0.51.
    const down = world.raycast({ x: 1.7, y: 10, z: -0.4 }, { x: 1.7, y: -10, z: -0.4 })!;
    expect(down.body).toBe(field);
    expect(down.distance).toBeCloseTo(10 - 1.51, 9);
    const k = 1 / Math.hypot(0.3, 1);
    expect(down.normal.x).toBeCloseTo(-0.3 * k, 9);
    expect(down.normal.y).toBeCloseTo(k, 9);
    // Oblique: o = (−4.5, 3, 1.2), d ∝ (1, −0.5, 0.25). Plane y − 1 = 0.3 x:
    // t = (o_y − 1 − 0.3 o_x) / (0.3 d_x − d_y) along the unnormalised d.
    const o = { x: -4.5, y: 3, z: 1.2 }, d = { x: 1, y: -0.5, z: 0.25 };
    const len = Math.hypot(d.x, d.y, d.z);
    const tUnit = (o.y - 1 - 0.3 * o.x) / (0.3 * d.x - d.y);
    const far = { x: o.x + 20 * d.x, y: o.y + 20 * d.y, z: o.z + 20 * d.z };
    const oblique = world.raycast(o, far)!;
    expect(oblique.distance).toBeCloseTo(tUnit * len, 9);
    expect(oblique.point.y).toBeCloseTo(1 + 0.3 * oblique.point.x, 9);
    expect(oblique.triangle).toBeGreaterThanOrEqual(0);
    // Through the hole: nothing below it.
    expect(world.raycast({ x: -2.5, y: 5, z: 2.5 }, { x: -2.5, y: -5, z: 2.5 })).toBeNull();
    // From below: one-sided, as a TriangleMesh.
    expect(world.raycast({ x: 0.5, y: -3, z: 0.5 }, { x: 0.5, y: 5, z: 0.5 })).toBeNull();
    // A grazing ray above the ramp's top edge misses.
    expect(world.raycast({ x: -5, y: 2.6, z: 0 }, { x: 5, y: 2.6, z: 0 })).toBeNull();
  });

  it('agrees with the TriangleMesh of the same terrain on 200 seeded rays', () => {
    const seed = 1919;
    console.log(`seed ${seed}`);
    let s = seed;
    const rnd = (): number => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; };
    const n = 33;
    const field = new HeightField(hills(n, n), n, n, { x: 0.5, y: 1.5, z: 0.7 });
    const mesh = field.toTriangleMesh();
    const wf = new World(), wm = new World();
    wf.createBody({ type: 'static', shape: field, position: { x: 1, y: 0, z: -2 } });
    wm.createBody({ type: 'static', shape: mesh, position: { x: 1, y: 0, z: -2 } });
    let hits = 0;
    for (let i = 0; i < 200; i++) {
      const from = { x: -9 + 18 * rnd(), y: 2 + 3 * rnd(), z: -13 + 22 * rnd() };
      const to = { x: -9 + 18 * rnd(), y: -2 - 2 * rnd(), z: -13 + 22 * rnd() };
      const a = wf.raycast(from, to), b = wm.raycast(from, to);
      expect(a === null).toBe(b === null);
      if (a && b) {
        hits++;
        expect(a.distance).toBeCloseTo(b.distance, 9);
        expect(a.triangle).toBe(b.triangle);
      }
    }
    expect(hits).toBeGreaterThan(100);
  });
});

describe('HeightField contacts as good as the TriangleMesh of the same terrain', () => {
  function pair(): { field: World; mesh: World; shape: HeightField } {
    const n = 65;
    const shape = new HeightField(hills(n, n), n, n, { x: 0.5, y: 1, z: 0.5 });
    const field = new World(), mesh = new World();
    field.createBody({ type: 'static', shape, position: { x: 0, y: 0, z: 0 } });
    mesh.createBody({ type: 'static', shape: shape.toTriangleMesh(), position: { x: 0, y: 0, z: 0 } });
    return { field, mesh, shape };
  }

  it('a ball rolls the same path over both within 1 cm over 5 s', () => {
    const { field, mesh } = pair();
    const make = (w: World): RigidBody => w.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: -10, y: 1.5, z: -6 }, linearVelocity: { x: 3, y: 0, z: 1.2 }, canSleep: false });
    const a = make(field), b = make(mesh);
    let worst = 0;
    for (let i = 0; i < 300; i++) {
      field.step(DT);
      mesh.step(DT);
      worst = Math.max(worst, Math.hypot(a.position.x - b.position.x, a.position.y - b.position.y, a.position.z - b.position.z));
    }
    const travelled = Math.hypot(a.position.x + 10, a.position.z + 6);
    console.log(`ball over 5 s: travelled ${travelled.toFixed(2)} m, largest gap between the height-field and mesh paths ${(worst * 1000).toFixed(4)} mm`);
    expect(travelled).toBeGreaterThan(5);
    expect(worst).toBeLessThan(0.01);
  });

  it('boxes and capsules come to rest at the same place on both', () => {
    const { field, mesh } = pair();
    const bodies = (w: World): RigidBody[] => [
      w.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.2, z: 0.3 }), position: { x: 3, y: 2, z: 1 } }),
      w.createBody({ type: 'dynamic', shape: new Capsule(0.2, 0.4), position: { x: -4, y: 2, z: 3 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } }),
    ];
    const A = bodies(field), B = bodies(mesh);
    for (let i = 0; i < 240; i++) { field.step(DT); mesh.step(DT); }
    for (let k = 0; k < A.length; k++) {
      const d = Math.hypot(A[k]!.position.x - B[k]!.position.x, A[k]!.position.y - B[k]!.position.y, A[k]!.position.z - B[k]!.position.z);
      console.log(`body ${k}: field (${A[k]!.position.x.toFixed(4)}, ${A[k]!.position.y.toFixed(4)}, ${A[k]!.position.z.toFixed(4)}), gap to mesh ${(d * 1000).toFixed(4)} mm`);
      expect(d).toBeLessThan(0.01);
    }
  });

  it('a ball falls through a hole (NaN sample or hole flag) and rests beside it', () => {
    const n = 9;
    const samples = new Float64Array(n * n); // flat at 0, cells 1 m
    samples[2 * n + 2] = NaN; // the four cells around sample (2, 2): x, z ∈ [−3, −1]
    const holes = new Uint8Array((n - 1) * (n - 1));
    holes[5 * (n - 1) + 5] = 1; // cell (5, 5): x, z ∈ [1, 2]
    const world = new World();
    world.createBody({ type: 'static', shape: new HeightField(samples, n, n, { x: 1, y: 1, z: 1 }, { holes }) });
    const drop = (x: number, z: number): RigidBody => world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x, y: 1, z } });
    const nanHole = drop(-2, -2), flagHole = drop(1.5, 1.5), solid = drop(3, -3);
    for (let i = 0; i < 120; i++) world.step(DT);
    console.log(`after 2 s: over the NaN hole y ${nanHole.position.y.toFixed(3)}, over the flagged hole y ${flagHole.position.y.toFixed(3)}, on solid ground y ${solid.position.y.toFixed(5)}`);
    expect(nanHole.position.y).toBeLessThan(-5);
    expect(flagHole.position.y).toBeLessThan(-5);
    expect(solid.position.y).toBeCloseTo(0.3, 2);
  });

  it('shape casts hit the same triangle at the same fraction', () => {
    const { shape } = pair();
    const mesh = shape.toTriangleMesh();
    const hf = new ShapeCastPairHit(), hm = new ShapeCastPairHit();
    const casts = [new Sphere(0.25), new Box({ x: 0.3, y: 0.2, z: 0.25 }), new Capsule(0.15, 0.3)];
    for (let i = 0; i < casts.length; i++) {
      const from = { x: -3 + 2.1 * i, y: 3, z: 1.3 - i };
      const t = { x: 0.8, y: -5, z: 0.4 };
      const a = shapeCastPair(casts[i]!, from, ID, t, shape, { x: 0, y: 0, z: 0 }, ID, hf);
      const b = shapeCastPair(casts[i]!, from, ID, t, mesh, { x: 0, y: 0, z: 0 }, ID, hm);
      expect(a).toBe(true);
      expect(b).toBe(true);
      expect(hf.fraction).toBeCloseTo(hm.fraction, 9);
      expect(hf.triangle).toBe(hm.triangle);
    }
  });
});



