/**
 * Shock propagation (Guendelman et al. 2003, "Nonconvex rigid bodies with
 * stacking") for the soft step: once per step the contact graph is levelled
 * from the immovable bodies; each sub-step, before the positions move, one
 * bottom-up sweep stops every heavily loaded upper body from approaching the
 * body under it, treated as immovable.
 */
import { currentSeparation, INT_STRIDE, I_A, I_B, I_SIZE, normalVelocity, R_APPROACH, R_CA, R_CB, R_KA_N, R_KB_N, R_N, R_SEPARATION, RESULT, ROW_STRIDE, type ContactSolver } from './contact-solver';
import { VELOCITY_STRIDE, type SolverBodies } from './solver-bodies';
import type { SolverSettings } from './solver-settings';

type F64 = Float64Array<ArrayBuffer>;
type I32 = Int32Array<ArrayBuffer>;

/**
 * Shock propagation applies to a contact whose upper body, with everything
 * resting on it, outweighs the lower body this many times (or, on an
 * immovable body, carries this many times its own mass): ordinary stacks and
 * pyramids stay below it and are left to the iterations.
 */
const SHOCK_LOAD_RATIO = 500;

export class ShockPropagation {
  /** Contact-graph level of each solver slot this step: 0 immovable, n = n touching contacts away from one, −1 unreached. */
  private level = new Int32Array(0) as I32;
  /** First row of each manifold block whose two bodies are on different levels, lower upper level first. */
  private shockBlocks = new Int32Array(0) as I32;
  private shockBlockCount = 0;
  private shockBucket = new Int32Array(0) as I32;
  private shockImpulse = new Float64Array(0) as F64;
  private shockDt = 0;
  private shockTouchDistance = 0;
  private shockTouch = new Uint8Array(0);
  private shockStart = new Int32Array(0) as I32;
  private shockAdjacent = new Int32Array(0) as I32;
  private shockQueue = new Int32Array(0) as I32;
  private shockAbove = new Float64Array(0) as F64;
  private shockSupports = new Int32Array(0) as I32;
  private shockTarget = new Float64Array(0) as F64;

  /**
   * Shock propagation (Guendelman et al. 2003, "Nonconvex rigid bodies with
   * stacking"), set-up once per step: levels by breadth over touching
   * contacts from the immovable slots (static, kinematic, fixed), and the
   * manifolds joining two levels sorted bottom-up. Returns the block count.
   */
  build(S: ContactSolver, B: SolverBodies, settings: Readonly<SolverSettings>, dt: number): number {
    // linearSlop is read here, not passed: a double argument is boxed (CONTRIBUTING.md, hot path).
    this.shockTouchDistance = settings.linearSlop;
    this.shockDt = dt;
    const n = B.count;
    const I = S.ints;
    // No body can carry more than all the movable mass, nor be lighter than
    // the lightest: when even that ratio is below SHOCK_LOAD_RATIO no block
    // can qualify (a pyramid of equal boxes, the 10:1 tower), so skip the set-up.
    let total = 0, maxInvMass = 0;
    for (let i = 0; i < n; i++) {
      const im = B.invMass[i]!;
      if (im > 0) {
        total += 1 / im;
        if (im > maxInvMass) maxInvMass = im;
      }
    }
    if (total * maxInvMass * (1 + 1e-9) <= SHOCK_LOAD_RATIO) {
      this.shockBlockCount = 0;
      return 0;
    }
    if (this.level.length < n) this.level = new Int32Array(Math.max(n, 2 * this.level.length)) as I32;
    const L = this.level;
    for (let i = 0; i < n; i++) L[i] = B.invMass[i] === 0 ? 0 : -1;
    // Which manifolds touch (or close this step), once: the search and the
    // sort below read it repeatedly.
    if (this.shockTouch.length < S.count) this.shockTouch = new Uint8Array(S.capacity);
    const touch = this.shockTouch;
    // Breadth-first search from the immovable bodies over the touching
    // blocks (edges in compressed rows: start[i] .. start[i + 1] in adjacent).
    if (this.shockStart.length < n + 1) this.shockStart = new Int32Array(Math.max(n + 1, 2 * this.shockStart.length)) as I32;
    const start = this.shockStart;
    for (let i = 0; i <= n; i++) start[i] = 0;
    let edges = 0;
    for (let i = 0; i < S.count; i += I[i * INT_STRIDE + I_SIZE]!) {
      const t = this.blockTouches(S, i) ? 1 : 0;
      touch[i] = t;
      if (t === 0) continue;
      start[I[i * INT_STRIDE + I_A]! + 1]!++;
      start[I[i * INT_STRIDE + I_B]! + 1]!++;
      edges += 2;
    }
    for (let i = 0; i < n; i++) start[i + 1] = start[i + 1]! + start[i]!;
    if (this.shockAdjacent.length < edges) this.shockAdjacent = new Int32Array(Math.max(edges, 2 * this.shockAdjacent.length)) as I32;
    if (this.shockQueue.length < n) this.shockQueue = new Int32Array(Math.max(n, 2 * this.shockQueue.length)) as I32;
    const adjacent = this.shockAdjacent, queue = this.shockQueue;
    // Fill with a moving cursor per body (queue doubles as the cursor array until the search).
    for (let i = 0; i < n; i++) queue[i] = start[i]!;
    for (let i = 0; i < S.count; i += I[i * INT_STRIDE + I_SIZE]!) {
      if (touch[i] === 0) continue;
      const a = I[i * INT_STRIDE + I_A]!, b = I[i * INT_STRIDE + I_B]!;
      adjacent[queue[a]!] = b; queue[a]!++;
      adjacent[queue[b]!] = a; queue[b]!++;
    }
    let tail = 0;
    for (let i = 0; i < n; i++) if (L[i] === 0) queue[tail++] = i;
    let maxLevel = 0;
    for (let head = 0; head < tail; head++) {
      const u = queue[head]!;
      const next = L[u]! + 1;
      for (let e = start[u]!; e < start[u + 1]!; e++) {
        const v = adjacent[e]!;
        if (L[v] !== -1) continue;
        L[v] = next;
        if (next > maxLevel) maxLevel = next;
        queue[tail++] = v;
      }
    }
    // Counting sort of the blocks that join two reached levels, by the upper one.
    if (this.shockBucket.length < maxLevel + 2) this.shockBucket = new Int32Array(2 * (maxLevel + 2)) as I32;
    const bucket = this.shockBucket;
    for (let k = 0; k <= maxLevel + 1; k++) bucket[k] = 0;
    let blocks = 0;
    for (let i = 0; i < S.count; i += I[i * INT_STRIDE + I_SIZE]!) {
      const la = L[I[i * INT_STRIDE + I_A]!]!, lb = L[I[i * INT_STRIDE + I_B]!]!;
      if (la < 0 || lb < 0 || la === lb || touch[i] === 0) continue;
      bucket[(la > lb ? la : lb) + 1]!++;
      blocks++;
    }
    for (let k = 1; k <= maxLevel + 1; k++) bucket[k] = bucket[k]! + bucket[k - 1]!;
    if (this.shockBlocks.length < blocks) this.shockBlocks = new Int32Array(Math.max(blocks, 2 * this.shockBlocks.length)) as I32;
    for (let i = 0; i < S.count; i += I[i * INT_STRIDE + I_SIZE]!) {
      const la = L[I[i * INT_STRIDE + I_A]!]!, lb = L[I[i * INT_STRIDE + I_B]!]!;
      if (la < 0 || lb < 0 || la === lb || touch[i] === 0) continue;
      const k = la > lb ? la : lb;
      this.shockBlocks[bucket[k]!] = i;
      bucket[k] = bucket[k]! + 1;
    }
    // Weight resting on each body: its supporters share each body's own mass
    // plus what rests on it, top level first.
    if (this.shockAbove.length < n) {
      this.shockAbove = new Float64Array(Math.max(n, 2 * this.shockAbove.length)) as F64;
      this.shockSupports = new Int32Array(Math.max(n, 2 * this.shockSupports.length)) as I32;
    }
    const above = this.shockAbove, supports = this.shockSupports;
    for (let i = 0; i < n; i++) { above[i] = 0; supports[i] = 0; }
    const list = this.shockBlocks;
    for (let k = 0; k < blocks; k++) {
      const i = list[k]!;
      const a = I[i * INT_STRIDE + I_A]!, b = I[i * INT_STRIDE + I_B]!;
      const up = L[a]! > L[b]! ? a : b;
      supports[up]!++;
    }
    for (let k = blocks - 1; k >= 0; k--) {
      const i = list[k]!;
      const a = I[i * INT_STRIDE + I_A]!, b = I[i * INT_STRIDE + I_B]!;
      const aUp = L[a]! > L[b]!;
      const up = aUp ? a : b, lo = aUp ? b : a;
      above[lo] = above[lo]! + (1 / B.invMass[up]! + above[up]!) / supports[up]!;
    }
    // Keep (in order) only the blocks under a load the iterations cannot
    // carry: more than SHOCK_LOAD_RATIO times the lighter side's own mass.
    let kept = 0;
    for (let k = 0; k < blocks; k++) {
      const i = list[k]!;
      const a = I[i * INT_STRIDE + I_A]!, b = I[i * INT_STRIDE + I_B]!;
      const aUp = L[a]! > L[b]!;
      const up = aUp ? a : b, lo = aUp ? b : a;
      const load = 1 / B.invMass[up]! + above[up]!;
      const imLo = B.invMass[lo]!;
      const heavy = imLo === 0 ? above[up]! * B.invMass[up]! > SHOCK_LOAD_RATIO : load * imLo > SHOCK_LOAD_RATIO;
      if (heavy) list[kept++] = i;
    }
    this.shockBlockCount = kept;
    return kept;
  }

  /** Touching now, or closing the gap within this step at the approach speed it started with. */
  private blockTouches(S: ContactSolver, first: number): boolean {
    const touchDistance = this.shockTouchDistance;
    const end = first + S.ints[first * INT_STRIDE + I_SIZE]!;
    const dt = this.shockDt;
    const R = S.rows;
    for (let i = first; i < end; i++) {
      const v = R[i * ROW_STRIDE + R_APPROACH]!;
      if (R[i * ROW_STRIDE + R_SEPARATION]! + (v < 0 ? v * dt : 0) <= touchDistance) return true;
    }
    return false;
  }

  /**
   * One bottom-up sweep over the blocks of buildShockOrder: the body on the
   * lower level is treated as immovable, and the upper body alone gets the
   * impulse that stops it approaching (no bias, nothing accumulated). Run
   * before the positions move, so a heavy body cannot crush a light one under
   * it however far the iterations are from convergence: the light body has
   * just been stopped by its own support. Momentum is not conserved by this
   * sweep (the lower body feels no reaction); the sweeps before it carry the
   * load.
   */
  solve(S: ContactSolver, B: SolverBodies, h: number, iterations: number): void {
    const L = this.level;
    const R = S.rows, I = S.ints;
    const inv = 1 / h;
    if (this.shockImpulse.length < S.count) {
      this.shockImpulse = new Float64Array(S.capacity) as F64;
      this.shockTarget = new Float64Array(S.capacity) as F64;
    }
    const acc = this.shockImpulse;
    for (let k = 0; k < this.shockBlockCount; k++) {
      const first = this.shockBlocks[k]!;
      const end = first + I[first * INT_STRIDE + I_SIZE]!;
      const ia = I[first * INT_STRIDE + I_A]!, ib = I[first * INT_STRIDE + I_B]!;
      const upperIsB = L[ib]! > L[ia]!;
      const u = upperIsB ? ib : ia;
      const im = B.invMass[u]!;
      const V = B.vel, ou = u * VELOCITY_STRIDE;
      // Targets of this pass: no approach (or close a speculative gap), but
      // the upper body's own point velocity towards its side may only rise
      // to zero, or stay where it is: a light lower body flung up into a
      // heavy one must not launch it (the pass gives the lower body no
      // reaction, so anything more would be energy from nowhere).
      const ol = (upperIsB ? ia : ib) * VELOCITY_STRIDE;
      for (let i = first; i < end; i++) {
        acc[i] = 0;
        currentSeparation(S, B, i);
        const sep = RESULT[0]!;
        const o = i * ROW_STRIDE;
        const cu = upperIsB ? o + R_CB : o + R_CA, cl = upperIsB ? o + R_CA : o + R_CB;
        // Point velocities along the normal oriented from the lower body to the upper one.
        const sign = upperIsB ? 1 : -1;
        const nx = R[o + R_N]!, ny = R[o + R_N + 1]!, nz = R[o + R_N + 2]!;
        const up = sign * (nx * V[ou]! + ny * V[ou + 1]! + nz * V[ou + 2]! + R[cu]! * V[ou + 3]! + R[cu + 1]! * V[ou + 4]! + R[cu + 2]! * V[ou + 5]!);
        const low = sign * (nx * V[ol]! + ny * V[ol + 1]! + nz * V[ol + 2]! + R[cl]! * V[ol + 3]! + R[cl + 1]! * V[ol + 4]! + R[cl + 2]! * V[ol + 5]!);
        const target = sep > 0 ? -sep * inv : 0;
        const cap = (up > 0 ? up : 0) - low;
        this.shockTarget[i] = target < cap ? target : cap;
      }
      // A small projected Gauss-Seidel of the upper body alone against the
      // immovable lower one, with accumulated impulses clamped ≥ 0, so points
      // can give back what an earlier point over-pushed (a single push per
      // point would spin the body, and stacks would topple).
      for (let it = 0; it < iterations; it++) {
        for (let i = first; i < end; i++) {
          const o = i * ROW_STRIDE;
          normalVelocity(S, B, i, ia, ib);
          const vn = RESULT[0]!;
          // One-sided effective mass 1 / (m⁻¹ + (r × n)ᵀ I⁻¹ (r × n)), from
          // the row's r × n and its K = I⁻¹(r × n) on the upper body.
          const c = upperIsB ? o + R_CB : o + R_CA, kv = upperIsB ? o + R_KB_N : o + R_KA_N;
          const kk = im + R[c]! * R[kv]! + R[c + 1]! * R[kv + 1]! + R[c + 2]! * R[kv + 2]!;
          if (!(kk > 0)) continue;
          const old = acc[i]!;
          let l = old + (this.shockTarget[i]! - vn) / kk;
          if (l < 0) l = 0;
          const dl = l - old;
          if (dl === 0) continue;
          acc[i] = l;
          // +dl n on B raises vn; on A the same rise needs −dl n.
          const sg = upperIsB ? dl : -dl;
          const sm = sg * im;
          V[ou] = V[ou]! + sm * R[o + R_N]!; V[ou + 1] = V[ou + 1]! + sm * R[o + R_N + 1]!; V[ou + 2] = V[ou + 2]! + sm * R[o + R_N + 2]!;
          V[ou + 3] = V[ou + 3]! + sg * R[kv]!; V[ou + 4] = V[ou + 4]! + sg * R[kv + 1]!; V[ou + 5] = V[ou + 5]! + sg * R[kv + 2]!;
        }
      }
    }
  }
}
