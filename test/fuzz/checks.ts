/**
 * The fuzz checks, run after every step of a fuzz world (issue 16 §2):
 *
 * - finite      every position, rotation and velocity of the bodies, the
 *               particles (cloth, rope) and the characters is a finite number;
 * - rotation    every dynamic body's rotation has |‖q‖ − 1| ≤ 1e-6;
 * - tunnelling  no body's lowest point (the support point of its shape in −y)
 *               is deeper under the ground at that point's (x, z) than the
 *               body's own smallest size (sphere and capsule diameter, the
 *               box's thinnest side); the ground is the floor box's top or the
 *               terrain triangle there. A point off the ground's footprint is
 *               exempt (the body left the ground horizontally), and so is a
 *               body whose centre is off it (it fell past the edge and may
 *               reach in under the edgeless terrain sheet), and from then on
 *               a body whose centre was off it below the lowest ground or
 *               below the edge beside it (it may come back in under the
 *               sheet). A body jointed to the
 *               floor box without collideConnected is exempt over the floor
 *               box: its joint switched that contact off, so it may hang
 *               through it; once it hangs in by half its size, it is exempt
 *               everywhere (it may slide on in under the terrain sheet, whose
 *               edge is at the floor's height, from below). Characters are checked the same way (their capsule);
 * - energy      the total mechanical energy never exceeds what the world can
 *               supply (below); a failure names the body whose kinetic energy
 *               rose most over the last 30 steps, and is reported again
 *               whenever another body becomes the largest gainer (the cascade);
 * - thrown      no call (step, character update) throws.
 *
 * The energy bound. With g = 9.81 m/s² down and y up,
 *
 *   E(t) = Σ_bodies ( ½ m |v|² + ½ Σ_k I_k (ω·e_k)² + m g y )
 *        + Σ_free particles ( ½ m |v|² + m g y ),
 *
 * ω·e_k the spin about the body's k-th principal axis (I_k as the engine
 * computed it); a particle's v is its implied Verlet velocity (x − x_prev)/dt.
 * The only sources of energy in a fuzz world:
 *   - gravity, which is in E as m g y;
 *   - hinge motors: a motor's torque |τ| ≤ maxMotorTorque pushes the relative
 *     speed ω_rel towards motorSpeed s, so it does positive work only while
 *     ω_rel lies between 0 and s; its power τ·ω_rel ≤ maxMotorTorque·|s|.
 *     Over t seconds all motors supply at most W(t) = t · Σ maxMotorTorque·|s|;
 *   - restitution supplies nothing: with e ≤ 1 a bounce returns at most e² of
 *     the normal approach energy;
 *   - distance-joint springs start unstretched (rest length = the anchors'
 *     distance at creation), so their stored energy ½k(d − L)² ≥ 0 only takes
 *     energy out of E;
 *   - the static floor and terrain do no work; characters are kinematic but
 *     cannot push (pushStrength 0) and their bodies do not collide with
 *     dynamic bodies or particles, so they do no work on E either.
 * Damping, friction and inelastic contacts only take energy out. Hence
 *
 *   E(t) ≤ E(0) + W(t) + tol,   tol = ENERGY_TOLERANCE · (E(0) − E_min) + ENERGY_ABS_TOLERANCE,
 *
 * where E(0) − E_min is the energy the world can release (E_min: every body
 * and particle at rest at the terrain's lowest height); tol covers the
 * position correction of resting contacts and joint drift.
 */
import { BODY_STRIDE, footingCompound, type FuzzInstance } from './engines';
import { GRAVITY, GROUND_HALF, groundHeight, smallestSize, describeShape, type FuzzWorldSpec, type ShapeSpec } from './generator';

/** Share of the releasable energy the total may exceed E(0) + W(t) by. */
export const ENERGY_TOLERANCE = 0.01;
/** Joules, for worlds with almost nothing to release. */
export const ENERGY_ABS_TOLERANCE = 1;
export const ROTATION_TOLERANCE = 1e-6;

export type CheckName = 'thrown' | 'finite' | 'rotation' | 'tunnelling' | 'energy';
export const CHECK_NAMES: readonly CheckName[] = ['thrown', 'finite', 'rotation', 'tunnelling', 'energy'];

export interface Failure {
  readonly check: CheckName;
  readonly step: number;
  /** 'body' i (spec order), 'particle' i, 'character' i, or the whole 'world'. */
  readonly what: 'body' | 'particle' | 'character' | 'world';
  readonly index: number;
  /** The number that failed: depth (m), ‖q‖ − 1, energy excess (J), ... */
  readonly value: number;
  readonly message: string;
}

/** Lowest point of a shape at (position, rotation): writes its x, z into out[0], out[1] and returns its y. */
const partPose = new Float64Array(7);
const partOut = new Float64Array(2);

/** Per body, 1 if a joint to the floor box without collideConnected switches its contact with the floor box off (it may hang through it). */
export function floorExemptBodies(spec: FuzzWorldSpec): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(spec.bodies.length);
  for (const j of spec.jointSpecs) if (j.a < 0 && !j.collideConnected) out[j.b] = 1;
  return out;
}

/** A lowest point `low` under the floor box's top (y = 0) by more than half the shape's smallest size. */
function deepInFloor(s: ShapeSpec, low: number): boolean {
  return -low > 0.5 * smallestSize(s);
}

/**
 * Whether a body of shape s at the pose st[o..o+6] hangs into the floor box
 * by half its smallest size (its lowest point over the floor box's
 * footprint): for a body whose contact with the floor box is switched off
 * (floorExemptBodies), this exempts it from the tunnelling check from then
 * on. The checker tests it after each step, and footing's instance at the
 * end of each part of a step (FuzzInstance.readExemptInPart): a long body
 * swung by its floor joint can dip its end through the floor box and on in
 * under the terrain sheet's edge within one step.
 */
export function hangsInFloor(s: ShapeSpec, st: Float64Array, o: number, scratch: Float64Array): boolean {
  const low = lowestPoint(s, st, o, scratch);
  const x = scratch[0]!, z = scratch[1]!;
  return Math.abs(x) <= GROUND_HALF && z >= -GROUND_HALF && z < 0 && deepInFloor(s, low);
}

export function lowestPoint(s: ShapeSpec, st: Float64Array, o: number, out: Float64Array): number {
  const px = st[o]!, py = st[o + 1]!, pz = st[o + 2]!;
  const qx = st[o + 3]!, qy = st[o + 4]!, qz = st[o + 5]!, qw = st[o + 6]!;
  switch (s.kind) {
    case 'compound': {
      // The body's pose is the compound's frame (centre of mass, principal axes): its parts at p + q c_i, q q_i.
      const parts = footingCompound(s).children;
      let low = Infinity;
      for (let i = 0; i < parts.length; i++) {
        const c = parts[i]!, v = c.position, r = c.rotation;
        const tx = 2 * (qy * v.z - qz * v.y), ty = 2 * (qz * v.x - qx * v.z), tz = 2 * (qx * v.y - qy * v.x);
        partPose[0] = px + v.x + qw * tx + (qy * tz - qz * ty);
        partPose[1] = py + v.y + qw * ty + (qz * tx - qx * tz);
        partPose[2] = pz + v.z + qw * tz + (qx * ty - qy * tx);
        partPose[3] = qw * r.x + qx * r.w + qy * r.z - qz * r.y;
        partPose[4] = qw * r.y - qx * r.z + qy * r.w + qz * r.x;
        partPose[5] = qw * r.z + qx * r.y - qy * r.x + qz * r.w;
        partPose[6] = qw * r.w - qx * r.x - qy * r.y - qz * r.z;
        const y = lowestPoint(s.children[i]!.shape, partPose, 0, partOut);
        if (y < low) { low = y; out[0] = partOut[0]!; out[1] = partOut[1]!; }
      }
      return low;
    }
    case 'sphere':
      out[0] = px; out[1] = pz;
      return py - s.radius;
    case 'capsule': {
      // The segment's direction is the rotated local Y axis.
      const ax = 2 * (qx * qy - qw * qz), ay = 1 - 2 * (qx * qx + qz * qz), az = 2 * (qy * qz + qw * qx);
      const sg = ay > 0 ? -1 : 1;
      out[0] = px + sg * s.halfHeight * ax; out[1] = pz + sg * s.halfHeight * az;
      return py - s.halfHeight * Math.abs(ay) - s.radius;
    }
    case 'cylinder': {
      // Axis a = rotated local Y; the lowest rim point is h down the axis and
      // r along the part of −y perpendicular to it.
      const ax = 2 * (qx * qy - qw * qz), ay = 1 - 2 * (qx * qx + qz * qz), az = 2 * (qy * qz + qw * qx);
      const sg = ay > 0 ? -1 : 1;
      const dx = ay * ax, dy = -1 + ay * ay, dz = ay * az; // −y − (−y·a) a
      const dl = Math.hypot(dx, dy, dz);
      const k = dl > 1e-12 ? s.radius / dl : 0;
      out[0] = px + sg * s.halfHeight * ax + k * dx; out[1] = pz + sg * s.halfHeight * az + k * dz;
      return py + sg * s.halfHeight * ay + k * dy;
    }
    case 'hull': {
      let low = Infinity;
      for (const v of s.points) {
        const tx = 2 * (qy * v.z - qz * v.y), ty = 2 * (qz * v.x - qx * v.z), tz = 2 * (qx * v.y - qy * v.x);
        const y = py + v.y + qw * ty + (qz * tx - qx * tz);
        if (y < low) {
          low = y;
          out[0] = px + v.x + qw * tx + (qy * tz - qz * ty);
          out[1] = pz + v.z + qw * tz + (qx * ty - qy * tx);
        }
      }
      return low;
    }
    case 'box': {
      // Columns of the rotation matrix: the box's axes in world space.
      const h = s.halfExtents;
      const c0x = 1 - 2 * (qy * qy + qz * qz), c0y = 2 * (qx * qy + qw * qz), c0z = 2 * (qx * qz - qw * qy);
      const c1x = 2 * (qx * qy - qw * qz), c1y = 1 - 2 * (qx * qx + qz * qz), c1z = 2 * (qy * qz + qw * qx);
      const c2x = 2 * (qx * qz + qw * qy), c2y = 2 * (qy * qz - qw * qx), c2z = 1 - 2 * (qx * qx + qy * qy);
      const s0 = c0y > 0 ? -h.x : h.x, s1 = c1y > 0 ? -h.y : h.y, s2 = c2y > 0 ? -h.z : h.z;
      out[0] = px + s0 * c0x + s1 * c1x + s2 * c2x;
      out[1] = pz + s0 * c0z + s1 * c1z + s2 * c2z;
      return py + s0 * c0y + s1 * c1y + s2 * c2y;
    }
  }
}

function fmt(v: number, digits = 4): string {
  return Number.isFinite(v) ? v.toPrecision(digits) : String(v);
}

/** The spec body's description: shape, size, mass, initial speed, spin, friction and restitution. */
export function describeBody(spec: FuzzWorldSpec, i: number): string {
  const b = spec.bodies[i]!;
  const v = b.linearVelocity, w = b.angularVelocity;
  return `body ${b.index ?? i} (${describeShape(b.shape)}, ${fmt(b.mass)} kg, start speed ${fmt(Math.hypot(v.x, v.y, v.z))} m/s, ` +
    `spin ${fmt(Math.hypot(w.x, w.y, w.z))} rad/s, friction ${fmt(b.friction, 3)}, restitution ${fmt(b.restitution, 3)}${b.thin ? ', thin' : ''})`;
}

/** A spec joint in one line: kind, bodies, anchor distance, limits, motor, spring. */
export function describeJoint(spec: FuzzWorldSpec, k: number): string {
  const j = spec.jointSpecs[k]!;
  const names = (i: number): string => String(spec.bodies[i]!.index ?? i);
  const parts = [`${j.kind} ${j.a < 0 ? 'floor' : `body ${names(j.a)}`}–body ${names(j.b)} (${j.pair})`];
  const pb = spec.bodies[j.b]!.position, pa = j.a < 0 ? j.anchor : spec.bodies[j.a]!.position;
  parts.push(`centres ${fmt(Math.hypot(pb.x - pa.x, pb.y - pa.y, pb.z - pa.z), 3)} m apart`);
  if (j.lowerAngle !== undefined) parts.push(`limits [${fmt(j.lowerAngle, 3)}, ${fmt(j.upperAngle!, 3)}] rad`);
  if (j.lowerLimit !== undefined) parts.push(`limits [${fmt(j.lowerLimit, 3)}, ${fmt(j.upperLimit!, 3)}] m`);
  if (j.maxMotorTorque !== undefined) parts.push(j.kind === 'slider' ? `motor ${fmt(j.motorSpeed!, 3)} m/s, ≤ ${fmt(j.maxMotorTorque, 3)} N` : `motor ${fmt(j.motorSpeed!, 3)} rad/s, ≤ ${fmt(j.maxMotorTorque, 3)} N·m`);
  if (j.frictionForce) parts.push(`friction ${fmt(j.frictionForce, 3)} N`);
  if (j.axes) {
    if (j.swingType === 'cone') parts.push('swing cone');
    parts.push('axes ' + j.axes.map((x) => x.mode === 'limited' ? `[${fmt(x.min, 3)}, ${fmt(x.max, 3)}]${x.limitHertz > 0 ? `@${fmt(x.limitHertz, 3)} Hz` : ''}` : x.mode)
      .map((t, k) => t + (j.axes![k]!.maxMotorForce > 0 ? ` motor ${fmt(j.axes![k]!.motorSpeed, 3)} ≤ ${fmt(j.axes![k]!.maxMotorForce, 3)}` : '') + (j.axes![k]!.friction > 0 ? ` μ ${fmt(j.axes![k]!.friction, 3)}` : '')).join(' / '));
  }
  if (j.swingLimit !== undefined) parts.push(`swing ${fmt(j.swingLimit, 3)}, twist [${fmt(j.twistLower!, 3)}, ${fmt(j.twistUpper!, 3)}] rad`);
  if (j.maxLength !== undefined) parts.push(`rope ≤ ${fmt(j.maxLength, 3)} m`);
  if (j.frequency !== undefined) parts.push(`spring ${fmt(j.frequency, 3)} Hz, ζ ${fmt(j.dampingRatio!, 3)}`);
  if (j.frictionTorque > 0) parts.push(`friction ${fmt(j.frictionTorque, 3)} N·m`);
  if (j.collideConnected) parts.push('collideConnected');
  return parts.join(', ');
}

/** Kinetic energy of body i from a state row (rotation part in the body's principal frame). */
export function bodyKinetic(st: Float64Array, o: number, mass: number, inertia: Float64Array, i: number): number {
  const vx = st[o + 7]!, vy = st[o + 8]!, vz = st[o + 9]!;
  const wx = st[o + 10]!, wy = st[o + 11]!, wz = st[o + 12]!;
  // ω in the body frame: conj(q) ω q.
  const qx = -st[o + 3]!, qy = -st[o + 4]!, qz = -st[o + 5]!, qw = st[o + 6]!;
  const n = Math.hypot(qx, qy, qz, qw);
  const tx = 2 * (qy * wz - qz * wy), ty = 2 * (qz * wx - qx * wz), tz = 2 * (qx * wy - qy * wx);
  const lx = (wx + qw * tx + (qy * tz - qz * ty)) / (n * n), ly = (wy + qw * ty + (qz * tx - qx * tz)) / (n * n), lz = (wz + qw * tz + (qx * ty - qy * tx)) / (n * n);
  return 0.5 * mass * (vx * vx + vy * vy + vz * vz) + 0.5 * (inertia[3 * i]! * lx * lx + inertia[3 * i + 1]! * ly * ly + inertia[3 * i + 2]! * lz * lz);
}

const KE_WINDOW = 30;

/** Runs the checks on one world after every step and keeps the failures (the first per check and body). */
export class WorldChecker {
  readonly failures: Failure[] = [];
  /** Failing (check, what, index) keys already recorded. */
  private readonly seen = new Set<string>();
  readonly state: Float64Array;
  private readonly particlePositions: Float64Array;
  private readonly particleVelocities: Float64Array;
  private readonly particleMasses: Float64Array;
  private readonly characters: Float64Array;
  private readonly scratch = new Float64Array(2);
  /** Per body: its centre went off the footprint below the lowest ground (it fell off the world's edge; see the tunnelling check). */
  private readonly fellOff: Uint8Array;
  /** The same for the characters. */
  private readonly characterFellOff: Uint8Array;
  /** Per body: jointed to the floor box without collideConnected, so it does not collide with the floor box (it may hang through it). */
  private readonly floorExempt: Uint8Array<ArrayBuffer>;
  private readonly lowestGround: number;
  /** Per body: seen off the footprint below the edge, or hanging into the floor box (hangsInFloor), at the end of a part of the last step (FuzzInstance.readExemptInPart). */
  private readonly exemptInPart: Uint8Array;
  /** Per body: its centre after the last step (x, y, z), to see it come in under the ground's edge within a step. */
  private readonly previousCentre: Float64Array;
  /** Per body KE over the last KE_WINDOW steps (ring), to name the body that gained the most when the energy check fails. */
  private readonly keHistory: Float64Array;
  energy0 = NaN;
  releasable = NaN;
  /** Largest (E(t) − E(0) − W(t)) / releasable seen. */
  maxEnergyExcessRatio = -Infinity;
  maxEnergyExcessStep = -1;
  /** Deepest tunnelling / smallest size ratio seen (for the report). */
  maxDepthRatio = -Infinity;
  /** Deepest lowest point under the ground seen, metres (any body, failing or not). */
  maxDepth = -Infinity;
  /** A non-finite number stops the world: later checks would only repeat it. */
  stopped = false;

  constructor(readonly spec: FuzzWorldSpec, readonly instance: FuzzInstance) {
    this.fellOff = new Uint8Array(spec.bodies.length);
    this.characterFellOff = new Uint8Array(spec.characters.length);
    this.floorExempt = new Uint8Array(spec.bodies.length);
    this.previousCentre = new Float64Array(3 * spec.bodies.length);
    this.exemptInPart = new Uint8Array(spec.bodies.length);
    this.floorExempt = floorExemptBodies(spec);
    let lowest = 0;
    for (let k = 1; k < spec.terrain.positions.length; k += 3) lowest = Math.min(lowest, spec.terrain.positions[k]!);
    this.lowestGround = lowest;
    const n = spec.bodies.length;
    this.state = new Float64Array(BODY_STRIDE * n);
    this.particlePositions = new Float64Array(3 * instance.particleCapacity);
    this.particleVelocities = new Float64Array(3 * instance.particleCapacity);
    this.particleMasses = new Float64Array(instance.particleCapacity);
    this.characters = new Float64Array(6 * instance.characterCount);
    this.keHistory = new Float64Array(KE_WINDOW * n);
  }

  private fail(f: Failure): void {
    const key = `${f.check}:${f.what}:${f.index}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.failures.push(f);
  }

  recordThrown(step: number, error: unknown): void {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.fail({ check: 'thrown', step, what: 'world', index: -1, value: NaN, message: `threw ${message}` });
    this.stopped = true;
  }

  /** Total energy E (see the file comment) of the state just read; fills the KE ring for `step`. */
  private totalEnergy(step: number, particleCount: number): number {
    const n = this.spec.bodies.length, st = this.state, inst = this.instance;
    let e = 0;
    for (let i = 0; i < n; i++) {
      const o = BODY_STRIDE * i, m = inst.masses[i]!;
      const ke = bodyKinetic(st, o, m, inst.inertia, i);
      this.keHistory[KE_WINDOW * i + ((step + 1) % KE_WINDOW)] = ke;
      e += ke + m * GRAVITY * st[o + 1]!;
    }
    for (let k = 0; k < particleCount; k++) {
      const m = this.particleMasses[k]!;
      if (m === 0) continue;
      const vx = this.particleVelocities[3 * k]!, vy = this.particleVelocities[3 * k + 1]!, vz = this.particleVelocities[3 * k + 2]!;
      e += 0.5 * m * (vx * vx + vy * vy + vz * vz) + m * GRAVITY * this.particlePositions[3 * k + 1]!;
    }
    return e;
  }

  /** Before the first step: E(0) and the releasable energy. */
  start(): void {
    this.instance.readBodies(this.state);
    this.keepCentres();
    const pc = this.instance.readParticles(this.particlePositions, this.particleVelocities, this.particleMasses);
    this.energy0 = this.totalEnergy(-1, pc);
    // Until KE_WINDOW steps have run, the oldest ring entry is the start's.
    const n = this.spec.bodies.length;
    for (let i = 0; i < n; i++) this.keHistory.fill(this.keHistory[KE_WINDOW * i]!, KE_WINDOW * i, KE_WINDOW * (i + 1));
    let eMin = 0;
    const h = this.spec.terrain.minHeight;
    for (let i = 0; i < this.spec.bodies.length; i++) eMin += this.instance.masses[i]! * GRAVITY * h;
    for (let k = 0; k < pc; k++) eMin += this.particleMasses[k]! * GRAVITY * h;
    this.releasable = this.energy0 - eMin;
  }

  private keepCentres(): void {
    const st = this.state, prev = this.previousCentre;
    for (let i = 0; i < this.spec.bodies.length; i++) {
      const o = BODY_STRIDE * i;
      prev[3 * i] = st[o]!; prev[3 * i + 1] = st[o + 1]!; prev[3 * i + 2] = st[o + 2]!;
    }
  }

  /**
   * Whether body i's centre came onto the footprint within the last step
   * from off it, crossing the footprint's edge below the ground there: a
   * fast body falling beside the world can pass in under the edge within
   * one step, which the per-step off-footprint test cannot see.
   */
  private cameInUnderEdge(i: number): boolean {
    const p = this.previousCentre, st = this.state, o = BODY_STRIDE * i;
    const x0 = p[3 * i]!, y0 = p[3 * i + 1]!, z0 = p[3 * i + 2]!;
    if (!Number.isNaN(groundHeight(this.spec, x0, z0))) return false;
    const dx = st[o]! - x0, dz = st[o + 2]! - z0;
    // Liang–Barsky: the fraction at which the path enters |x|, |z| ≤ GROUND_HALF.
    let enter = 0;
    for (const [a, d] of [[x0, dx], [z0, dz]] as const) {
      if (d === 0) continue;
      const t1 = (-GROUND_HALF - a) / d, t2 = (GROUND_HALF - a) / d;
      enter = Math.max(enter, Math.min(t1, t2));
    }
    if (!(enter <= 1)) return false;
    const ex = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, x0 + enter * dx)), ez = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, z0 + enter * dz));
    const y = y0 + enter * (st[o + 1]! - y0);
    return y < groundHeight(this.spec, ex, ez);
  }

  /** Energy allowance after `step + 1` steps: W(t) + tol. */
  allowance(step: number): number {
    const t = (step + 1) * this.spec.dt;
    return t * this.instance.motorPower + ENERGY_TOLERANCE * this.releasable + ENERGY_ABS_TOLERANCE;
  }

  /** The checks after step `step` (0-based) has run. */
  check(step: number): void {
    const spec = this.spec, inst = this.instance, st = this.state;
    inst.readBodies(st);
    inst.readExemptInPart?.(this.exemptInPart);
    const n = spec.bodies.length;
    let nonFinite = false;
    for (let i = 0; i < n; i++) {
      const o = BODY_STRIDE * i;
      for (let k = 0; k < BODY_STRIDE; k++) {
        if (!Number.isFinite(st[o + k]!)) {
          const names = ['x', 'y', 'z', 'qx', 'qy', 'qz', 'qw', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz'];
          this.fail({ check: 'finite', step, what: 'body', index: i, value: st[o + k]!, message: `${describeBody(spec, i)}: ${names[k]} = ${st[o + k]}` });
          nonFinite = true;
          break;
        }
      }
    }
    const pc = inst.readParticles(this.particlePositions, this.particleVelocities, this.particleMasses);
    for (let k = 0; k < pc; k++) {
      for (let c = 0; c < 3; c++) {
        if (!Number.isFinite(this.particlePositions[3 * k + c]!) || !Number.isFinite(this.particleVelocities[3 * k + c]!)) {
          this.fail({ check: 'finite', step, what: 'particle', index: k, value: NaN, message: `particle ${k}: position or velocity not finite` });
          nonFinite = true;
          break;
        }
      }
    }
    inst.readCharacters(this.characters);
    for (let k = 0; k < inst.characterCount; k++) {
      for (let c = 0; c < 6; c++) {
        if (!Number.isFinite(this.characters[6 * k + c]!)) {
          this.fail({ check: 'finite', step, what: 'character', index: k, value: NaN, message: `character ${k}: position or velocity not finite` });
          nonFinite = true;
          break;
        }
      }
    }
    if (nonFinite) {
      this.stopped = true;
      return;
    }

    for (let i = 0; i < n; i++) {
      const o = BODY_STRIDE * i;
      const qn = Math.hypot(st[o + 3]!, st[o + 4]!, st[o + 5]!, st[o + 6]!);
      if (Math.abs(qn - 1) > ROTATION_TOLERANCE) {
        this.fail({ check: 'rotation', step, what: 'body', index: i, value: qn - 1, message: `${describeBody(spec, i)}: ‖q‖ − 1 = ${fmt(qn - 1, 3)}` });
      }
      const shape = spec.bodies[i]!.shape;
      // A body whose centre is off the footprint fell past the ground's edge:
      // the terrain is a sheet with no sides, and a stick falling beside it
      // can swing its end in under the edge without crossing any surface;
      // once below the lowest ground out there, it may also bounce back in
      // under the sheet, so it stays exempt.
      if (Number.isNaN(groundHeight(spec, st[o]!, st[o + 2]!))) {
        // Below the lowest ground, or reaching below the edge it is beside (a
        // body sliding down beside the sheet's edge can reach in under it).
        const ex = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, st[o]!)), ez = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, st[o + 2]!));
        const edge = groundHeight(spec, ex, ez);
        // Its lowest point, not its centre: a stick standing beside the edge
        // reaches in under the sheet with its lower end.
        const low = lowestPoint(shape, st, o, this.scratch);
        if (st[o + 1]! < this.lowestGround || low < edge) this.fellOff[i] = 1;
        continue;
      }
      if (this.fellOff[i] === 0 && (this.exemptInPart[i] === 1 || this.cameInUnderEdge(i))) this.fellOff[i] = 1;
      if (this.fellOff[i] === 1) continue;
      const low = lowestPoint(shape, st, o, this.scratch);
      const ground = groundHeight(spec, this.scratch[0]!, this.scratch[1]!);
      if (Number.isNaN(ground)) continue;
      // The user switched its contact with the floor box off. Once it hangs
      // into the floor box by half its size, its middle is below the top
      // edge of the terrain sheet beside it (at the floor's height), and it
      // may slide or swing on in under the sheet from below without crossing
      // any surface, so it stays exempt, like fellOff.
      if (this.floorExempt[i] === 1 && this.scratch[1]! < 0) {
        if (deepInFloor(shape, low)) this.fellOff[i] = 1;
        continue;
      }
      const depth = ground - low, size = smallestSize(shape);
      if (depth / size > this.maxDepthRatio) this.maxDepthRatio = depth / size;
      if (depth > this.maxDepth) this.maxDepth = depth;
      if (depth > size) {
        const v = Math.hypot(st[o + 7]!, st[o + 8]!, st[o + 9]!), w = Math.hypot(st[o + 10]!, st[o + 11]!, st[o + 12]!);
        this.fail({
          check: 'tunnelling', step, what: 'body', index: i, value: depth,
          message: `${describeBody(spec, i)}: lowest point ${fmt(depth)} m under the ${this.scratch[1]! < 0 ? 'floor box' : 'terrain'} ` +
            `(> its smallest size ${fmt(size, 3)} m) at (${fmt(this.scratch[0]!)}, ${fmt(low)}, ${fmt(this.scratch[1]!)}); now ${fmt(v)} m/s, ${fmt(w)} rad/s`,
        });
      }
    }
    this.keepCentres();
    for (let k = 0; k < inst.characterCount; k++) {
      const c = spec.characters[k]!, ch = this.characters;
      const x = ch[6 * k]!, y = ch[6 * k + 1]!, z = ch[6 * k + 2]!, low = y - c.halfHeight - c.radius;
      const ground = groundHeight(spec, x, z);
      // A character that walked off the ground's edge is exempt from then on,
      // as a body is (it may come back in under the sheet).
      if (Number.isNaN(ground)) {
        const ex = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, x)), ez = Math.max(-GROUND_HALF, Math.min(GROUND_HALF, z));
        if (y < this.lowestGround || y < groundHeight(spec, ex, ez)) this.characterFellOff[k] = 1;
        continue;
      }
      if (this.characterFellOff[k] === 1) continue;
      if (ground - low > 2 * c.radius) {
        this.fail({
          check: 'tunnelling', step, what: 'character', index: k, value: ground - low,
          message: `character ${k} (r=${fmt(c.radius, 3)}, hh=${fmt(c.halfHeight, 3)}): feet ${fmt(ground - low)} m under the ground at (${fmt(x)}, ${fmt(z)})`,
        });
      }
    }

    const e = this.totalEnergy(step, pc);
    const t = (step + 1) * spec.dt;
    const excess = e - this.energy0 - t * inst.motorPower;
    const ratio = excess / this.releasable;
    if (ratio > this.maxEnergyExcessRatio) {
      this.maxEnergyExcessRatio = ratio;
      this.maxEnergyExcessStep = step;
    }
    if (e > this.energy0 + this.allowance(step)) {
      // Name the body whose kinetic energy rose the most over the last KE_WINDOW steps.
      let best = -1, bestGain = -Infinity;
      const slot = (step + 1) % KE_WINDOW, oldest = (step + 2) % KE_WINDOW;
      for (let i = 0; i < n; i++) {
        const back = this.keHistory[KE_WINDOW * i + oldest]!;
        const gain = this.keHistory[KE_WINDOW * i + slot]! - back;
        if (gain > bestGain) { bestGain = gain; best = i; }
      }
      const bo = BODY_STRIDE * best;
      this.fail({
        check: 'energy', step, what: 'world', index: best, value: excess,
        message: `E = ${fmt(e, 7)} J > E(0) + W(t) + tol = ${fmt(this.energy0, 7)} + ${fmt(t * inst.motorPower, 4)} + ${fmt(this.allowance(step) - t * inst.motorPower, 4)} J ` +
          `(excess ${fmt(excess / this.releasable * 100, 3)} % of the releasable ${fmt(this.releasable, 4)} J); largest KE gain over the last ${KE_WINDOW} steps: ` +
          `${describeBody(spec, best)} +${fmt(bestGain, 4)} J, now ${fmt(Math.hypot(st[bo + 7]!, st[bo + 8]!, st[bo + 9]!))} m/s, ` +
          `${fmt(Math.hypot(st[bo + 10]!, st[bo + 11]!, st[bo + 12]!))} rad/s`,
      });
    }
  }
}
