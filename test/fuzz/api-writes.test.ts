/**
 * Every public field that can be written after creation, found by reading the
 * published types (not a hand-kept list), is written with hostile values:
 * NaN, ±Infinity, ±1e300, −1, 0, 1e-300, wrong types, unknown strings, null.
 * Each write must end in one of three ways:
 *   - refused at the write: an Error naming the field, the field unchanged,
 *     and the scene then moves exactly like one that never saw it;
 *   - refused at the next frame (a live settings object): an Error naming the
 *     field before anything moves; with the old value put back, the scene
 *     moves exactly like the reference;
 *   - accepted: the field reads back a valid value and 20 frames later every
 *     number is finite and every rotation unit.
 * The scene (api-surface.ts) holds a body of each shape, a joint of each
 * kind, cloth, rope, a particle body and a walking character. 60 Hz.
 */
import { describe, expect, it } from 'vitest';
import { API_SEED, ALL_VALUES, CHECK_FRAMES, DT, bench, randomFor, sample, brokenState, buildScene, characterState, frame, hostile, show, state, surface, type Bench, type Category, type Leaf } from './api-surface';

/** Fields documented to take ±Infinity as "no limit" (or "unbreakable"). */
const INFINITE_SENTINELS = new Set(['maxTurnPerStep', 'lowerAngle', 'upperAngle', 'breakImpulse', 'maxLength', 'lowerLimit', 'upperLimit']);

function read(target: object, path: readonly string[]): unknown {
  let o: unknown = target;
  for (const k of path) o = (o as Record<string, unknown>)[k];
  return o;
}

function write(target: object, path: readonly string[], value: unknown): void {
  let o = target as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[path[path.length - 1]!] = value;
}

/** A value object (all numbers) is compared by value, an engine object (a body) by identity. */
function copyOf(v: unknown): unknown {
  return v !== null && typeof v === 'object' && Object.values(v).every((x) => typeof x === 'number') ? JSON.stringify(v) : v;
}

function restoreValue(original: unknown, copy: unknown): unknown {
  return typeof copy === 'string' && original !== null && typeof original === 'object' ? JSON.parse(copy) : original;
}

function validReadBack(v: unknown, category: Category): boolean {
  switch (category.kind) {
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'boolean': return typeof v === 'boolean';
    case 'union': return typeof v === 'string' && category.values.includes(v);
    case 'object':
      if (v === null) return category.nullable;
      if (typeof v !== 'object' || v === undefined) return false;
      return Object.values(v as object).every((x) => typeof x !== 'number' || Number.isFinite(x));
  }
}

/** Tries `values` on one field of one target; returns what went wrong. The field is put back after each. */
function tryField(b: Bench, label: string, leaf: Leaf, values: readonly unknown[]): string[] {
  const failures: string[] = [];
  const { s, reset, start, reference } = b;
  const target = s.targets.get(label)!;
  const name = leaf.path.join('.');
  const field = leaf.path[leaf.path.length - 1]!;
  reset();
  const original = read(target, leaf.path);
  const originalCopy = copyOf(original);
  // The field or, for a component (gravity.x, localFrameA.w), the object it belongs to.
  const namesField = (e: unknown): boolean => e instanceof Error && leaf.path.some((segment) => e.message.includes(segment));

  for (const value of values) {
    const what = `${label}.${name} = ${show(value)}`;
    reset();
    let refusedAt: 'write' | 'frame' | null = null;
    try {
      write(target, leaf.path, value);
    } catch (e) {
      refusedAt = 'write';
      if (!namesField(e)) failures.push(`${what}: refused without naming ${field}: ${String(e)}`);
      if (copyOf(read(target, leaf.path)) !== originalCopy) failures.push(`${what}: refused but the field changed to ${show(read(target, leaf.path))}`);
    }
    let firstFrame = 0;
    if (refusedAt === null) {
      let stage: 'world' | 'walker' = 'world';
      let characterBefore = '';
      try {
        s.world.step(DT);
        stage = 'walker';
        characterBefore = characterState(s);
        s.walker.update(DT);
      } catch (e) {
        refusedAt = 'frame';
        if (!namesField(e)) failures.push(`${what}: the next frame threw without naming ${field}: ${String(e)}`);
        const moved = stage === 'world' ? JSON.stringify(state(s)) !== JSON.stringify(start) : characterState(s) !== characterBefore;
        if (moved) failures.push(`${what}: the ${stage} step that refused it moved the scene`);
        try {
          write(target, leaf.path, restoreValue(original, originalCopy));
        } catch (e2) {
          failures.push(`${what}: putting the old value back threw ${String(e2)}`);
          continue;
        }
        if (stage === 'walker') {
          // The world's half of the frame went through: finish the frame.
          s.walker.update(DT);
          if (JSON.stringify(state(s)) !== JSON.stringify(reference[0])) failures.push(`${what}: refused by the walker but the scene diverged at frame 0`);
          firstFrame = 1;
        }
      }
    }
    if (refusedAt !== null) {
      // Refused: the scene moves exactly like the reference.
      for (let i = firstFrame; i < CHECK_FRAMES; i++) {
        try { frame(s); } catch (e) { failures.push(`${what}: frame ${i} after the refusal threw ${String(e)}`); break; }
        if (JSON.stringify(state(s)) !== JSON.stringify(reference[i])) { failures.push(`${what}: refused at the ${refusedAt} but the scene diverged at frame ${i}`); break; }
      }
      continue;
    }
    // Accepted: it must read back valid, and the scene must stay sound.
    const back = read(target, leaf.path);
    const sentinel = INFINITE_SENTINELS.has(field) && (value === Infinity || value === -Infinity) && back === value;
    if (!sentinel && !validReadBack(back, leaf.category)) failures.push(`${what}: accepted and reads back ${show(back)}`);
    for (let i = 1; i < CHECK_FRAMES; i++) {
      try { frame(s); } catch (e) { failures.push(`${what}: accepted, then frame ${i} threw ${String(e)}`); break; }
      const broken = brokenState(s);
      if (broken) { failures.push(`${what}: accepted, then at frame ${i} ${broken}`); break; }
    }
    try {
      write(target, leaf.path, restoreValue(original, originalCopy));
    } catch (e) {
      failures.push(`${what}: putting the old value back threw ${String(e)}`);
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------

const LABELS = [...buildScene().targets.keys()].filter((l) => !['SolverSettings', 'SleepSettings', 'JointSolverSettings'].includes(l));
const TYPE_OF = (label: string): string => label.replace(/ \(.*\)$/, '');
const SURFACE = surface([...new Set(LABELS.map(TYPE_OF))]);
// npm test tries VALUES_PER_FIELD seeded hostile values on every field; FOOTING_API_FUZZ=all tries them all.
const VALUES_PER_FIELD = 3;

describe(`every writable public field, hostile values (seed ${API_SEED}${ALL_VALUES ? ', all values' : `, ${VALUES_PER_FIELD} per field`})`, () => {
  it('the surface read from the types covers the fields the issue names', () => {
    const all = LABELS.flatMap((l) => (SURFACE.get(TYPE_OF(l)) ?? []).map((leaf) => `${TYPE_OF(l)}.${leaf.path.join('.')}`));
    for (const f of ['World.gravity.y', 'World.fixedTimeStep', 'World.sleeping.timeToSleep', 'World.jointSettings.jointIterations', 'World.solver.velocityIterations',
      'RigidBody.gravityScale', 'RigidBody.collisionGroup', 'HingeJoint.lowerAngle', 'DistanceJoint.frequency', 'FixedJoint.localFrameA.w', 'CharacterSettings.maxSweeps',
      'ParticleSystem.damping', 'Walker.yaw', 'SixDofAxis.maxMotorForce']) {
      expect(all).toContain(f);
    }
    console.log(`api-writes: seed ${API_SEED}, ${new Set(all).size} writable fields over ${LABELS.length} targets`);
  });

  for (const label of LABELS) {
    it(`${label}: every field refused with its name, or accepted and harmless`, () => {
      const random = randomFor(label);
      const b = bench();
      const failures: string[] = [];
      for (const leaf of SURFACE.get(TYPE_OF(label)) ?? []) failures.push(...tryField(b, label, leaf, sample(random, hostile(leaf.category), VALUES_PER_FIELD)));
      expect(failures).toEqual([]);
    });
  }
});
