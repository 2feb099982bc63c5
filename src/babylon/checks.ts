/**
 * Argument checks shared by the adapter's helpers: a wrong argument is named
 * where it is passed, not by the "Cannot read properties of null" of the
 * first line that uses it.
 */
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';

/** A value for an error message: a Babylon object by class and name, a string quoted, other objects unconverted (their toString may throw). */
export function described(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null || typeof value !== 'object') return String(value);
  const v = value as { getClassName?: unknown; name?: unknown };
  if (typeof v.getClassName === 'function' && typeof v.name === 'string') return `${String((v.getClassName as () => string).call(value))} '${v.name}'`;
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** Throws a TypeError naming `field` unless `node` is a Babylon object with a position (a TransformNode, a mesh, or the `kind` named). */
export function requireNode(node: unknown, field: string, kind = 'TransformNode or mesh'): void {
  const position = node !== null && typeof node === 'object' ? (node as Partial<TransformNode>).position : undefined;
  if (position === null || typeof position !== 'object' || typeof position.set !== 'function') {
    throw new TypeError(`${field} must be a Babylon ${kind} (got ${described(node)})`);
  }
}

/** Throws a TypeError naming `field` unless `mesh` is a Babylon mesh (it has vertex data and a world matrix). */
export function requireMesh(mesh: AbstractMesh, field: string, kind = 'mesh'): void {
  if (mesh === null || typeof mesh !== 'object' || typeof mesh.getVerticesData !== 'function' || typeof mesh.computeWorldMatrix !== 'function') {
    throw new TypeError(`${field} must be a Babylon ${kind} (got ${described(mesh)})`);
  }
}

/** Throws a TypeError naming `field` unless `value` is an object (an options bag or a target list). */
export function requireObject(value: unknown, field: string): void {
  if (value === null || typeof value !== 'object') throw new TypeError(`${field} must be an object (got ${described(value)})`);
}
