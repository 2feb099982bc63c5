/**
 * Warm-start point matching: a contact's new manifold inherits the
 * accumulated impulses of last step's points, matched by feature id, or
 * failing that by position (within MATCH_RADIUS). Unmatched points start
 * from zero.
 */
import type { Manifold } from '../collision/narrowphase/manifold';
import { FRICTION_IMPULSE, NORMAL_IMPULSE, PERSISTED, POINT_ID, POINT_STRIDE } from './contact';

/** Largest distance (m) between an old and a new contact point that still counts as the same point. */
const MATCH_RADIUS = 0.02;

/** Matches one contact's old points to its new manifold; scratch for at most four points, owned by the contact manager. */
export class PointMatcher {
  private readonly oldIds = new Float64Array(4); // ids reach 2^52 (compound parts, collide-compound.ts)
  private readonly oldNormal = new Float64Array(4);
  private readonly oldFriction = new Float64Array(12);
  private readonly oldPosition = new Float64Array(12);
  private readonly oldUsed = new Uint8Array(4);
  /** Deepest point of the manifold handled by the last `carryImpulses` (−Infinity when it had none). */
  maxDepth = -Infinity;

  /**
   * Writes into the contact block at `cb` of `cp` the impulses and persisted
   * flags of the first `count` points of `m`, taken from the block's
   * `oldCount` old points that match them (each old point used once).
   */
  carryImpulses(cp: Float64Array, cb: number, oldCount: number, count: number, m: Manifold): void {
    let maxDepth = -Infinity;
    for (let k = 0; k < oldCount; k++) {
      const o = k * POINT_STRIDE;
      this.oldIds[k] = cp[cb + o + POINT_ID]!;
      this.oldNormal[k] = cp[cb + NORMAL_IMPULSE + k]!;
      const f = FRICTION_IMPULSE + 3 * k;
      this.oldFriction[k * 3] = cp[cb + f]!;
      this.oldFriction[k * 3 + 1] = cp[cb + f + 1]!;
      this.oldFriction[k * 3 + 2] = cp[cb + f + 2]!;
      this.oldPosition[k * 3] = cp[cb + o]!;
      this.oldPosition[k * 3 + 1] = cp[cb + o + 1]!;
      this.oldPosition[k * 3 + 2] = cp[cb + o + 2]!;
      this.oldUsed[k] = 0;
    }
    for (let k = 0; k < count; k++) {
      const p = m.points[k]!;
      if (p.depth > maxDepth) maxDepth = p.depth;
      let matched = -1;
      for (let j = 0; j < oldCount; j++) {
        if (this.oldIds[j] === p.id && this.oldUsed[j] === 0) {
          matched = j;
          break;
        }
      }
      if (matched < 0) {
        // Feature ids can change while a clipped corner jitters across a
        // side plane (equal boxes stacked): the nearest old point within
        // MATCH_RADIUS keeps the warm start.
        let best = MATCH_RADIUS * MATCH_RADIUS;
        for (let j = 0; j < oldCount; j++) {
          if (this.oldUsed[j] !== 0) continue;
          const dx = this.oldPosition[j * 3]! - p.position.x;
          const dy = this.oldPosition[j * 3 + 1]! - p.position.y;
          const dz = this.oldPosition[j * 3 + 2]! - p.position.z;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 < best) {
            best = d2;
            matched = j;
          }
        }
      }
      if (matched >= 0) {
        this.oldUsed[matched] = 1;
        cp[cb + PERSISTED + k] = 1;
        cp[cb + NORMAL_IMPULSE + k] = this.oldNormal[matched]!;
        cp[cb + FRICTION_IMPULSE + k * 3] = this.oldFriction[matched * 3]!;
        cp[cb + FRICTION_IMPULSE + k * 3 + 1] = this.oldFriction[matched * 3 + 1]!;
        cp[cb + FRICTION_IMPULSE + k * 3 + 2] = this.oldFriction[matched * 3 + 2]!;
      } else {
        cp[cb + PERSISTED + k] = 0;
        cp[cb + NORMAL_IMPULSE + k] = 0;
        cp[cb + FRICTION_IMPULSE + k * 3] = 0;
        cp[cb + FRICTION_IMPULSE + k * 3 + 1] = 0;
        cp[cb + FRICTION_IMPULSE + k * 3 + 2] = 0;
      }
    }
    this.maxDepth = maxDepth;
  }
}
