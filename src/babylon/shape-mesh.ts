/**
 * Babylon meshes with the size of footing shapes, in the body's local frame
 * (place them with `syncNodeToBody` or a `BodyLinks`). One builder per shape
 * kind in a table: a new shape (cylinder, convex hull, compound, height
 * field) adds its entry and every user (the demo, PhysicsDebugView,
 * createRagdollMeshes) draws it.
 */
import type { Material } from '@babylonjs/core/Materials/material';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { Scene } from '@babylonjs/core/scene';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import { Ragdoll, Shape, ShapeKind, type Box, type Capsule, type Compound, type ConvexHull, type Cylinder, type HeightField, type Sphere, type TriangleMesh } from '../index';
import { described, requireObject } from './checks';
import { syncNodeToBody, type BodyLinks } from './link';

export interface ShapeMeshOptions {
  /** Sphere segments. Default 12. */
  segments?: number;
  /** Capsule and cylinder tessellation (sides around the axis). Default 16. */
  tessellation?: number;
  /** Capsule subdivisions along the axis. Default 2. */
  subdivisions?: number;
  /** Material given to the mesh. Default none (Babylon's default material). */
  material?: Material | null;
}

type ShapeMeshBuilder = (shape: Shape, name: string, scene: Scene, options: ShapeMeshOptions) => Mesh;

function sphereMesh(shape: Shape, name: string, scene: Scene, o: ShapeMeshOptions): Mesh {
  return CreateSphere(name, { diameter: 2 * (shape as Sphere).radius, segments: o.segments ?? 12 }, scene);
}

function boxMesh(shape: Shape, name: string, scene: Scene): Mesh {
  const h = (shape as Box).halfExtents;
  return CreateBox(name, { width: 2 * h.x, height: 2 * h.y, depth: 2 * h.z }, scene);
}

function capsuleMesh(shape: Shape, name: string, scene: Scene, o: ShapeMeshOptions): Mesh {
  const c = shape as Capsule;
  // Babylon's capsule height is the whole length, tip to tip.
  return CreateCapsule(name, { radius: c.radius, height: 2 * (c.halfHeight + c.radius), tessellation: o.tessellation ?? 16, subdivisions: o.subdivisions ?? 2 }, scene);
}

function triangleMeshMesh(shape: Shape, name: string, scene: Scene): Mesh {
  const m = shape as TriangleMesh;
  return meshFromTriangles(m.vertices, m.indices, name, scene);
}

/** The solid cells of a height field as a ground mesh (one vertex per sample; holes left open). */
function heightFieldMesh(shape: Shape, name: string, scene: Scene): Mesh {
  const { positions, indices } = (shape as HeightField).triangleData();
  return meshFromTriangles(positions, indices, name, scene);
}

/**
 * A compound: an empty parent in the body's frame (the compound's centre of
 * mass and principal axes) with one child mesh per part at the part's pose.
 */
function compoundMesh(shape: Shape, name: string, scene: Scene, o: ShapeMeshOptions): Mesh {
  const parent = new Mesh(name, scene);
  const children = (shape as Compound).children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    const mesh = meshFromShape(c.shape, `${name}/${i}`, scene, o);
    mesh.parent = parent;
    mesh.position.set(c.position.x, c.position.y, c.position.z);
    mesh.rotationQuaternion = new Quaternion(c.rotation.x, c.rotation.y, c.rotation.z, c.rotation.w);
  }
  return parent;
}

function meshFromTriangles(vertices: ArrayLike<number>, src: ArrayLike<number>, name: string, scene: Scene): Mesh {
  // footing's front side is where (b − a) × (c − a) points; a new Babylon
  // mesh shows the other side as its front (see colliders.ts,
  // frontIsStoredWinding): b and c swap places.
  const indices = new Uint32Array(src.length);
  for (let t = 0; t < src.length; t += 3) {
    indices[t] = src[t]!;
    indices[t + 1] = src[t + 2]!;
    indices[t + 2] = src[t + 1]!;
  }
  const positions = Float32Array.from(vertices);
  const normals = new Float32Array(positions.length);
  VertexData.ComputeNormals(positions, indices, normals);
  const data = new VertexData();
  data.positions = positions;
  data.indices = indices;
  data.normals = normals;
  const mesh = new Mesh(name, scene);
  data.applyToMesh(mesh, false);
  return mesh;
}

function cylinderMesh(shape: Shape, name: string, scene: Scene, o: ShapeMeshOptions): Mesh {
  const c = shape as Cylinder;
  return CreateCylinder(name, { diameter: 2 * c.radius, height: 2 * c.halfHeight, tessellation: o.tessellation ?? 16 }, scene);
}

/** Flat-shaded: each face gets its own vertices (so its own normal), fanned from its first corner. */
function convexHullMesh(shape: Shape, name: string, scene: Scene): Mesh {
  const h = shape as ConvexHull;
  const positions: number[] = [];
  const indices: number[] = [];
  for (let f = 0; f < h.faceCount; f++) {
    const start = h.faceStart[f]!, end = h.faceStart[f + 1]!;
    const base = positions.length / 3;
    for (let k = start; k < end; k++) {
      const v = 3 * h.faceVertices[k]!;
      positions.push(h.vertices[v]!, h.vertices[v + 1]!, h.vertices[v + 2]!);
    }
    // footing's faces run counter-clockwise seen from outside; Babylon's front is the other winding (see triangleMeshMesh).
    for (let k = 1; k + 1 < end - start; k++) indices.push(base, base + k + 1, base + k);
  }
  const normals = new Float32Array(positions.length);
  VertexData.ComputeNormals(positions, indices, normals);
  const data = new VertexData();
  data.positions = Float32Array.from(positions);
  data.indices = Uint32Array.from(indices);
  data.normals = normals;
  const mesh = new Mesh(name, scene);
  data.applyToMesh(mesh, false);
  return mesh;
}

const SHAPE_MESH_BUILDERS: Readonly<Record<number, ShapeMeshBuilder>> = {
  [ShapeKind.Sphere]: sphereMesh,
  [ShapeKind.Box]: boxMesh,
  [ShapeKind.Capsule]: capsuleMesh,
  [ShapeKind.TriangleMesh]: triangleMeshMesh,
  [ShapeKind.Cylinder]: cylinderMesh,
  [ShapeKind.ConvexHull]: convexHullMesh,
  [ShapeKind.Compound]: compoundMesh,
  [ShapeKind.HeightField]: heightFieldMesh,
};

/**
 * A Babylon mesh of `shape` (sphere, box, capsule, cylinder, convex hull,
 * triangle mesh, height field; a compound is a parent with a mesh per part),
 * centred like the shape in its body's frame. Throws a TypeError for a shape
 * kind without a builder.
 */
export function meshFromShape(shape: Shape, name: string, scene: Scene, options: ShapeMeshOptions = {}): Mesh {
  const build = shape && typeof shape === 'object' ? SHAPE_MESH_BUILDERS[shape.kind] : undefined;
  if (build === undefined) throw new TypeError(`meshFromShape: no mesh for shape kind ${String(shape?.kind)}`);
  // A plain object with a known kind would be built from undefined sizes (NaN vertices).
  if (!(shape instanceof Shape)) throw new TypeError(`meshFromShape: shape must be a footing Shape (got ${described(shape)})`);
  if (typeof name !== 'string') throw new TypeError(`meshFromShape: name must be a string (got ${described(name)})`);
  // Babylon's builders would put the mesh in whichever scene was created last.
  if (scene === null || typeof scene !== 'object' || typeof (scene as Partial<Scene>).getEngine !== 'function') throw new TypeError(`meshFromShape: scene must be a Babylon Scene (got ${described(scene)})`);
  requireMeshOptions(options, 'meshFromShape');
  const mesh = build(shape, name, scene, options);
  if (options.material) setMeshMaterial(mesh, options.material);
  return mesh;
}

/**
 * Throws naming the option unless `options` is an object whose counts are
 * integers Babylon's builders tessellate as asked (0 and NaN read as their
 * defaults there, a negative count builds an empty mesh) and whose material is
 * a Babylon material or null.
 */
function requireMeshOptions(options: ShapeMeshOptions, caller: string): void {
  requireObject(options, `${caller}: options`);
  // Upper bounds: a sphere of 1000 segments is already ~2 M vertices; more is a typo, not detail.
  requireCount(options.segments, 2, 1000, `${caller}: options.segments`);
  requireCount(options.tessellation, 3, 1000, `${caller}: options.tessellation`);
  requireCount(options.subdivisions, 1, 1000, `${caller}: options.subdivisions`);
  requireMaterial(options.material, `${caller}: options.material`);
}

function requireCount(value: number | undefined, min: number, max: number, field: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) throw new RangeError(`${field} must be an integer in [${min}, ${max}] (got ${described(value)})`);
}

function requireMaterial(material: unknown, field: string): void {
  // null and undefined: no material (Babylon's default).
  if (material == null) return;
  if (typeof material !== 'object' || typeof (material as Partial<Material>).getClassName !== 'function' || !('sideOrientation' in material)) {
    throw new TypeError(`${field} must be a Babylon Material or null (got ${described(material)})`);
  }
}

/** Gives `material` to `mesh` and to every mesh under it (a compound's parts). */
export function setMeshMaterial(mesh: Mesh, material: Material | null): void {
  if (mesh === null || typeof mesh !== 'object' || typeof (mesh as Partial<Mesh>).getChildMeshes !== 'function') throw new TypeError(`setMeshMaterial: mesh must be a Babylon mesh (got ${described(mesh)})`);
  requireMaterial(material, 'setMeshMaterial: material');
  mesh.material = material;
  const children = mesh.getChildMeshes(false);
  for (let i = 0; i < children.length; i++) children[i]!.material = material;
}

export interface RagdollMeshOptions extends ShapeMeshOptions {
  /** Links the meshes to the bodies (so that `links.sync(alpha)` moves them). Default none. */
  links?: BodyLinks;
  /** Mesh name prefix; each mesh is `${prefix}${boneName}`. Default 'ragdoll-'. */
  namePrefix?: string;
}

/**
 * One mesh per body of `ragdoll` (parallel to `ragdoll.bodies`), placed at
 * the body's pose and added to `options.links` when given.
 */
export function createRagdollMeshes(ragdoll: Ragdoll, scene: Scene, options: RagdollMeshOptions = {}): Mesh[] {
  if (!(ragdoll instanceof Ragdoll)) throw new TypeError(`createRagdollMeshes: ragdoll must be a Ragdoll (got ${described(ragdoll)})`);
  requireObject(options, 'createRagdollMeshes: options');
  // Checked before the first mesh is made: a failure part-way would leave meshes in the scene.
  if (options.links != null && typeof (options.links as Partial<BodyLinks>).add !== 'function') throw new TypeError(`createRagdollMeshes: options.links must be a BodyLinks (got ${described(options.links)})`);
  requireMeshOptions(options, 'createRagdollMeshes');
  const bodies = ragdoll.bodies, names = ragdoll.names;
  const prefix = options.namePrefix ?? 'ragdoll-';
  const meshes: Mesh[] = [];
  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i]!;
    const mesh = meshFromShape(body.shape, `${prefix}${names[i] ?? i}`, scene, options);
    if (options.links) options.links.add(mesh, body);
    else syncNodeToBody(mesh, body, 1);
    meshes.push(mesh);
  }
  return meshes;
}
