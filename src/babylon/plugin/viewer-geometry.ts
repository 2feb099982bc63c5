// Stage: what Babylon's PhysicsViewer and the Inspector draw. A body's
// collider as triangles in its node's frame, and the bounds of shapes and
// bodies. Not on the per-frame path: these allocate their results.
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { BoundingBox } from '@babylonjs/core/Culling/boundingBox';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateBoxVertexData } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateSphereVertexData } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { CreateCapsuleVertexData } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateCylinderVertexData } from '@babylonjs/core/Meshes/Builders/cylinderBuilder';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import { Box, Capsule, Compound, ConvexHull, Cylinder, HeightField, Sphere, type Shape } from '../../index';
import { shapeDataOf } from './pose';
import type { BodyData } from './body-data';

/** Display triangles of a convex footing shape in its own frame (PhysicsViewer), null for a kind without a builder. */
function convexVertexData(c: Shape): VertexData | null {
  return c instanceof Sphere ? CreateSphereVertexData({ diameter: 2 * c.radius, segments: 12 })
    : c instanceof Box ? CreateBoxVertexData({ width: 2 * c.halfExtents.x, height: 2 * c.halfExtents.y, depth: 2 * c.halfExtents.z })
      : c instanceof Capsule ? CreateCapsuleVertexData({ radius: c.radius, height: 2 * (c.halfHeight + c.radius), tessellation: 12, subdivisions: 2 })
        : c instanceof Cylinder ? CreateCylinderVertexData({ diameter: 2 * c.radius, height: 2 * c.halfHeight, tessellation: 16 })
          : c instanceof ConvexHull ? hullVertexData(c)
            : null;
}

/** A hull's faces as triangle fans (its vertices in its own frame). */
function hullVertexData(h: ConvexHull): VertexData {
  const vd = new VertexData();
  vd.positions = Array.from(h.vertices.subarray(0, 3 * h.vertexCount));
  const indices: number[] = [];
  for (let f = 0; f < h.faceCount; f++) {
    const start = h.faceStart[f]!, end = h.faceStart[f + 1]!;
    for (let k = start + 1; k + 1 < end; k++) indices.push(h.faceVertices[start]!, h.faceVertices[k]!, h.faceVertices[k + 1]!);
  }
  vd.indices = indices;
  return vd;
}

/** The record's collider as triangles in the node's frame (getBodyGeometry). */
export function bodyGeometry(d: BodyData): object {
  const g = d.shape?.geometry;
  if (!g || !g.core) return { positions: [], indices: [] };
  const v = new Vector3();
  let positions: ArrayLike<number>, indices: ArrayLike<number>;
  if (g.meshPositions && g.meshIndices) {
    positions = g.meshPositions; indices = g.meshIndices;
  } else if (g.core instanceof HeightField) {
    ({ positions, indices } = g.core.triangleData());
  } else if (g.core instanceof Compound) {
    // Each part's triangles placed by its pose in the compound's frame.
    const pos: number[] = [], ind: number[] = [];
    for (const child of g.core.children) {
      const vd = convexVertexData(child.shape);
      if (!vd) continue;
      const base = pos.length / 3;
      const q = new Quaternion(child.rotation.x, child.rotation.y, child.rotation.z, child.rotation.w);
      const p = vd.positions!;
      for (let i = 0; i < p.length; i += 3) {
        v.set(p[i]!, p[i + 1]!, p[i + 2]!).applyRotationQuaternionInPlace(q).addInPlaceFromFloats(child.position.x, child.position.y, child.position.z);
        pos.push(v.x, v.y, v.z);
      }
      for (const k of vd.indices!) ind.push(base + k);
    }
    positions = pos; indices = ind;
  } else {
    const vd = convexVertexData(g.core);
    if (!vd) return { positions: [], indices: [] };
    positions = vd.positions!; indices = vd.indices!;
  }
  // Into the node's frame: p' = offset ⊗ p.
  const out = new Float32Array(positions.length);
  const q = new Quaternion(g.offsetRotation.x, g.offsetRotation.y, g.offsetRotation.z, g.offsetRotation.w);
  const mesh = g.meshPositions !== null;
  for (let i = 0; i < positions.length; i += 3) {
    v.set(positions[i]!, positions[i + 1]!, positions[i + 2]!);
    if (!mesh) v.applyRotationQuaternionInPlace(q).addInPlaceFromFloats(g.offsetPosition.x, g.offsetPosition.y, g.offsetPosition.z);
    out[i] = v.x; out[i + 1] = v.y; out[i + 2] = v.z;
  }
  return { positions: out, indices: Uint32Array.from(indices) };
}

/** The shape's bounds in its body's frame. */
export function shapeBoundingBox(shape: PhysicsShape): BoundingBox {
  const g = shapeDataOf(shape).geometry;
  if (!g.core) return new BoundingBox(Vector3.Zero(), Vector3.Zero());
  const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  g.core.computeAabb(box, g.offsetPosition, g.offsetRotation);
  return new BoundingBox(new Vector3(box.min.x, box.min.y, box.min.z), new Vector3(box.max.x, box.max.y, box.max.z));
}

/** The body's shape bounds placed by its node's world matrix. */
export function bodyBoundingBox(body: PhysicsBody): BoundingBox {
  const local = body.shape ? shapeBoundingBox(body.shape) : new BoundingBox(Vector3.Zero(), Vector3.Zero());
  return new BoundingBox(local.minimum, local.maximum, body.transformNode.getWorldMatrix());
}
