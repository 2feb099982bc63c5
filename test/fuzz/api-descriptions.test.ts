/**
 * Everything that adds to a world from a description — createBody, each
 * joint with addJoint, a character, a walker, cloth, rope, a particle body,
 * a ragdoll, and a new World — gets one hostile option at a time (the
 * option list read from the description's type, as api-writes.test.ts reads
 * fields), the rest a plain description that works. Each call must end in
 * one of two ways:
 *   - refused: an Error (never the JavaScript engine's own "Cannot read
 *     properties of undefined") naming the option or the call, with nothing
 *     added (same bodies, joints and steppers) and the scene then moving
 *     exactly like the reference;
 *   - accepted: 20 sound frames.
 * 60 Hz.
 */
import { describe, expect, it } from 'vitest';
import {
  BallJoint, ConeTwistJoint, DistanceJoint, FixedJoint, HingeJoint, SixDofJoint, SliderJoint, Sphere, World, createCloth, createParticleBody, createRagdoll, createRope,
  type RigidBody,
} from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { API_SEED, ALL_VALUES, UNCHECKED, bench, descFields, hostileValues, randomFor, sample, show, tryHostile, type BenchBox, type Param, type Scene } from './api-surface';

type Desc = Record<string, unknown>;

interface Factory {
  /** The call, as errors may name it. */
  readonly name: string;
  /** The description type whose options are tried. */
  readonly desc: string;
  plain(s: Scene): Desc;
  make(s: Scene, desc: Desc): void;
}

const body = (s: Scene, label: string): RigidBody => s.targets.get(label) as RigidBody;
const jointDesc = (s: Scene): Desc => ({ bodyA: body(s, 'RigidBody'), bodyB: body(s, 'RigidBody (ball)'), anchor: { x: 1, y: 1.5, z: 0 } });

const FACTORIES: readonly Factory[] = [
  { name: 'createBody', desc: 'BodyDesc', plain: () => ({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 3, y: 3, z: -6 } }), make: (s, d) => { s.world.createBody(d as never); } },
  { name: 'BallJoint', desc: 'BallJointDesc', plain: jointDesc, make: (s, d) => { s.world.addJoint(new BallJoint(d as never)); } },
  { name: 'HingeJoint', desc: 'HingeJointDesc', plain: (s) => ({ ...jointDesc(s), axis: { x: 0, y: 1, z: 0 } }), make: (s, d) => { s.world.addJoint(new HingeJoint(d as never)); } },
  { name: 'SliderJoint', desc: 'SliderJointDesc', plain: (s) => ({ ...jointDesc(s), axis: { x: 1, y: 0, z: 0 } }), make: (s, d) => { s.world.addJoint(new SliderJoint(d as never)); } },
  { name: 'SixDofJoint', desc: 'SixDofJointDesc', plain: jointDesc, make: (s, d) => { s.world.addJoint(new SixDofJoint(d as never)); } },
  { name: 'ConeTwistJoint', desc: 'ConeTwistJointDesc', plain: (s) => ({ ...jointDesc(s), twistAxis: { x: 1, y: 0, z: 0 } }), make: (s, d) => { s.world.addJoint(new ConeTwistJoint(d as never)); } },
  { name: 'FixedJoint', desc: 'FixedJointDesc', plain: jointDesc, make: (s, d) => { s.world.addJoint(new FixedJoint(d as never)); } },
  { name: 'DistanceJoint', desc: 'DistanceJointDesc', plain: (s) => ({ bodyA: body(s, 'RigidBody'), bodyB: body(s, 'RigidBody (ball)') }), make: (s, d) => { s.world.addJoint(new DistanceJoint(d as never)); } },
  { name: 'CharacterController', desc: 'CharacterControllerOptions', plain: () => ({ position: { x: -3, y: 1.2, z: 8 } }), make: (s, d) => { new CharacterController(s.world, d as never); } },
  { name: 'Walker', desc: 'WalkerSettings', plain: () => ({}), make: (s, d) => { new Walker(s.controller, d as never).update(1 / 60); } },
  { name: 'createCloth', desc: 'ClothOptions', plain: () => ({ width: 1, height: 1, segments: 3, position: { x: -10, y: 3, z: -4 } }), make: (s, d) => { createCloth(s.world, d as never); } },
  { name: 'createRope', desc: 'RopeOptions', plain: () => ({ from: { x: -10, y: 4, z: 6 }, to: { x: -9, y: 4, z: 6 }, segments: 4 }), make: (s, d) => { createRope(s.world, d as never); } },
  { name: 'createParticleBody', desc: 'ParticleBodyOptions', plain: () => ({ position: { x: 5, y: 1, z: -5 } }), make: (s, d) => { createParticleBody(s.world, d as never); } },
  { name: 'createRagdoll', desc: 'RagdollOptions', plain: () => ({ position: { x: 6, y: 2, z: -6 } }), make: (s, d) => { createRagdoll(s.world, d as never); } },
];

/** What a refused call must not have added. */
function counts(s: Scene): string {
  return `${s.world.bodies.length} bodies, ${s.world.joints.length} joints, ${(s.world as unknown as { steppers: unknown[] }).steppers.length} steppers`;
}

function names(message: string, factory: Factory, option: string): boolean {
  return message.includes(option) || message.includes(factory.name) || message.includes(factory.desc);
}

function tryOption(box: BenchBox, f: Factory, option: Param, value: unknown): string[] {
  const what = `${f.name}({ …, ${option.name}: ${show(value)} })`;
  return tryHostile(box, what, (s) => f.make(s, { ...f.plain(s), [option.name]: value }), (message) => names(message, f, option.name), counts);
}

const VALUES_PER_OPTION = 2;

describe(`every option of every description, one hostile value at a time (seed ${API_SEED}${ALL_VALUES ? ', all values' : `, ${VALUES_PER_OPTION} per option`})`, () => {
  for (const f of FACTORIES) {
    const options = descFields(f.desc);
    it(`${f.name} (${options.length} options of ${f.desc}): refused by name with nothing added, or accepted and harmless`, () => {
      expect(options.length).toBeGreaterThan(0);
      const random = randomFor(f.name);
      const box: BenchBox = { b: bench() };
      // The plain description itself works.
      const s = box.b.s;
      expect(() => f.make(s, f.plain(s))).not.toThrow();
      box.b = bench();
      const failures: string[] = [];
      for (const option of options) for (const value of sample(random, hostileValues(option), VALUES_PER_OPTION)) failures.push(...tryOption(box, f, option, value));
      expect(failures).toEqual([]);
    });
  }

  it('new World(options): refused by name, or a world that steps a falling ball soundly', () => {
    const failures: string[] = [];
    for (const option of descFields('WorldOptions')) {
      for (const value of hostileValues(option)) {
        const what = `new World({ ${option.name}: ${show(value)} })`;
        let w: World;
        try {
          w = new World({ [option.name]: value } as never);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          if (!(e instanceof Error) || UNCHECKED.test(message) || !message.includes(option.name)) failures.push(`${what}: ${String(e)}`);
          continue;
        }
        const ball = w.createBody({ type: 'dynamic', shape: new Sphere(0.5), position: { x: 0, y: 5, z: 0 } });
        try {
          for (let i = 0; i < 20; i++) w.step(1 / 60);
        } catch (e) {
          failures.push(`${what}: accepted, then step threw ${String(e)}`);
          continue;
        }
        if (![ball.position.x, ball.position.y, ball.position.z].every(Number.isFinite)) failures.push(`${what}: accepted, then the ball is at ${JSON.stringify(ball.position)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
