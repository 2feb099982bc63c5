/**
 * The character benchmark level as plain data (shared by
 * test/bench/character.bench.ts, the peer script and tests): a 80 m ground
 * slab, 200 seeded boxes, a 20° ramp, a flight of 8 stairs (0.2 m rise),
 * a bumpy TriangleMesh heightfield, and 100 characters with scripted inputs.
 */
import { Random } from '../helpers/random';

export interface LevelBox { half: { x: number; y: number; z: number }; position: { x: number; y: number; z: number }; yaw: number; roll: number }
export interface CharacterLevel {
  boxes: LevelBox[];
  /** Heightfield mesh, world coordinates. */
  meshPositions: number[];
  meshIndices: number[];
  starts: { x: number; y: number; z: number }[];
  radius: number;
  halfHeight: number;
}

export const LEVEL_SPEED = 4;
export const LEVEL_GRAVITY = -9.81;

/** Desired horizontal direction angle of character i at time t (slowly turning). */
export function levelHeading(i: number, t: number): number {
  return i * 2.39996 + 0.3 * t * (i % 2 === 0 ? 1 : -1);
}

export function characterLevel(characters = 100, boxCount = 200): CharacterLevel {
  const rng = new Random(7001);
  const boxes: LevelBox[] = [];
  boxes.push({ half: { x: 40, y: 0.5, z: 40 }, position: { x: 0, y: -0.5, z: 0 }, yaw: 0, roll: 0 });
  for (let i = 0; i < boxCount; i++) {
    const half = { x: rng.range(0.3, 1), y: rng.range(0.3, 1.5), z: rng.range(0.3, 1) };
    boxes.push({ half, position: { x: rng.range(-30, 30), y: half.y, z: rng.range(-30, 30) }, yaw: rng.range(0, Math.PI), roll: 0 });
  }
  // 20° ramp rising in +x, foot at (12, 0, −12)
  const a = (20 * Math.PI) / 180, L = 4;
  boxes.push({ half: { x: L, y: 0.5, z: 2 }, position: { x: 12 + L * Math.cos(a) + 0.5 * Math.sin(a), y: L * Math.sin(a) - 0.5 * Math.cos(a), z: -12 }, yaw: 0, roll: a });
  // stairs rising in +x from x = −15 at z = 12
  for (let k = 0; k < 8; k++) {
    const top = (k + 1) * 0.2, x0 = -15 + k * 0.4, x1 = -15 + 8 * 0.4 + 2;
    boxes.push({ half: { x: (x1 - x0) / 2, y: top / 2, z: 2 }, position: { x: (x0 + x1) / 2, y: top / 2, z: 12 }, yaw: 0, roll: 0 });
  }
  // heightfield mesh 16 × 16 cells of 1 m around (0, 0, 20)
  const n = 16, cell = 1;
  const meshPositions: number[] = [];
  const meshIndices: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      meshPositions.push((i - n / 2) * cell, 0.02 + 0.3 * (Math.sin(i * 0.9) * Math.cos(j * 0.7) * 0.5 + 0.5), 20 + (j - n / 2) * cell);
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const p = i * (n + 1) + j, q = p + 1, r = p + n + 1, s = r + 1;
      meshIndices.push(p, q, r, q, s, r);
    }
  }
  const starts: { x: number; y: number; z: number }[] = [];
  const side = Math.ceil(Math.sqrt(characters));
  for (let i = 0; i < characters; i++) {
    starts.push({ x: -25 + (50 * (i % side)) / (side - 1), y: 4, z: -25 + (50 * Math.floor(i / side)) / (side - 1) });
  }
  return { boxes, meshPositions, meshIndices, starts, radius: 0.3, halfHeight: 0.6 };
}

/** Quaternion of a level box: yaw about Y then roll about Z (q = q_yaw ⊗ q_roll). */
export function boxRotation(b: LevelBox): { x: number; y: number; z: number; w: number } {
  const cy = Math.cos(b.yaw / 2), sy = Math.sin(b.yaw / 2), cr = Math.cos(b.roll / 2), sr = Math.sin(b.roll / 2);
  return { x: sy * sr, y: sy * cr, z: cy * sr, w: cy * cr };
}
