/**
 * Constraints of a Verlet particle system, solved by relaxation (Jakobsen,
 * "Advanced Character Physics", GDC 2001): each constraint is projected on its
 * own — the particles are moved the least distance that satisfies it — and
 * the sweep over all constraints is repeated a few times (Gauss-Seidel). The
 * Verlet integrator turns these position changes into velocity changes.
 *
 * Storage is struct-of-arrays (typed columns), grown only when constraints
 * are added (never during a step).
 */
import { RigidBody } from '../dynamics/body';
import type { Vec3 } from '../math/vec3';
import { resizedFloat64, resizedInt32 } from '../math/typed-arrays';
import { MAX_BODY_STATE, requirePosition } from '../math/validate';


/**
 * Distance constraints between particle pairs: `minLength ≤ |x_b − x_a| ≤ maxLength`.
 * A stick is min = max = rest length; a slack rope segment is min = 0.
 * The columns are raw state, read by every step; in a ParticleSystem's
 * `sticks` the first `count` entries (and the counts) are checked at the
 * start of the next step against what `add` accepts, which throws before
 * anything moves.
 */
export class DistanceConstraints {
  /** Constraints in use, an integer in [0, capacity of the columns]. */
  count = 0;
  /** Particle indices of the two ends: integers in [0, particleCount), different. */
  particleA: Int32Array = new Int32Array(16);
  particleB: Int32Array = new Int32Array(16);
  /** Metres, 0 ≤ minLength ≤ maxLength ≤ MAX_BODY_STATE (so that the squares stay finite). */
  minLength: Float64Array = new Float64Array(16);
  maxLength: Float64Array = new Float64Array(16);
  /** Fraction of the violation removed per projection, (0, 1]. 1 = rigid. */
  stiffness: Float64Array = new Float64Array(16);

  /** Particles of the owning system: indices must be below it (kept by ParticleSystem; equal to its count). */
  particleCount = 0;

  /** Adds a constraint; returns its index. */
  add(a: number, b: number, minLength: number, maxLength: number, stiffness: number): number {
    checkParticle(a, this.particleCount, 'distance constraint: a');
    checkParticle(b, this.particleCount, 'distance constraint: b');
    if (!(minLength >= 0) || !(maxLength >= minLength) || !(maxLength <= MAX_BODY_STATE)) {
      throw new RangeError(`distance constraint: need 0 ≤ minLength ≤ maxLength ≤ 1e15 (MAX_BODY_STATE) (got ${minLength}, ${maxLength})`);
    }
    if (!(stiffness > 0 && stiffness <= 1)) throw new RangeError(`distance constraint: stiffness must be in (0, 1] (got ${stiffness})`);
    if (a === b) throw new RangeError('distance constraint: the two particles must differ');
    const i = this.count;
    if (i === this.particleA.length) {
      const n = i * 2;
      this.particleA = resizedInt32(this.particleA, n);
      this.particleB = resizedInt32(this.particleB, n);
      this.minLength = resizedFloat64(this.minLength, n);
      this.maxLength = resizedFloat64(this.maxLength, n);
      this.stiffness = resizedFloat64(this.stiffness, n);
    }
    this.particleA[i] = a;
    this.particleB[i] = b;
    this.minLength[i] = minLength;
    this.maxLength[i] = maxLength;
    this.stiffness[i] = stiffness;
    this.count = i + 1;
    return i;
  }
}

/**
 * One relaxation sweep over the distance constraints.
 *
 * For C = |d| − L with d = x_b − x_a, the projection that moves each end in
 * proportion to its inverse mass w (Jakobsen §3, "different masses") is
 *   s = (|d| − L) / (|d| (w_a + w_b)),  x_a += w_a s d,  x_b −= w_b s d,
 * so the displacements are in the ratio w_a : w_b (masses 1 and 3 move 3:1).
 *
 * With `approximateSqrt`, sticks (min = max = L) replace |d| by its first-order
 * Taylor expansion about L² (one Newton step for √ started at L):
 *   |d| ≈ (L² + d·d) / (2L)  ⇒  (|d| − L)/|d| ≈ 1 − 2L² / (L² + d·d)  = (d·d − L²)/(d·d + L²),
 * no square root, one division; a stretched stick always shortens.
 * `reverse` sweeps the list backwards: alternating the direction between
 * iterations (symmetric Gauss-Seidel) spreads a correction along a chain in
 * both directions, so a hanging rope stretches much less for the same count.
 * Limits (min < max) take the exact root: they are inequalities, and the
 * approximation is only accurate near the one length it expands about.
 */
export function solveDistanceConstraints(
  c: DistanceConstraints, x: Float64Array, invMass: Float64Array, approximateSqrt: boolean, reverse = false,
): void {
  const pa = c.particleA, pb = c.particleB, lo = c.minLength, hi = c.maxLength, k = c.stiffness;
  const n = c.count;
  for (let j = 0; j < n; j++) {
    const i = reverse ? n - 1 - j : j;
    const ia = pa[i]!, ib = pb[i]!;
    // Integer indices only: a computed a / 3 would be a double key.
    const a = ia * 3, b = ib * 3;
    const wa = invMass[ia]!, wb = invMass[ib]!;
    const wSum = wa + wb;
    if (wSum === 0) continue;
    const dx = x[b]! - x[a]!, dy = x[b + 1]! - x[a + 1]!, dz = x[b + 2]! - x[a + 2]!;
    const dd = dx * dx + dy * dy + dz * dz;
    const minL = lo[i]!, maxL = hi[i]!;
    let s: number;
    if (minL === maxL && approximateSqrt) {
      const l2 = maxL * maxL;
      // Coincident ends of a zero-length stick: satisfied (the quotient would be 0/0).
      if (dd + l2 === 0) continue;
      s = (dd - l2) / (dd + l2);
    } else {
      if (dd >= minL * minL && dd <= maxL * maxL) continue;
      const len = Math.sqrt(dd);
      if (len < 1e-12) continue; // coincident ends: no direction to push along
      const target = len < minL ? minL : maxL;
      s = (len - target) / len;
    }
    s *= k[i]! / wSum;
    const sa = s * wa, sb = s * wb;
    x[a] = x[a]! + sa * dx; x[a + 1] = x[a + 1]! + sa * dy; x[a + 2] = x[a + 2]! + sa * dz;
    x[b] = x[b]! - sb * dx; x[b + 1] = x[b + 1]! - sb * dy; x[b + 2] = x[b + 2]! - sb * dz;
  }
}

/**
 * Pins: a particle held at a world point, or at a point fixed in a rigid
 * body's local frame (it follows the body). Pinned particles have inverse
 * mass 0, so sticks move only their free ends (Jakobsen: "invmass = 0").
 * In a ParticleSystem's `pins` the first `count` entries (and the counts)
 * are checked at the start of the next step, as for DistanceConstraints.
 */
export class PinConstraints {
  /** Pins in use, an integer in [0, capacity of the columns], equal to `body.length`. */
  count = 0;
  particle: Int32Array = new Int32Array(8);
  /** World target (world pins) or body-local point (body pins), xyz per pin. */
  point: Float64Array = new Float64Array(24);
  /** Current world target, refreshed once per step. */
  target: Float64Array = new Float64Array(24);
  /** The particle's inverse mass before it was pinned (given back when a body pin is released). */
  freeInverseMass: Float64Array = new Float64Array(8);
  readonly body: (RigidBody | null)[] = [];

  /** Particles of the owning system: indices must be below it (kept by ParticleSystem). */
  particleCount = 0;

  /** `freeInverseMass` is kept from the first pin when the particle is pinned again. */
  add(particle: number, body: RigidBody | null, point: Readonly<Vec3>, freeInverseMass = 0): number {
    checkParticle(particle, this.particleCount, 'pin: particle');
    requirePosition(point, 'pin: point');
    if (!(freeInverseMass >= 0 && freeInverseMass < Infinity)) throw new RangeError(`pin: freeInverseMass must be finite and ≥ 0 (got ${String(freeInverseMass)})`);
    for (let i = 0; i < this.count; i++) {
      if (this.particle[i] === particle) { this.set(i, body, point); return i; }
    }
    const i = this.count;
    if (i === this.particle.length) {
      this.particle = resizedInt32(this.particle, i * 2);
      this.point = resizedFloat64(this.point, i * 6);
      this.target = resizedFloat64(this.target, i * 6);
      this.freeInverseMass = resizedFloat64(this.freeInverseMass, i * 2);
    }
    this.particle[i] = particle;
    this.freeInverseMass[i] = freeInverseMass;
    this.body.push(null);
    this.set(i, body, point);
    this.count = i + 1;
    return i;
  }

  /** Removes the pin of `particle` (if any); returns whether there was one. */
  remove(particle: number): boolean {
    for (let i = 0; i < this.count; i++) {
      if (this.particle[i] !== particle) continue;
      const last = this.count - 1;
      this.particle[i] = this.particle[last]!;
      for (let k = 0; k < 3; k++) {
        this.point[i * 3 + k] = this.point[last * 3 + k]!;
        this.target[i * 3 + k] = this.target[last * 3 + k]!;
      }
      this.freeInverseMass[i] = this.freeInverseMass[last]!;
      this.body[i] = this.body[last]!;
      this.body.pop();
      this.count = last;
      return true;
    }
    return false;
  }

  private set(i: number, body: RigidBody | null, p: Readonly<Vec3>): void {
    this.body[i] = body;
    this.point[i * 3] = p.x; this.point[i * 3 + 1] = p.y; this.point[i * 3 + 2] = p.z;
    this.target[i * 3] = p.x; this.target[i * 3 + 1] = p.y; this.target[i * 3 + 2] = p.z;
  }

  /** Refreshes the world targets of body pins from the bodies' current poses. */
  updateTargets(): void {
    for (let i = 0; i < this.count; i++) {
      const body = this.body[i];
      if (!body) continue;
      const q = body.rotation, c = body.position;
      const vx = this.point[i * 3]!, vy = this.point[i * 3 + 1]!, vz = this.point[i * 3 + 2]!;
      // v' = v + w t + q.xyz × t with t = 2 q.xyz × v (rotation by a unit quaternion)
      const tx = 2 * (q.y * vz - q.z * vy), ty = 2 * (q.z * vx - q.x * vz), tz = 2 * (q.x * vy - q.y * vx);
      this.target[i * 3] = c.x + vx + q.w * tx + (q.y * tz - q.z * ty);
      this.target[i * 3 + 1] = c.y + vy + q.w * ty + (q.z * tx - q.x * tz);
      this.target[i * 3 + 2] = c.z + vz + q.w * tz + (q.x * ty - q.y * tx);
    }
  }

  /** Puts every pinned particle on its target. */
  solve(x: Float64Array): void {
    const t = this.target;
    for (let i = 0; i < this.count; i++) {
      const p = this.particle[i]! * 3;
      x[p] = t[i * 3]!; x[p + 1] = t[i * 3 + 1]!; x[p + 2] = t[i * 3 + 2]!;
    }
  }
}

/**
 * Jakobsen's box constraint: each coordinate clamped into [min, max]
 * (shrunk by the particle radius). Projection onto an axis-aligned box is the
 * per-axis clamp, so one pass satisfies it exactly.
 */
export function solveBounds(x: Float64Array, count: number, min: Readonly<Vec3>, max: Readonly<Vec3>, radius: number): void {
  const x0 = min.x + radius, y0 = min.y + radius, z0 = min.z + radius;
  const x1 = max.x - radius, y1 = max.y - radius, z1 = max.z - radius;
  for (let i = 0, n = count * 3; i < n; i += 3) {
    const px = x[i]!, py = x[i + 1]!, pz = x[i + 2]!;
    x[i] = px < x0 ? x0 : px > x1 ? x1 : px;
    x[i + 1] = py < y0 ? y0 : py > y1 ? y1 : py;
    x[i + 2] = pz < z0 ? z0 : pz > z1 ? z1 : pz;
  }
}

/**
 * Throws a RangeError or TypeError naming the first entry of a system's
 * `sticks` that `add` would have refused (fields written directly). Runs at
 * the start of every step: a loop over the columns, no allocation unless it
 * throws.
 */
export function checkDistanceConstraints(c: DistanceConstraints, particleCount: number): void {
  const pa = c.particleA, pb = c.particleB, lo = c.minLength, hi = c.maxLength, k = c.stiffness, n = c.count;
  if (c.particleCount !== particleCount) {
    throw new RangeError(`ParticleSystem.sticks.particleCount must equal the system's particle count ${particleCount} (got ${String(c.particleCount)})`);
  }
  if (!(pa instanceof Int32Array)) badColumn('sticks.particleA', 'an Int32Array', pa);
  if (!(pb instanceof Int32Array)) badColumn('sticks.particleB', 'an Int32Array', pb);
  if (!(lo instanceof Float64Array)) badColumn('sticks.minLength', 'a Float64Array', lo);
  if (!(hi instanceof Float64Array)) badColumn('sticks.maxLength', 'a Float64Array', hi);
  if (!(k instanceof Float64Array)) badColumn('sticks.stiffness', 'a Float64Array', k);
  const cap = Math.min(pa.length, pb.length, lo.length, hi.length, k.length);
  if (!(Number.isInteger(n) && n >= 0 && n <= cap)) {
    throw new RangeError(`ParticleSystem.sticks.count must be an integer in [0, ${cap}] (the columns' length; got ${String(n)})`);
  }
  const L = MAX_BODY_STATE;
  for (let i = 0; i < n; i++) {
    const a = pa[i]!, b = pb[i]!;
    if (!(a >= 0 && a < particleCount)) badIndex('sticks.particleA', i, a, particleCount);
    if (!(b >= 0 && b < particleCount)) badIndex('sticks.particleB', i, b, particleCount);
    if (a === b) throw new RangeError(`ParticleSystem.sticks.particleB[${i}] must differ from particleA[${i}] (both ${a})`);
    const minL = lo[i]!, maxL = hi[i]!, s = k[i]!;
    if (!(minL >= 0 && minL <= L)) throw new RangeError(`ParticleSystem.sticks.minLength[${i}] must be a number in [0, 1e15] (MAX_BODY_STATE) (got ${minL})`);
    if (!(maxL >= minL && maxL <= L)) throw new RangeError(`ParticleSystem.sticks.maxLength[${i}] must be a number in [minLength[${i}] = ${minL}, 1e15] (MAX_BODY_STATE) (got ${maxL})`);
    if (!(s > 0 && s <= 1)) throw new RangeError(`ParticleSystem.sticks.stiffness[${i}] must be a finite number in (0, 1] (got ${s})`);
  }
}

/**
 * Throws a RangeError or TypeError naming the first entry of a system's
 * `pins` that `add` would have refused, or a pin on a body of a world other
 * than `world` (null: a system stepped on its own, any world). A pin on a
 * removed body is fine: the step releases it.
 */
export function checkPins(p: PinConstraints, particleCount: number, world: unknown): void {
  const particle = p.particle, point = p.point, target = p.target, free = p.freeInverseMass, body = p.body, n = p.count;
  if (p.particleCount !== particleCount) {
    throw new RangeError(`ParticleSystem.pins.particleCount must equal the system's particle count ${particleCount} (got ${String(p.particleCount)})`);
  }
  if (!(particle instanceof Int32Array)) badColumn('pins.particle', 'an Int32Array', particle);
  if (!(point instanceof Float64Array)) badColumn('pins.point', 'a Float64Array', point);
  if (!(target instanceof Float64Array)) badColumn('pins.target', 'a Float64Array', target);
  if (!(free instanceof Float64Array)) badColumn('pins.freeInverseMass', 'a Float64Array', free);
  const cap = Math.min(particle.length, Math.floor(point.length / 3), Math.floor(target.length / 3), free.length);
  if (!(Number.isInteger(n) && n >= 0 && n <= cap && n === body.length)) {
    throw new RangeError(`ParticleSystem.pins.count must be an integer in [0, ${cap}] equal to pins.body.length ${body.length} (got ${String(n)})`);
  }
  const L = MAX_BODY_STATE;
  for (let i = 0; i < n; i++) {
    const j = particle[i]!;
    if (!(j >= 0 && j < particleCount)) badIndex('pins.particle', i, j, particleCount);
    if (!(free[i]! >= 0 && free[i]! < Infinity)) throw new RangeError(`ParticleSystem.pins.freeInverseMass[${i}] must be a finite number ≥ 0 (got ${free[i]})`);
    const b = body[i];
    for (let c = 3 * i; c < 3 * i + 3; c++) {
      if (!(Math.abs(point[c]!) <= L)) badPinValue('point', c, point[c]!);
      // A body pin's target is recomputed from the body's pose before use.
      if (b === null && !(Math.abs(target[c]!) <= L)) badPinValue('target', c, target[c]!);
    }
    if (b === null) continue;
    if (!(b instanceof RigidBody)) throw new TypeError(`ParticleSystem.pins.body[${i}] must be a RigidBody or null (got ${String(b)})`);
    if (world !== null && b.world !== null && b.world !== world) throw new Error(`ParticleSystem.pins.body[${i}] (body ${b.id}) is in another world than the one stepping the system`);
  }
}

function badColumn(field: string, type: string, value: unknown): never {
  throw new TypeError(`ParticleSystem.${field} must be ${type} (got ${Object.prototype.toString.call(value)})`);
}

function badIndex(field: string, i: number, value: number, count: number): never {
  throw new RangeError(`ParticleSystem.${field}[${i}] must be a particle index in [0, ${count}) (got ${value})`);
}

function badPinValue(field: string, c: number, value: number): never {
  throw new RangeError(`ParticleSystem.pins.${field}[${c}] (pin ${Math.floor(c / 3)}) must be a finite number within ±1e15 (MAX_BODY_STATE) (got ${value})`);
}

function checkParticle(i: number, count: number, what: string): void {
  if (!Number.isInteger(i) || i < 0 || i >= count) throw new RangeError(`${what}: particle index ${String(i)} out of range [0, ${count})`);
}
