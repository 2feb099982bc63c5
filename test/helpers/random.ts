/**
 * Seeded pseudo-random numbers for tests (mulberry32). Every random test
 * creates one with a fixed seed and prints it, so a failure can be replayed.
 */
import type { Quat, Vec3 } from '../../src/index';

export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  int(lo: number, hiExclusive: number): number {
    return lo + Math.floor((hiExclusive - lo) * this.next());
  }

  vec3(lo: number, hi: number): Vec3 {
    return { x: this.range(lo, hi), y: this.range(lo, hi), z: this.range(lo, hi) };
  }

  unitVec3(): Vec3 {
    for (;;) {
      const x = this.range(-1, 1), y = this.range(-1, 1), z = this.range(-1, 1);
      const l = Math.hypot(x, y, z);
      if (l > 1e-3 && l <= 1) return { x: x / l, y: y / l, z: z / l };
    }
  }

  /** Uniformly distributed rotation (Shoemake). */
  quat(): Quat {
    const u1 = this.next(), u2 = this.next() * 2 * Math.PI, u3 = this.next() * 2 * Math.PI;
    const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
    return { x: a * Math.sin(u2), y: a * Math.cos(u2), z: b * Math.sin(u3), w: b * Math.cos(u3) };
  }
}

/** Creates a seeded generator and logs the seed (so failures can be replayed). */
export function seeded(seed: number, label: string): Random {
  console.log(`[${label}] seed=${seed}`);
  return new Random(seed);
}
