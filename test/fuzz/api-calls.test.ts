/**
 * Every public method of the scene's objects (read from the TypeScript types,
 * as api-writes.test.ts reads the fields) is called with one hostile argument
 * at a time, the others plain: NaN, ±Infinity, ±1e300, −1, numeric strings,
 * null, undefined for a required argument, vectors and quaternions with bad
 * components, a body of another world, a listener that is not a function.
 * Each call must end in one of two ways:
 *   - refused: an Error (never a bare TypeError from reading a property of
 *     undefined) whose message names the method or the argument, and the
 *     scene then moves exactly like one that never saw the call;
 *   - accepted: 20 frames later every number is finite and every rotation
 *     unit, and no frame throws.
 * 60 Hz.
 */
import { describe, expect, it } from 'vitest';
import { Box, World } from '../../src/index';
import {
  API_SEED, ALL_VALUES, FOREIGN_BODY, bench, buildScene, hostileValues, methods, randomFor, sample, show, tryHostile, type Bench, type BenchBox, type Method, type Param,
} from './api-surface';

const VALUES_PER_ARGUMENT = 2;


function plain(param: Param, b: Bench): unknown {
  switch (param.kind) {
    // Index-like arguments (a particle, a column) take 0, the rest a small length, time or speed.
    case 'number': return /^(a|b|i|j|k|index|particle|column|row)$/.test(param.name) ? 0 : 0.01;
    case 'boolean': return true;
    case 'union': return param.values[0];
    case 'vec3': return { x: 0.01, y: 0.02, z: -0.01 };
    case 'quat': return { x: 0, y: 0, z: 0, w: 1 };
    case 'body': return b.s.targets.get('RigidBody');
    case 'joint': return b.s.targets.get('HingeJoint');
    case 'function': return () => {};
    case 'object': return {};
    case 'other': return undefined;
  }
}


/**
 * The message names the method, one of its arguments (a plain argument may be
 * refused before the hostile one), or what the method sets or applies
 * (setRotation: 'rotation', applyImpulse: 'impulse').
 */
function names(message: string, method: Method): boolean {
  const stem = method.name.replace(/^(set|apply|add|get)/, '');
  const subject = stem.charAt(0).toLowerCase() + stem.slice(1);
  return message.includes(method.name) || method.params.some((p) => message.includes(p.name)) || (subject.length > 0 && message.includes(subject));
}

/** Calls `method` with argument `index` set to `value`, the others plain; returns what went wrong. */
function tryCall(box: BenchBox, label: string, method: Method, index: number, value: unknown): string[] {
  const args = (b: Bench): unknown[] => method.params.map((p, i) => (i === index ? value : plain(p, b)));
  const what = `${label}.${method.name}(${method.params.map((_, i) => (i === index ? show(value) : '·')).join(', ')})`;
  return tryHostile(box, what, (s) => {
    const target = s.targets.get(label) as Record<string, (...a: unknown[]) => unknown>;
    target[method.name]!(...args(box.b));
  }, (message) => names(message, method));
}

const LABELS = [...buildScene().targets.keys()];
const TYPE_OF = (label: string): string => label.replace(/ \(.*\)$/, '');
const METHODS = methods([...new Set(LABELS.map(TYPE_OF))]);

describe(`every public method, one hostile argument at a time (seed ${API_SEED}${ALL_VALUES ? ', all values' : `, ${VALUES_PER_ARGUMENT} per argument`})`, () => {
  it('the methods read from the types include the ones the issue names', () => {
    const all = LABELS.flatMap((l) => (METHODS.get(TYPE_OF(l)) ?? []).map((m) => `${TYPE_OF(l)}.${m.name}`));
    for (const m of ['World.step', 'World.off', 'World.restore', 'RigidBody.applyImpulse', 'RigidBody.setPosition', 'CharacterController.move', 'CharacterController.setHalfHeight',
      'Walker.setInput', 'ParticleSystem.addParticle', 'ParticleSystem.pinToWorld', 'ParticleSystem.unpin', 'HingeJoint.setLimits']) {
      expect(all).toContain(m);
    }
    const args = LABELS.reduce((n, l) => n + (METHODS.get(TYPE_OF(l)) ?? []).reduce((k, m) => k + m.params.length, 0), 0);
    console.log(`api-calls: seed ${API_SEED}, ${new Set(all).size} methods, ${args} arguments over ${LABELS.length} targets`);
  });

  for (const label of LABELS) {
    const list = METHODS.get(TYPE_OF(label)) ?? [];
    if (!list.some((m) => m.params.length > 0)) continue;
    it(`${label}: every argument refused with a name and nothing changed, or accepted and harmless`, () => {
      const random = randomFor(label);
      const box: BenchBox = { b: bench() };
      const failures: string[] = [];
      for (const method of list) {
        for (let i = 0; i < method.params.length; i++) {
          for (const value of sample(random, hostileValues(method.params[i]!), VALUES_PER_ARGUMENT)) failures.push(...tryCall(box, label, method, i, value));
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

// A world with nothing in it takes the same calls (no scene to hide behind).
describe('an empty world', () => {
  it('step, raycast and removeBody with hostile arguments throw named errors', () => {
    const w = new World();
    expect(() => w.step(NaN)).toThrow(/dt/);
    expect(() => w.removeBody(FOREIGN_BODY)).toThrow(/removeBody/);
    expect(() => w.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: NaN, z: 1 }) })).toThrow(/y/);
    expect(w.bodies.length).toBe(0);
  });
});
