/**
 * The fuzz checks measure what they claim: the ground height under a point is
 * the terrain the engine collides with, and the lowest point of a shape is
 * its support point in −y.
 */
import { describe, expect, it } from 'vitest';
import { ConvexHull, TriangleMesh, World, type ConvexShape, type Vec3 } from '../../src/index';
import { seeded } from '../helpers/random';
import { BODY_STRIDE, footingCompound, footingShape, terrainHeightField, type FuzzInstance } from './engines';
import { hangsInFloor, lowestPoint, WorldChecker } from './checks';
import { generateWorld, groundHeight, GROUND_HALF, type FuzzWorldSpec, type ShapeSpec } from './generator';

/**
 * Tunnelling failures the checker records while body 0 of `spec` goes through
 * `poses` (the first read at start(), one more after each step; every other
 * body far above the ground, at rest). `exemptAt`: the step after which the
 * engine reports body 0 exempt within the step (off the edge below it, or
 * hanging into the floor box).
 */
function tunnellingFailures(spec: FuzzWorldSpec, poses: readonly Vec3[], exemptAt = -1): number {
  const n = spec.bodies.length;
  let k = 0;
  const instance = {
    engine: 'footing', inertia: new Float64Array(3 * n), masses: new Float64Array(n).fill(1), jointCount: 0, motorPower: 0, omitted: '',
    particleCapacity: 0, characterCount: 0,
    step(): void { k++; },
    readExemptInPart(out: Uint8Array): void { if (k === exemptAt) out[0] = 1; },
    readBodies(out: Float64Array): void {
      for (let i = 0; i < n; i++) {
        const o = BODY_STRIDE * i, p = i === 0 ? poses[k]! : { x: 0, y: 1000 + i, z: -10 };
        out.fill(0, o, o + BODY_STRIDE);
        out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z; out[o + 6] = 1;
      }
    },
    readParticles(): number { return 0; },
    readCharacters(): void {},
    dispose(): void {},
  } satisfies FuzzInstance;
  const checker = new WorldChecker(spec, instance);
  checker.start();
  for (let s = 0; s + 1 < poses.length; s++) { instance.step(); checker.check(s); }
  return checker.failures.filter((f) => f.check === 'tunnelling').length;
}

describe('fuzz checks', () => {
  it('a body that passes in under the floor box\'s edge within one step is exempt; one that crosses its top is not', () => {
    // Body 0 of seed 7's world moves in one step from beside the floor box's
    // x = −25 edge, 2 m up, to 3 m under the floor's top inside the footprint.
    const spec = generateWorld(7, { joints: false });
    // The centre's path meets x = −25 at y = −1.9, under the 1 m thick floor box: around its edge.
    const under = tunnellingFailures(spec, [{ x: -26.226, y: 2.078, z: -5.612 }, { x: -24.425, y: -3.777, z: -6.535 }]);
    // The same end from straight above the floor: through its top.
    const through = tunnellingFailures(spec, [{ x: -24.425, y: 2.078, z: -6.535 }, { x: -24.425, y: -3.777, z: -6.535 }]);
    // The same ends, with the engine reporting that the body was off the edge below it at the end of a part of the step.
    const roundEdge = tunnellingFailures(spec, [{ x: -24.425, y: 2.078, z: -6.535 }, { x: -24.425, y: -3.777, z: -6.535 }], 1);
    console.log(`[fuzz checks] seed 7 body 0 (${spec.bodies[0]!.shape.kind}): tunnelling failures around the edge ${under}, through the top ${through}, round the edge within the step (reported by the engine) ${roundEdge}`);
    expect(under).toBe(0);
    expect(through).toBe(1);
    expect(roundEdge).toBe(0);
  });

  it('a standing stick beside the edge whose lower end is under the edge height is exempt when it moves in (its centre above the ground all along)', () => {
    const base = generateWorld(7, { joints: false });
    const spec = { ...base, bodies: [{ ...base.bodies[0]!, shape: { kind: 'box' as const, halfExtents: { x: 0.05, y: 0.8, z: 0.05 } } }, ...base.bodies.slice(1)] };
    // Beside the floor box's x = −25 edge (top y = 0), centre at 0.3, lower end at −0.5; then 0.2 m in.
    const failures = tunnellingFailures(spec, [{ x: -25.1, y: 0.3, z: -6.5 }, { x: -25.1, y: 0.3, z: -6.5 }, { x: -24.9, y: 0.3, z: -6.5 }]);
    console.log(`[fuzz checks] stick beside the edge moved in: ${failures} tunnelling failure(s)`);
    expect(failures).toBe(0);
  });

  it('a body jointed to the floor box without collideConnected, hanging half its size into the floor, is exempt when it moves in under the terrain sheet; less deep in the floor, or not jointed, it is not', () => {
    const base = generateWorld(7, { joints: false });
    // A sphere of radius 0.5 m (smallest size 1 m) next to the terrain's z = 0 edge, over the floor box.
    const body = { ...base.bodies[0]!, shape: { kind: 'sphere' as const, radius: 0.5 } };
    const floorJoint = { kind: 'ball' as const, a: -1, b: 0, pair: 'floor' as const, anchor: { x: 0, y: 0, z: -1 }, frictionTorque: 0, collideConnected: false };
    const jointed = { ...base, bodies: [body, ...base.bodies.slice(1)], jointSpecs: [floorJoint] };
    const plain = { ...jointed, jointSpecs: [] };
    // Centre 0.05 m under the floor top at z = −0.6 (lowest point 0.55 m in), then on in under the sheet, 1.7 m deep.
    const path = [{ x: 0, y: 1, z: -0.6 }, { x: 0, y: -0.05, z: -0.6 }, { x: 0, y: -1.2, z: 0.2 }];
    const jointedUnder = tunnellingFailures(jointed, path);
    // Only 0.4 m into the floor (less than half its size) before it is 1.7 m under the sheet: the check still holds it.
    const shallow = tunnellingFailures(jointed, [{ x: 0, y: 1, z: -0.6 }, { x: 0, y: 0.1, z: -0.6 }, { x: 0, y: -1.2, z: 0.2 }]);
    const plainUnder = tunnellingFailures(plain, path);
    console.log(`[fuzz checks] floor-jointed sphere moved in under the sheet: ${jointedUnder} failure(s); from 0.4 m in: ${shallow}; the same without the joint: ${plainUnder}`);
    expect(jointedUnder).toBe(0);
    expect(shallow).toBe(1);
    expect(plainUnder).toBe(1);
  });

  it('hangsInFloor: half the smallest size into the floor box over its footprint; not over the terrain, not shallower', () => {
    // A capsule of radius 0.04 m (smallest size 0.08 m), half height 0.65 m, lying along z, centre at y = −0.1.
    const capsule = { kind: 'capsule' as const, radius: 0.04, halfHeight: 0.65 };
    const s = Math.SQRT1_2;
    const pose = (x: number, y: number, z: number) => new Float64Array([x, y, z, s, 0, 0, s]);
    const scratch = new Float64Array(2);
    // Lying along z (its ends at z ± 0.65): the lowest point found is one end; it is at the centre's height.
    const over = hangsInFloor(capsule, pose(10, -0.05, -1), 0, scratch);
    const shallow = hangsInFloor(capsule, pose(10, 0.01, -1), 0, scratch);
    const offFootprint = hangsInFloor(capsule, pose(10, -0.05, -30), 0, scratch);
    // Tilted down towards +z, centre over the floor box, lower end over the terrain: not in the floor box.
    const t = 0.3, tilted = new Float64Array([10, 0.1, -0.2, Math.sin(0.5 * (Math.PI / 2 + t)), 0, 0, Math.cos(0.5 * (Math.PI / 2 + t))]);
    const low = lowestPoint(capsule, tilted, 0, scratch);
    const overTerrain = hangsInFloor(capsule, tilted, 0, scratch);
    console.log(`[fuzz checks] hangsInFloor: 0.09 m in ${over}, 0.03 m above ${shallow}, off the footprint ${offFootprint}; tilted lowest point ${low.toFixed(3)} at z ${scratch[1]!.toFixed(3)}: ${overTerrain}`);
    expect(over).toBe(true);
    expect(shallow).toBe(false);
    expect(offFootprint).toBe(false);
    expect(scratch[1]!).toBeGreaterThan(0);
    expect(low).toBeLessThan(-0.1);
    expect(overTerrain).toBe(false);
  });

  it('groundHeight matches a ray cast down onto the floor top and the terrain TriangleMesh', () => {
    const rng = seeded(77, 'fuzz groundHeight');
    const spec = generateWorld(5, { joints: false });
    const world = new World();
    world.createBody({ type: 'static', shape: new TriangleMesh(spec.terrain.positions, spec.terrain.indices) });
    let worst = 0, hits = 0;
    for (let k = 0; k < 300; k++) {
      const x = rng.range(-GROUND_HALF, GROUND_HALF), z = rng.range(0.01, GROUND_HALF - 0.01);
      const hit = world.raycast({ x, y: 20, z }, { x, y: -20, z });
      expect(hit).not.toBeNull();
      worst = Math.max(worst, Math.abs(hit!.point.y - groundHeight(spec, x, z)));
      hits++;
      // The terrain's faces point up: the ray hits the front face.
      expect(hit!.normal.y).toBeGreaterThan(0.5);
    }
    console.log(`[fuzz groundHeight] ${hits} rays, worst |Δy| = ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-9);
    expect(groundHeight(spec, 3, -2)).toBe(0);
    expect(groundHeight(spec, GROUND_HALF + 1, -2)).toBeNaN();
  });

  it('the --new-shapes terrain HeightField is the same surface as groundHeight', () => {
    const rng = seeded(79, 'fuzz height-field terrain');
    const spec = generateWorld(5, { joints: false, newShapes: true });
    expect(spec.terrainAsHeightField).toBe(true);
    const world = new World();
    const f = terrainHeightField(spec.terrain);
    world.createBody({ type: 'static', shape: f.shape, position: f.position, rotation: f.rotation });
    let worst = 0;
    for (let k = 0; k < 300; k++) {
      const x = rng.range(-GROUND_HALF, GROUND_HALF), z = rng.range(0.01, GROUND_HALF - 0.01);
      const hit = world.raycast({ x, y: 20, z }, { x, y: -20, z });
      expect(hit).not.toBeNull();
      worst = Math.max(worst, Math.abs(hit!.point.y - groundHeight(spec, x, z)));
    }
    console.log(`[fuzz height-field terrain] 300 rays, worst |Δy| = ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-9);
    const compounds = spec.bodies.filter((b) => b.shape.kind === 'compound').length;
    console.log(`[fuzz new shapes] seed 5: ${compounds} of ${spec.bodies.length} bodies are compounds`);
    expect(compounds).toBeGreaterThan(0);
  });

  it('lowestPoint of a compound is the lowest support of its parts at the body pose', () => {
    const rng = seeded(80, 'fuzz compound lowestPoint');
    const spec = generateWorld(5, { joints: false, newShapes: true });
    const s = spec.bodies.find((b) => b.shape.kind === 'compound')!.shape as ShapeSpec & { kind: 'compound' };
    const c = footingCompound(s);
    const st = new Float64Array(13), out = new Float64Array(2);
    const world = new World();
    let worst = 0;
    for (let k = 0; k < 100; k++) {
      const p = rng.vec3(-5, 5), q = rng.quat();
      st.set([p.x, p.y, p.z, q.x, q.y, q.z, q.w]);
      const y = lowestPoint(s, st, 0, out);
      // Reference: a ray up from far below the lowest point's (x, z) reaches the body at y (within the lowest point's tangent plane).
      const body = world.createBody({ type: 'static', shape: c, position: p, rotation: q });
      const hit = world.raycast({ x: out[0]!, y: y - 10, z: out[1]! }, { x: out[0]!, y: y + 10, z: out[1]! });
      world.removeBody(body);
      expect(hit).not.toBeNull();
      worst = Math.max(worst, Math.abs(hit!.point.y - y));
    }
    console.log(`[fuzz compound lowestPoint] worst deviation ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-9);
  });

  it('lowestPoint is the shape\'s support point in −y (box, sphere, capsule, cylinder, hull)', () => {
    const rng = seeded(78, 'fuzz lowestPoint');
    const shapes: ShapeSpec[] = [
      { kind: 'box', halfExtents: { x: 0.025, y: 1.5, z: 0.4 } },
      { kind: 'sphere', radius: 0.7 },
      { kind: 'capsule', radius: 0.03, halfHeight: 1.3 },
      { kind: 'cylinder', radius: 0.4, halfHeight: 0.9 },
      { kind: 'hull', points: hullFrame([
        { x: 0.5, y: -0.2, z: 0.1 }, { x: -0.4, y: -0.3, z: 0.2 }, { x: 0.1, y: 0.6, z: -0.2 }, { x: 0.05, y: -0.1, z: -0.7 }, { x: -0.2, y: 0.1, z: 0.5 },
      ]) },
    ];
    const st = new Float64Array(13), out = new Float64Array(2);
    const support: Vec3 = { x: 0, y: 0, z: 0 }, local: Vec3 = { x: 0, y: 0, z: 0 };
    let worst = 0;
    for (const s of shapes) {
      const shape = footingShape(s) as ConvexShape;
      for (let k = 0; k < 200; k++) {
        const p = rng.vec3(-5, 5), q = rng.quat();
        st.set([p.x, p.y, p.z, q.x, q.y, q.z, q.w]);
        const y = lowestPoint(s, st, 0, out);
        // Reference: conj(q)·(−y) in the body frame, the core's support there plus the rounding radius, back to the world.
        const d = rotate({ x: -q.x, y: -q.y, z: -q.z, w: q.w }, { x: 0, y: -1, z: 0 });
        shape.coreSupport(local, d);
        const r = shape.coreRadius;
        const w = rotate(q, { x: local.x + r * d.x, y: local.y + r * d.y, z: local.z + r * d.z });
        support.x = p.x + w.x; support.y = p.y + w.y; support.z = p.z + w.z;
        // A box face or capsule side facing straight down has many lowest points; the y always agrees.
        worst = Math.max(worst, Math.abs(y - support.y));
        if (s.kind === 'sphere' || s.kind === 'box' || s.kind === 'hull') worst = Math.max(worst, Math.abs(out[0]! - support.x), Math.abs(out[1]! - support.z));
      }
    }
    console.log(`[fuzz lowestPoint] worst deviation ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-12);
  });
});

/** The points of a hull in its own frame (what the generator stores). */
function hullFrame(points: Vec3[]): Vec3[] {
  const h = new ConvexHull(points);
  const out: Vec3[] = [];
  for (let k = 0; k < h.vertexCount; k++) out.push({ x: h.vertices[3 * k]!, y: h.vertices[3 * k + 1]!, z: h.vertices[3 * k + 2]! });
  return out;
}

function rotate(q: { x: number; y: number; z: number; w: number }, v: Vec3): Vec3 {
  const tx = 2 * (q.y * v.z - q.z * v.y), ty = 2 * (q.z * v.x - q.x * v.z), tz = 2 * (q.x * v.y - q.y * v.x);
  return { x: v.x + q.w * tx + (q.y * tz - q.z * ty), y: v.y + q.w * ty + (q.z * tx - q.x * tz), z: v.z + q.w * tz + (q.x * ty - q.y * tx) };
}
