/**
 * Islands and sleep. An island is a set of dynamic bodies linked by touching
 * contacts or joints (static and kinematic bodies do not join islands); it
 * sleeps when every body in it stayed below the sleep thresholds for
 * `timeToSleep`. A sleeping island is a circular list through
 * RigidBody.islandNext, so waking one body wakes the whole island.
 */
import type { Contact } from '../dynamics/contact';
import type { RigidBody } from '../dynamics/body';
import type { SolverBodies } from '../dynamics/solver-bodies';
import type { Vec3 } from '../math/vec3';
import type { Joint } from '../joints/joint';
import type { SleepSettings } from './settings';

/** Sets every body of `body`'s sleeping island awake; `tell` learns of each one (the contact manager's activity summary). */
export function wakeIsland(body: RigidBody, tell: { markAwake(b: RigidBody): void }): void {
  if (body.awake) return;
  let b: RigidBody | null = body;
  do {
    const next: RigidBody | null = b!.islandNext;
    b!.awake = true;
    b!.sleepTime = 0;
    b!.islandNext = null;
    tell.markAwake(b!);
    b = next;
  } while (b !== null && b !== body);
  body.awake = true;
}

/** Union-find over the solver slots, rebuilt each step. */
export class Islands {
  private parent = new Int32Array(64);
  private minSleep = new Float64Array(64);
  /** Islands found by the last update (World.counters); 0 while sleeping is off. */
  count = 0;

  /**
   * Advances the sleep timers of the awake bodies by dt and puts to sleep
   * every island whose bodies have all been still for timeToSleep.
   */
  update(dt: number, B: SolverBodies, sl: SleepSettings, contacts: readonly Contact[], joints: readonly Joint[]): void {
    const n = B.count;
    if (!sl.enabled) {
      // No islands to build: only the timers (read by the kinematic rule and
      // by a later switch back on) restart.
      for (let i = 0; i < n; i++) {
        const b = B.bodies[i]!;
        if (!b.isStatic && b.awake) b.sleepTime = 0;
      }
      this.count = 0;
      return;
    }
    if (this.parent.length < n) {
      this.parent = new Int32Array(n * 2);
      this.minSleep = new Float64Array(n * 2);
    }
    const parent = this.parent;
    const minSleep = this.minSleep;
    const lin2 = sl.linearThreshold * sl.linearThreshold;
    const ang2 = sl.angularThreshold * sl.angularThreshold;
    for (let i = 0; i < n; i++) {
      parent[i] = i;
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const v = b.linearVelocity, w = b.angularVelocity;
      const still = v.x * v.x + v.y * v.y + v.z * v.z <= lin2 && w.x * w.x + w.y * w.y + w.z * w.z <= ang2;
      b.sleepTime = !b.canSleep || !still ? 0 : b.sleepTime + dt;
    }
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i]!;
      if (!c.touching || c.isSensor) continue;
      const a = c.bodyA!, b = c.bodyB!;
      if (a.solverIndex < 0 || b.solverIndex < 0) continue;
      if (a.isDynamic && b.isDynamic) {
        union(parent, a.solverIndex, b.solverIndex);
      } else if (a.isKinematic && b.isDynamic) {
        if (a.sleepTime === 0) b.sleepTime = 0; // a moving platform keeps its riders awake
      } else if (b.isKinematic && a.isDynamic) {
        if (b.sleepTime === 0) a.sleepTime = 0;
      }
    }
    for (let i = 0; i < joints.length; i++) {
      const j = joints[i]!;
      if (j.broken) continue;
      const a = j.bodyA, b = j.bodyB;
      if (a.isDynamic && b.isDynamic && a.solverIndex >= 0 && b.solverIndex >= 0 && a.solverIndex < n && b.solverIndex < n) union(parent, a.solverIndex, b.solverIndex);
    }
    for (let i = 0; i < n; i++) minSleep[i] = Infinity;
    let islands = 0;
    for (let i = 0; i < n; i++) {
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const r = find(parent, i);
      if (r === i) islands++;
      if (b.sleepTime < minSleep[r]!) minSleep[r] = b.sleepTime;
    }
    this.count = islands;
    // Put islands to sleep; link each one into a circular list.
    for (let i = 0; i < n; i++) {
      const b = B.bodies[i]!;
      if (b.isStatic || !b.awake) continue;
      const r = find(parent, i);
      if (minSleep[r]! < sl.timeToSleep) continue;
      const head = B.bodies[r]!;
      b.awake = false;
      const v = b.linearVelocity as Vec3, w = b.angularVelocity as Vec3;
      v.x = 0; v.y = 0; v.z = 0; w.x = 0; w.y = 0; w.z = 0;
      if (b === head) {
        if (b.islandNext === null) b.islandNext = b;
      } else {
        // insert after head
        if (head.islandNext === null) head.islandNext = head;
        b.islandNext = head.islandNext;
        head.islandNext = b;
      }
    }
  }
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    const p = parent[i]!;
    parent[i] = parent[p]!;
    i = p;
  }
  return i;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra === rb) return;
  // Smaller slot becomes the root: deterministic.
  if (ra < rb) parent[rb] = ra;
  else parent[ra] = rb;
}

