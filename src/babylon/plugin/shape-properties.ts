// Stage: what the user sets on a shape, carried over to every body that uses
// it. Filter masks and materials write through to the footing bodies; density,
// trigger flag and a container's children replace them (footing fixes those
// at creation), undone as a whole when footing refuses one.
import type { PhysicsShapeParameters, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { PhysicsMaterial } from '@babylonjs/core/Physics/v2/physicsMaterial';
import type { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { COMBINE_MODES, ShapeData, buildShapeGeometry, containerGeometry, type ShapeGeometry } from './shapes';
import { shapeDataOf } from './pose';
import type { BodyData } from './body-data';
import type { BodyRecords } from './body-records';

export function initShape(shape: PhysicsShape, type: PhysicsShapeType, options: PhysicsShapeParameters): void {
  shape._pluginData = new ShapeData(type, options ?? {}, buildShapeGeometry(type, options ?? {}));
}

export function setMembershipMask(shape: PhysicsShape, membershipMask: number): void {
  const s = shapeDataOf(shape);
  s.membership = requireMask(membershipMask, 'setShapeFilterMembershipMask: membershipMask');
  for (const u of s.users) { const r = (u as BodyData).rigid; if (r) r.collisionGroup = s.membership; }
}

export function setCollideMask(shape: PhysicsShape, collideMask: number): void {
  const s = shapeDataOf(shape);
  s.collideWith = requireMask(collideMask, 'setShapeFilterCollideMask: collideMask');
  for (const u of s.users) { const r = (u as BodyData).rigid; if (r) r.collisionMask = s.collideWith; }
}

/**
 * 32 filter bits, as the core's collisionGroup setter takes them: an integer
 * in [−2³¹, 2³² − 1] (1.5 would read back as 1). Returned as a signed 32-bit integer.
 */
function requireMask(mask: number, field: string): number {
  if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < -0x80000000 || mask > 0xffffffff) {
    throw new RangeError(`FootingPlugin.${field} must be an integer in [-2^31, 2^32 - 1] (32 filter bits; got ${String(mask)})`);
  }
  return mask | 0;
}

export function setMaterial(shape: PhysicsShape, material: PhysicsMaterial): void {
  const s = shapeDataOf(shape);
  const friction = material.friction ?? 0.5;
  const restitution = material.restitution ?? 0;
  const staticFriction = material.staticFriction ?? friction;
  if (!(staticFriction >= 0 && staticFriction < Infinity)) throw new RangeError(`FootingPlugin.setMaterial: material.staticFriction must be a finite number ≥ 0 (got ${String(staticFriction)})`);
  for (const field of ['frictionCombine', 'restitutionCombine'] as const) {
    const c = material[field];
    if (c !== undefined && COMBINE_MODES[c] === undefined) throw new RangeError(`FootingPlugin.setMaterial: material.${field} must be a PhysicsMaterialCombineMode (0-4; got ${String(c)})`);
  }
  if (!(friction >= 0 && friction < Infinity)) throw new RangeError(`FootingPlugin.setMaterial: material.friction must be a finite number ≥ 0 (got ${String(friction)})`);
  if (!(restitution >= 0 && restitution <= 1)) throw new RangeError(`FootingPlugin.setMaterial: material.restitution must be in [0, 1] (got ${String(restitution)})`);
  s.material = {
    friction, staticFriction, restitution,
    frictionCombine: material.frictionCombine ?? 1, restitutionCombine: material.restitutionCombine ?? 2,
  };
  for (const u of s.users) {
    const r = (u as BodyData).rigid;
    if (r) {
      r.friction = friction; r.staticFriction = s.material.staticFriction!; r.restitution = restitution;
      r.frictionCombine = COMBINE_MODES[s.material.frictionCombine!]!; r.restitutionCombine = COMBINE_MODES[s.material.restitutionCombine!]!;
    }
  }
}

export function setDensity(records: BodyRecords, shape: PhysicsShape, density: number): void {
  if (typeof density !== 'number' || !(density > 0 && density < Infinity)) throw new RangeError(`FootingPlugin.setDensity: density must be a finite number > 0 (got ${String(density)})`);
  const s = shapeDataOf(shape);
  const before = s.density;
  const users = [...s.users] as BodyData[];
  records.transact(users, () => { s.density = density; for (const u of users) u.rebuild(); }, () => { s.density = before; });
}

export function setTrigger(records: BodyRecords, shape: PhysicsShape, isTrigger: boolean): void {
  const s = shapeDataOf(shape);
  if (s.isTrigger === !!isTrigger) return;
  const users = [...s.users] as BodyData[];
  records.transact(users, () => { s.isTrigger = !!isTrigger; for (const u of users) u.rebuild(); }, () => { s.isTrigger = !isTrigger; });
}

export function addChild(records: BodyRecords, shape: PhysicsShape, newChild: PhysicsShape, translation?: Vector3, rotation?: Quaternion, scale?: Vector3): void {
  const s = shapeDataOf(shape);
  shapeDataOf(newChild);
  s.children.push({
    shape: newChild,
    translation: translation ? { x: translation.x, y: translation.y, z: translation.z } : { x: 0, y: 0, z: 0 },
    rotation: rotation ? { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w } : { x: 0, y: 0, z: 0, w: 1 },
    scale: scale ? { x: scale.x, y: scale.y, z: scale.z } : { x: 1, y: 1, z: 1 },
  });
  refreshContainer(records, s, () => s.children.pop());
}

export function removeChild(records: BodyRecords, shape: PhysicsShape, childIndex: number): void {
  const s = shapeDataOf(shape);
  if (!Number.isInteger(childIndex) || childIndex < 0 || childIndex >= s.children.length) {
    throw new RangeError(`FootingPlugin.removeChild: childIndex ${String(childIndex)} is out of range (${s.children.length} children)`);
  }
  const [removed] = s.children.splice(childIndex, 1);
  refreshContainer(records, s, () => s.children.splice(childIndex, 0, removed!));
}

/** Recomputes a container's collider; a failure (e.g. needs Compound) undoes the change. */
function refreshContainer(records: BodyRecords, s: ShapeData, undo: () => void): void {
  let g: ShapeGeometry;
  try {
    g = containerGeometry(s);
  } catch (e) {
    undo();
    throw e;
  }
  const before = s.geometry;
  const users = [...s.users] as BodyData[];
  records.transact(users, () => { s.geometry = g; for (const u of users) u.rebuild(); }, () => { s.geometry = before; undo(); });
}
