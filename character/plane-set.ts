/**
 * The planes of one solve, and adding a plane to them: a plane with the
 * normal of one already in the set merges with it (n · p ≥ d₁ and
 * n · p ≥ d₂ is n · p ≥ max(d₁, d₂)).
 */
import { CharacterPlane } from './plane-solver';

/** Largest number of planes one move keeps (per plane set). */
export const MAX_CHARACTER_PLANES = 48;

/** Planes of one solve with their touching flags. */
export class PlaneSet {
  readonly planes: CharacterPlane[] = [];
  readonly touching = new Uint8Array(MAX_CHARACTER_PLANES);
  count = 0;
  constructor() {
    for (let i = 0; i < MAX_CHARACTER_PLANES; i++) this.planes.push(new CharacterPlane());
  }
}

/** Adds `plane`'s normal, distance, push limit, body and point to `set` as a plane with the given `flattened`. */
export function addOnePlane(set: PlaneSet, plane: Readonly<CharacterPlane>, flattened: boolean): boolean {
  const n = plane.normal, body = plane.body, point = plane.point;
  const d = plane.distance;
  const pushLimit = plane.pushLimit;
  for (let i = 0; i < set.count; i++) {
    const q = set.planes[i]!;
    if (q.flattened !== flattened) continue;
    const dot = q.normal.x * n.x + q.normal.y * n.y + q.normal.z * n.z;
    if (dot > 0.99999) {
      if (d > q.distance) {
        q.distance = d;
        q.body = body;
        q.point.x = point.x; q.point.y = point.y; q.point.z = point.z;
        q.pushLimit = pushLimit;
      }
      return true;
    }
  }
  if (set.count >= MAX_CHARACTER_PLANES) return false;
  const q = set.planes[set.count++]!;
  q.normal.x = n.x; q.normal.y = n.y; q.normal.z = n.z;
  q.distance = d;
  q.push = 0;
  q.pushLimit = pushLimit;
  q.body = body;
  q.point.x = point.x; q.point.y = point.y; q.point.z = point.z;
  q.flattened = flattened;
  return true;
}
