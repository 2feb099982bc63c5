/**
 * Seeded random worlds for the fuzz suite (issue 16 §2), as plain data that
 * every engine builder (test/fuzz/engines.ts) reads the same way.
 *
 * A world: a static floor box (top at y = 0, x ∈ [−F, F], z ∈ [−F, 0]) and a
 * static TriangleMesh terrain beside it (z ∈ [0, F], height 0 along z = 0 so
 * the two meet without a step); 20–200 boxes, spheres and capsules of
 * 0.05–3 m (a quarter of them thin: capsules of radius 0.025–0.06 m, boxes
 * with one or two sides of 0.05 m), 0.1–1000 kg (log-uniform), speeds up to
 * 200 m/s and spins up to 100 rad/s, friction and restitution in [0, 1]; with
 * `joints`, joints of every kind between neighbouring pairs, random pairs and
 * the floor, with and without limits and motors; a few characters walking at
 * random; one cloth and one rope. 600 steps of 1/60 s.
 */
import type { Quat, Vec3 } from '../../src/index';
import { Random } from '../helpers/random';

export const FUZZ_DT = 1 / 60;
export const FUZZ_STEPS = 600;
export const GRAVITY = 9.81;
/** Half-width of the ground (floor box and terrain together cover x ∈ [−F, F], z ∈ [−F, F]). */
export const GROUND_HALF = 25;
/** Terrain grid cell, metres. */
const TERRAIN_CELL = 2.5;

export type ConvexSpec =
  | { readonly kind: 'sphere'; readonly radius: number }
  | { readonly kind: 'box'; readonly halfExtents: Vec3 }
  | { readonly kind: 'capsule'; readonly radius: number; readonly halfHeight: number };
/** A Compound's part, at its pose in the body's modelling frame (the spec position is that frame's origin). */
export interface CompoundChildSpec { readonly shape: ConvexSpec; readonly position: Vec3; readonly rotation: Quat }
export type ShapeSpec = ConvexSpec | { readonly kind: 'compound'; readonly children: readonly CompoundChildSpec[] };

export interface BodySpec {
  readonly shape: ShapeSpec;
  readonly mass: number;
  readonly position: Vec3;
  readonly rotation: Quat;
  readonly linearVelocity: Vec3;
  readonly angularVelocity: Vec3;
  readonly friction: number;
  readonly restitution: number;
  /** Made by the thin-body branch of the generator. */
  readonly thin: boolean;
  /** Index in the whole world, when this spec is a subset (subsetWorld). */
  readonly index?: number;
}

export type JointKindName = 'ball' | 'hinge' | 'coneTwist' | 'fixed' | 'distance' | 'slider' | 'sixDof';

/** One axis of a six-dof spec (linear X, Y, Z, angular X, Y, Z); limits always hold 0, so a soft limit starts unstretched. */
export interface SixDofAxisSpec {
  readonly mode: 'free' | 'limited' | 'locked';
  readonly min: number;
  readonly max: number;
  readonly limitHertz: number;
  /** Velocity motor (0 force: none). */
  readonly motorSpeed: number;
  readonly maxMotorForce: number;
  readonly friction: number;
}

export interface JointSpec {
  readonly kind: JointKindName;
  /** Body index, or −1 for the static floor box. */
  readonly a: number;
  readonly b: number;
  readonly pair: 'neighbour' | 'random' | 'floor';
  /** World anchor at creation (distance: the anchor on A). */
  readonly anchor: Vec3;
  /** Distance joints: the anchor on B. */
  readonly anchorB?: Vec3;
  /** Hinge axis / cone-twist twist axis / slider axis / six-dof frame X (world, unit). */
  readonly axis?: Vec3;
  readonly lowerAngle?: number;
  readonly upperAngle?: number;
  /** Hinge motor (rad/s, N·m) or slider motor (m/s, N): the power bound is maxMotorTorque·|motorSpeed| either way. */
  readonly motorSpeed?: number;
  readonly maxMotorTorque?: number;
  /** Slider: limits (m, lower ≤ 0 ≤ upper) and friction force (N). */
  readonly lowerLimit?: number;
  readonly upperLimit?: number;
  readonly frictionForce?: number;
  /** Six-dof: the six axes, and how hard swing limits combine. */
  readonly axes?: readonly SixDofAxisSpec[];
  readonly swingType?: 'pyramid' | 'cone';
  readonly swingLimit?: number;
  readonly twistLower?: number;
  readonly twistUpper?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly frequency?: number;
  readonly dampingRatio?: number;
  readonly frictionTorque: number;
  readonly collideConnected: boolean;
}

export interface CharacterSpec {
  readonly position: Vec3;
  readonly radius: number;
  readonly halfHeight: number;
  /** Every `inputPeriod` steps the input changes to the next entry (x, z in [−1, 1], jump flag). */
  readonly inputs: readonly { readonly x: number; readonly z: number; readonly jump: boolean }[];
  readonly inputPeriod: number;
}

export interface ClothSpec {
  readonly position: Vec3;
  readonly rotation: Quat;
  readonly width: number;
  readonly height: number;
  readonly segments: number;
  readonly pinned: 'top' | 'topCorners' | 'none';
  readonly mass: number;
}

export interface RopeSpec {
  readonly from: Vec3;
  readonly to: Vec3;
  readonly segments: number;
  readonly mass: number;
}

export interface TerrainSpec {
  /** Grid vertices (x, y, z), row-major in z then x. */
  readonly positions: Float64Array;
  /** Counter-clockwise seen from above (the front face points up). */
  readonly indices: Uint32Array;
  readonly columns: number;
  readonly rows: number;
  readonly x0: number;
  readonly z0: number;
  readonly cell: number;
  readonly minHeight: number;
}

export interface FuzzWorldSpec {
  readonly seed: number;
  readonly joints: boolean;
  readonly dt: number;
  readonly steps: number;
  /** Floor box: half extents and centre (top face at y = 0). */
  readonly floor: { readonly halfExtents: Vec3; readonly position: Vec3; readonly friction: number; readonly restitution: number };
  readonly terrain: TerrainSpec & { readonly friction: number; readonly restitution: number };
  readonly bodies: readonly BodySpec[];
  readonly jointSpecs: readonly JointSpec[];
  readonly characters: readonly CharacterSpec[];
  /** null: left out (subsetWorld). */
  readonly cloth: ClothSpec | null;
  readonly rope: RopeSpec | null;
  /** The terrain is built as a HeightField instead of a TriangleMesh (same triangles; newShapes). */
  readonly terrainAsHeightField?: boolean;
}

export interface GeneratorOptions {
  readonly joints: boolean;
  /** Override the body count (default: 20–200 from the seed). */
  readonly bodies?: number;
  /**
   * Start every group of jointed bodies in a motion its joints allow: all
   * members move with the velocity of the group's first body and do not spin;
   * groups hanging from the floor start at rest. The random draws are the
   * same, so the world differs from the default one only in these
   * velocities. Default false (every body keeps its own random velocity, and
   * the joints must reconcile them in the first step).
   */
  readonly rigidStart?: boolean;
  /**
   * Issue 19's shapes: one body in five becomes a Compound of 2–4 parts
   * within the bounding sphere of the shape it replaces, and the terrain is a
   * HeightField. Drawn from a second random stream, so every other draw, and
   * the world without them, stays the same. Default false.
   */
  readonly newShapes?: boolean;
}

/**
 * A world reduced to some of its bodies (spec order kept, joints whose bodies
 * are gone dropped), optionally without its characters, cloth and rope: for
 * narrowing a failure down to the bodies that show it.
 */
export function subsetWorld(spec: FuzzWorldSpec, keep: readonly number[], extras = true): FuzzWorldSpec {
  const index = new Map<number, number>();
  keep.forEach((b, k) => index.set(b, k));
  const jointSpecs: JointSpec[] = [];
  for (const j of spec.jointSpecs) {
    if ((j.a >= 0 && !index.has(j.a)) || !index.has(j.b)) continue;
    jointSpecs.push({ ...j, a: j.a >= 0 ? index.get(j.a)! : -1, b: index.get(j.b)! });
  }
  return {
    ...spec, bodies: keep.map((b) => ({ ...spec.bodies[b]!, index: spec.bodies[b]!.index ?? b })), jointSpecs,
    characters: extras ? spec.characters : [], cloth: extras ? spec.cloth : null, rope: extras ? spec.rope : null,
  };
}

/** Terrain height at (x, z): smooth hills, 0 along z = 0 where the terrain meets the floor box. */
function hill(x: number, z: number, amplitude: number, wx: number, phase: number): number {
  return amplitude * Math.sin(Math.PI * z / 10) * (0.5 + 0.5 * Math.cos(2 * Math.PI * x / wx + phase));
}

function makeTerrain(rng: Random): TerrainSpec {
  const amplitude = rng.range(0.3, 1.5);
  const wx = rng.range(12, 30);
  const phase = rng.range(0, 2 * Math.PI);
  const columns = Math.round((2 * GROUND_HALF) / TERRAIN_CELL) + 1;
  const rows = Math.round(GROUND_HALF / TERRAIN_CELL) + 1;
  const x0 = -GROUND_HALF, z0 = 0, cell = TERRAIN_CELL;
  const positions = new Float64Array(3 * columns * rows);
  let minHeight = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const x = x0 + c * cell, z = z0 + r * cell;
      const y = r === 0 ? 0 : hill(x, z, amplitude, wx, phase);
      const k = 3 * (r * columns + c);
      positions[k] = x; positions[k + 1] = y; positions[k + 2] = z;
      minHeight = Math.min(minHeight, y);
    }
  }
  const indices = new Uint32Array(6 * (columns - 1) * (rows - 1));
  let n = 0;
  for (let r = 0; r < rows - 1; r++) {
    for (let c = 0; c < columns - 1; c++) {
      const v00 = r * columns + c, v10 = v00 + 1, v01 = v00 + columns, v11 = v01 + 1;
      // (v00, v01, v10) and (v10, v01, v11): (v01 − v00) × (v10 − v00) points along +y.
      indices[n++] = v00; indices[n++] = v01; indices[n++] = v10;
      indices[n++] = v10; indices[n++] = v01; indices[n++] = v11;
    }
  }
  return { positions, indices, columns, rows, x0, z0, cell, minHeight };
}

/** Height of the terrain's triangle above (x, z), or NaN outside the grid. Matches the triangulation of makeTerrain. */
export function terrainHeight(t: TerrainSpec, x: number, z: number): number {
  const fx = (x - t.x0) / t.cell, fz = (z - t.z0) / t.cell;
  if (!(fx >= 0 && fz >= 0 && fx <= t.columns - 1 && fz <= t.rows - 1)) return NaN;
  const c = Math.min(Math.floor(fx), t.columns - 2), r = Math.min(Math.floor(fz), t.rows - 2);
  const u = fx - c, w = fz - r;
  const h = (cc: number, rr: number): number => t.positions[3 * (rr * t.columns + cc) + 1]!;
  if (u + w <= 1) return h(c, r) + u * (h(c + 1, r) - h(c, r)) + w * (h(c, r + 1) - h(c, r));
  return h(c + 1, r + 1) + (1 - u) * (h(c, r + 1) - h(c + 1, r + 1)) + (1 - w) * (h(c + 1, r) - h(c + 1, r + 1));
}

/** Ground height under (x, z): the floor box top, the terrain, or NaN off the ground's footprint. */
export function groundHeight(spec: FuzzWorldSpec, x: number, z: number): number {
  if (Math.abs(x) <= GROUND_HALF && z >= -GROUND_HALF && z < 0) return 0;
  return terrainHeight(spec.terrain, x, z);
}

/** Highest ground within `r` (horizontally) of (x, z): the floor top (0) or a terrain vertex, so that a body placed above it starts clear. */
function highestGround(t: TerrainSpec, x: number, z: number, r: number): number {
  let top = 0;
  const reach = r + t.cell;
  for (let k = 0; k < t.positions.length; k += 3) {
    if (Math.abs(t.positions[k]! - x) <= reach && Math.abs(t.positions[k + 2]! - z) <= reach) top = Math.max(top, t.positions[k + 1]!);
  }
  return top;
}

/** Radius of a sphere about the centre that holds the shape. */
export function boundingRadius(s: ShapeSpec): number {
  switch (s.kind) {
    case 'compound': return Math.max(...s.children.map((c) => Math.hypot(c.position.x, c.position.y, c.position.z) + boundingRadius(c.shape)));
    case 'sphere': return s.radius;
    case 'box': return Math.hypot(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
    case 'capsule': return s.radius + s.halfHeight;
  }
}

/** The shape's smallest full extent (diameter, thinnest side), metres. */
export function smallestSize(s: ShapeSpec): number {
  switch (s.kind) {
    case 'compound': return Math.min(...s.children.map((c) => smallestSize(c.shape)));
    case 'sphere': return 2 * s.radius;
    case 'box': return 2 * Math.min(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
    case 'capsule': return 2 * s.radius;
  }
}

export function describeShape(s: ShapeSpec): string {
  const f = (v: number): string => v.toPrecision(3);
  switch (s.kind) {
    case 'compound': return `compound [${s.children.map((c) => describeShape(c.shape)).join(', ')}]`;
    case 'sphere': return `sphere r=${f(s.radius)}`;
    case 'box': return `box ${f(2 * s.halfExtents.x)}×${f(2 * s.halfExtents.y)}×${f(2 * s.halfExtents.z)}`;
    case 'capsule': return `capsule r=${f(s.radius)} hh=${f(s.halfHeight)}`;
  }
}

function logUniform(rng: Random, lo: number, hi: number): number {
  return Math.exp(rng.range(Math.log(lo), Math.log(hi)));
}

/**
 * 2–4 parts (boxes, spheres, capsules) that fit in a sphere of radius `reach`
 * about the origin, none thinner than the generator's thinnest part (0.025 m
 * half size): under 0.1 m of reach, two spheres.
 */
function makeCompound(rng: Random, reach: number): ShapeSpec {
  const children: CompoundChildSpec[] = [];
  const MIN = 0.025;
  if (reach < 0.1) {
    const r = Math.max(MIN, 0.5 * reach), dir = rng.unitVec3();
    for (const s of [-1, 1]) children.push({ shape: { kind: 'sphere', radius: r }, position: { x: s * dir.x * r, y: s * dir.y * r, z: s * dir.z * r }, rotation: rng.quat() });
    return { kind: 'compound', children };
  }
  const n = rng.int(2, 5);
  for (let k = 0; k < n; k++) {
    // Part size up to half the reach, centre within the rest.
    const size = Math.max(MIN / 0.3, rng.range(0.15, 0.5) * reach);
    const kind = rng.int(0, 3);
    const shape: ConvexSpec = kind === 0 ? { kind: 'sphere', radius: size }
      : kind === 1 ? { kind: 'box', halfExtents: { x: Math.max(MIN, size * rng.range(0.2, 0.6)), y: Math.max(MIN, size * rng.range(0.2, 0.6)), z: Math.max(MIN, size * rng.range(0.2, 0.6)) } }
        : { kind: 'capsule', radius: 0.3 * size, halfHeight: 0.7 * size };
    const dir = rng.unitVec3();
    const d = rng.range(0, Math.max(0, reach - boundingRadius(shape)));
    children.push({ shape, position: { x: dir.x * d, y: dir.y * d, z: dir.z * d }, rotation: rng.quat() });
  }
  return { kind: 'compound', children };
}

function makeShape(rng: Random, thin: boolean): ShapeSpec {
  const kind = rng.int(0, 3);
  if (thin) {
    if (kind === 0) {
      // A thin box: one or two sides of 0.05 m, the others up to 3 m (0.05 × 3 × 0.05 at the extreme).
      const long = rng.range(0.5, 1.5);
      const other = rng.next() < 0.5 ? 0.025 : rng.range(0.025, 1.5);
      const axes = [0.025, long, other];
      const k = rng.int(0, 3);
      [axes[0], axes[k]] = [axes[k]!, axes[0]!];
      return { kind: 'box', halfExtents: { x: axes[0]!, y: axes[1]!, z: axes[2]! } };
    }
    // Thin capsules (and thin "spheres" become capsules: a thin sphere is just small).
    return { kind: 'capsule', radius: rng.range(0.025, 0.06), halfHeight: rng.range(0.5, 1.45) };
  }
  if (kind === 0) return { kind: 'sphere', radius: logUniform(rng, 0.025, 1.5) };
  if (kind === 1) {
    return { kind: 'box', halfExtents: { x: logUniform(rng, 0.025, 1.5), y: logUniform(rng, 0.025, 1.5), z: logUniform(rng, 0.025, 1.5) } };
  }
  const radius = logUniform(rng, 0.025, 1);
  // Total length 2 (halfHeight + radius) ≤ 3 m.
  return { kind: 'capsule', radius, halfHeight: rng.range(0.01, Math.max(0.02, 1.5 - radius)) };
}

/** A speed (or spin): for 35 % of the bodies uniform up to `max`, for the others up to max / 10, so most worlds have both fast and slow bodies. */
function speed(rng: Random, max: number): number {
  const u = rng.next();
  return rng.next() < 0.35 ? max * u : 0.1 * max * u;
}

function scaled(v: Vec3, s: number): Vec3 {
  return { x: v.x * s, y: v.y * s, z: v.z * s };
}

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

function lerp(a: Vec3, b: Vec3, t: number): Vec3 {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t };
}

/** `kind`: drawn from the first five (the kinds of the first fuzz rounds) when not given. */
function makeJoint(rng: Random, bodies: readonly BodySpec[], a: number, b: number, pair: JointSpec['pair'], floorTop: Vec3 | null, kind?: JointKindName): JointSpec {
  const kinds: JointKindName[] = ['ball', 'hinge', 'coneTwist', 'fixed', 'distance'];
  kind ??= kinds[rng.int(0, 5)]!;
  const pa = a >= 0 ? bodies[a]!.position : floorTop!;
  const pb = bodies[b]!.position;
  const anchor = pair === 'floor' ? pa : lerp(pa, pb, rng.range(0, 1));
  const base = {
    kind, a, b, pair, anchor,
    frictionTorque: rng.next() < 0.2 ? logUniform(rng, 0.01, 100) : 0,
    collideConnected: rng.next() < 0.2,
  };
  switch (kind) {
    case 'ball':
    case 'fixed':
      return base;
    case 'hinge': {
      const limits = rng.next() < 0.5;
      const motor = rng.next() < 0.5;
      return {
        ...base, axis: rng.unitVec3(),
        ...(limits ? { lowerAngle: -rng.range(0, Math.PI * 0.99), upperAngle: rng.range(0, Math.PI * 0.99) } : {}),
        ...(motor ? { motorSpeed: rng.range(-20, 20), maxMotorTorque: logUniform(rng, 0.1, 1000) } : {}),
      };
    }
    case 'coneTwist': {
      const limits = rng.next() < 0.5;
      return {
        ...base, axis: rng.unitVec3(),
        ...(limits ? { swingLimit: rng.range(0.05, Math.PI * 0.95), twistLower: -rng.range(0, Math.PI), twistUpper: rng.range(0, Math.PI) } : {}),
      };
    }
    case 'slider': {
      const limits = rng.next() < 0.6;
      const motor = rng.next() < 0.5;
      return {
        ...base, axis: rng.unitVec3(),
        ...(limits ? { lowerLimit: -rng.range(0, 2), upperLimit: rng.range(0, 2) } : {}),
        ...(motor ? { motorSpeed: rng.range(-5, 5), maxMotorTorque: logUniform(rng, 0.1, 1000) } : {}),
        frictionForce: rng.next() < 0.2 ? logUniform(rng, 0.01, 100) : 0,
      };
    }
    case 'sixDof': {
      const axes: SixDofAxisSpec[] = [];
      for (let k = 0; k < 6; k++) {
        const m = rng.int(0, 3);
        const mode = m === 0 ? 'free' : m === 1 ? 'limited' : 'locked';
        // Linear limits in metres, angular ones within the swing range (0.9π).
        const span = k < 3 ? 1 : k === 3 ? Math.PI : 0.9 * Math.PI;
        const min = mode === 'limited' ? -rng.range(0, span) : 0, max = mode === 'limited' ? rng.range(0, span) : 0;
        const limitHertz = mode === 'limited' && rng.next() < 0.3 ? rng.range(0.5, 10) : 0;
        const motor = mode !== 'locked' && rng.next() < 0.3;
        axes.push({
          mode, min, max, limitHertz,
          motorSpeed: motor ? rng.range(-5, 5) : 0, maxMotorForce: motor ? logUniform(rng, 0.1, 1000) : 0,
          friction: mode !== 'locked' && rng.next() < 0.2 ? logUniform(rng, 0.01, 100) : 0,
        });
      }
      return { ...base, axis: rng.unitVec3(), axes, swingType: rng.next() < 0.5 ? 'cone' : 'pyramid' };
    }
    case 'distance': {
      // Anchors at the centres (A: the floor point for floor joints); rest length = their distance now, so a spring starts unstretched.
      const d = dist(pa, pb);
      const style = rng.int(0, 3);
      if (style === 0) return { ...base, anchor: pa, anchorB: pb }; // rod
      if (style === 1) return { ...base, anchor: pa, anchorB: pb, minLength: 0, maxLength: d * rng.range(1, 1.3) }; // rope
      return { ...base, anchor: pa, anchorB: pb, frequency: rng.range(0.5, 5), dampingRatio: rng.range(0, 1) }; // spring
    }
  }
}

/** GeneratorOptions.rigidStart: union-find over the joints, then one velocity per group. */
function rigidStart(bodies: BodySpec[], joints: readonly JointSpec[]): void {
  const parent = bodies.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const floored = new Set<number>();
  for (const j of joints) {
    if (j.a < 0) floored.add(j.b);
    else parent[find(j.a)] = find(j.b);
  }
  const groundedRoots = new Set([...floored].map(find));
  const zero: Vec3 = { x: 0, y: 0, z: 0 };
  const first = new Map<number, number>();
  for (let i = 0; i < bodies.length; i++) if (!first.has(find(i))) first.set(find(i), i);
  const jointed = new Set<number>();
  for (const j of joints) { if (j.a >= 0) jointed.add(j.a); jointed.add(j.b); }
  for (let i = 0; i < bodies.length; i++) {
    if (!jointed.has(i)) continue;
    const root = find(i);
    const v = groundedRoots.has(root) ? zero : bodies[first.get(root)!]!.linearVelocity;
    bodies[i] = { ...bodies[i]!, linearVelocity: { ...v }, angularVelocity: { ...zero } };
  }
}

/** The world of one seed. Deterministic: the same seed and options give the same world. */
export function generateWorld(seed: number, options: GeneratorOptions): FuzzWorldSpec {
  const rng = new Random(seed);
  const terrain = makeTerrain(rng);
  const count = options.bodies ?? rng.int(20, 201);
  const bodies: BodySpec[] = [];
  // Non-overlapping start poses (bounding spheres), 0.5–30 m above the ground.
  for (let i = 0; i < count; i++) {
    const thin = rng.next() < 0.25;
    const shape = makeShape(rng, thin);
    const br = boundingRadius(shape);
    let position: Vec3 = { x: 0, y: 0, z: 0 };
    for (let attempt = 0; ; attempt++) {
      const x = rng.range(-GROUND_HALF + 2, GROUND_HALF - 2), z = rng.range(-GROUND_HALF + 2, GROUND_HALF - 2);
      const base = highestGround(terrain, x, z, br);
      position = { x, y: base + br + 0.05 + rng.range(0, 30) * rng.next(), z };
      let free = true;
      for (const o of bodies) if (dist(o.position, position) < br + boundingRadius(o.shape) + 0.02) { free = false; break; }
      if (free || attempt > 200) break;
    }
    const dir = rng.unitVec3();
    // Six in ten bodies head downwards (towards the ground) so that most worlds have hard impacts.
    if (rng.next() < 0.6) dir.y = -Math.abs(dir.y);
    const spinAxis = rng.unitVec3();
    bodies.push({
      shape, thin,
      mass: logUniform(rng, 0.1, 1000),
      position,
      rotation: rng.quat(),
      linearVelocity: scaled(dir, speed(rng, 200)),
      angularVelocity: scaled(spinAxis, speed(rng, 100)),
      friction: rng.next(),
      restitution: rng.next(),
    });
  }
  const floorTop: Vec3 = { x: 0, y: 0, z: -GROUND_HALF / 2 };
  const jointSpecs: JointSpec[] = [];
  if (options.joints) {
    // Neighbouring pairs: each body with its nearest other body, for a third of the bodies.
    for (let i = 0; i < count; i++) {
      if (rng.next() >= 1 / 3) continue;
      let best = -1, bestD = Infinity;
      for (let j = 0; j < count; j++) {
        if (j === i) continue;
        const d = dist(bodies[i]!.position, bodies[j]!.position);
        if (d < bestD) { bestD = d; best = j; }
      }
      if (best >= 0) jointSpecs.push(makeJoint(rng, bodies, i, best, 'neighbour', null));
    }
    // Random pairs, often far apart.
    const randomPairs = Math.max(1, Math.round(count / 6));
    for (let k = 0; k < randomPairs; k++) {
      const i = rng.int(0, count);
      let j = rng.int(0, count - 1);
      if (j >= i) j++;
      jointSpecs.push(makeJoint(rng, bodies, i, j, 'random', null));
    }
    // A few bodies hang from the floor (a static body on side A).
    const floorJoints = rng.int(1, 4);
    for (let k = 0; k < floorJoints; k++) {
      const b = rng.int(0, count);
      const top: Vec3 = { x: bodies[b]!.position.x, y: 0, z: Math.min(-0.5, bodies[b]!.position.z) };
      jointSpecs.push(makeJoint(rng, bodies, -1, b, 'floor', top));
    }
    // Sliders and six-dofs on top, from a stream of their own, so that the
    // worlds (and the minimized repros) of the first five kinds stay as they were.
    const extra = new Random((seed ^ 0x5bd1e995) >>> 0);
    const extraJoints = extra.int(1, 2 + Math.round(count / 10));
    for (let k = 0; k < extraJoints; k++) {
      const i = extra.int(0, count);
      let j = extra.int(0, count - 1);
      if (j >= i) j++;
      if (extra.next() < 0.5) {
        // Half of them between neighbours.
        let bestD = Infinity;
        for (let m = 0; m < count; m++) {
          if (m === i) continue;
          const d = dist(bodies[i]!.position, bodies[m]!.position);
          if (d < bestD) { bestD = d; j = m; }
        }
      }
      jointSpecs.push(makeJoint(extra, bodies, i, j, 'random', null, extra.next() < 0.5 ? 'slider' : 'sixDof'));
    }
  }
  if (options.rigidStart && jointSpecs.length > 0) rigidStart(bodies, jointSpecs);
  if (options.newShapes) {
    const extra = new Random((seed ^ 0x5eed19) >>> 0);
    for (let i = 0; i < bodies.length; i++) {
      if (extra.next() >= 0.2) continue;
      const b = bodies[i]!;
      bodies[i] = { ...b, shape: makeCompound(extra, Math.max(0.05, boundingRadius(b.shape))), thin: false };
    }
  }
  const characters: CharacterSpec[] = [];
  const characterCount = rng.int(1, 4);
  for (let k = 0; k < characterCount; k++) {
    const radius = rng.range(0.25, 0.45), halfHeight = rng.range(0.3, 0.8);
    const inputs: { x: number; z: number; jump: boolean }[] = [];
    for (let i = 0; i < 40; i++) inputs.push({ x: rng.range(-1, 1), z: rng.range(-1, 1), jump: rng.next() < 0.2 });
    characters.push({
      position: { x: rng.range(-20, 20), y: radius + halfHeight + 0.05, z: rng.range(-20, -3) },
      radius, halfHeight, inputs, inputPeriod: rng.int(10, 60),
    });
  }
  const pinnedKinds: ClothSpec['pinned'][] = ['top', 'topCorners', 'none'];
  const cloth: ClothSpec = {
    position: { x: rng.range(-15, 15), y: rng.range(2.5, 8), z: rng.range(-15, 15) },
    rotation: rng.quat(),
    width: rng.range(1, 3), height: rng.range(1, 3),
    segments: rng.int(6, 13),
    pinned: pinnedKinds[rng.int(0, 3)]!,
    mass: rng.range(0.2, 2),
  };
  const ropeFrom: Vec3 = { x: rng.range(-15, 15), y: rng.range(5, 10), z: rng.range(-15, 15) };
  const rope: RopeSpec = {
    from: ropeFrom,
    to: { x: ropeFrom.x + rng.range(-4, 4), y: ropeFrom.y - rng.range(0, 2), z: ropeFrom.z + rng.range(-4, 4) },
    segments: rng.int(8, 21),
    mass: rng.range(0.2, 2),
  };
  return {
    seed, joints: options.joints, dt: FUZZ_DT, steps: FUZZ_STEPS,
    floor: {
      halfExtents: { x: GROUND_HALF, y: 0.5, z: GROUND_HALF / 2 }, position: { x: 0, y: -0.5, z: -GROUND_HALF / 2 },
      friction: rng.next(), restitution: rng.next(),
    },
    terrain: { ...terrain, friction: rng.next(), restitution: rng.next() },
    bodies, jointSpecs, characters, cloth, rope,
    terrainAsHeightField: options.newShapes ?? false,
  };
}
