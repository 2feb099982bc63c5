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
import { Random } from '../helpers/random';
import { CHECK_FRAMES, FOREIGN_BODY, UNCHECKED, bench, brokenState, buildScene, frame, hostileValues, methods, show, state, type Bench, type Method, type Param } from './api-surface';

const ALL = process.env.FOOTING_API_FUZZ === 'all';
const SEED = Number(process.env.FOOTING_API_SEED ?? 20261126);
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

/** Calls `method` with argument `index` set to `value`; returns what went wrong. Rebuilds the bench when the scene may have changed shape. */
function tryCall(box: { b: Bench }, label: string, method: Method, index: number, value: unknown): string[] {
  const failures: string[] = [];
  let b = box.b;
  try { b.reset(); } catch { b = box.b = bench(); }
  const target = b.s.targets.get(label) as Record<string, (...args: unknown[]) => unknown>;
  const args = method.params.map((p, i) => (i === index ? value : plain(p, b)));
  const what = `${label}.${method.name}(${args.map((a, i) => (i === index ? show(a) : '·')).join(', ')})`;
  let refused = false;
  try {
    target[method.name]!(...args);
  } catch (e) {
    refused = true;
    const message = e instanceof Error ? e.message : String(e);
    if (!(e instanceof Error)) failures.push(`${what}: threw a non-Error ${String(e)}`);
    else if (UNCHECKED.test(message)) failures.push(`${what}: unchecked, threw ${e.name}: ${message}`);
    else if (!names(message, method)) failures.push(`${what}: refused without naming ${method.name} or its arguments: ${message}`);
  }
  if (refused) {
    for (let i = 0; i < CHECK_FRAMES; i++) {
      try { frame(b.s); } catch (e) { failures.push(`${what}: refused, then frame ${i} threw ${String(e)}`); break; }
      if (JSON.stringify(state(b.s)) !== JSON.stringify(b.reference[i])) { failures.push(`${what}: refused but the scene diverged at frame ${i}`); break; }
    }
  } else {
    for (let i = 0; i < CHECK_FRAMES; i++) {
      try { frame(b.s); } catch (e) { failures.push(`${what}: accepted, then frame ${i} threw ${String(e)}`); break; }
      const broken = brokenState(b.s);
      if (broken) { failures.push(`${what}: accepted, then at frame ${i} ${broken}`); break; }
    }
    // The call may have added or removed bodies, joints or steppers.
    box.b = bench();
  }
  return failures;
}

const LABELS = [...buildScene().targets.keys()];
const TYPE_OF = (label: string): string => label.replace(/ \(.*\)$/, '');
const METHODS = methods([...new Set(LABELS.map(TYPE_OF))]);

function valuesFor(random: Random, param: Param): unknown[] {
  const all = hostileValues(param);
  if (ALL || all.length <= VALUES_PER_ARGUMENT) return all;
  const picked: unknown[] = [];
  while (picked.length < VALUES_PER_ARGUMENT) {
    const v = all[random.int(0, all.length)];
    if (!picked.some((p) => Object.is(p, v))) picked.push(v);
  }
  return picked;
}

describe(`every public method, one hostile argument at a time (seed ${SEED}${ALL ? ', all values' : `, ${VALUES_PER_ARGUMENT} per argument`})`, () => {
  it('the methods read from the types include the ones the issue names', () => {
    const all = LABELS.flatMap((l) => (METHODS.get(TYPE_OF(l)) ?? []).map((m) => `${TYPE_OF(l)}.${m.name}`));
    for (const m of ['World.step', 'World.off', 'World.restore', 'RigidBody.applyImpulse', 'RigidBody.setPosition', 'CharacterController.move', 'CharacterController.setHalfHeight',
      'Walker.setInput', 'ParticleSystem.addParticle', 'ParticleSystem.pinToWorld', 'ParticleSystem.unpin', 'HingeJoint.setLimits']) {
      expect(all).toContain(m);
    }
    const args = LABELS.reduce((n, l) => n + (METHODS.get(TYPE_OF(l)) ?? []).reduce((k, m) => k + m.params.length, 0), 0);
    console.log(`api-calls: seed ${SEED}, ${new Set(all).size} methods, ${args} arguments over ${LABELS.length} targets`);
  });

  for (const label of LABELS) {
    const list = METHODS.get(TYPE_OF(label)) ?? [];
    if (!list.some((m) => m.params.length > 0)) continue;
    it(`${label}: every argument refused with a name and nothing changed, or accepted and harmless`, () => {
      const random = new Random(SEED ^ [...label].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 11));
      const box = { b: bench() };
      const failures: string[] = [];
      for (const method of list) {
        for (let i = 0; i < method.params.length; i++) {
          for (const value of valuesFor(random, method.params[i]!)) failures.push(...tryCall(box, label, method, i, value));
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
