// Babylon's PhysicsShape parameters to footing shapes. A footing shape sits at
// its body's origin, so a Babylon shape with a centre or a rotation becomes a
// footing shape plus an offset frame: the footing body is placed at
// node ⊗ offset, and the node is recovered from the body with the inverse.
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { PhysicsShapeType, type PhysicsShapeParameters } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { PhysicsMaterial } from '@babylonjs/core/Physics/v2/physicsMaterial';
import { Box, Capsule, Compound, ConvexHull, ConvexShape, Cylinder, HeightField, Sphere, TriangleMesh, type CombineMode, type Quat, type Shape, type Vec3 } from '../../index';

/** footing's combine modes by PhysicsMaterialCombineMode (GEOMETRIC_MEAN 0, MINIMUM 1, MAXIMUM 2, ARITHMETIC_MEAN 3, MULTIPLY 4). */
export const COMBINE_MODES: Record<number, CombineMode> = ['geometric', 'minimum', 'maximum', 'average', 'multiply'];

/**
 * Thrown for a Babylon shape or constraint type whose footing counterpart is
 * not in the core yet; `missing` names the core class it needs.
 */
export class FootingPluginUnsupportedError extends Error {
  constructor(readonly feature: string, readonly missing: string) {
    super(`FootingPlugin: ${feature} needs footing's ${missing}, which this build of footing does not have yet`);
    this.name = 'FootingPluginUnsupportedError';
  }
}

/** A footing shape and where it sits in the Babylon body's frame. */
export interface ShapeGeometry {
  core: Shape | null;
  offsetPosition: Vec3;
  offsetRotation: Quat;
  /** Triangles in the body frame, for getBodyGeometry (PhysicsViewer). Filled for MESH. */
  meshPositions: Float32Array | null;
  meshIndices: Uint32Array | null;
}

/** The plugin's data behind one Babylon PhysicsShape (its `_pluginData`). */
export class ShapeData {
  geometry: ShapeGeometry;
  density = 1000;
  isTrigger = false;
  /** Signed 32-bit masks, read back as Havok does (~0 = −1: all groups). */
  membership = -1;
  collideWith = -1;
  material: PhysicsMaterial = { friction: 0.5, staticFriction: 0.5, restitution: 0, frictionCombine: 1, restitutionCombine: 2 };
  readonly children: { shape: PhysicsShape; translation: Vec3; rotation: Quat; scale: Vec3 }[] = [];
  /** Body data records using this shape (rebuilt when a property footing fixes at creation changes). */
  readonly users = new Set<{ rebuild(): void }>();
  /** PhysicsShape.dispose was called: bodies and containers using it keep it, the user can no longer read or change it. */
  disposed = false;
  constructor(readonly type: PhysicsShapeType, readonly options: PhysicsShapeParameters, geometry: ShapeGeometry) {
    this.geometry = geometry;
  }
}

function frame(core: Shape | null, p: Vec3, q: Quat): ShapeGeometry {
  return { core, offsetPosition: p, offsetRotation: q, meshPositions: null, meshIndices: null };
}

/** A vector option, or its default when absent; one that is given must be finite (`field` names it in the error). */
function vec(v: Vector3 | undefined, x: number, y: number, z: number, field: string): Vec3 {
  if (!v) return { x, y, z };
  for (const k of ['x', 'y', 'z'] as const) {
    if (typeof v[k] !== 'number' || !Number.isFinite(v[k])) throw new RangeError(`FootingPlugin.initShape: options.${field}.${k} must be a finite number (got ${String(v[k])})`);
  }
  return { x: v.x, y: v.y, z: v.z };
}

/** A rotation option: identity when absent, otherwise a non-zero quaternion of finite numbers, normalised. */
function rotationOption(q: Quaternion | undefined, field: string): Quat {
  if (!q) return { x: 0, y: 0, z: 0, w: 1 };
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  if (!(n > 1e-6 && n < Infinity)) {
    throw new RangeError(`FootingPlugin.initShape: options.${field} must be a non-zero quaternion of finite numbers (got ${q.x}, ${q.y}, ${q.z}, ${q.w})`);
  }
  // A unit quaternion is kept as given (its length from Math.hypot may be 1 ± 1 ulp).
  if (Math.abs(n - 1) < 1e-9) return { x: q.x, y: q.y, z: q.z, w: q.w };
  return { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n };
}

/**
 * A radius option: a sphere's is 1 m when absent; a given one must be
 * finite and > 0 (0 or NaN is not taken as "absent").
 */
function radiusOption(r: number | undefined, fallback?: number): number {
  if (r === undefined && fallback !== undefined) return fallback;
  if (typeof r !== 'number' || !(r > 0 && r < Infinity)) throw new RangeError(`FootingPlugin.initShape: options.radius must be a finite number > 0 (got ${String(r)})`);
  return r;
}

/** The rotation taking +Y onto the unit direction d (a capsule's or cylinder's axis). */
function rotationFromY(d: Vec3): Quat {
  // q = (y × d, 1 + y·d) normalised; opposite vectors turn about X.
  const w = 1 + d.y;
  if (w < 1e-9) return { x: 1, y: 0, z: 0, w: 0 };
  const x = d.z, z = -d.x;
  const n = Math.sqrt(x * x + w * w + z * z);
  return { x: x / n, y: 0, z: z / n, w: w / n };
}

function sphere(o: PhysicsShapeParameters): ShapeGeometry {
  return frame(new Sphere(radiusOption(o.radius, 1)), vec(o.center, 0, 0, 0, 'center'), { x: 0, y: 0, z: 0, w: 1 });
}

/**
 * Half thickness (m) of a BOX given no thickness along an axis. Babylon's
 * usual ground is a CreateGround mesh with a BOX aggregate, whose bounding
 * extents are 0 in y; Havok takes it as a plate of no thickness, colliding
 * on both sides. footing's Box needs a size, so the plate is 0.2 mm thick
 * about the mesh's plane: thin enough that a body rests where it would on
 * Havok's, thick enough for the box routines.
 */
export const FLAT_BOX_HALF_THICKNESS = 1e-4;

function box(o: PhysicsShapeParameters): ShapeGeometry {
  const e = vec(o.extents, 1, 1, 1, 'extents');
  for (const k of ['x', 'y', 'z'] as const) {
    if (!(e[k] >= 0)) throw new RangeError(`FootingPlugin.initShape: options.extents.${k} must be a finite number ≥ 0 (got ${e[k]})`);
  }
  const half = (x: number): number => Math.max(x / 2, FLAT_BOX_HALF_THICKNESS);
  return frame(new Box({ x: half(e.x), y: half(e.y), z: half(e.z) }), vec(o.center, 0, 0, 0, 'center'), rotationOption(o.rotation, 'rotation'));
}

/** A segment A→B becomes a centre, an axis rotation and a half length. */
function segment(o: PhysicsShapeParameters): { centre: Vec3; rotation: Quat; halfLength: number; radius: number } {
  const a = vec(o.pointA, 0, 0, 0, 'pointA'), b = vec(o.pointB, 0, 1, 0, 'pointB');
  const dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const rotation = len > 0 ? rotationFromY({ x: dx / len, y: dy / len, z: dz / len }) : { x: 0, y: 0, z: 0, w: 1 };
  // (A length past the largest double would turn the axis into NaN.)
  if (!(len < Infinity)) throw new RangeError(`FootingPlugin.initShape: options.pointA and pointB must be less than ${Number.MAX_VALUE} m apart (got ${len})`);
  return { centre: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, z: (a.z + b.z) / 2 }, rotation, halfLength: len / 2, radius: radiusOption(o.radius) };
}

function capsule(o: PhysicsShapeParameters): ShapeGeometry {
  const s = segment(o);
  // A capsule with coincident points is a sphere (footing's Capsule needs a length).
  const core = s.halfLength > 0 ? new Capsule(s.radius, s.halfLength) : new Sphere(s.radius);
  return frame(core, s.centre, s.rotation);
}

/** A cylinder between pointA and pointB (footing's Cylinder runs along local Y, as the capsule). */
function cylinder(o: PhysicsShapeParameters): ShapeGeometry {
  const s = segment(o);
  if (!(s.halfLength > 0)) throw new RangeError('FootingPlugin.initShape: a CYLINDER needs options.pointA and pointB apart (they are the same point)');
  return frame(new Cylinder(s.radius, s.halfLength), s.centre, s.rotation);
}

/**
 * The hull of the mesh's points in its own frame (scaled as for MESH). The
 * hull stores itself about its centre of mass along its principal axes;
 * (centerOfMass, rotation) is where that frame sits in the mesh's: the offset.
 */
function convexHull(o: PhysicsShapeParameters): ShapeGeometry {
  if (!o.mesh) throw new TypeError('FootingPlugin.initShape: options.mesh is required for a CONVEX_HULL shape');
  const { positions } = meshTriangles(o);
  const hull = new ConvexHull(positions);
  const c = hull.centerOfMass, r = hull.rotation;
  return frame(hull, { x: c.x, y: c.y, z: c.z }, { x: r.x, y: r.y, z: r.z, w: r.w });
}

/**
 * Babylon's height samples from a ground mesh, as HavokPlugin reads them: a
 * square grid over the mesh's world bounds, rows from +Z to −Z, heights
 * relative to the lowest point (so the field's floor sits at the body).
 */
function groundMeshSamples(o: PhysicsShapeParameters): void {
  const m = o.groundMesh!;
  const pos = m.getVerticesData('position');
  if (!pos) throw new TypeError(`FootingPlugin.initShape: groundMesh '${m.name}' has no vertex positions for a HEIGHTFIELD shape`);
  const world = m.computeWorldMatrix(true);
  const n = Math.floor(Math.sqrt(pos.length / 3) - 1);
  if (n < 1) throw new TypeError(`FootingPlugin.initShape: groundMesh '${m.name}' has too few vertices for a HEIGHTFIELD shape`);
  const bb = m.getBoundingInfo().boundingBox;
  const half = Math.min(bb.extendSizeWorld.x, bb.extendSizeWorld.z);
  const cell = (2 * half) / n;
  const data = new Float32Array((n + 1) * (n + 1)).fill(bb.minimumWorld.y);
  const p = new Vector3();
  for (let i = 0; i < pos.length; i += 3) {
    Vector3.TransformCoordinatesFromFloatsToRef(pos[i]!, pos[i + 1]!, pos[i + 2]!, world, p);
    const x = Math.round((p.x - bb.minimumWorld.x) / cell);
    const z = n - Math.round((p.z - bb.minimumWorld.z) / cell);
    data[z * (n + 1) + x] = p.y - bb.minimumWorld.y;
  }
  o.numHeightFieldSamplesX = n + 1;
  o.numHeightFieldSamplesZ = n + 1;
  o.heightFieldSizeX = 2 * bb.extendSizeWorld.x;
  o.heightFieldSizeZ = 2 * bb.extendSizeWorld.z;
  o.heightFieldData = data;
}

/**
 * HEIGHTFIELD: Babylon's data is row-major with rows from +Z to −Z and
 * columns along +X (the ground-mesh layout); footing's rows run along +Z.
 * The grid is centred on the body, as HavokPlugin's is (measured in
 * plugin-vs-havok.test.ts).
 */
function heightField(o: PhysicsShapeParameters): ShapeGeometry {
  if (o.groundMesh) groundMeshSamples(o);
  const nx = o.numHeightFieldSamplesX, nz = o.numHeightFieldSamplesZ, sx = o.heightFieldSizeX, sz = o.heightFieldSizeZ, data = o.heightFieldData;
  if (nx === undefined || nz === undefined || sx === undefined || sz === undefined || !data) {
    throw new TypeError('FootingPlugin.initShape: a HEIGHTFIELD needs groundMesh, or numHeightFieldSamplesX/Z, heightFieldSizeX/Z and heightFieldData');
  }
  for (const [field, n] of [['numHeightFieldSamplesX', nx], ['numHeightFieldSamplesZ', nz]] as const) {
    if (!Number.isInteger(n) || n < 2) throw new RangeError(`FootingPlugin.initShape: options.${field} must be an integer ≥ 2 (got ${String(n)})`);
  }
  for (const [field, size] of [['heightFieldSizeX', sx], ['heightFieldSizeZ', sz]] as const) {
    if (typeof size !== 'number' || !(size > 0 && size < Infinity)) throw new RangeError(`FootingPlugin.initShape: options.${field} must be a finite number > 0 (got ${String(size)})`);
  }
  if (data.length !== nx * nz) throw new RangeError(`FootingPlugin.initShape: heightFieldData must hold numHeightFieldSamplesX × numHeightFieldSamplesZ = ${nx * nz} heights (got ${data.length})`);
  // footing's HeightField reads NaN as a hole; Babylon's (and Havok's) fields have none, so a NaN is a mistake.
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i])) throw new RangeError(`FootingPlugin.initShape: options.heightFieldData[${i}] must be a finite number (got ${String(data[i])})`);
  }
  const samples = new Float64Array(nx * nz);
  for (let r = 0; r < nz; r++) for (let c = 0; c < nx; c++) samples[r * nx + c] = data[(nz - 1 - r) * nx + c]!;
  const core = new HeightField(samples, nz, nx, { x: sx / (nx - 1), y: 1, z: sz / (nz - 1) });
  return frame(core, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
}

/** An empty container: no collider until a child is added (see containerGeometry). */
function container(_o: PhysicsShapeParameters): ShapeGeometry {
  return frame(null, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
}

/**
 * The mesh's triangles in its own frame, scaled by its absolute scaling (a
 * footing body has no scale), with child meshes when asked.
 */
function meshTriangles(o: PhysicsShapeParameters): { positions: number[]; indices: number[] } {
  const root = o.mesh!;
  root.computeWorldMatrix(true);
  const rootScale = new Vector3(), rootRot = new Quaternion(), rootPos = new Vector3();
  root.getWorldMatrix().decompose(rootScale, rootRot, rootPos);
  const rootInv = Matrix.Compose(Vector3.One(), rootRot, rootPos).invert();
  const meshes: AbstractMesh[] = [root];
  if (o.includeChildMeshes) meshes.push(...root.getChildMeshes(false));
  const positions: number[] = [];
  const indices: number[] = [];
  const p = new Vector3();
  for (const m of meshes) {
    const data = m.getVerticesData('position');
    if (!data) continue;
    m.computeWorldMatrix(true);
    const toRoot = m.getWorldMatrix().multiply(rootInv);
    const base = positions.length / 3;
    for (let i = 0; i < data.length; i += 3) {
      Vector3.TransformCoordinatesFromFloatsToRef(data[i]!, data[i + 1]!, data[i + 2]!, toRoot, p);
      positions.push(p.x, p.y, p.z);
    }
    const ind = m.getIndices();
    if (ind) for (let i = 0; i < ind.length; i++) indices.push(base + ind[i]!);
    else for (let i = 0; i < data.length / 3; i++) indices.push(base + i);
  }
  return { positions, indices };
}

function mesh(o: PhysicsShapeParameters): ShapeGeometry {
  if (!o.mesh) throw new TypeError('FootingPlugin.initShape: options.mesh is required for a MESH shape');
  const { positions, indices } = meshTriangles(o);
  if (indices.length < 3) throw new TypeError(`FootingPlugin.initShape: mesh '${o.mesh.name}' has no triangles for a MESH shape`);
  // Both sides collide: which side Babylon draws as the front depends on the mesh's side orientation.
  const g = frame(new TriangleMesh(positions, indices, { doubleSided: true }), { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
  g.meshPositions = new Float32Array(positions);
  g.meshIndices = new Uint32Array(indices);
  return g;
}

/** One small builder per Babylon shape type; a new core shape is one entry here. */
const BUILDERS: Record<PhysicsShapeType, (o: PhysicsShapeParameters) => ShapeGeometry> = {
  [PhysicsShapeType.SPHERE]: sphere,
  [PhysicsShapeType.CAPSULE]: capsule,
  [PhysicsShapeType.CYLINDER]: cylinder,
  [PhysicsShapeType.BOX]: box,
  [PhysicsShapeType.CONVEX_HULL]: convexHull,
  [PhysicsShapeType.CONTAINER]: container,
  [PhysicsShapeType.MESH]: mesh,
  [PhysicsShapeType.HEIGHTFIELD]: heightField,
};

export function buildShapeGeometry(type: PhysicsShapeType, options: PhysicsShapeParameters): ShapeGeometry {
  const build = BUILDERS[type];
  if (!build) throw new TypeError(`FootingPlugin.initShape: unknown shape type ${String(type)}`);
  const o = options ?? {};
  try {
    return build(o);
  } catch (e) {
    // The core names its own fields (ConvexHull.points, TriangleMesh.indices): say which Babylon shape and mesh they came from.
    if (!(e instanceof RangeError) && !(e instanceof TypeError)) throw e;
    const message = (e as Error).message;
    if (message.startsWith('FootingPlugin')) throw e;
    const mesh = o.mesh ?? o.groundMesh;
    const where = `FootingPlugin.initShape: ${PhysicsShapeType[type]}${mesh ? ` of mesh '${mesh.name}'` : ''}`;
    throw e instanceof RangeError ? new RangeError(`${where}: ${message}`) : new TypeError(`${where}: ${message}`);
  }
}

/** The child's options scaled (sphere, box and capsule scale their sizes and centres). */
function scaledOptions(o: PhysicsShapeParameters, s: Vec3): PhysicsShapeParameters {
  const mul = (v: Vector3 | undefined): Vector3 | undefined => (v ? new Vector3(v.x * s.x, v.y * s.y, v.z * s.z) : undefined);
  const r = o.radius === undefined ? undefined : o.radius * Math.max(Math.abs(s.x), Math.abs(s.y), Math.abs(s.z));
  return { ...o, center: mul(o.center), pointA: mul(o.pointA ?? new Vector3(0, 0, 0)), pointB: mul(o.pointB ?? new Vector3(0, 1, 0)), extents: mul(o.extents ?? new Vector3(1, 1, 1)), radius: r };
}

/** The child's collider placed in the container's frame: offset = child transform ⊗ the child's own offset. */
function placedChild(child: ShapeData['children'][number]): ShapeGeometry[] {
  const cd = child.shape._pluginData as ShapeData;
  const s = child.scale;
  const unit = s.x === 1 && s.y === 1 && s.z === 1;
  const parts = cd.type === PhysicsShapeType.CONTAINER ? containerParts(cd) : [unit ? cd.geometry : buildShapeGeometry(cd.type, scaledOptions(cd.options, s))];
  const cq = new Quaternion(child.rotation.x, child.rotation.y, child.rotation.z, child.rotation.w);
  return parts.map((g) => {
    const p = new Vector3(g.offsetPosition.x, g.offsetPosition.y, g.offsetPosition.z).applyRotationQuaternion(cq);
    const q = cq.multiply(new Quaternion(g.offsetRotation.x, g.offsetRotation.y, g.offsetRotation.z, g.offsetRotation.w));
    return {
      core: g.core,
      offsetPosition: { x: p.x + child.translation.x, y: p.y + child.translation.y, z: p.z + child.translation.z },
      offsetRotation: { x: q.x, y: q.y, z: q.z, w: q.w },
      meshPositions: g.meshPositions, meshIndices: g.meshIndices,
    };
  });
}

/** Every collider of a container, nested containers flattened, in the container's frame. */
function containerParts(data: ShapeData): ShapeGeometry[] {
  const out: ShapeGeometry[] = [];
  for (const child of data.children) for (const g of placedChild(child)) if (g.core) out.push(g);
  return out;
}

/**
 * A CONTAINER's collider: its only child, placed by the child's translation,
 * rotation and scale, or a footing Compound of its convex children. The
 * Compound stores its parts about their centre of mass along the principal
 * axes, and (centerOfMass, principalRotation) is where that frame sits in the
 * container's frame: the offset.
 */
export function containerGeometry(data: ShapeData): ShapeGeometry {
  const parts = containerParts(data);
  if (parts.length === 0) return frame(null, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
  if (parts.length === 1) return parts[0]!;
  for (const g of parts) {
    if (!(g.core instanceof ConvexShape)) {
      throw new FootingPluginUnsupportedError('a CONTAINER shape holding a MESH or HEIGHTFIELD child next to other children', 'Compound of non-convex children (its Compound takes convex children only)');
    }
  }
  const compound = new Compound(parts.map((g) => ({ shape: g.core as ConvexShape, position: g.offsetPosition, rotation: g.offsetRotation })));
  const c = compound.centerOfMass, r = compound.principalRotation;
  return frame(compound, { x: c.x, y: c.y, z: c.z }, { x: r.x, y: r.y, z: r.z, w: r.w });
}
