/**
 * Bad ragdoll descriptions are refused by name before the first body is
 * made: the error names the bone (or the option), and the world's snapshot
 * is the same before and after the call. The humanoid's bones, in order:
 * 0 pelvis, 1 spine, 2 chest, 3 head, 4 upperArmRight, 5 lowerArmRight,
 * 6 upperArmLeft, 7 lowerArmLeft, 8 upperLegRight, 9 lowerLegRight,
 * 10 upperLegLeft, 11 lowerLegLeft. No stepping (nothing physical is measured).
 */
import { describe, expect, it } from 'vitest';
import { Box, World, type Joint, type RigidBody } from '../../src/index';
import { createRagdoll, createRagdollFromDescription, humanoidDescription, type RagdollWorld } from '../../src/ragdoll/ragdoll';

const ROOT = { position: { x: 0, y: 2, z: 0 } };

/** A world with a floor and a ball that has moved, so that its snapshot is not the empty one. */
function world(): World {
  const w = new World();
  w.createBody({ type: 'static', shape: new Box({ x: 10, y: 0.5, z: 10 }), position: { x: 0, y: -0.5, z: 0 } });
  w.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 4, y: 1, z: 0 } });
  for (let i = 0; i < 5; i++) w.step(1 / 60);
  return w;
}

type Bones = ReturnType<typeof humanoidDescription>;
// Plain-JS mistakes are written through this: the type would refuse most of them.
const loose = (b: Bones, i: number): Record<string, any> => b[i] as unknown as Record<string, any>;

/** [what is wrong, how the description is spoiled, the error's message]. */
const SPOILED: [string, (b: Bones) => void, string | RegExp][] = [
  ['a misspelt parent', (b) => { b[5]!.parent = 'upperArmRigth'; }, "ragdoll bone 'lowerArmRight': names parent 'upperArmRigth', which is not listed before it"],
  ['no joint', (b) => { delete loose(b, 5).joint; }, "ragdoll bone 'lowerArmRight': needs a joint to its parent"],
  ['an unknown joint type', (b) => { loose(b, 5).joint = { type: 'weld', anchor: { x: 0, y: 0, z: 0 } }; }, "ragdoll bone 'lowerArmRight': unknown joint type 'weld' (the types are ball, fixed, hinge, coneTwist)"],
  ['density NaN', (b) => { b[6]!.density = NaN; }, "ragdoll bone 'upperArmLeft': density must be a finite number > 0 (got NaN)"],
  ['density −1', (b) => { b[6]!.density = -1; }, "ragdoll bone 'upperArmLeft': density must be a finite number > 0 (got -1)"],
  ['density 0', (b) => { b[11]!.density = 0; }, "ragdoll bone 'lowerLegLeft': density must be a finite number > 0 (got 0)"],
  ['a zero hinge axis', (b) => { loose(b, 5).joint.axis = { x: 0, y: 0, z: 0 }; }, "ragdoll bone 'lowerArmRight': axis must be non-zero"],
  ['hinge lower > upper', (b) => { loose(b, 11).joint.lowerAngle = 2; loose(b, 11).joint.upperAngle = 1; },
    "ragdoll bone 'lowerLegLeft': HingeJoint.lowerAngle (2) must be ≤ upperAngle (1); setLimits(lower, upper) moves both at once"],
  ['a NaN anchor', (b) => { loose(b, 5).joint.anchor = { x: NaN, y: 0, z: 0 }; }, "ragdoll bone 'lowerArmRight': joint.anchor.x must be a finite number (got NaN)"],
  ['no anchor', (b) => { delete loose(b, 4).joint.anchor; }, "ragdoll bone 'upperArmRight': joint.anchor must be a { x, y, z } object (got undefined)"],
  ['no hinge axis', (b) => { delete loose(b, 5).joint.axis; }, "ragdoll bone 'lowerArmRight': joint.axis must be a { x, y, z } object (got undefined)"],
  ['a NaN position', (b) => { b[5]!.position = { x: NaN, y: 0, z: 0 }; }, "ragdoll bone 'lowerArmRight': position.x must be a finite number (got NaN)"],
  ['a shape that is not a Shape', (b) => { loose(b, 5).shape = { kind: 0 }; }, /^ragdoll bone 'lowerArmRight': shape must be a footing Shape/],
  ['a swing limit beyond π', (b) => { loose(b, 1).joint.swingLimitY = 4; }, "ragdoll bone 'spine': ConeTwistJoint.swingLimitY must be in (0, π) (got 4)"],
  ['a duplicate name', (b) => { b[6]!.name = 'pelvis'; }, "ragdoll: bones[6] repeats the bone name 'pelvis' (names must be unique)"],
  ['a null bone', (b) => { (b as unknown as null[])[5] = null; }, 'ragdoll: bones[5] must be a bone description object (got null)'],
  ['its own parent', (b) => { b[4]!.parent = 'upperArmRight'; }, "ragdoll bone 'upperArmRight': names itself as its parent"],
  ['no parent field', (b) => { delete loose(b, 4).parent; }, "ragdoll bone 'upperArmRight': parent must be the name of a bone listed before it, or null for the root (got undefined)"],
  ['no name', (b) => { loose(b, 1).name = undefined; }, 'ragdoll: bones[1].name must be a non-empty string (got undefined)'],
  ['a null joint', (b) => { loose(b, 1).joint = null; }, "ragdoll bone 'spine': needs a joint to its parent"],
  ['a second root', (b) => { b[8]!.parent = null; }, "ragdoll bone 'upperLegRight': parent is null, but 'pelvis' is already the root (a ragdoll has one root; give this bone a parent)"],
  ['no bones', (b) => { b.length = 0; }, 'ragdoll: bones must list at least one bone (the root)'],
];

describe('createRagdollFromDescription refuses a bad description with nothing built', () => {
  for (const [what, spoil, message] of SPOILED) {
    it(`${what}: refused by name, the snapshot unchanged`, () => {
      const w = world();
      const before = w.snapshot();
      const bones = humanoidDescription(1);
      spoil(bones);
      expect(() => createRagdollFromDescription(w, bones, ROOT)).toThrow(message);
      expect(w.bodies.length).toBe(2);
      expect(w.joints.length).toBe(0);
      expect(w.snapshot()).toEqual(before);
      // The same world then takes the unspoilt description: 12 more bodies, 11 joints.
      const r = createRagdollFromDescription(w, humanoidDescription(1), ROOT);
      expect(r.bodies.length).toBe(12);
      expect(w.bodies.length).toBe(14);
      expect(w.joints.length).toBe(11);
    });
  }

  it('a joint constructor\'s error keeps its class and is the cause of the bone\'s', () => {
    const bones = humanoidDescription(1);
    loose(bones, 9).joint.upperAngle = 4;
    let error: unknown = null;
    try { createRagdollFromDescription(new World(), bones, ROOT); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe("ragdoll bone 'lowerLegRight': HingeJoint.upperAngle must be in [−π, π] or Infinity for no limit (got 4)");
    expect((error as Error).cause).toBeInstanceOf(RangeError);
    expect(((error as Error).cause as Error).message).toBe('HingeJoint.upperAngle must be in [−π, π] or Infinity for no limit (got 4)');
  });

  it('names a missing root transform, null options, bones that are not an array and a null world', () => {
    const w = world();
    const before = w.snapshot();
    const bones = humanoidDescription(1);
    expect(() => createRagdollFromDescription(w, bones, undefined as never)).toThrow('ragdoll: rootTransform must be an object { position, rotation? } (got undefined)');
    expect(() => createRagdollFromDescription(w, bones, ROOT, null as never)).toThrow('ragdoll: options must be an object (got null)');
    expect(() => createRagdollFromDescription(w, 42 as never, ROOT)).toThrow('ragdoll: bones must be an array of bone descriptions (got 42)');
    expect(() => createRagdollFromDescription(null as never, bones, ROOT)).toThrow('ragdoll: world must be a World (got null)');
    // Shared body options are named as the ragdoll's, not blamed on the first bone.
    expect(() => createRagdollFromDescription(w, bones, ROOT, { friction: NaN })).toThrow('ragdoll: friction must be a finite number ≥ 0 (got NaN)');
    expect(w.snapshot()).toEqual(before);
  });

  it('a world that refuses part-way gets back what was built before its error is rethrown', () => {
    const w = world();
    let joints = 0;
    // The world's own refusals come before the first body (a query's filter), so one is staged here: the 5th joint.
    const refusing: RagdollWorld = {
      createBody: (d) => w.createBody(d),
      removeBody: (b: RigidBody) => w.removeBody(b),
      addJoint: (j: Joint) => { if (++joints === 5) throw new Error('addJoint: refused for the test'); return w.addJoint(j); },
      removeJoint: (j: Joint) => w.removeJoint(j),
    };
    expect(() => createRagdollFromDescription(refusing, humanoidDescription(1), ROOT)).toThrow('addJoint: refused for the test');
    expect(w.bodies.length).toBe(2);
    expect(w.joints.length).toBe(0);
  });
});

describe('humanoidDescription and createRagdoll options', () => {
  it('scale must be a number; joints must be anatomical or ball (both refused with nothing built)', () => {
    const w = world();
    const before = w.snapshot();
    expect(() => createRagdoll(w, { position: { x: 0, y: 2, z: 0 }, scale: '2' as never })).toThrow(TypeError);
    expect(() => createRagdoll(w, { position: { x: 0, y: 2, z: 0 }, scale: '2' as never })).toThrow("ragdoll: scale must be a number (got string '2')");
    expect(() => createRagdoll(w, { position: { x: 0, y: 2, z: 0 }, joints: 'balls' as never })).toThrow("ragdoll: joints must be 'anatomical' or 'ball' (got 'balls')");
    expect(() => humanoidDescription(1, 'weird' as never)).toThrow("ragdoll: joints must be 'anatomical' or 'ball' (got 'weird')");
    expect(w.snapshot()).toEqual(before);
    // 'ball' still builds ball joints only.
    const r = createRagdoll(w, { position: { x: 0, y: 2, z: 0 }, joints: 'ball' });
    expect(r.joints.map((j) => j.constructor.name)).toEqual(Array.from({ length: 11 }, () => 'BallJoint'));
  });
});
