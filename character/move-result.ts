/** MoveResult: what one `move` reports (one object per controller, reused). */
import type { RigidBody, Vec3 } from '../src/index';
// Internal: the engine's own helper, not part of the public API.
import { lockFields } from '../src/math/validate';
import type { CharacterPlane } from './plane-solver';

/** Result of `move`, one object reused by every call (copy what you keep). */
export class MoveResult {
  /** Capsule centre after the move. */
  readonly position: Vec3 = { x: 0, y: 0, z: 0 };
  /**
   * Where the last shape cast of the solve loop stopped (capsule centre at
   * the hit, or at the end of the sweep when nothing was hit); valid when
   * `sweeps` > 0. For debug views.
   */
  readonly castPosition: Vec3 = { x: 0, y: 0, z: 0 };
  /** Whether that cast hit something. */
  castHit = false;
  /** Standing on walkable ground. */
  grounded = false;
  /** Touching ground steeper than maxSlope (and not grounded). */
  sliding = false;
  /** Normal of the ground (or of the steep surface when sliding), else `up`. */
  readonly groundNormal: Vec3 = { x: 0, y: 1, z: 0 };
  readonly groundPoint: Vec3 = { x: 0, y: 0, z: 0 };
  groundBody: RigidBody | null = null;
  /** Velocity of the ground body at the ground point (0 for static ground). */
  readonly groundVelocity: Vec3 = { x: 0, y: 0, z: 0 };
  /** The planes of the final solve (first `planeCount` entries are valid). */
  planes: readonly CharacterPlane[] = [];
  planeCount = 0;
  /** Solve points of the sweeps, in order (first `solvePointCount` entries are valid). */
  solvePoints: Vec3[] = [];
  solvePointCount = 0;
  /** NGS iterations summed over all solves of the move, and the largest of one solve (≤ maxIterations). */
  iterations = 0;
  maxSolveIterations = 0;
  /** Sweeps (shape casts of the solve loop) used. */
  sweeps = 0;
  /** Bodies touched or pushed during the move (first `hitBodyCount` entries are valid). */
  readonly hitBodies: (RigidBody | null)[] = [];
  hitBodyCount = 0;
  steppedUp = false;
  snapped = false;
  /** The start position overlapped geometry and was pushed out. */
  recovered = false;

  constructor() {
    // Written in place by every move, and read back by the next (followGround,
    // a walker's jump): readonly to TypeScript, read-only in plain JavaScript too.
    lockFields(this, ['position', 'castPosition', 'groundNormal', 'groundPoint', 'groundVelocity', 'hitBodies']);
  }
}
