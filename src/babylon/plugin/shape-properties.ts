// Stage: what the user sets on a shape, carried over to every body that uses
// it. Filter masks and materials write through to the footing bodies; density,
// trigger flag and a container's children replace them (footing fixes those
// at creation), undone as a whole when footing refuses one.
import type { PhysicsShapeParameters, PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsShape } from '@babylonjs/core/Physics/v2/physicsShape';
import type { PhysicsMaterial } from '@babylonjs/core/Physics/v2/physicsMaterial';
import type { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { PhysicsShapeType as ShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { COMBINE_MODES, ShapeData, buildShapeGeometry, containerGeometry, type ShapeGeometry } from './shapes';
import { liveShapeDataOf, requireMask } from './pose';
import type { BodyData } from './body-data';
import type { BodyRecords } from './body-records';

export function initShape(shape: PhysicsShape, type: PhysicsShapeType, options: PhysicsShapeParameters): void {
  shape._pluginData = new ShapeData(type, options ?? {}, buildShapeGeometry(type, options ?? {}));
}

export function disposeShape(shape: PhysicsShape): void {
  const d: unknown = shape._pluginData;
  if (d instanceof ShapeData) d.disposed = true;
}

export function setMembershipMask(shape: PhysicsShape, membershipMask: number): void {
  const s = liveShapeDataOf(shape, 'setShapeFilterMembershipMask');
  s.membership = requireMask(membershipMask, 'setShapeFilterMembershipMask: membershipMask');
  for (const u of s.users) { const r = (u as BodyData).rigid; if (r) r.collisionGroup = s.membership; }
}

export function setCollideMask(shape: PhysicsShape, collideMask: number): void {
  const s = liveShapeDataOf(shape, 'setShapeFilterCollideMask');
  s.collideWith = requireMask(collideMask, 'setShapeFilterCollideMask: collideMask');
  for (const u of s.users) { const r = (u as BodyData).rigid; if (r) r.collisionMask = s.collideWith; }
}

export function setMaterial(shape: PhysicsShape, material: PhysicsMaterial): void {
  const s = liveShapeDataOf(shape, 'setMaterial');
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
  const s = liveShapeDataOf(shape, 'setDensity');
  const before = s.density;
  const users = [...s.users] as BodyData[];
  records.transact(users, () => { s.density = density; for (const u of users) u.rebuild(); }, () => { s.density = before; });
}

export function setTrigger(records: BodyRecords, shape: PhysicsShape, isTrigger: boolean): void {
  const s = liveShapeDataOf(shape, 'setTrigger');
  if (s.isTrigger === !!isTrigger) return;
  const users = [...s.users] as BodyData[];
  records.transact(users, () => { s.isTrigger = !!isTrigger; for (const u of users) u.rebuild(); }, () => { s.isTrigger = !isTrigger; });
}

export function addChild(records: BodyRecords, shape: PhysicsShape, newChild: PhysicsShape, translation?: Vector3, rotation?: Quaternion, scale?: Vector3): void {
  const s = liveShapeDataOf(shape, 'addChild');
  const c = liveShapeDataOf(newChild, 'addChild');
  // Only a container has children: on a BOX the child would replace the box's own collider.
  if (s.type !== ShapeType.CONTAINER) throw new TypeError(`FootingPlugin.addChild: the parent shape must be a CONTAINER (got ${ShapeType[s.type]})`);
  // A container inside itself would be flattened without end.
  if (holds(c, s)) throw new RangeError('FootingPlugin.addChild: newChild is the container itself or holds it');
  const where = 'FootingPlugin.addChild:';
  if (translation) requireFiniteFields(translation, ['x', 'y', 'z'], `${where} translation`);
  if (rotation) {
    requireFiniteFields(rotation, ['x', 'y', 'z', 'w'], `${where} rotation`);
    if (rotation.x === 0 && rotation.y === 0 && rotation.z === 0 && rotation.w === 0) throw new RangeError(`${where} rotation must be a non-zero quaternion`);
  }
  if (scale) {
    requireFiniteFields(scale, ['x', 'y', 'z'], `${where} scale`);
    for (const k of ['x', 'y', 'z'] as const) if (!(scale[k] > 0)) throw new RangeError(`${where} scale.${k} must be a finite number > 0 (got ${scale[k]})`);
  }
  // A rotation of another length is normalised (a unit one is kept as given).
  const n = rotation ? Math.hypot(rotation.x, rotation.y, rotation.z, rotation.w) : 1;
  const k = Math.abs(n - 1) < 1e-9 ? 1 : 1 / n;
  s.children.push({
    shape: newChild,
    translation: translation ? { x: translation.x, y: translation.y, z: translation.z } : { x: 0, y: 0, z: 0 },
    rotation: rotation ? { x: rotation.x * k, y: rotation.y * k, z: rotation.z * k, w: rotation.w * k } : { x: 0, y: 0, z: 0, w: 1 },
    scale: scale ? { x: scale.x, y: scale.y, z: scale.z } : { x: 1, y: 1, z: 1 },
  });
  refreshContainer(records, s, () => s.children.pop());
}

/** Whether shape data d is target or holds it among its children, at any depth. */
function holds(d: ShapeData, target: ShapeData): boolean {
  if (d === target) return true;
  for (const child of d.children) {
    const cd = child.shape._pluginData;
    if (cd instanceof ShapeData && holds(cd, target)) return true;
  }
  return false;
}

function requireFiniteFields<T extends object>(v: T, keys: readonly (keyof T & string)[], field: string): void {
  for (const k of keys) {
    const x = v[k];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new RangeError(`${field}.${k} must be a finite number (got ${String(x)})`);
  }
}

export function removeChild(records: BodyRecords, shape: PhysicsShape, childIndex: number): void {
  const s = liveShapeDataOf(shape, 'removeChild');
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
