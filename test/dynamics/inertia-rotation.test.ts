// A body's inertia frame (BodyDesc.inertiaRotation): the world inverse
// inertia is (R Q) diag(1/I) (R Q)ᵀ wherever it is computed, a torque-free
// spin about a principal axis of the turned tensor keeps its angular momentum,
// and snapshots carry the frame. 60 Hz, no gravity, no damping.
import { describe, expect, it } from 'vitest';
import { Box, Sphere, World, type Quat, type RigidBody, type Vec3 } from '../../src/index';
import { SolverBodies } from '../../src/dynamics/solver-bodies';
import { seeded } from '../helpers/random';
import { rotationMatrix } from '../helpers/rotation';

const DT = 1 / 60;
type M3 = number[][];

const mul = (a: M3, b: M3): M3 => a.map((row) => [0, 1, 2].map((j) => row[0]! * b[0]![j]! + row[1]! * b[1]![j]! + row[2]! * b[2]![j]!));
const transpose = (a: M3): M3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => a[j]![i]!));
const apply = (a: M3, v: readonly number[]): number[] => a.map((row) => row[0]! * v[0]! + row[1]! * v[1]! + row[2]! * v[2]!);
/** P diag(d) Pᵀ. */
const turned = (P: M3, d: readonly number[]): M3 => mul(mul(P, [[d[0]!, 0, 0], [0, d[1]!, 0], [0, 0, d[2]!]]), transpose(P));
/** The world inertia tensor of a body with principal moments I along the axes of R·Q (computed here, not read from the body). */
const worldTensor = (r: Quat, Q: Quat, I: Vec3): M3 => turned(mul(rotationMatrix(r), rotationMatrix(Q)), [I.x, I.y, I.z]);
const vec = (v: Vec3): number[] => [v.x, v.y, v.z];
const norm = (v: readonly number[]): number => Math.hypot(v[0]!, v[1]!, v[2]!);

function normalised(q: Quat): Quat {
  const l = Math.hypot(q.x, q.y, q.z, q.w);
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
}

const MOMENTS = { x: 0.4, y: 1.1, z: 2.3 };
const FRAME = normalised({ x: 0.3, y: -0.5, z: 0.2, w: 0.8 });

function freeWorld(): World {
  return new World({ gravity: { x: 0, y: 0, z: 0 } });
}

function spinner(world: World, rotation: Quat, desc: { inertia: Vec3; inertiaRotation?: Quat }): RigidBody {
  return world.createBody({
    type: 'dynamic', shape: new Box({ x: 0.3, y: 0.2, z: 0.1 }), mass: 2, rotation,
    angularDamping: 0, linearDamping: 0, canSleep: false, ...desc,
  });
}

/** Largest |A − B| over the entries, relative to the largest entry of B. */
function matrixError(a: { m00: number; m01: number; m02: number; m10: number; m11: number; m12: number; m20: number; m21: number; m22: number }, B: M3): number {
  const A = [[a.m00, a.m01, a.m02], [a.m10, a.m11, a.m12], [a.m20, a.m21, a.m22]];
  let err = 0, scale = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { err = Math.max(err, Math.abs(A[i]![j]! - B[i]![j]!)); scale = Math.max(scale, Math.abs(B[i]![j]!)); }
  return err / scale;
}

describe('BodyDesc.inertiaRotation', () => {
  it('refuses bad input by name and leaves the world as it was', () => {
    const world = freeWorld();
    const shape = new Box({ x: 0.3, y: 0.2, z: 0.1 });
    const make = (extra: object) => () => world.createBody({ type: 'dynamic', shape, ...extra });
    expect(make({ inertiaRotation: { x: NaN, y: 0, z: 0, w: 1 } })).toThrow(/inertiaRotation\.x must be a finite number/);
    expect(make({ inertiaRotation: { x: 0, y: 0, z: Infinity, w: 1 } })).toThrow(/inertiaRotation\.z must be a finite number/);
    expect(make({ inertiaRotation: { x: 0, y: 0, z: 0, w: 0 } })).toThrow(/inertiaRotation must be a non-zero quaternion/);
    expect(make({ inertiaRotation: null })).toThrow(/inertiaRotation must be a \{ x, y, z, w \} object/);
    expect(() => world.createBody({ type: 'static', shape, inertiaRotation: FRAME })).toThrow(/inertiaRotation: only a dynamic body/);
    expect(() => world.createBody({ type: 'kinematic', shape, inertiaRotation: FRAME })).toThrow(/inertiaRotation: only a dynamic body/);
    expect(world.bodies.length).toBe(0);
    // Normalised on input; identity by default.
    const b = world.createBody({ type: 'dynamic', shape, inertiaRotation: { x: 0, y: 0, z: 0, w: 3 } });
    expect(b.inertiaRotation).toEqual({ x: 0, y: 0, z: 0, w: 1 });
    const c = world.createBody({ type: 'dynamic', shape, inertiaRotation: { x: 2 * FRAME.x, y: 2 * FRAME.y, z: 2 * FRAME.z, w: 2 * FRAME.w } });
    expect(Math.abs(c.inertiaRotation.x - FRAME.x)).toBeLessThan(1e-15);
    expect(Math.abs(c.inertiaRotation.w - FRAME.w)).toBeLessThan(1e-15);
    expect(world.createBody({ type: 'dynamic', shape }).inertiaRotation).toEqual({ x: 0, y: 0, z: 0, w: 1 });
  });

  it('gives the world inverse inertia (R Q) diag(1/I) (R Q)ᵀ at creation, after setRotation and after steps', () => {
    const rng = seeded(2031, 'inertia frame world tensor');
    const world = freeWorld();
    const r0 = rng.quat();
    const b = spinner(world, r0, { inertia: MOMENTS, inertiaRotation: FRAME });
    const inverseMoments = { x: 1 / MOMENTS.x, y: 1 / MOMENTS.y, z: 1 / MOMENTS.z };
    expect(matrixError(b.inverseInertiaWorld, worldTensor(b.rotation, FRAME, inverseMoments))).toBeLessThan(1e-12);
    b.setRotation(rng.quat());
    expect(matrixError(b.inverseInertiaWorld, worldTensor(b.rotation, FRAME, inverseMoments))).toBeLessThan(1e-12);
    b.setAngularVelocity({ x: 3, y: -2, z: 5 });
    for (let i = 0; i < 100; i++) world.step(DT);
    expect(matrixError(b.inverseInertiaWorld, worldTensor(b.rotation, FRAME, inverseMoments))).toBeLessThan(1e-12);
  });

  it('the solver store recomputes the turned world inertia through the frame (SolverBodies.refreshInertia)', () => {
    const world = freeWorld();
    const b = spinner(world, { x: 0, y: 0, z: 0, w: 1 }, { inertia: MOMENTS, inertiaRotation: FRAME });
    const B = new SolverBodies();
    const i = B.add(b);
    // Turn the slot by 1 rad about a slanted axis, well past its stale angle.
    const axis = [0.48, 0.6, 0.64];
    B.delta.fill(0);
    for (let k = 0; k < 3; k++) B.delta[3 + k] = 0.5 * axis[k]!;
    B.moveSlot(i);
    expect(B.refreshInertia()).toBe(1);
    const q = { x: B.qx[i]!, y: B.qy[i]!, z: B.qz[i]!, w: B.qw[i]! };
    const expected = worldTensor(q, FRAME, { x: 1 / MOMENTS.x, y: 1 / MOMENTS.y, z: 1 / MOMENTS.z });
    const got = { m00: B.ixx[i]!, m01: B.ixy[i]!, m02: B.ixz[i]!, m10: B.ixy[i]!, m11: B.iyy[i]!, m12: B.iyz[i]!, m20: B.ixz[i]!, m21: B.iyz[i]!, m22: B.izz[i]! };
    expect(matrixError(got, expected)).toBeLessThan(1e-12);
  });

  it('a torque-free spin about a principal axis of the turned tensor keeps its angular momentum (600 steps)', () => {
    const rng = seeded(2032, 'inertia frame spin');
    for (let k = 0; k < 3; k++) {
      const r0 = rng.quat();
      const lambda = [MOMENTS.x, MOMENTS.y, MOMENTS.z][k]!;
      // Principal axis k in the world: column k of R Q.
      const P = mul(rotationMatrix(r0), rotationMatrix(FRAME));
      const axis = [P[0]![k]!, P[1]![k]!, P[2]![k]!];
      const L0 = axis.map((a) => 4 * lambda * a);
      // The same tensor with the frame dropped: its diagonal in the body frame, the approximation the frame replaces.
      const bodyTensor = turned(rotationMatrix(FRAME), [MOMENTS.x, MOMENTS.y, MOMENTS.z]);
      const diagonal = { x: bodyTensor[0]![0]!, y: bodyTensor[1]![1]!, z: bodyTensor[2]![2]! };
      const drift = (desc: { inertia: Vec3; inertiaRotation?: Quat }): number => {
        const world = freeWorld();
        const b = spinner(world, r0, desc);
        b.applyAngularImpulse({ x: L0[0]!, y: L0[1]!, z: L0[2]! });
        let worst = 0;
        for (let i = 0; i < 600; i++) {
          world.step(DT);
          // L = I_world ω with the true tensor at the body's current rotation.
          const L = apply(worldTensor(b.rotation, FRAME, MOMENTS), vec(b.angularVelocity));
          worst = Math.max(worst, norm([L[0]! - L0[0]!, L[1]! - L0[1]!, L[2]! - L0[2]!]) / norm(L0));
        }
        return worst;
      };
      const exact = drift({ inertia: MOMENTS, inertiaRotation: FRAME });
      const approximated = drift({ inertia: diagonal });
      console.log(`axis ${k}: relative angular momentum drift ${exact.toExponential(2)} with the frame, ${approximated.toExponential(2)} with the diagonal`);
      expect(exact).toBeLessThan(1e-6);
      expect(approximated).toBeGreaterThan(1e-2);
    }
  });

  it('an identity frame steps bit for bit as no frame', () => {
    const run = (frame: Quat | undefined): number[] => {
      const world = new World();
      world.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
      const rng = seeded(2033, 'identity frame');
      const out: number[] = [];
      const bodies: RigidBody[] = [];
      for (let i = 0; i < 8; i++) {
        bodies.push(world.createBody({
          type: 'dynamic', shape: i % 2 ? new Sphere(0.3) : new Box({ x: 0.4, y: 0.2, z: 0.1 }), inertia: { x: 0.05, y: 0.1, z: 0.2 },
          position: { x: rng.range(-2, 2), y: 1 + 0.7 * i, z: rng.range(-2, 2) }, rotation: rng.quat(), angularVelocity: rng.vec3(-4, 4),
          ...(frame ? { inertiaRotation: frame } : {}),
        }));
      }
      for (let i = 0; i < 300; i++) world.step(DT);
      for (const b of bodies) out.push(...vec(b.position), b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w, ...vec(b.angularVelocity));
      return out;
    };
    const none = run(undefined);
    expect(run({ x: 0, y: 0, z: 0, w: 1 })).toEqual(none);
    // A real frame changes the outcome (the test above can tell them apart).
    expect(run(FRAME)).not.toEqual(none);
  });

  it('snapshots carry the frame: restore continues bit for bit and refuses a world whose body has another frame', () => {
    const build = (frame: Quat): { world: World; b: RigidBody } => {
      const world = freeWorld();
      const b = spinner(world, normalised({ x: 0.1, y: 0.2, z: 0.3, w: 0.9 }), { inertia: MOMENTS, inertiaRotation: frame });
      b.setAngularVelocity({ x: 1, y: 2, z: -3 });
      return { world, b };
    };
    const { world, b } = build(FRAME);
    for (let i = 0; i < 30; i++) world.step(DT);
    const snap = structuredClone(world.snapshot());
    for (let i = 0; i < 60; i++) world.step(DT);
    const end = [...vec(b.position), b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w, ...vec(b.angularVelocity)];
    const again = build(FRAME);
    again.world.restore(snap);
    for (let i = 0; i < 60; i++) again.world.step(DT);
    const b2 = again.b;
    expect([...vec(b2.position), b2.rotation.x, b2.rotation.y, b2.rotation.z, b2.rotation.w, ...vec(b2.angularVelocity)]).toEqual(end);
    const other = build(normalised({ x: 0.3, y: -0.5, z: 0.2, w: 0.7 }));
    const before = vec(other.b.angularVelocity);
    expect(() => other.world.restore(snap)).toThrow(/inertia rotation/);
    expect(vec(other.b.angularVelocity)).toEqual(before);
  });
});
