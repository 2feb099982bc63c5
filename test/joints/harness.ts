/**
 * Test harness: adds joints to a World. Uses `world.addJoint` once the World
 * has it; until then it patches this one world instance's private `solve` with
 * the same stages plus the JointSolver calls (the integration contract), and
 * wakes jointed partners after the sleep update.
 */
import { World } from '../../src/index';
import type { Joint } from '../../src/joints/joint';
import { attachJoint } from '../../src/joints/joint';
import { JointSolver } from '../../src/joints/joint-solver';
import * as quat from '../../src/math/quat';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyWorld = any;

export function addJoint(world: World, joint: Joint): Joint {
  const w = world as AnyWorld;
  if (typeof w.addJoint === 'function') {
    w.addJoint(joint);
    return joint;
  }
  if (!w.__joints) patch(w);
  w.__joints.push(joint);
  attachJoint(joint);
  return joint;
}

export function jointsOf(world: World): Joint[] {
  const w = world as AnyWorld;
  return w.joints ?? w.jointList ?? w.__joints ?? [];
}

export const order = { jointsLast: true };
let JOINTS_LAST = true;
function patch(w: AnyWorld): void {
  JOINTS_LAST = order.jointsLast;
  w.__joints = [] as Joint[];
  const J = new JointSolver();
  w.__jointSolver = J;
  w.solve = function solve(this: AnyWorld, dt: number): void {
    const S = this.solver;
    const B = this.solverBodies;
    const C = this.contactSolver;
    B.clear();
    C.clear();
    for (let i = 0; i < this.bodyList.length; i++) {
      const b = this.bodyList[i];
      b.contactPointCount = 0;
      if (b.awake && !b.isStatic) B.add(b);
    }
    for (let i = 0; i < this.contactList.length; i++) {
      const c = this.contactList[i];
      if (c.isSensor || c.manifold.pointCount === 0) continue;
      const a = c.bodyA, b = c.bodyB;
      if (a.solverIndex < 0 && b.solverIndex < 0) continue;
      if (a.solverIndex < 0) B.add(a);
      if (b.solverIndex < 0) B.add(b);
      a.contactPointCount += c.manifold.pointCount;
      b.contactPointCount += c.manifold.pointCount;
    }
    const soft = S.positionCorrection === 'soft';
    const subSteps = soft ? S.subSteps : 1;
    const h = dt / subSteps;
    for (let i = 0; i < this.contactList.length; i++) {
      const c = this.contactList[i];
      c.totalNormalImpulse = 0;
      if (c.isSensor || c.manifold.pointCount === 0) continue;
      if (c.bodyA.solverIndex < 0 || c.bodyB.solverIndex < 0) continue;
      C.addContact(c, B, S, h, dt, this.gravity, true);
    }
    J.prepare(this.__joints, B, S, h, dt);
    for (let i = 0; i < B.count; i++) {
      const b = B.bodies[i];
      const pp = b.previousPosition;
      pp.x = b.position.x; pp.y = b.position.y; pp.z = b.position.z;
      quat.copy(b.previousRotation, b.rotation);
    }
    if (soft) {
      this.softness.set(Math.min(S.contactHertz, 0.25 / h), S.contactDampingRatio, h);
      for (let sub = 0; sub < subSteps; sub++) {
        this.integrateVelocities(h);
        if (S.warmStarting) { C.warmStart(B); }
        J.warmStart(B);
        if (JOINTS_LAST) {
          C.solveVelocities(B, S, h, 2, this.softness, (sub & 1) === 1, sub);
          J.solveVelocities(B, h, true);
        } else {
          J.solveVelocities(B, h, true);
          C.solveVelocities(B, S, h, 2, this.softness, (sub & 1) === 1, sub);
        }
        this.integratePositions(h);
        if (JOINTS_LAST) {
          C.solveVelocities(B, S, h, 3, this.softness, (sub & 1) === 0, sub + 2);
          J.solveVelocities(B, h, false);
        } else {
          J.solveVelocities(B, h, false);
          C.solveVelocities(B, S, h, 3, this.softness, (sub & 1) === 0, sub + 2);
        }
      }
      C.applyRestitution(B, S.restitutionThreshold);
    } else {
      this.integrateVelocities(h);
      if (S.warmStarting) C.warmStart(B);
      J.warmStart(B);
      const mode = S.positionCorrection === 'baumgarte' ? 1 : 0;
      for (let it = 0; it < S.velocityIterations; it++) {
        J.solveVelocities(B, h, mode === 1);
        C.solveVelocities(B, S, h, mode, this.softness, (it & 1) === 1, it);
      }
      C.applyRestitution(B, S.restitutionThreshold);
      this.integratePositions(h);
      if (S.positionCorrection === 'ngs') {
        for (let it = 0; it < S.positionIterations; it++) {
          const e = Math.max(J.solvePositions(B), C.solvePositions(B, S));
          if (e <= S.linearSlop * 1.5) break;
        }
      }
    }
    C.storeImpulses();
    J.storeImpulses();
    this.writeBack(dt);
  };
  const updateSleep = w.updateSleep;
  w.updateSleep = function (this: AnyWorld, dt: number): void {
    updateSleep.call(this, dt);
    // Jointed bodies share an island (what World.updateSleep does once wired):
    // if any body of a joint-connected group is awake, the group stays awake;
    // the sleep timers are kept so the whole group falls asleep together.
    const joints = this.__joints as Joint[];
    const parent = new Map<unknown, unknown>();
    const find = (x: unknown): unknown => { while (parent.has(x) && parent.get(x) !== x) x = parent.get(x); return x; };
    for (const j of joints) {
      if (j.broken || !j.bodyA.isDynamic || !j.bodyB.isDynamic) continue;
      if (!parent.has(j.bodyA)) parent.set(j.bodyA, j.bodyA);
      if (!parent.has(j.bodyB)) parent.set(j.bodyB, j.bodyB);
      parent.set(find(j.bodyA), find(j.bodyB));
    }
    const awakeRoot = new Set<unknown>();
    for (const b of parent.keys()) if ((b as { awake: boolean }).awake) awakeRoot.add(find(b));
    for (const b of parent.keys()) {
      const body = b as { awake: boolean; sleepTime: number };
      if (!body.awake && awakeRoot.has(find(b))) {
        const t = body.sleepTime;
        this.wakeBody(body);
        body.sleepTime = t;
      }
    }
  };
}

import type { RagdollWorld } from '../../src/ragdoll/ragdoll';

/** The World as the ragdoll sees it (a shim until World has addJoint). */
export function jointWorld(world: World): RagdollWorld {
  const w = world as AnyWorld;
  if (typeof w.addJoint === 'function') return w as RagdollWorld;
  return {
    createBody: (d) => world.createBody(d),
    removeBody: (b) => world.removeBody(b),
    addJoint: (j) => addJoint(world, j),
    removeJoint: (j) => {
      const list = w.__joints as Joint[];
      const i = list.indexOf(j);
      if (i >= 0) list.splice(i, 1);
    },
  };
}
