/**
 * A reflective audit of every public writable field (CONTRIBUTING.md,
 * "Input"): the fields are not listed by hand but found on a live scene —
 * own writable data properties and prototype setters, minus names starting
 * with `_` and members the source declares private, protected or @internal
 * (read from the .ts source with the TypeScript parser) — and walked into
 * the nested objects they hand out (settings, live vectors, six-DOF axes,
 * shapes, particle columns). One object of each class is probed (a body of
 * each type). Each numeric, boolean, string-enum, vector, quaternion or
 * typed-array field is written hostile values, a vector also component by
 * component. A write is correct when:
 *   - it throws at once naming the field, and the field and the world are
 *     as they were (world and walker snapshots compared with Object.is); or
 *   - the next call that reads it (world.step, or walker.update for the
 *     character's fields) throws naming it and, with the old value put
 *     back, the world is as it was; a snapshot round trip runs first and may
 *     name a value no step reads (a static body's previous pose); or
 *   - it leaves the field as it was, or the value is listed in VALID; then
 *     two ticks and the round trip must stay finite, and (phase two) an
 *     extreme listed value written on every object of the class at once
 *     (two bodies' frictions combine) must too, over 10 ticks.
 * Anything else is a hole: accepted and poisoning, a message that does not
 * name the field (a TypeError reading a property of undefined), or a change
 * half made. The holes left unfixed are listed in UNFIXED with the reason.
 *
 * Scene: a floor, one dynamic body of each shape kind, a static TriangleMesh
 * ramp and HeightField, one joint of each kind, a character
 * (CharacterController + Walker) standing on a crate, a cloth, a rope pinned
 * to bodies, a particle body, a ragdoll. 60 Hz, default settings; 20
 * warm-up ticks (walker.update, then world.step).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  BallJoint, Box, Capsule, Compound, ConeTwistJoint, ConvexHull, createCloth, createParticleBody, createRagdoll, createRope, Cylinder, DistanceJoint,
  FixedJoint, HeightField, HingeJoint, SixDofJoint, SliderJoint, Sphere, TriangleMesh, World,
} from '../../src/index';
import { CharacterController, Walker } from '../../character/index';

const DT = 1 / 60;
const ROOT = resolve(import.meta.dirname, '../..');

// ------------------------------------------------------------------ declarations from the source

interface Member { hidden: boolean; type: string }
/** Class or interface name → its members as declared. */
const declared = new Map<string, Map<string, Member>>();

function sourceFiles(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) { if (name !== 'babylon' && name !== 'worker') sourceFiles(p, out); } else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

function readDeclarations(): void {
  for (const file of [...sourceFiles(join(ROOT, 'src'), []), ...sourceFiles(join(ROOT, 'character'), [])]) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const add = (owner: string, name: string, node: ts.Node, type: ts.TypeNode | undefined): void => {
      const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) ?? [] : [];
      const hiddenMod = mods.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
      const trivia = text.slice(node.getFullStart(), node.getStart(sf));
      const members = declared.get(owner) ?? new Map<string, Member>();
      declared.set(owner, members);
      const prev = members.get(name);
      const hidden = hiddenMod || /@internal\b/.test(trivia) || name.startsWith('#');
      // A getter and its setter: hidden when either is.
      members.set(name, { hidden: hidden || (prev?.hidden ?? false), type: prev?.type || (type ? type.getText(sf) : '') });
    };
    const visit = (node: ts.Node): void => {
      if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name) {
        const owner = node.name.text;
        for (const m of node.members) {
          if (ts.isConstructorDeclaration(m)) {
            for (const p of m.parameters) if (ts.isIdentifier(p.name) && (ts.getModifiers(p)?.length ?? 0) > 0) add(owner, p.name.text, p, p.type);
            continue;
          }
          if (!m.name || !(ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isPrivateIdentifier(m.name))) continue;
          const name = m.name.text;
          if (ts.isPropertyDeclaration(m) || ts.isPropertySignature(m)) add(owner, name, m, m.type);
          else if (ts.isGetAccessorDeclaration(m)) add(owner, name, m, m.type);
          else if (ts.isSetAccessorDeclaration(m)) add(owner, name, m, m.parameters[0]?.type);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}

/** The class names of `obj`'s prototype chain, most derived first. */
function classChain(obj: object): string[] {
  const out: string[] = [];
  for (let p = Object.getPrototypeOf(obj); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) out.push(p.constructor.name);
  return out;
}

/** The declaration of `name` on `obj` (its classes first, then the interface the object was reached as). */
function declaration(obj: object, name: string, iface: string): Member | undefined {
  for (const c of classChain(obj)) {
    const m = declared.get(c)?.get(name);
    if (m) return m;
  }
  return declared.get(iface)?.get(name);
}

// ------------------------------------------------------------------ the scene

function build() {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 30, y: 0.5, z: 30 }), position: { x: 0, y: -0.5, z: 0 } });
  // A static TriangleMesh ramp and a HeightField bump.
  world.createBody({
    type: 'static', position: { x: 0, y: 0, z: -8 },
    shape: new TriangleMesh([-2, 0, -2, 2, 0, -2, 2, 1, 2, -2, 1, 2], [0, 2, 1, 0, 3, 2]),
  });
  world.createBody({ type: 'static', position: { x: 12, y: 0, z: 8 }, shape: new HeightField([0, 0, 0, 0, 0.5, 0, 0, 0, 0], 3, 3, { x: 1, y: 1, z: 1 }) });
  const shapes = [
    new Box({ x: 0.3, y: 0.2, z: 0.25 }), new Sphere(0.3), new Capsule(0.2, 0.3), new Cylinder(0.3, 0.25),
    new ConvexHull([{ x: 0, y: 0, z: 0 }, { x: 0.5, y: 0, z: 0 }, { x: 0, y: 0.5, z: 0 }, { x: 0, y: 0, z: 0.5 }, { x: 0.3, y: 0.3, z: 0.3 }]),
    new Compound([{ shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }) }, { shape: new Sphere(0.2), position: { x: 0.4, y: 0, z: 0 } }]),
  ];
  shapes.forEach((shape, i) => world.createBody({ type: 'dynamic', shape, position: { x: -6 + 1.5 * i, y: 0.6, z: 4 } }));
  const post = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 2, z: 0.1 }), position: { x: 6, y: 2, z: 0 } });
  const hang = (x: number, shape = new Box({ x: 0.15, y: 0.15, z: 0.15 })) =>
    world.createBody({ type: 'dynamic', shape, position: { x, y: 3, z: 0 } });
  const a = hang(6.5), b = hang(7), c = hang(7.5), d = hang(8), e = hang(8.5), f = hang(9), g = hang(9.5), h = hang(10);
  world.addJoint(new BallJoint({ bodyA: post, bodyB: a, anchor: { x: 6.25, y: 3, z: 0 } }));
  world.addJoint(new HingeJoint({ bodyA: a, bodyB: b, anchor: { x: 6.75, y: 3, z: 0 }, axis: { x: 0, y: 0, z: 1 }, lowerAngle: -1, upperAngle: 1, motorSpeed: 1, maxMotorTorque: 5 }));
  world.addJoint(new SliderJoint({ bodyA: b, bodyB: c, axis: { x: 1, y: 0, z: 0 }, lowerLimit: -0.1, upperLimit: 0.2, motorSpeed: 0.5, maxMotorForce: 10 }));
  world.addJoint(new SixDofJoint({
    bodyA: c, bodyB: d, anchor: { x: 7.75, y: 3, z: 0 },
    linearX: { mode: 'limited', min: -0.05, max: 0.05, limitHertz: 5 }, angularX: { mode: 'limited', min: -0.3, max: 0.3 },
    angularY: { mode: 'limited', min: -0.5, max: 0.5, motor: 'velocity', motorSpeed: 1, maxMotorForce: 5 }, angularZ: { mode: 'free' },
  }));
  world.addJoint(new ConeTwistJoint({ bodyA: d, bodyB: e, anchor: { x: 8.25, y: 3, z: 0 }, twistAxis: { x: 1, y: 0, z: 0 }, swingLimit: 0.6 }));
  world.addJoint(new FixedJoint({ bodyA: e, bodyB: f }));
  world.addJoint(new DistanceJoint({ bodyA: f, bodyB: g, frequency: 3, dampingRatio: 0.5 }));
  world.addJoint(new DistanceJoint({ bodyA: g, bodyB: h, minLength: 0.2, maxLength: 0.6 }));
  // The character stands on a crate (a dynamic carrier: followGround runs).
  world.createBody({ type: 'dynamic', shape: new Box({ x: 1, y: 0.25, z: 1 }), position: { x: -10, y: 0.25, z: -4 }, mass: 200 });
  const controller = new CharacterController(world, { position: { x: -10, y: 1.42, z: -4 } });
  const walker = new Walker(controller);
  walker.setInput(0.2, 0, 0);
  const cloth = createCloth(world, { width: 1, height: 1, segments: 4, position: { x: 3, y: 2.5, z: -3 }, gravity: { x: 0, y: -9.81, z: 0 } });
  const rope = createRope(world, { from: { x: 6, y: 4, z: 0 }, to: { x: 6, y: 3.2, z: 1 }, segments: 4, startBody: post, endBody: a,
    bounds: { min: { x: -20, y: -1, z: -20 }, max: { x: 20, y: 20, z: 20 } } });
  const ragdoll = createRagdoll(world, { position: { x: -4, y: 1.2, z: -2 } });
  const particleBody = createParticleBody(world, { position: { x: 3, y: 0.5, z: 3 } });
  const scene = { world, controller, walker, cloth, rope, ragdoll, particleBody };
  for (let i = 0; i < 20; i++) tick(scene);
  return scene;
}
type Scene = ReturnType<typeof build>;

function tick(s: Scene): void {
  s.walker.update(DT);
  s.world.step(DT);
}

/** Everything the world and the character carry from step to step: their snapshots' arrays (compared with Object.is). */
function fingerprint(s: Scene): ArrayLike<number>[] {
  const out: ArrayLike<number>[] = [];
  try {
    const snap = s.world.snapshot();
    for (const v of Object.values(snap)) {
      if (ArrayBuffer.isView(v)) out.push(v as unknown as ArrayLike<number>);
      else if (typeof v === 'number') out.push([v]);
      else if (Array.isArray(v)) for (const st of v) if (st) out.push(st.f64, st.i32);
    }
  } catch { out.push([-0.123456789]); }
  try {
    const w = s.walker.snapshot();
    out.push(w.f64, w.i32, w.controller.f64, w.controller.i32);
  } catch { out.push([-0.987654321]); }
  return out;
}

function sameState(p: ArrayLike<number>[], q: ArrayLike<number>[]): boolean {
  if (p.length !== q.length) return false;
  for (let k = 0; k < p.length; k++) {
    const a = p[k]!, b = q[k]!;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  }
  return true;
}

function finiteState(s: Scene): boolean {
  for (const b of s.world.bodies) {
    for (const v of [b.position, b.linearVelocity, b.angularVelocity]) if (!(Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z))) return false;
  }
  for (const sys of [s.cloth.system, s.rope.system, s.particleBody.system]) for (let k = 0; k < 3 * sys.count; k++) if (!Number.isFinite(sys.positions[k]!)) return false;
  const p = s.controller.position, v = s.walker.velocity;
  return p !== null && v !== null && typeof v === 'object' && [p.x, p.y, p.z, v.x, v.y, v.z, s.walker.yaw].every((x) => typeof x === 'number' && Number.isFinite(x));
}

// ------------------------------------------------------------------ discovery

type Kind = 'number' | 'boolean' | 'enum' | 'vector' | 'quat' | 'column';
/** One field: where it is (a path of property names from the scene), what it is, and which call reads it next. */
interface Field { path: (string | number)[]; name: string; owner: string; label: string; kind: Kind; character: boolean }

/** A hostile value: its name, and a maker (objects are made afresh for each write: a field that keeps one may write into it). */
interface Hostile { name: string; make: () => unknown }
const plain = (v: unknown): Hostile => ({ name: String(v), make: () => v });
const NUMBER_VALUES: Hostile[] = [
  plain(NaN), plain(Infinity), plain(-Infinity), plain(-1), plain(0), plain(1e300), { name: "'1'", make: () => '1' }, plain(null), plain(undefined),
  { name: '{}', make: () => ({}) },
];
const BOOLEAN_VALUES: Hostile[] = [...NUMBER_VALUES, { name: "'no'", make: () => 'no' }, plain(1)];
const ENUM_VALUES: Hostile[] = [...NUMBER_VALUES, { name: "'no'", make: () => 'no' }];
const VECTOR_VALUES: Hostile[] = [{ name: '{x:NaN}', make: () => ({ x: NaN, y: 0, z: 0 }) }, ...NUMBER_VALUES];

function kindOf(v: unknown): Kind | null {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'enum';
  if (v instanceof Float64Array || v instanceof Int32Array) return 'column';
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (typeof o.x === 'number' && typeof o.y === 'number' && typeof o.z === 'number') return keys.length === 4 && typeof o.w === 'number' ? 'quat' : keys.length === 3 ? 'vector' : null;
  }
  return null;
}

/** Names a user can write on `obj`: own writable data properties and setters up the prototype chain. */
function writableNames(obj: object): string[] {
  const names: string[] = [];
  for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(obj))) if (d.writable) names.push(k);
  for (let p = Object.getPrototypeOf(obj); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(p))) if (d.set && !names.includes(k)) names.push(k);
  }
  return names;
}

/** Names to walk into: own properties and getters. */
function readableNames(obj: object): string[] {
  const names = Object.keys(obj);
  for (let p = Object.getPrototypeOf(obj); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(p))) if (d.get && !names.includes(k)) names.push(k);
  }
  return names;
}

/**
 * Not walked: the user's own data, and report objects a call refills (the counters on every read; a move's
 * solve points, hit bodies and planes, which the move itself rewrites before the next reads them).
 */
const NOT_WALKED = new Set(['userData', 'counters', 'planes', 'solvePoints', 'hitBodies']);

function discover(s: Scene): { fields: Field[]; objects: number; instances: Map<string, (string | number)[][]> } {
  const fields: Field[] = [];
  /** Every object walked, by label: the other bodies, joints and shapes of a class. */
  const instances = new Map<string, (string | number)[][]>();
  const seen = new Set<object>();
  const queue: { obj: object; path: (string | number)[]; label: string; iface: string; character: boolean; depth: number }[] = [
    { obj: s.world, path: ['world'], label: 'World', iface: 'World', character: false, depth: 0 },
    { obj: s.controller, path: ['controller'], label: 'CharacterController', iface: '', character: true, depth: 0 },
    { obj: s.walker, path: ['walker'], label: 'Walker', iface: '', character: true, depth: 0 },
    { obj: s.cloth, path: ['cloth'], label: 'Cloth', iface: 'Cloth', character: false, depth: 0 },
    { obj: s.rope, path: ['rope'], label: 'Rope', iface: 'Rope', character: false, depth: 0 },
    { obj: s.ragdoll, path: ['ragdoll'], label: 'Ragdoll', iface: '', character: false, depth: 0 },
    { obj: s.particleBody, path: ['particleBody'], label: 'ParticleBody', iface: 'ParticleBody', character: false, depth: 0 },
  ];
  while (queue.length > 0) {
    const { obj, path, label, iface, character, depth } = queue.shift()!;
    if (seen.has(obj)) continue;
    seen.add(obj);
    instances.set(label, [...(instances.get(label) ?? []), path]);
    const writable = writableNames(obj);
    for (const name of readableNames(obj).concat(writable.filter((n) => !Object.keys(obj).includes(n)))) {
      if (name.startsWith('_') || NOT_WALKED.has(name)) continue;
      const decl = declaration(obj, name, iface);
      if (decl?.hidden) continue;
      const value = (obj as Record<string, unknown>)[name];
      const kind = kindOf(value);
      const fieldLabel = `${label}.${name}`;
      if (kind !== null && (writable.includes(name) || kind === 'vector' || kind === 'quat' || kind === 'column')) {
        // One instance per class: the other bodies, joints and shapes of a class have the same checks.
        if (fields.some((g) => g.label === fieldLabel)) continue;
        fields.push({ path: [...path, name], name, owner: label, label: fieldLabel, kind, character });
        continue;
      }
      if (value === null || typeof value !== 'object' || depth >= 4) continue;
      const elements = Array.isArray(value) ? value.map((v, i) => [v, i] as const) : [[value, -1] as const];
      for (const [v, i] of elements) {
        if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) continue;
        const proto = Object.getPrototypeOf(v);
        const cls = proto === Object.prototype ? '' : proto.constructor.name;
        if (cls !== '' && !declared.has(cls)) continue;
        const iface2 = cls || (decl?.type.replace(/^(Readonly<|Partial<)/, '').replace(/>$/, '') ?? '');
        // A body's checks depend on its type: one of each is probed.
        const objLabel = cls === 'RigidBody' ? `RigidBody(${(v as { type: string }).type})` : cls || iface2 || fieldLabel;
        queue.push({
          obj: v, path: i < 0 ? [...path, name] : [...path, name, i], label: objLabel, iface: iface2,
          character, depth: depth + 1,
        });
      }
    }
  }
  return { fields, objects: seen.size, instances };
}

function resolvePath(s: Scene, path: readonly (string | number)[]): Record<string, unknown> {
  let o: unknown = s;
  for (const k of path) o = (o as Record<string | number, unknown>)[k];
  return o as Record<string, unknown>;
}

// ------------------------------------------------------------------ what is valid

/**
 * Values accepted on purpose: `Owner.field` (a component write is
 * `Owner.field.x`; `*` and `{a,b}` as in a glob) → the hostile values that
 * are valid there, by name (a typed-array column: the number it stored).
 */
const VALID: readonly (readonly [string, readonly string[]])[] = [
  ['World.gravity.{x,y,z}', ['-1', '0']], // m/s², any component within ±MAX_GRAVITY
  ['World.stepCount', ['0']], // documented writable (an integer ≥ 0), to number a replay from zero
  ['SolverSettings.{positionIterations,relaxIterations}', ['0']], // integers in [0, 1000] and [0, 100]: 0 turns the sweeps off
  ['SolverSettings.{baumgarte,maxCorrectionVelocity}', ['0']], // in [0, 1] and [0, MAX_LINEAR_SPEED]: 0 turns the push-out off
  ['SolverSettings.{linearSlop,contactHertz,contactDampingRatio,restitutionThreshold,speculativeDistance}', ['0', '1e+300']], // documented finite ≥ 0, no upper bound (contactHertz is capped at 0.25/h; a 1e300 restitutionThreshold: no bounce)
  ['SolverSettings.maxTurnPerStep', ['Infinity', '1e+300']], // documented (0, ∞]: Infinity never splits a step
  ['SleepSettings.{linearThreshold,angularThreshold}', ['0', '1e+300']], // finite ≥ 0: 0 never sleeps, 1e300 always may
  ['SleepSettings.timeToSleep', ['1e+300']], // finite > 0: never long enough
  ['JointSolverSettings.{jointHertz,jointDampingRatio,limitSlop}', ['0']], // in [0, 1e6], [0, 1000], [0, π]
  ['JointSolverSettings.anchorSlop', ['0', '1e+300']], // finite ≥ 0: 1e300 turns the anchor projection off
  ['RigidBody(*).{position,linearVelocity,angularVelocity,previousPosition}.{x,y,z}', ['-1', '0']], // finite live views within ±1e15 (checked at the next step and by snapshot)
  ['RigidBody(*).{rotation,previousRotation}.{x,y,z}', ['0']], // a component near 0 zeroed: still unit within the tolerances (1e-3 at the step, which normalises; 1e-6 for a snapshot)
  ['RigidBody(*).{rotation,previousRotation}.w', ['-1']], // −q is the same unit rotation
  ['RigidBody(*).{friction,staticFriction}', ['0']], // in [0, MAX_FRICTION]
  ['RigidBody(*).{linearDamping,angularDamping}', ['0', '1e+300']], // finite ≥ 0: v/(1 + h·c) → 0, stops the body
  ['RigidBody(*).restitution', ['0']], // in [0, 1]
  ['RigidBody(*).gravityScale', ['-1', '0']], // in [−100, 100]
  ['RigidBody(*).{collisionGroup,collisionMask}', ['-1', '0']], // 32 collision bits (−1: all)
  ['*Joint.{localAnchorA,localAnchorB}.{x,y,z}', ['-1', '0']], // anchors within ±MAX_JOINT_LENGTH (checked at the next step)
  ['*Joint.{localFrameA,localFrameB}.w', ['-1']], // −q is the same unit rotation
  ['*Joint.breakImpulse', ['Infinity', '1e+300']], // > 0 or Infinity: unbreakable
  ['*Joint.frictionTorque', ['0']], // in [0, MAX_JOINT_TORQUE]
  ['HingeJoint.lowerAngle', ['-Infinity', '-1', '0']], // [−π, π] ≤ upperAngle, −Infinity: no lower limit
  ['HingeJoint.upperAngle', ['Infinity', '-1', '0']], // [−π, π] ≥ lowerAngle (−1 here), Infinity: no upper limit
  ['{HingeJoint,SliderJoint}.motorSpeed', ['-1', '0']], // within ±MAX_MOTOR_SPEED
  ['HingeJoint.targetAngle', ['-1', '0']], // in [−π, π]
  ['HingeJoint.{maxMotorTorque,motorDampingRatio}', ['0']], // in [0, 1e9] and [0, 1e3]
  ['SliderJoint.lowerLimit', ['-Infinity', '-1', '0']], // within ±1e6 and ≤ upperLimit, −Infinity: no limit
  ['SliderJoint.upperLimit', ['Infinity', '0']], // within ±1e6 and ≥ lowerLimit, Infinity: no limit
  ['SliderJoint.targetPosition', ['-1', '0']], // within ±1e6 m
  ['SliderJoint.{limitHertz,limitDampingRatio,maxMotorForce,motorDampingRatio,frictionForce}', ['0']], // ranges from 0 (0 Hz: a hard limit)
  ['ConeTwistJoint.twistLower', ['-1', '0']], // in [−π, 0]
  ['ConeTwistJoint.twistUpper', ['0']], // in [0, π]
  ['DistanceJoint.{length,minLength,frequency,dampingRatio}', ['0']], // 0 m (a rope's minimum), 0 Hz (no spring)
  ['DistanceJoint.maxLength', ['Infinity']], // no upper limit
  ['SixDofAxis.{min,motorSpeed,motorTarget}', ['-1', '0']], // within the axis' range (±1e6 m, ±π, ±0.9π)
  ['SixDofAxis.{max,limitHertz,limitDampingRatio,maxMotorForce,motorDampingRatio,friction}', ['0']], // ranges from 0 (max ≥ min)
  ['CharacterController.position.{x,y,z}', ['-1', '0']], // a live view: any position within ±1e15 (checked before each call)
  ['CharacterSettings.{maxSlopeDegrees,stepHeight,minStepForward,snapDistance,skinWidth,slop,gatherDistance,collisionMask,pushStrength}', ['0']], // ranges from 0
  ['Walker.velocity.{x,y,z}', ['-1', '0']], // within ±MAX_WALKER_VELOCITY
  ['Walker.input.{x,y,z}', ['-1', '0', '1e+300']], // finite, as setInput takes it (its length is clamped to 1; past 1e154 it overflows to no input)
  ['Walker.yaw', ['-1', '0', '1e+300']], // finite, not wrapped by design
  ['Walker.airTime', ['0', '1e+300']], // finite ≥ 0
  ['WalkerSettings.{speed,acceleration,airAcceleration,jumpSpeed,maxFallSpeed,airDeceleration,airDrag,turnSpeed}', ['0']], // ranges from 0
  ['WalkerSettings.gravity.{x,y,z}', ['-1', '0']], // within ±1e6 m/s²
  ['WalkerSettings.coyoteTime', ['0', '1e+300']], // seconds ≥ 0, no upper bound
  ['MoveResult.{position,castPosition,groundPoint}.{x,y,z}', ['-1', '0']], // the last move's report, rewritten by the next; finite ones are read back as written
  ['MoveResult.groundVelocity.{x,y,z}', ['-1', '0']], // as above: a jump from static ground inherits it
  ['MoveResult.groundNormal.{x,y,z}', ['0', '-1']], // (0, −1, 0) is a unit normal too
  ['MoveResult.{castHit,sliding,steppedUp,snapped,recovered,solvePointCount,iterations,maxSolveIterations,sweeps,hitBodyCount}', ['NaN', 'Infinity', '-Infinity', '-1', '0', '1e+300', "'1'", 'null', 'undefined', '{}', "'no'", '1']], // report only: rewritten by every move, never read back (a snapshot saves the flags as set or not)
  ['ParticleSystem.{radius,damping,friction}', ['0']], // ranges from 0
  ['ParticleSystem.gravityScale', ['-1', '0']], // in [−100, 100]
  ['ParticleSystem.gravity', ['null']], // null: the world's gravity
  ['ParticleSystem.{collisionGroup,collisionMask}', ['-1', '0']], // 32 collision bits
  ['ParticleSystem.{positions,previousPositions}', ['-1', '0', '1']], // stored coordinates within ±1e15 (checked at the next step)
  ['ParticleSystem.inverseMasses', ['0', '1', '1e+300']], // stored finite ≥ 0 (checked at the next step)
  ['DistanceConstraints.count', ['0']], // an integer in [0, the columns' length]
  ['DistanceConstraints.{minLength,maxLength}', ['0', '1']], // stored 0 ≤ min ≤ max ≤ 1e15
  ['PinConstraints.{point,target}', ['-1', '0', '1']], // stored coordinates within ±1e15
  ['PinConstraints.freeInverseMass', ['0', '1', '1e+300']], // stored finite ≥ 0
];

function globRegExp(glob: string): RegExp {
  const body = glob.replace(/[.()[\]^$+?|\\]/g, '\\$&').replace(/\*/g, '[^.]*').replace(/\{([^}]*)\}/g, (_, alt: string) => `(?:${alt.split(',').join('|')})`);
  return new RegExp(`^${body}$`);
}
const VALID_RULES = VALID.map(([glob, values]) => [globRegExp(glob), values] as const);
function isValid(key: string, value: string): boolean {
  return VALID_RULES.some(([re, values]) => re.test(key) && values.includes(value));
}

/**
 * Holes found and not fixed, each with why: the fix needs a check in the
 * per-step hot path or a change of the API (CONTRIBUTING.md, hot path).
 * The test fails on any hole not listed here, and on a listed one that no
 * longer happens (strike it).
 */
const UNFIXED: readonly (readonly [string, string])[] = [
  // A shape's geometry columns are handed out live, and a typed array with elements cannot be frozen: a check
  // needs a pass over every shape's arrays per step, or copies in the API. A NaN corner turns a ball on the mesh
  // to NaN; NaN heights let it fall through the height field.
  ['TriangleMesh.{vertices,corners,normals,edgeNeighbors}', 'geometry column written in place, unchecked'],
  ['HeightField.{heights,localBounds}', 'geometry column written in place, unchecked'],
  ['ConvexHull.{vertices,faceNormals,faceOffsets,faceStart,faceVertices}', 'geometry column written in place, unchecked'],
  ['Compound.childBounds', 'geometry column written in place, unchecked'],
];
const UNFIXED_RULES = UNFIXED.map(([glob]) => [glob, globRegExp(glob)] as const);

// ------------------------------------------------------------------ the probe

interface Trial {
  /** `Owner.field`, or `Owner.field.x` for a component. */
  key: string;
  value: string;
  write: (owner: Record<string, unknown>) => void;
  /** Puts the old value back (a refused write needs none). */
  restore: (owner: Record<string, unknown>) => void;
  read: (owner: Record<string, unknown>) => unknown;
  /** The name an error must contain. */
  mention: string;
}

/** Trials of one field: the whole field, then each component of a vector, or element 0 of a typed-array column. */
function trials(f: Field): Trial[] {
  const out: Trial[] = [];
  const name = f.name;
  if (f.kind === 'column') {
    const col = (o: Record<string, unknown>) => o[name] as Float64Array;
    for (const h of NUMBER_VALUES) {
      let old = 0;
      out.push({
        key: f.label, value: h.name, mention: name,
        write: (o) => { old = col(o)[0]!; (col(o) as unknown as unknown[])[0] = h.make(); },
        restore: (o) => { col(o)[0] = old; },
        read: (o) => col(o)[0],
      });
    }
    return out;
  }
  const values = f.kind === 'boolean' ? BOOLEAN_VALUES : f.kind === 'vector' || f.kind === 'quat' ? VECTOR_VALUES : f.kind === 'enum' ? ENUM_VALUES : NUMBER_VALUES;
  for (const h of values) {
    let old: unknown;
    out.push({
      key: f.label, value: h.name, mention: name,
      write: (o) => { old = o[name]; o[name] = h.make(); },
      restore: (o) => { try { o[name] = old; } catch { /* refused: it kept its value */ } },
      read: (o) => o[name],
    });
  }
  if (f.kind === 'vector' || f.kind === 'quat') {
    for (const c of f.kind === 'quat' ? ['x', 'y', 'z', 'w'] : ['x', 'y', 'z']) {
      for (const h of NUMBER_VALUES) {
        let old: Record<string, unknown> = {};
        const vec = (o: Record<string, unknown>) => o[name] as Record<string, unknown>;
        out.push({
          key: `${f.label}.${c}`, value: h.name, mention: name,
          write: (o) => { old = { ...vec(o) }; vec(o)[c] = h.make(); },
          // The whole vector: the world may have moved its other components since (a rotation stays unit).
          restore: (o) => { try { Object.assign(vec(o), old); } catch { /* frozen */ } },
          read: (o) => vec(o)[c],
        });
      }
    }
  }
  return out;
}

/** How one write went: null when correct, else the hole; `dirty` when the scene must be built again. */
function probe(s: Scene, f: Field, t: Trial): { hole: string | null; dirty: boolean } {
  const owner = resolvePath(s, f.path.slice(0, -1));
  const before = fingerprint(s);
  const old = t.read(owner);
  const oldCopy = typeof old === 'object' && old !== null ? JSON.stringify(old) : old;
  let writeError: unknown = null;
  try { t.write(owner); } catch (e) { writeError = e; }
  const now = t.read(owner);
  const unchanged = typeof old === 'object' && old !== null ? now === old && JSON.stringify(now) === oldCopy : Object.is(now, old);
  if (writeError !== null) {
    const msg = String((writeError as Error).message);
    // Strict mode's own refusal of a write to a frozen object or a read-only property names the property.
    const native = writeError instanceof TypeError && msg.startsWith('Cannot assign to read only property');
    if (!msg.includes(t.mention) && !native) return { hole: `refused at the write without naming ${t.mention}: ${msg}`, dirty: !unchanged };
    if (!unchanged) return { hole: `refused at the write but it reads back ${String(now)}`, dirty: true };
    if (!sameState(before, fingerprint(s))) return { hole: 'refused at the write but the world changed', dirty: true };
    return { hole: null, dirty: false };
  }
  // The field held that value already (a typed array stores the number the value converts to).
  if (unchanged) return { hole: null, dirty: false };
  const afterWrite = fingerprint(s);
  // A snapshot round trip first (the world's and the walker's; it changes nothing): a value it
  // refuses by name may be one the step never reads (a static body's previous pose).
  let namedBySnapshot = false;
  try { s.world.restore(s.world.snapshot()); s.walker.restore(s.walker.snapshot()); } catch (e) {
    const msg = String((e as Error).message);
    if (!msg.includes(t.mention)) { t.restore(owner); return { hole: `accepted; the snapshot round trip threw without naming ${t.mention}: ${msg}`, dirty: true }; }
    if (!sameState(afterWrite, fingerprint(s))) { t.restore(owner); return { hole: `accepted; the snapshot round trip threw naming it but the state changed: ${msg}`, dirty: true }; }
    namedBySnapshot = true;
  }
  // Then the calls that read it: world.step or walker.update (the character's fields) first, then the other, twice.
  const ops: (() => void)[] = f.character ? [() => s.walker.update(DT), () => s.world.step(DT)] : [() => s.world.step(DT), () => s.walker.update(DT)];
  for (let round = 0; round < 2; round++) {
    for (let k = 0; k < ops.length; k++) {
      try { ops[k]!(); } catch (e) {
        const msg = String((e as Error).message);
        t.restore(owner);
        // With the old value back, the world must be as it was before the write.
        const changed = !sameState(before, fingerprint(s));
        const atOnce = round === 0 && k === 0;
        if (!msg.includes(t.mention)) return { hole: `accepted; the next ${atOnce ? 'call' : 'calls'} threw without naming ${t.mention}: ${e instanceof Error ? e.constructor.name : ''} ${msg}`, dirty: true };
        if (!atOnce) return { hole: `accepted; refused by name only after the world moved on: ${msg}`, dirty: true };
        if (changed) return { hole: `accepted; the next call threw naming it but the state changed: ${msg}`, dirty: true };
        return { hole: null, dirty: false };
      }
    }
  }
  const finite = finiteState(s);
  t.restore(owner);
  if (!finite) return { hole: 'accepted silently; the state went non-finite', dirty: true };
  // Read by nothing but the snapshot, which names it.
  if (namedBySnapshot) return { hole: null, dirty: false };
  if (isValid(t.key, f.kind === 'column' ? String(now) : t.value)) return { hole: null, dirty: false };
  const stored = f.kind === 'column' ? ` (stored as ${String(now)})` : '';
  return { hole: `accepted silently${stored} (the state stayed finite; not listed as valid)`, dirty: false };
}

/**
 * An extreme value accepted on one object, written on every object of its
 * class at once (two bodies' frictions combine; a joint's limit meets the
 * other joints'): 10 ticks and a snapshot round trip must stay finite and
 * refuse nothing. Returns the hole, or null.
 */
function extremeOnAll(s: Scene, f: Field, paths: readonly (readonly (string | number)[])[], value: number): string | null {
  const owners = paths.map((p) => resolvePath(s, p));
  const olds = owners.map((o) => o[f.name]);
  let error = '';
  try {
    for (const o of owners) o[f.name] = value;
    for (let i = 0; i < 10; i++) tick(s);
    s.world.restore(s.world.snapshot());
    s.walker.restore(s.walker.snapshot());
  } catch (e) { error = String((e as Error).message); }
  const finite = finiteState(s);
  owners.forEach((o, k) => { try { o[f.name] = olds[k]; } catch { /* refused: it kept its value */ } });
  if (error !== '') return `${f.label} = ${value} on all ${owners.length}: threw ${error}`;
  return finite ? null : `${f.label} = ${value} on all ${owners.length}: the state went non-finite`;
}

describe('every public writable field refuses hostile values by name', () => {
  it('finds no hole beyond those listed as not fixed', () => {
    readDeclarations();
    let s = build();
    // The scene reaches what it is meant to: the character grounded on the crate (followGround carries it).
    expect(s.walker.grounded && s.controller.result.groundBody?.isDynamic).toBe(true);
    const { fields, objects, instances } = discover(s);
    const holes: string[] = [];
    let writes = 0, parts = 0, builds = 1, extremes = 0;
    for (const f of fields) {
      for (const t of trials(f)) {
        writes++;
        if (t.key !== f.label || f.kind === 'column') parts++;
        const r = probe(s, f, t);
        if (r.hole !== null) holes.push(`${t.key} = ${t.value}: ${r.hole}`);
        if (r.dirty) { s = build(); builds++; }
      }
    }
    for (const f of fields) {
      if (f.kind !== 'number') continue;
      for (const value of [1e300, Infinity, -Infinity]) {
        if (!isValid(f.label, String(value))) continue;
        extremes++;
        // Every object of the class, whatever its label's variant (the bodies of each type).
        const base = (label: string) => label.replace(/\(.*\)$/, '');
        const paths = [...instances].filter(([label]) => base(label) === base(f.owner)).flatMap(([, p]) => p);
        const hole = extremeOnAll(s, f, paths, value);
        if (hole !== null) { holes.push(hole); s = build(); builds++; }
      }
    }
    const kinds = new Map<string, number>();
    for (const f of fields) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
    console.log(`writable-fields audit: ${objects} objects walked, ${fields.length} fields (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}), ` +
      `${writes} hostile writes (${parts} to vector components or column elements), ${extremes} extreme values on every object of a class, ${builds} scene builds`);
    const unfixed = new Set<string>();
    const unlisted: string[] = [];
    for (const h of holes) {
      const rule = UNFIXED_RULES.find(([, re]) => re.test(h.slice(0, h.indexOf(' = '))));
      if (rule) unfixed.add(rule[0]); else unlisted.push(h);
    }
    for (const [glob, why] of UNFIXED) console.log(`not fixed: ${glob}: ${why}`);
    for (const h of unlisted) console.log(`HOLE ${h}`);
    expect(unlisted).toEqual([]);
    expect([...unfixed].sort()).toEqual(UNFIXED.map(([glob]) => glob).sort());
  });
});
