/**
 * Cloth: a grid of particles joined by sticks (Jakobsen §3, "cloth"):
 * structural sticks to the 4-neighbours, shear sticks along both diagonals of
 * each cell, and bend sticks to the second neighbours (softer by default, so
 * the cloth folds but does not crumple like a net).
 */
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { requireFiniteQuat, requireFiniteVec, requireInRange, requirePosition } from '../math/validate';
import type { World } from '../world/world';
import { ParticleSystem, type ParticleSystemOptions } from './particles';

export interface ClothOptions extends ParticleSystemOptions {
  /** Size along local X, metres. */
  width: number;
  /** Size along local Y, metres. */
  height: number;
  /** Cells along X and Y (a number: the same both ways), ≥ 1. */
  segments: number | { x: number; y: number };
  /**
   * Pinned particles: 'top' (the row at local +Y), 'topCorners', 'none', or
   * explicit [column, row] pairs (row 0 is the top). Default 'top'.
   */
  pinned?: 'top' | 'topCorners' | 'none' | readonly (readonly [number, number])[];
  /** Centre of the cloth, metres. Default origin. */
  position?: Readonly<Vec3>;
  /** Orientation (normalised on input, like a body's); the cloth lies in its local XY plane. Default identity (hanging in the world XY plane). */
  rotation?: Readonly<Quat>;
  /** Total mass, kg, shared equally by the particles. Default 1. */
  mass?: number;
  /** Stiffness of the diagonal sticks, (0, 1]. Default 1. */
  shearStiffness?: number;
  /** Stiffness of the second-neighbour sticks, (0, 1]; 0 leaves them out. Default 0.5. */
  bendStiffness?: number;
  /**
   * Tether each free particle to its nearest pinned particle: it may not get
   * further from it than in the flat rest state (long-range attachments, Kim,
   * Chentanez & Müller 2012), which stops a hanging banner from sagging long
   * at few iterations. Default true.
   */
  tethers?: boolean;
}

export interface Cloth {
  readonly system: ParticleSystem;
  /** Particles per row (segments.x + 1). */
  readonly columns: number;
  /** Rows (segments.y + 1); row 0 is the top edge. */
  readonly rows: number;
  /** Particle index of (column, row). */
  index(column: number, row: number): number;
}

/** Builds a cloth and registers its particle system with the world (`world.addStepper`). */
export function createCloth(world: World | null, options: ClothOptions): Cloth {
  if (options === null || typeof options !== 'object') throw new TypeError('createCloth: options must be an object');
  const { width, height } = options;
  if (!(width > 0) || !(height > 0)) throw new RangeError(`createCloth: width and height must be > 0 (got ${String(width)}, ${String(height)})`);
  requireInRange(width, 0, 1e6, 'createCloth: width');
  requireInRange(height, 0, 1e6, 'createCloth: height');
  if (options.segments === null || (typeof options.segments !== 'number' && typeof options.segments !== 'object')) throw new TypeError('createCloth: segments must be a number or { x, y }');
  const sx = typeof options.segments === 'number' ? options.segments : options.segments.x;
  const sy = typeof options.segments === 'number' ? options.segments : options.segments.y;
  if (!Number.isInteger(sx) || !Number.isInteger(sy) || sx < 1 || sy < 1 || (sx + 1) * (sy + 1) > 1e6) {
    throw new RangeError(`createCloth: segments must be integers ≥ 1 with at most 1e6 particles (got ${String(sx)}, ${String(sy)})`);
  }
  const columns = sx + 1, rows = sy + 1;
  const total = columns * rows;
  const mass = options.mass ?? 1;
  if (!(mass > 0 && mass < Infinity)) throw new RangeError(`createCloth: mass must be a finite number > 0 (got ${String(mass)})`);
  const c = options.position ?? { x: 0, y: 0, z: 0 };
  requirePosition(c, 'createCloth: position');
  const q = { x: 0, y: 0, z: 0, w: 1 };
  if (options.rotation !== undefined) {
    requireFiniteQuat(options.rotation, 'createCloth: rotation');
    quat.normalize(q, options.rotation);
  }
  const shear = options.shearStiffness ?? 1;
  const bend = options.bendStiffness ?? 0.5;
  if (!(shear > 0 && shear <= 1)) throw new RangeError(`createCloth: shearStiffness must be in (0, 1] (got ${String(shear)})`);
  if (!(bend >= 0 && bend <= 1)) throw new RangeError(`createCloth: bendStiffness must be in [0, 1] (got ${String(bend)})`);
  const system = new ParticleSystem({ capacity: total, ...options });
  const invMass = total / mass;
  const p = { x: 0, y: 0, z: 0 };
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      const vx = -width / 2 + (width * col) / sx, vy = height / 2 - (height * row) / sy, vz = 0;
      const tx = 2 * (q.y * vz - q.z * vy), ty = 2 * (q.z * vx - q.x * vz), tz = 2 * (q.x * vy - q.y * vx);
      p.x = c.x + vx + q.w * tx + (q.y * tz - q.z * ty);
      p.y = c.y + vy + q.w * ty + (q.z * tx - q.x * tz);
      p.z = c.z + vz + q.w * tz + (q.x * ty - q.y * tx);
      system.addParticle(p, invMass);
    }
  }
  const index = (col: number, row: number): number => row * columns + col;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      const i = index(col, row);
      if (col + 1 < columns) system.addStick(i, index(col + 1, row));
      if (row + 1 < rows) system.addStick(i, index(col, row + 1));
      if (col + 1 < columns && row + 1 < rows) {
        system.addStick(i, index(col + 1, row + 1), shear);
        system.addStick(index(col + 1, row), index(col, row + 1), shear);
      }
      if (bend > 0) {
        if (col + 2 < columns) system.addStick(i, index(col + 2, row), bend);
        if (row + 2 < rows) system.addStick(i, index(col, row + 2), bend);
      }
    }
  }
  const pinned = options.pinned ?? 'top';
  if (pinned === 'top') {
    for (let col = 0; col < columns; col++) system.pinToWorld(index(col, 0));
  } else if (pinned === 'topCorners') {
    system.pinToWorld(index(0, 0));
    system.pinToWorld(index(columns - 1, 0));
  } else if (pinned !== 'none') {
    for (const [col, row] of pinned) {
      if (!(col >= 0 && col < columns && row >= 0 && row < rows)) throw new RangeError(`createCloth: pinned (${col}, ${row}) outside the grid`);
      system.pinToWorld(index(col, row));
    }
  }
  if ((options.tethers ?? true) && system.pins.count > 0) {
    const x = system.positions, pins = system.pins;
    for (let i = 0; i < total; i++) {
      if (system.inverseMasses[i] === 0) continue;
      let best = -1, bestD = Infinity;
      for (let k = 0; k < pins.count; k++) {
        const j = pins.particle[k]!;
        const d = Math.hypot(x[3 * j]! - x[3 * i]!, x[3 * j + 1]! - x[3 * i + 1]!, x[3 * j + 2]! - x[3 * i + 2]!);
        if (d < bestD) { bestD = d; best = j; }
      }
      system.addDistanceLimit(best, i, 0, bestD);
    }
  }
  if (world) {
    world.addStepper(system);
    system.steppedBy = world;
  }
  // Frozen: columns and rows describe the grid `index` was built for.
  return Object.freeze({ system, columns, rows, index });
}
