/**
 * Runners of the character benchmark level: one per engine, same protocol.
 * Each frame every character wants v = speed · heading (horizontal) plus a
 * vertical speed integrated by the runner (0 while grounded, += g·dt in the
 * air), as a game would drive it. `frame()` is the timed part.
 * `positions` receives the capsule centres after each frame for the
 * penetration check, done with footing's own queries against the static
 * level (outside the timing).
 */
import { Box, Capsule, OverlapCollector, Sphere, TriangleMesh, World } from '../../src/index';
import { CharacterController } from '../../character/index';
import { boxRotation, LEVEL_GRAVITY, LEVEL_SPEED, levelHeading, type CharacterLevel } from './level';

export interface LevelRunner {
  name: string;
  frame(): void;
  /** x, y, z per character (capsule centre). */
  readPositions(out: Float64Array): void;
  dispose(): void;
}

export const LEVEL_DT = 1 / 60;

/** A static footing world of the level (for footing itself and for the penetration check). */
export function footingLevelWorld(level: CharacterLevel): World {
  const world = new World();
  for (const b of level.boxes) world.createBody({ type: 'static', shape: new Box(b.half), position: b.position, rotation: boxRotation(b) });
  world.createBody({ type: 'static', shape: new TriangleMesh(level.meshPositions, level.meshIndices) });
  return world;
}

export function footingRunner(level: CharacterLevel): LevelRunner {
  const world = footingLevelWorld(level);
  const characters = level.starts.map((p) => new CharacterController(world, { radius: level.radius, halfHeight: level.halfHeight, position: p }));
  const vy = new Float64Array(characters.length);
  const disp = { x: 0, y: 0, z: 0 };
  let t = 0;
  return {
    name: 'footing',
    frame() {
      t += LEVEL_DT;
      for (let i = 0; i < characters.length; i++) {
        const c = characters[i]!;
        const a = levelHeading(i, t);
        vy[i] = c.result.grounded ? 0 : Math.max(vy[i]! + LEVEL_GRAVITY * LEVEL_DT, -50);
        disp.x = Math.cos(a) * LEVEL_SPEED * LEVEL_DT;
        disp.y = vy[i]! * LEVEL_DT;
        disp.z = Math.sin(a) * LEVEL_SPEED * LEVEL_DT;
        c.move(disp, LEVEL_DT);
        if (c.result.grounded) vy[i] = 0;
      }
    },
    readPositions(out) {
      for (let i = 0; i < characters.length; i++) {
        const p = characters[i]!.position;
        out[3 * i] = p.x; out[3 * i + 1] = p.y; out[3 * i + 2] = p.z;
      }
    },
    dispose() {},
  };
}

/** Deepest overlap (m) of any character capsule at `positions` with the static level. */
export class PenetrationChecker {
  private readonly world: World;
  private readonly capsule: Capsule;
  private readonly sphere: Sphere;
  private readonly halfHeight: number;
  private readonly collector = new OverlapCollector();
  private readonly p = { x: 0, y: 0, z: 0 };
  private readonly q = { x: 0, y: 0, z: 0, w: 1 };
  constructor(level: CharacterLevel) {
    this.world = footingLevelWorld(level);
    this.capsule = new Capsule(level.radius, level.halfHeight);
    this.sphere = new Sphere(level.radius);
    this.halfHeight = level.halfHeight;
  }
  deepest(positions: Float64Array, count: number): number {
    let deepest = 0;
    for (let i = 0; i < count; i++) {
      this.p.x = positions[3 * i]!; this.p.y = positions[3 * i + 1]!; this.p.z = positions[3 * i + 2]!;
      const contacts = this.world.overlap(this.capsule, this.p, this.q, { collector: this.collector });
      for (let k = 0; k < contacts.length; k++) if (contacts[k]!.depth > deepest) deepest = contacts[k]!.depth;
      // spheres inside the capsule (ends and middle): capsule-vs-box can miss a segment deep inside a box
      for (let f = -1; f <= 1; f++) {
        this.p.y = positions[3 * i + 1]! + f * this.halfHeight;
        const s = this.world.overlap(this.sphere, this.p, this.q, { collector: this.collector });
        for (let k = 0; k < s.length; k++) if (s[k]!.depth > deepest) deepest = s[k]!.depth;
      }
    }
    return deepest;
  }
}
