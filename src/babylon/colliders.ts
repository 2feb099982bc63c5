/**
 * Colliders from Babylon meshes.
 *
 * - `colliderFromMesh(mesh, 'box' | 'sphere' | 'capsule')` fits a primitive to
 *   the mesh's local bounding box (scaled by the mesh's world scaling) and
 *   returns the pose to create the body at: spread it into `createBody`.
 * - `triangleMeshFromMeshes(meshes)` bakes the world-space triangles of any
 *   meshes (world matrix applied, so parents, scaling and glTF's handedness
 *   flip are included) into one TriangleMesh for a static body at the origin,
 *   with the faces Babylon draws as front faces as the TriangleMesh's front.
 * - `createStaticMeshCollider(world, root)` does that for a node and all its
 *   descendant meshes in one call (a loaded glTF level).
 *
 * - `heightFieldFromGround(ground)` bakes a Babylon ground grid into a
 *   HeightField (memory per sample instead of per triangle).
 *
 * All of this runs once at load time, so it may allocate freely.
 */
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type {} from '@babylonjs/core/Meshes/thinInstanceMesh';
import type { Node } from '@babylonjs/core/node';
import { Box, Capsule, HeightField, MAX_POSITION, Sphere, TriangleMesh, type HeightFieldOptions, type TriangleMeshOptions, type BodyDesc, type ConvexShape, type Quat, type RigidBody, type Vec3, type World } from '../index';
import { described, requireMesh, requireObject } from './checks';

export type PrimitiveKind = 'box' | 'sphere' | 'capsule';

/** A shape and the pose to create its body at (spread into `world.createBody`). */
export interface MeshCollider<S> {
  shape: S;
  position: Vec3;
  rotation: Quat;
}

/**
 * Fits a primitive to `mesh`'s bounding box:
 *   box      half extents = local half extents × |world scaling|
 *   sphere   radius = the largest scaled half extent
 *   capsule  along the mesh's local Y: radius = the larger scaled X/Z half
 *            extent, half height = scaled Y half extent − radius (Babylon's
 *            CreateCapsule has exactly these bounds)
 * The body is placed at the bounding box centre in world space, with the
 * mesh's world rotation. Rotated meshes keep their fit (the bounds are local).
 */
export function colliderFromMesh(mesh: AbstractMesh, kind: 'box'): MeshCollider<Box>;
export function colliderFromMesh(mesh: AbstractMesh, kind: 'sphere'): MeshCollider<Sphere>;
export function colliderFromMesh(mesh: AbstractMesh, kind: 'capsule'): MeshCollider<Capsule>;
export function colliderFromMesh(mesh: AbstractMesh, kind: PrimitiveKind): MeshCollider<ConvexShape>;
export function colliderFromMesh(mesh: AbstractMesh, kind: PrimitiveKind): MeshCollider<ConvexShape> {
  requireMesh(mesh, 'colliderFromMesh: mesh');
  if (kind !== 'box' && kind !== 'sphere' && kind !== 'capsule') throw new TypeError(`colliderFromMesh: kind must be 'box', 'sphere' or 'capsule' (got ${described(kind)})`);
  requireLive(mesh, 'colliderFromMesh');
  // Babylon draws a thin-instanced mesh once per instance matrix, never at its own pose: one primitive fits none of them.
  if (thinInstanceCount(mesh) > 0) throw new RangeError(`colliderFromMesh: mesh '${mesh.name}' has ${thinInstanceCount(mesh)} thin instances; one primitive cannot fit them (bake them with triangleMeshFromMeshes)`);
  if (mesh.getTotalVertices() === 0) throw new RangeError(`colliderFromMesh: mesh '${mesh.name}' has no vertices to fit a ${String(kind)} to`);
  const world = finiteWorldMatrix(mesh, 'colliderFromMesh');
  const bounds = mesh.getBoundingInfo().boundingBox;
  const e = bounds.extendSize, c = bounds.center;
  if (!Number.isFinite(e.x + e.y + e.z + c.x + c.y + c.z)) throw new RangeError(`colliderFromMesh: mesh '${mesh.name}' has non-finite bounds (NaN or infinite vertex positions)`);
  const scale = new Vector3();
  const rotation = new Quaternion();
  const translation = new Vector3();
  world.decompose(scale, rotation, translation);
  const hx = Math.abs(bounds.extendSize.x * scale.x);
  const hy = Math.abs(bounds.extendSize.y * scale.y);
  const hz = Math.abs(bounds.extendSize.z * scale.z);
  // One zero extent is a flat mesh (a plane gets a thin box); all three zero is a point, from a zero world scaling.
  if (hx === 0 && hy === 0 && hz === 0) throw new RangeError(`colliderFromMesh: mesh '${mesh.name}' has zero size in world space (all its vertices at one point, or a zero scaling of the mesh or a parent)`);
  const centre = Vector3.TransformCoordinates(bounds.center, world);
  let shape: ConvexShape;
  if (kind === 'box') {
    shape = new Box({ x: Math.max(hx, 1e-4), y: Math.max(hy, 1e-4), z: Math.max(hz, 1e-4) });
  } else if (kind === 'sphere') {
    shape = new Sphere(Math.max(hx, hy, hz, 1e-4));
  } else {
    const radius = Math.max(hx, hz, 1e-4);
    shape = new Capsule(radius, Math.max(hy - radius, 1e-4));
  }
  rotation.normalize();
  return {
    shape,
    position: { x: centre.x, y: centre.y, z: centre.z },
    rotation: { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w },
  };
}

/** World-space triangles of `meshes` (positions and indices concatenated). */
export interface BakedTriangles {
  positions: Float64Array;
  indices: Uint32Array;
}

/**
 * Concatenates the world-space triangles of `meshes`, wound the way
 * TriangleMesh takes its front side (counter-clockwise seen from the front in
 * right-handed terms: the front normal is (b − a) × (c − a)). Each triangle
 * keeps the side Babylon renders as its front face: the mesh's (or its
 * material's) `sideOrientation`, the scene's handedness and the sign of the
 * world matrix's determinant are taken into account (see frontIsStoredWinding).
 * Meshes without positions are skipped; meshes without indices are read as a
 * triangle list; a thin-instanced mesh gives one copy per thin instance (where
 * Babylon draws it). A disposed mesh, a vertex or world matrix that is not
 * finite, and an index outside its own mesh's vertices, are refused naming the mesh.
 */
export function bakeTriangles(meshes: readonly AbstractMesh[]): BakedTriangles {
  return bake(meshes, 'bakeTriangles', Infinity);
}

/** bakeTriangles, its errors starting with `caller` (the function the user called), every world coordinate within ±`limit`. */
function bake(meshes: readonly AbstractMesh[], caller: string, limit: number): BakedTriangles {
  if (!Array.isArray(meshes)) throw new TypeError(`${caller}: meshes must be an array of Babylon meshes (got ${described(meshes)})`);
  for (let k = 0; k < meshes.length; k++) {
    requireMesh(meshes[k]!, `${caller}: meshes[${k}]`);
    requireLive(meshes[k]!, caller);
  }
  const parts: { positions: Float64Array; indices: ArrayLike<number>; flip: boolean }[] = [];
  let vertexTotal = 0;
  let indexTotal = 0;
  const v = new Vector3();
  for (const mesh of meshes) {
    const raw = mesh.getVerticesData(VertexBuffer.PositionKind);
    if (!raw || raw.length < 9) continue;
    // Checked per mesh, by name: once concatenated, a bad value is only an index into the whole.
    requireFinitePositions(raw, mesh, caller);
    const world: Matrix = finiteWorldMatrix(mesh, caller);
    const count = Math.floor(raw.length / 3);
    let indices: ArrayLike<number> | null = mesh.getIndices();
    if (!indices || indices.length === 0) {
      const seq = new Uint32Array(count - (count % 3));
      for (let i = 0; i < seq.length; i++) seq[i] = i;
      indices = seq;
    }
    // An index past this mesh's vertices would point into the next mesh's once the meshes are concatenated.
    const used = indices.length - (indices.length % 3);
    for (let i = 0; i < used; i++) {
      const ix = indices[i]!;
      if (!(Number.isInteger(ix) && ix >= 0 && ix < count)) {
        throw new RangeError(`${caller}: mesh '${mesh.name}' indices[${i}] must be an integer in [0, ${count - 1}] (its vertex count is ${count}; got ${ix})`);
      }
    }
    // Babylon swaps the front winding when the world matrix mirrors (det < 0),
    // as a mirror reverses the transformed (b − a) × (c − a); a zero scaling
    // (det = 0) swaps nothing, so the surviving triangles keep their side.
    // Thin instances are drawn with the mesh's own determinant's winding.
    const flip = frontIsStoredWinding(mesh) === world.determinant() < 0;
    // A thin-instanced mesh is drawn once per instance matrix (× its world matrix), never at its own pose.
    const instances = thinInstanceCount(mesh) > 0 ? (mesh as Mesh).thinInstanceGetWorldMatrices().slice(0, thinInstanceCount(mesh)) : null;
    const poses = instances ? instances.map((m) => m.multiply(world)) : [world];
    for (let p = 0; p < poses.length; p++) {
      const pose = poses[p]!;
      if (instances && !pose.m.every((x) => Number.isFinite(x))) throw new RangeError(`${caller}: mesh '${mesh.name}' thin instance ${p} has a non-finite matrix`);
      const positions = new Float64Array(count * 3);
      for (let i = 0; i < count; i++) {
        Vector3.TransformCoordinatesFromFloatsToRef(raw[3 * i]!, raw[3 * i + 1]!, raw[3 * i + 2]!, pose, v);
        if (!(Math.abs(v.x) <= limit && Math.abs(v.y) <= limit && Math.abs(v.z) <= limit)) {
          throw new RangeError(`${caller}: mesh '${mesh.name}'${instances ? ` thin instance ${p}` : ''} vertex ${i} is at (${v.x}, ${v.y}, ${v.z}) in world space, ${limit === Infinity ? 'not finite' : `beyond ±${limit} m (MAX_POSITION)`}`);
        }
        positions[3 * i] = v.x; positions[3 * i + 1] = v.y; positions[3 * i + 2] = v.z;
      }
      parts.push({ positions, indices, flip });
      vertexTotal += count;
      indexTotal += indices.length - (indices.length % 3);
    }
  }
  const positions = new Float64Array(vertexTotal * 3);
  const indices = new Uint32Array(indexTotal);
  let vBase = 0;
  let iOut = 0;
  for (const part of parts) {
    positions.set(part.positions, vBase * 3);
    const src = part.indices;
    const n = src.length - (src.length % 3);
    for (let i = 0; i < n; i += 3) {
      const a = src[i]!, b = src[i + 1]!, c = src[i + 2]!;
      indices[iOut++] = vBase + a;
      indices[iOut++] = vBase + (part.flip ? c : b);
      indices[iOut++] = vBase + (part.flip ? b : c);
    }
    vBase += part.positions.length / 3;
  }
  return { positions, indices };
}

/** Babylon's `Material.ClockWiseSideOrientation` and `Material.CounterClockWiseSideOrientation`. */
const CLOCKWISE = 0;
const COUNTER_CLOCKWISE = 1;

/**
 * True when the side of `mesh`'s stored triangles (a, b, c) that Babylon
 * renders as the front face (before the world matrix) is the side their
 * right-handed normal (b − a) × (c − a) points to.
 *
 * Babylon draws a triangle as front-facing by its winding on screen: the
 * effective side orientation (the material's `sideOrientation` when set, else
 * the mesh's) names the screen winding of front faces, in a projection that
 * mirrors the scene when it is left-handed. Worked through, with the
 * orientation a Mesh gets by default for its scene (CounterClockWise in a
 * left-handed scene, ClockWise in a right-handed one; what every MeshBuilder
 * mesh has) the front is the side (b − a) × (c − a) points AWAY from, and
 * with the other one (what the glTF loader sets, its data being
 * counter-clockwise in a right-handed frame) the side it points to.
 */
function frontIsStoredWinding(mesh: AbstractMesh): boolean {
  // An instance draws its source mesh's geometry with the source's settings.
  const source = (mesh as { sourceMesh?: AbstractMesh }).sourceMesh ?? mesh;
  const rightHanded = source.getScene().useRightHandedSystem;
  const materialSide = source.material?.sideOrientation;
  const meshSide = (source as { sideOrientation?: number }).sideOrientation;
  const side = materialSide ?? meshSide ?? (rightHanded ? CLOCKWISE : COUNTER_CLOCKWISE);
  return side === (rightHanded ? COUNTER_CLOCKWISE : CLOCKWISE);
}

/** One TriangleMesh (world space: create its body at the origin) from the triangles of `meshes`. */
export function triangleMeshFromMeshes(meshes: AbstractMesh | readonly AbstractMesh[], options: TriangleMeshOptions = {}): TriangleMesh {
  if (!Array.isArray(meshes)) requireMesh(meshes as AbstractMesh, 'triangleMeshFromMeshes: meshes', 'mesh or an array of meshes');
  const list = Array.isArray(meshes) ? (meshes as readonly AbstractMesh[]) : [meshes as AbstractMesh];
  return triangleMesh(list, options, 'triangleMeshFromMeshes');
}

function triangleMesh(list: readonly AbstractMesh[], options: TriangleMeshOptions, caller: string): TriangleMesh {
  const baked = bake(list, caller, MAX_POSITION);
  if (baked.indices.length === 0) throw new RangeError(`${caller}: the meshes have no triangles`);
  try {
    return new TriangleMesh(baked.positions, baked.indices, options);
  } catch (e) {
    // TriangleMesh's own message names neither the call nor the meshes (all degenerate: e.g. a zero scaling on a parent).
    if (!(e instanceof Error)) throw e;
    const names = list.slice(0, 3).map((m) => `'${m.name}'`).join(', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
    const Ctor = e instanceof RangeError ? RangeError : TypeError;
    throw new Ctor(`${caller}: ${e.message} (baked from mesh ${names}${/degenerate/.test(e.message) ? '; a zero scaling of a mesh or a parent flattens every triangle' : ''})`);
  }
}

export interface StaticMeshColliderOptions extends Omit<Partial<BodyDesc>, 'type' | 'shape' | 'position' | 'rotation'> {
  /** Collide with both sides of the triangles (TriangleMesh's `doubleSided`). Default false. */
  doubleSided?: boolean;
  /** Keep only the meshes this returns true for (e.g. skip decoration). Default: every enabled mesh with triangles. */
  filter?: (mesh: AbstractMesh) => boolean;
}

/**
 * Gathers `root` (when it is a mesh) and all its descendant meshes, bakes
 * their world-space triangles into one TriangleMesh and creates one static
 * body for it. For a loaded glTF: `createStaticMeshCollider(world, result.meshes[0])`.
 */
export function createStaticMeshCollider(world: World, root: Node | readonly AbstractMesh[], options: StaticMeshColliderOptions = {}): RigidBody {
  const caller = 'createStaticMeshCollider';
  if (world === null || typeof world !== 'object' || typeof world.createBody !== 'function') throw new TypeError(`${caller}: world must be a footing World (got ${described(world)})`);
  requireObject(options, `${caller}: options`);
  const { filter, doubleSided, ...desc } = options;
  if (filter != null && typeof filter !== 'function') throw new TypeError(`${caller}: options.filter must be a function (mesh) => boolean (got ${described(filter)})`);
  let meshes: AbstractMesh[];
  if (Array.isArray(root)) {
    meshes = (root as readonly AbstractMesh[]).slice();
    for (let k = 0; k < meshes.length; k++) requireMesh(meshes[k]!, `${caller}: root[${k}]`);
  } else {
    const node = root as Node;
    if (node === null || typeof node !== 'object' || typeof node.getChildMeshes !== 'function') {
      throw new TypeError(`${caller}: root must be a Babylon node or an array of meshes (got ${described(root)})`);
    }
    if (node.isDisposed()) throw new RangeError(`${caller}: root ${described(node)} is disposed`);
    meshes = node.getChildMeshes(false);
    if (isMesh(node)) meshes.unshift(node);
  }
  meshes = meshes.filter((m) => m.isEnabled() && (filter ? filter(m) : true));
  const shape = triangleMesh(meshes, { doubleSided }, caller);
  return world.createBody({ ...desc, type: 'static', shape });
}

/** Throws a RangeError naming the mesh when it is disposed (its geometry is gone: it would bake as nothing, or fit stale bounds). */
function requireLive(mesh: AbstractMesh, caller: string): void {
  if (mesh.isDisposed()) throw new RangeError(`${caller}: mesh '${mesh.name}' is disposed`);
}

/** How many thin instances Babylon draws `mesh` with (0 when it has none, or the thin instance module is not loaded). */
function thinInstanceCount(mesh: AbstractMesh): number {
  const m = mesh as unknown as Partial<Mesh>;
  return typeof m.thinInstanceGetWorldMatrices === 'function' && typeof m.thinInstanceCount === 'number' ? m.thinInstanceCount : 0;
}

/** Throws a RangeError naming the mesh and the entry unless every vertex coordinate is finite. */
function requireFinitePositions(positions: ArrayLike<number>, mesh: AbstractMesh, caller: string): void {
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i])) throw new RangeError(`${caller}: mesh '${mesh.name}' positions[${i}] must be a finite number (got ${positions[i]})`);
  }
}

/**
 * The mesh's world matrix, recomputed. A NaN in it (the mesh's or a parent's
 * position, rotation or scaling) would otherwise surface as a bad shape size
 * or vertex with no mesh named.
 */
function finiteWorldMatrix(mesh: AbstractMesh, caller: string): Matrix {
  const world = mesh.computeWorldMatrix(true);
  const m = world.m;
  for (let k = 0; k < 16; k++) {
    if (!Number.isFinite(m[k])) throw new RangeError(`${caller}: mesh '${mesh.name}' has a non-finite world matrix (a NaN or infinite position, rotation or scaling of the mesh or a parent)`);
  }
  return world;
}

function isMesh(node: Node): node is AbstractMesh {
  return typeof (node as unknown as Partial<AbstractMesh>).getVerticesData === 'function';
}

/** A HeightField baked from a ground mesh, and the pose to create its static body at. */
export interface GroundHeightField extends MeshCollider<HeightField> {
  /** Babylon's ground grid spacing along its local X and Z (metres, world scale). */
  spacing: { x: number; z: number };
}

/**
 * Bakes a Babylon ground (CreateGround, CreateGroundFromHeightMap, or any
 * mesh whose vertices form a regular grid in its local X–Z plane, one vertex
 * per grid point) into a HeightField with the same triangles: its vertex
 * heights become the samples (the mesh's current positions, so edits such as
 * updateCoordinateHeights are included) and the mesh's world scaling the
 * scale; the body goes at the grid centre with the mesh's world rotation.
 * Babylon splits each cell along the other diagonal from HeightField's
 * (height-field.ts), so the field's columns run along the ground's −Z and its
 * rows along +X (a quarter turn about Y, folded into `rotation`): the same
 * triangles, so a body rests at the height Babylon draws.
 * Throws when the vertices do not form a full regular grid.
 */
export function heightFieldFromGround(ground: AbstractMesh, options: HeightFieldOptions = {}): GroundHeightField {
  requireMesh(ground, 'heightFieldFromGround: ground');
  requireLive(ground, 'heightFieldFromGround');
  requireObject(options, 'heightFieldFromGround: options');
  if (thinInstanceCount(ground) > 0) throw new RangeError(`heightFieldFromGround: mesh '${ground.name}' has ${thinInstanceCount(ground)} thin instances; one height field cannot follow them (bake them with triangleMeshFromMeshes)`);
  const positions = ground.getVerticesData(VertexBuffer.PositionKind);
  if (!positions || positions.length < 12) throw new TypeError(`heightFieldFromGround: ${ground.name} has no vertex positions`);
  // A NaN coordinate would be read as a missing grid point.
  requireFinitePositions(positions, ground, 'heightFieldFromGround');
  const count = positions.length / 3;
  const xs = uniqueSorted(positions, 0), zs = uniqueSorted(positions, 2);
  const nx = xs.length, nz = zs.length;
  if (nx < 2 || nz < 2 || nx * nz !== count) {
    throw new RangeError(`heightFieldFromGround: ${ground.name}'s ${count} vertices do not form a grid (${nx} distinct x × ${nz} distinct z)`);
  }
  const x0 = xs[0]!, z0 = zs[0]!;
  const sx = (xs[nx - 1]! - x0) / (nx - 1), sz = (zs[nz - 1]! - z0) / (nz - 1);
  for (let i = 0; i < nx; i++) if (Math.abs(xs[i]! - (x0 + i * sx)) > 1e-4 * sx) throw new RangeError(`heightFieldFromGround: ${ground.name}'s x spacing is not uniform`);
  for (let i = 0; i < nz; i++) if (Math.abs(zs[i]! - (z0 + i * sz)) > 1e-4 * sz) throw new RangeError(`heightFieldFromGround: ${ground.name}'s z spacing is not uniform`);
  const world = finiteWorldMatrix(ground, 'heightFieldFromGround');
  const scale = new Vector3(), rotation = new Quaternion(), translation = new Vector3();
  world.decompose(scale, rotation, translation);
  if (!(scale.x > 0 && scale.y > 0 && scale.z > 0)) throw new RangeError(`heightFieldFromGround: ${ground.name} has a mirrored or zero world scaling (${scale.x}, ${scale.y}, ${scale.z})`);
  // Field row r ↔ ground x index r; field column c ↔ ground z index nz − 1 − c.
  const rows = nx, columns = nz;
  const samples = new Float64Array(rows * columns).fill(NaN);
  for (let v = 0; v < count; v++) {
    const ix = Math.round((positions[3 * v]! - x0) / sx), iz = Math.round((positions[3 * v + 2]! - z0) / sz);
    samples[ix * columns + (nz - 1 - iz)] = positions[3 * v + 1]!;
  }
  for (let i = 0; i < samples.length; i++) if (Number.isNaN(samples[i]!)) throw new RangeError(`heightFieldFromGround: ${ground.name} has two vertices on one grid point`);
  const shape = new HeightField(samples, rows, columns, { x: sz * scale.z, y: scale.y, z: sx * scale.x }, options);
  const centre = Vector3.TransformCoordinates(new Vector3(0.5 * (x0 + xs[nx - 1]!), 0, 0.5 * (z0 + zs[nz - 1]!)), world);
  // The field's frame is the ground's turned +90° about Y: x_ground = z_field, z_ground = −x_field.
  const quarter = Quaternion.RotationAxis(new Vector3(0, 1, 0), Math.PI / 2);
  const q = rotation.multiply(quarter);
  return {
    shape,
    position: { x: centre.x, y: centre.y, z: centre.z },
    rotation: { x: q.x, y: q.y, z: q.z, w: q.w },
    spacing: { x: sx * scale.x, z: sz * scale.z },
  };
}

/** Distinct values of component `k` of the xyz triples, sorted, merging values within 1e-6 of the range. */
function uniqueSorted(positions: ArrayLike<number>, k: number): number[] {
  const values: number[] = [];
  for (let i = k; i < positions.length; i += 3) values.push(positions[i]!);
  values.sort((a, b) => a - b);
  const eps = 1e-6 * Math.max(1e-9, values[values.length - 1]! - values[0]!);
  const out: number[] = [];
  for (const v of values) if (out.length === 0 || v - out[out.length - 1]! > eps) out.push(v);
  return out;
}
