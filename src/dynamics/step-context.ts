/**
 * What the stages of one step share, owned by the world and handed down:
 * the step's times and part flags, the live settings and gravity, and the
 * scratch the stages write into. Times are fields, not arguments: V8 boxes
 * a double passed to a call it does not inline.
 */
import { aabb } from '../collision/aabb';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { SolverSettings } from './solver-settings';

export class StepContext {
  /** The dt of the step being taken (World.step's argument, not a split part's). */
  stepDt = 1 / 60;
  /** The time sweptShapeBox grows a box by the body's swing for. */
  sweepDt = 1 / 60;
  /** What is left of the step being taken, for the split (stepParts). */
  stepLeft = 1 / 60;
  /** False while a split step has parts to go: kinematic bodies reach their targets in the last. */
  finalPart = true;
  /** True in a split step's first part (and in an unsplit step). */
  firstPart = true;
  /** Steps completed before this one (the sweep pattern alternates with it). */
  stepCount = 0;
  /** Scratch: box and displacement of the broadphase updates, quaternions of the kinematic targets. */
  readonly box = aabb();
  readonly displacement: Vec3 = { x: 0, y: 0, z: 0 };
  readonly quat: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly quat2: Quat = { x: 0, y: 0, z: 0, w: 1 };

  constructor(
    /** The world's live solver settings. */
    readonly settings: SolverSettings,
    /** The world's live gravity, m/s². */
    readonly gravity: Vec3,
  ) {}
}
