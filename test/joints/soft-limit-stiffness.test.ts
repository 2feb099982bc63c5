// A soft limit is a spring of stiffness k = m ω², m the row's effective
// mass. That mass changes with the lever arms as the bodies turn; a
// stiffness that followed it would not be a potential, and a limit engaged
// at a small mass and stretched gave back far more than the stretch took
// (fuzz seed 2232: engaged at 0.035 kg, 4.4 kg thirty metres later, 127
// times the energy). The limit keeps the stiffness it engaged with until it
// lets go (AxisRow.springMass).
import { describe, expect, it } from 'vitest';
import { Box, Capsule, SixDofJoint, SnapshotError, World, type RigidBody } from '../../src/index';
import { SolverBodies, VELOCITY_STRIDE } from '../../src/dynamics/solver-bodies';
import { JointStepContext } from '../../src/joints/rows';

const HERTZ = 5;
const H = 1e-4; // a short (sub)step: the implicit spring's impulse is then k·h·C within 1 %

function setup() {
  const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
  const a = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 0, z: 0 } });
  // A thin capsule (axis y) whose anchor sticks out 1 m sideways: pulled along y, the row turns it about its
  // own axis (tiny inertia, tiny effective mass); turned a quarter about x, the same pull turns it across (a large one).
  const b = world.createBody({ type: 'dynamic', shape: new Capsule(0.03, 1.3), mass: 5, position: { x: -1, y: 0, z: 0 } });
  const joint = new SixDofJoint({ bodyA: a, bodyB: b, anchor: { x: 0, y: 0, z: 0 }, axis: { x: 0, y: 0, z: 1 },
    linearX: { mode: 'limited', min: -0.05, max: 0.05, limitHertz: HERTZ }, linearY: { mode: 'free' }, linearZ: { mode: 'free' },
    angularX: { mode: 'free' }, angularY: { mode: 'free' }, angularZ: { mode: 'free' } });
  const B = new SolverBodies();
  const ia = B.addFixed(a as RigidBody), ib = B.add(b as RigidBody);
  joint.slotA = ia; joint.slotB = ib;
  const ctx = new JointStepContext();
  ctx.h = H; ctx.invH = 1 / H;
  ctx.setBias(true);
  joint.prepare(B, ctx);
  return { B, ib, joint, ctx };
}

/** Moves slot s by (dx, dy, dz) and turns it by `angle` about x. */
function move(B: SolverBodies, s: number, dz: number, angle: number): void {
  B.delta.fill(0);
  B.delta[2] = dz;
  B.delta[3] = Math.tan(angle / 2);
  B.moveSlot(s);
  B.refreshInertia();
}

/** The spring's force per metre of stretch from one solve at rest (no damping acts), and the row's effective mass. */
function stiffness(s: ReturnType<typeof setup>): { k: number; mass: number } {
  const { B, ib, joint, ctx } = s;
  B.vel.fill(0, ib * VELOCITY_STRIDE, ib * VELOCITY_STRIDE + 6);
  joint.resetImpulses();
  joint.solveVelocity(B, ctx);
  const row = joint.lower[0]!;
  return { k: row.impulse / (H * -row.c), mass: row.mass };
}

describe('soft limit stiffness', () => {
  it('keeps the stiffness it engaged with while the effective mass changes, and takes it anew after letting go', () => {
    const s = setup();
    const omega2 = (2 * Math.PI * HERTZ) ** 2;
    // Stretched 0.1 m past the lower limit: engages with the capsule's own-axis turn.
    move(s.B, s.ib, -0.15, 0);
    const first = stiffness(s);
    // Turned a quarter about x (the anchor's stretch changes little): the same row now turns it across its axis.
    move(s.B, s.ib, 0, Math.PI / 2);
    const turned = stiffness(s);
    console.log(`[soft limit] engaged at ${first.mass.toFixed(4)} kg: k ${first.k.toFixed(2)} N/m; turned, mass ${turned.mass.toFixed(4)} kg: k ${turned.k.toFixed(2)} N/m`);
    expect(turned.mass / first.mass).toBeGreaterThan(20);
    expect(Math.abs(first.k / (first.mass * omega2) - 1)).toBeLessThan(0.01);
    expect(Math.abs(turned.k / first.k - 1)).toBeLessThan(0.01);
    // Back inside the limit it lets go; engaged again it takes the stiffness of the mass it has now.
    move(s.B, s.ib, 0.3, 0);
    stiffness(s);
    expect(s.joint.lower[0]!.springMass).toBe(0);
    move(s.B, s.ib, -0.3, 0);
    const again = stiffness(s);
    expect(again.mass / first.mass).toBeGreaterThan(20);
    expect(Math.abs(again.k / (again.mass * omega2) - 1)).toBeLessThan(0.01);
  });

  it('a snapshot whose engaged mass is negative or infinite is refused, and the world is left as it was', () => {
    const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const a = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 0.1, z: 0.1 }), position: { x: 0, y: 0, z: 0 } });
    const b = world.createBody({ type: 'dynamic', shape: new Capsule(0.03, 1.3), mass: 5, position: { x: -1, y: 0, z: 0 } });
    const joint = world.addJoint(new SixDofJoint({ bodyA: a, bodyB: b, anchor: { x: 0, y: 0, z: 0 }, axis: { x: 0, y: 0, z: 1 },
      linearX: { mode: 'limited', min: -0.05, max: 0.05, limitHertz: HERTZ }, linearY: { mode: 'free' }, linearZ: { mode: 'free' },
      angularX: { mode: 'free' }, angularY: { mode: 'free' }, angularZ: { mode: 'free' } }));
    // A value no other field has, to find the engaged mass in the snapshot's joint numbers.
    joint.lower[0]!.springMass = 0.123456789;
    const snap = world.snapshot();
    const at = snap.joints.indexOf(0.123456789);
    expect(at).toBeGreaterThanOrEqual(0);
    for (const bad of [-1, Infinity]) {
      const copy = { ...snap, joints: snap.joints.slice() };
      copy.joints[at] = bad;
      expect(() => world.restore(copy)).toThrow(SnapshotError);
      expect(joint.lower[0]!.springMass).toBe(0.123456789);
    }
    world.restore(snap);
    expect(joint.lower[0]!.springMass).toBe(0.123456789);
  });
});
