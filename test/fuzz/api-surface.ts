/**
 * The public surface of footing read from its TypeScript sources (the
 * writable fields and the methods of the exported classes, without
 * `@internal` members), and a scene holding one of everything to try it on:
 * a body of each shape, a joint of each kind, cloth, rope, a particle body
 * and a walking character. Shared by api-writes.test.ts and
 * api-calls.test.ts.
 */
import ts from 'typescript';
import {
  BallJoint, Box, Capsule, Compound, ConeTwistJoint, ConvexHull, Cylinder, DistanceJoint, FixedJoint, HingeJoint, SixDofJoint, SliderJoint, Sphere, TriangleMesh,
  World, createCloth, createParticleBody, createRope, type RigidBody,
} from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { Random } from '../helpers/random';

export const DT = 1 / 60;
export const WARM_FRAMES = 20;
export const CHECK_FRAMES = 20;

// ---------------------------------------------------------------------------
// The writable public surface, read from the TypeScript sources.

export type Category = { kind: 'number' } | { kind: 'boolean' } | { kind: 'union'; values: readonly string[] } | { kind: 'object'; nullable: boolean };

export interface Leaf { path: readonly string[]; category: Category }

const PRIMITIVE = ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral | ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral | ts.TypeFlags.String | ts.TypeFlags.StringLiteral;

let programCache: { checker: ts.TypeChecker; exported: Map<string, ts.Type> } | null = null;

/** The checker over the two entry points, and their exported classes, interfaces and type aliases by name. */
function program(): { checker: ts.TypeChecker; exported: Map<string, ts.Type> } {
  if (programCache) return programCache;
  const prog = ts.createProgram(['src/index.ts', 'character/index.ts'], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, skipLibCheck: true, types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  const checker = prog.getTypeChecker();
  const exported = new Map<string, ts.Type>();
  for (const file of ['src/index.ts', 'character/index.ts']) {
    const module = checker.getSymbolAtLocation(prog.getSourceFile(file)!)!;
    for (const e of checker.getExportsOfModule(module)) {
      const s = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      if (s.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) exported.set(e.name, checker.getDeclaredTypeOfSymbol(s));
    }
  }
  programCache = { checker, exported };
  return programCache;
}

export function surface(typeNames: readonly string[]): Map<string, Leaf[]> {
  const { checker, exported } = program();
  const publicMembers = (type: ts.Type): { symbol: ts.Symbol; writable: boolean; type: ts.Type }[] => {
    const out: { symbol: ts.Symbol; writable: boolean; type: ts.Type }[] = [];
    for (const p of checker.getPropertiesOfType(type)) {
      const decls = p.declarations ?? [];
      if (decls.length === 0) continue;
      const flags = ts.getCombinedModifierFlags(decls[0] as ts.Declaration);
      if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || p.name.startsWith('#')) continue;
      if (decls.some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === 'internal'))) continue;
      if (decls.some((d) => ts.isMethodDeclaration(d) || ts.isMethodSignature(d))) continue;
      const getOnly = decls.some(ts.isGetAccessor) && !decls.some(ts.isSetAccessor);
      const readonly = (flags & ts.ModifierFlags.Readonly) !== 0 || getOnly;
      out.push({ symbol: p, writable: !readonly, type: checker.getTypeOfSymbolAtLocation(p, decls[0]!) });
    }
    return out;
  };
  const categorise = (type: ts.Type): Category | 'value-object' | null => {
    const parts = type.isUnion() ? type.types : [type];
    const nullable = parts.some((t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined));
    const solid = parts.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
    if (solid.length === 0) return null;
    if (solid.every((t) => t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral))) return { kind: 'number' };
    if (solid.every((t) => t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral))) return { kind: 'boolean' };
    if (solid.every((t) => t.isStringLiteral())) return { kind: 'union', values: solid.map((t) => (t as ts.StringLiteralType).value) };
    if (solid.some((t) => t.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any | ts.TypeFlags.String))) return null;
    if (solid.length === 1 && solid[0]!.flags & ts.TypeFlags.Object) {
      const members = publicMembers(solid[0]!);
      // Vec3, Quat and settings records: every member a primitive.
      if (!nullable && members.length > 0 && members.every((m) => m.type.flags & PRIMITIVE || m.type.isUnion() && m.type.types.every((t) => t.flags & PRIMITIVE))) return 'value-object';
      return { kind: 'object', nullable };
    }
    return null;
  };
  const leaves = (type: ts.Type, prefix: readonly string[], depth: number): Leaf[] => {
    const out: Leaf[] = [];
    for (const m of publicMembers(type)) {
      const c = categorise(m.type);
      const path = [...prefix, m.symbol.name];
      if (c === 'value-object') {
        // Readonly<Vec3> (a body's position, a controller's up) is read-only to TypeScript: only plain value objects are writable.
        if (depth < 2 && !checker.typeToString(m.type).startsWith('Readonly<')) out.push(...leaves(m.type, path, depth + 1));
        if (m.writable) out.push({ path, category: { kind: 'object', nullable: false } });
      } else if (c && m.writable && c.kind !== 'object') {
        out.push({ path, category: c });
      } else if (c && m.writable) {
        // A reference to another engine object (body: RigidBody | null): the wrong kinds of object.
        out.push({ path, category: c });
      }
    }
    return out;
  };
  const result = new Map<string, Leaf[]>();
  for (const name of typeNames) {
    const type = exported.get(name);
    if (!type) throw new Error(`api-writes: ${name} is not exported`);
    result.set(name, leaves(type, [], 0));
  }
  return result;
}

// ---------------------------------------------------------------------------
// The scene.

export type ParamKind = 'number' | 'boolean' | 'union' | 'vec3' | 'quat' | 'body' | 'joint' | 'function' | 'object' | 'other';
export interface Param { readonly name: string; readonly kind: ParamKind; readonly optional: boolean; readonly values: readonly string[] }
export interface Method { readonly name: string; readonly params: readonly Param[] }

/** What kind of value a parameter or option of this type takes. */
function kindOf(type: ts.Type): { kind: ParamKind; values: string[] } {
  const parts = type.isUnion() ? type.types : [type];
  const solid = parts.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  if (solid.length === 0) return { kind: 'other', values: [] };
  if (solid.every((t) => t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral))) return { kind: 'number', values: [] };
  if (solid.every((t) => t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral))) return { kind: 'boolean', values: [] };
  if (solid.every((t) => t.isStringLiteral())) return { kind: 'union', values: solid.map((t) => (t as ts.StringLiteralType).value) };
  if (solid.length !== 1 || !(solid[0]!.flags & ts.TypeFlags.Object)) return { kind: 'other', values: [] };
  const t = solid[0]!;
  if (t.getCallSignatures().length > 0) return { kind: 'function', values: [] };
  const name = t.getSymbol()?.getName() ?? '';
  if (name === 'RigidBody') return { kind: 'body', values: [] };
  if (name.endsWith('Joint')) return { kind: 'joint', values: [] };
  const props = t.getProperties().map((p) => p.getName()).sort().join(',');
  if (props === 'w,x,y,z') return { kind: 'quat', values: [] };
  if (props === 'x,y,z') return { kind: 'vec3', values: [] };
  return { kind: 'object', values: [] };
}

/** The public, non-@internal methods of each named exported type, with their parameters' kinds (the first signature). */
export function methods(typeNames: readonly string[]): Map<string, Method[]> {
  const { checker, exported } = program();
  const result = new Map<string, Method[]>();
  for (const typeName of typeNames) {
    const type = exported.get(typeName);
    if (!type) throw new Error(`api-surface: ${typeName} is not exported`);
    const list: Method[] = [];
    for (const p of checker.getPropertiesOfType(type)) {
      const decls = p.declarations ?? [];
      const method = decls.find((d) => ts.isMethodDeclaration(d) || ts.isMethodSignature(d));
      if (!method || p.name.startsWith('#')) continue;
      const flags = ts.getCombinedModifierFlags(method as ts.Declaration);
      if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
      if (decls.some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === 'internal'))) continue;
      const signature = checker.getSignaturesOfType(checker.getTypeOfSymbolAtLocation(p, method), ts.SignatureKind.Call)[0];
      if (!signature) continue;
      const params = signature.getParameters().map((ps) => {
        const decl = ps.valueDeclaration as ts.ParameterDeclaration | undefined;
        const optional = decl !== undefined && (decl.questionToken !== undefined || decl.initializer !== undefined);
        const { kind, values } = kindOf(checker.getTypeOfSymbolAtLocation(ps, decl ?? method));
        return { name: ps.getName(), kind, optional, values };
      });
      list.push({ name: p.name, params });
    }
    result.set(typeName, list);
  }
  return result;
}

/** The options of a description or options type (BodyDesc, HingeJointDesc, ClothOptions …), with their kinds. */
export function descFields(typeName: string): Param[] {
  const { checker, exported } = program();
  const type = exported.get(typeName);
  if (!type) throw new Error(`api-surface: ${typeName} is not exported`);
  const out: Param[] = [];
  for (const p of checker.getPropertiesOfType(type)) {
    const decl = p.declarations?.[0];
    if (!decl) continue;
    const { kind, values } = kindOf(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, decl)));
    out.push({ name: p.name, kind, optional: (p.flags & ts.SymbolFlags.Optional) !== 0, values });
  }
  return out;
}

export interface Scene {
  world: World;
  controller: CharacterController;
  walker: Walker;
  targets: Map<string, object>;
}

export function buildScene(): Scene {
  const world = new World();
  world.createBody({ type: 'static', shape: new Box({ x: 15, y: 0.5, z: 15 }), position: { x: 0, y: -0.5, z: 0 } });
  const v = [-6, 0, -6, 6, 0, -6, 6, 0.5, 6, -6, 0.5, 6];
  world.createBody({ type: 'static', shape: new TriangleMesh(v, [0, 2, 1, 0, 3, 2]), position: { x: 0, y: 0.01, z: 20 } });
  const box = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.4, y: 0.3, z: 0.2 }), position: { x: 0, y: 1, z: 0 }, rotation: { x: 0.1, y: 0.2, z: 0, w: 1 } });
  const ball = world.createBody({ type: 'dynamic', shape: new Sphere(0.3), position: { x: 2, y: 2, z: 0 }, linearVelocity: { x: -1, y: 0, z: 0.5 } });
  world.createBody({ type: 'dynamic', shape: new Capsule(0.2, 0.4), position: { x: -2, y: 1.5, z: 1 }, angularVelocity: { x: 1, y: 2, z: 0 } });
  world.createBody({ type: 'dynamic', shape: new Cylinder(0.3, 0.2), position: { x: 1, y: 0.5, z: 2 } });
  world.createBody({ type: 'dynamic', shape: new ConvexHull([0, 0.5, 0, 0.4, 0, 0.3, -0.4, 0, 0.3, 0, 0, -0.4]), position: { x: -1, y: 0.6, z: -2 } });
  world.createBody({ type: 'dynamic', shape: new Compound([{ shape: new Box({ x: 0.3, y: 0.1, z: 0.1 }) }, { shape: new Sphere(0.15), position: { x: 0.3, y: 0, z: 0 } }]), position: { x: 3, y: 0.4, z: -3 } });
  const lift = world.createBody({ type: 'kinematic', shape: new Box({ x: 1, y: 0.1, z: 1 }), position: { x: -4, y: 0.1, z: 4 }, linearVelocity: { x: 0, y: 0.2, z: 0 } });
  const post = world.createBody({ type: 'static', shape: new Box({ x: 0.1, y: 2, z: 0.1 }), position: { x: 5, y: 2, z: 0 } });
  const door = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 0.8, z: 0.05 }), position: { x: 5.65, y: 2, z: 0 } });
  const hinge = world.addJoint(new HingeJoint({ bodyA: post, bodyB: door, anchor: { x: 5.1, y: 2, z: 0 }, axis: { x: 0, y: 1, z: 0 }, lowerAngle: -1, upperAngle: 1, motorSpeed: 2, maxMotorTorque: 50 }));
  const hook = world.createBody({ type: 'static', shape: new Sphere(0.1), position: { x: -5, y: 4, z: 0 } });
  const limb = world.createBody({ type: 'dynamic', shape: new Capsule(0.1, 0.4), position: { x: -4.5, y: 4, z: 0 }, rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } });
  const cone = world.addJoint(new ConeTwistJoint({ bodyA: hook, bodyB: limb, anchor: { x: -5, y: 4, z: 0 }, twistAxis: { x: 1, y: 0, z: 0 }, swingLimit: 0.8, twistLower: -0.3, twistUpper: 0.3 }));
  const weight = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), position: { x: -3.5, y: 3.5, z: 0 } });
  const distance = world.addJoint(new DistanceJoint({ bodyA: limb, bodyB: weight, anchorA: { x: -4, y: 4, z: 0 }, minLength: 0.3, maxLength: 0.9, frequency: 4, dampingRatio: 0.5 }));
  const a = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0, y: 3, z: 4 } });
  const b = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 0.4, y: 3, z: 4 } });
  const c = world.createBody({ type: 'dynamic', shape: new Sphere(0.15), position: { x: 0.8, y: 3, z: 4 } });
  const fixed = world.addJoint(new FixedJoint({ bodyA: a, bodyB: b }));
  const ballJoint = world.addJoint(new BallJoint({ bodyA: b, bodyB: c, anchor: { x: 0.6, y: 3, z: 4 } }));
  const rail = world.createBody({ type: 'static', shape: new Box({ x: 1, y: 0.05, z: 0.05 }), position: { x: 8, y: 1, z: 0 } });
  const car = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.2, y: 0.2, z: 0.2 }), position: { x: 8, y: 0.7, z: 0 } });
  const slider = world.addJoint(new SliderJoint({ bodyA: rail, bodyB: car, axis: { x: 1, y: 0, z: 0 }, lowerLimit: -0.5, upperLimit: 0.5, motorSpeed: 1, maxMotorForce: 100 }));
  const arm = world.createBody({ type: 'dynamic', shape: new Capsule(0.1, 0.3), position: { x: 8, y: 2.6, z: 2 } });
  const sixDof = world.addJoint(new SixDofJoint({
    bodyA: rail, bodyB: arm, anchor: { x: 8, y: 3, z: 2 },
    linearX: { mode: 'limited', min: -0.2, max: 0.2 }, angularX: { mode: 'free', motor: 'velocity', motorSpeed: 1, maxMotorForce: 5 }, angularY: { mode: 'limited', min: -0.5, max: 0.5 },
  }));
  const cloth = createCloth(world, { width: 1.2, height: 1.2, segments: 5, pinned: 'topCorners', position: { x: -8, y: 3, z: 0 } });
  const rope = createRope(world, { from: { x: -8, y: 4, z: 4 }, to: { x: -6, y: 4, z: 4 }, segments: 8, pinned: 'start', endBody: ball });
  const particleBody = createParticleBody(world, { position: { x: 4, y: 1, z: 5 } });
  const controller = new CharacterController(world, { position: { x: 0, y: 1.2, z: 8 } });
  const walker = new Walker(controller);
  walker.setInput(1, 0, 0.4);
  const targets = new Map<string, object>([
    ['World', world], ['SolverSettings', world.solver], ['SleepSettings', world.sleeping], ['JointSolverSettings', world.jointSettings],
    ['RigidBody', box], ['RigidBody (kinematic)', lift], ['RigidBody (static)', post], ['RigidBody (ball)', ball],
    ['HingeJoint', hinge], ['ConeTwistJoint', cone], ['DistanceJoint', distance], ['FixedJoint', fixed], ['BallJoint', ballJoint], ['SliderJoint', slider],
    ['SixDofJoint', sixDof], ['SixDofAxis (linearX)', sixDof.linearX], ['SixDofAxis (angularX)', sixDof.angularX],
    ['ParticleSystem (cloth)', cloth.system], ['ParticleSystem (rope)', rope.system], ['ParticleSystem (particle body)', particleBody.system],
    ['Cloth', cloth], ['Rope', rope],
    ['CharacterController', controller], ['CharacterSettings', controller.settings], ['Walker', walker], ['WalkerSettings', walker.settings],
  ]);
  return { world, controller, walker, targets };
}

export function frame(s: Scene): void {
  s.world.step(DT);
  s.walker.update(DT);
}

export function characterState(s: Scene): string {
  const p = s.controller.position, v = s.walker.velocity;
  return JSON.stringify([p.x, p.y, p.z, v.x, v.y, v.z, s.walker.airTime]);
}

/** Every moving number of the scene, for === comparison. */
export function state(s: Scene): number[] {
  const out: number[] = [];
  for (const b of s.world.bodies) {
    out.push(b.position.x, b.position.y, b.position.z, b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w);
    out.push(b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z, b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z);
  }
  for (const target of s.targets.values()) {
    if ('positions' in target && target.positions instanceof Float64Array) out.push(...target.positions);
  }
  const p = s.controller.position, v = s.walker.velocity;
  out.push(p.x, p.y, p.z, v.x, v.y, v.z, s.walker.airTime);
  return out;
}

/** The first broken number or rotation, or ''. */
export function brokenState(s: Scene): string {
  for (const b of s.world.bodies) {
    const q = b.rotation;
    const values = [b.position.x, b.position.y, b.position.z, b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z, b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z];
    if (!values.every(Number.isFinite)) return `body ${b.id} has a non-finite state`;
    if (Math.abs(Math.hypot(q.x, q.y, q.z, q.w) - 1) > 1e-6) return `body ${b.id} has a rotation of length ${Math.hypot(q.x, q.y, q.z, q.w)}`;
  }
  for (const [name, target] of s.targets) {
    if ('positions' in target && target.positions instanceof Float64Array && !target.positions.every(Number.isFinite)) return `${name} has a non-finite particle`;
  }
  const p = s.controller.position;
  if (![p.x, p.y, p.z].every(Number.isFinite)) return 'the character position is not finite';
  return '';
}

// ---------------------------------------------------------------------------
// Hostile values and the three allowed endings.

export function hostile(category: Category): unknown[] {
  switch (category.kind) {
    case 'number': return [NaN, Infinity, -Infinity, 1e300, -1e300, -1, 0, 1e-300, 0.5, 2 ** 31, '1', null, undefined];
    case 'boolean': return ['no', 0, 1, null, undefined];
    case 'union': return ['bogus', '', 0, null, undefined];
    case 'object': return [...(category.nullable ? [] : [null]), undefined, 5, 'x', {}, { x: NaN, y: 0, z: 0 }, { x: 1e300, y: 0, z: 0, w: 1 }];
  }
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object' && v.constructor !== Object) return `<${v.constructor.name}>`;
  if (v !== null && typeof v === 'object') return JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));
  return String(v);
}

export interface Bench {
  s: Scene;
  reset(): void;
  start: number[];
  reference: number[][];
}

/** One scene per target: warmed up, snapshotted, with the reference frames that follow the snapshot. */
export function bench(): Bench {
  const s = buildScene();
  for (let i = 0; i < WARM_FRAMES; i++) frame(s);
  const worldSnap = s.world.snapshot();
  const walkerSnap = s.walker.snapshot();
  const reset = (): void => { s.world.restore(worldSnap); s.walker.restore(walkerSnap); };
  const start = state(s);
  const reference: number[][] = [];
  for (let i = 0; i < CHECK_FRAMES; i++) { frame(s); reference.push(state(s)); }
  reset();
  return { s, reset, start, reference };
}

/** A body of another world: no method may take it as one of this world's. */
export const FOREIGN_BODY: RigidBody = new World().createBody({ type: 'dynamic', shape: new Sphere(0.2) });

/** Hostile values for an argument or option of this kind (undefined only where it is required). */
export function hostileValues(param: Param): unknown[] {
  const missing = param.optional ? [] : [undefined];
  switch (param.kind) {
    case 'number': return [NaN, Infinity, -Infinity, 1e300, -1e300, -1, '1', null, ...missing];
    case 'boolean': return ['no', 0, null, ...missing];
    case 'union': return ['bogus', 0, null, ...missing];
    case 'vec3': return [null, 5, {}, { x: NaN, y: 0, z: 0 }, { x: 1e300, y: 0, z: 0 }, { x: '1', y: 0, z: 0 }, ...missing];
    case 'quat': return [null, 5, { x: 0, y: 0, z: 0, w: 0 }, { x: NaN, y: 0, z: 0, w: 1 }, { x: 0, y: 0, z: 0, w: 1e300 }, { x: 0, y: 0, z: 0, w: '1' }, ...missing];
    case 'body': return [null, 5, {}, FOREIGN_BODY, ...missing];
    case 'joint': return [null, 5, {}, ...missing];
    case 'function': return [null, 5, 'x', ...missing];
    case 'object': return [null, 5, 'x', ...missing];
    case 'other': return [];
  }
}

/** Messages the JavaScript engine writes itself: the code never looked at the argument. */
export const UNCHECKED = /Cannot read properties|Cannot set properties|is not a function|is not iterable|is not an object|of undefined|of null|Maximum call stack/;

/** FOOTING_API_FUZZ=all tries every hostile value; otherwise each test samples a few, seeded by FOOTING_API_SEED. */
export const ALL_VALUES = process.env.FOOTING_API_FUZZ === 'all';
export const API_SEED = Number(process.env.FOOTING_API_SEED ?? 20261126);

/** A seeded generator for one test, from the run's seed and the test's label. */
export function randomFor(label: string): Random {
  return new Random(API_SEED ^ [...label].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7));
}

/** All of `values` under ALL_VALUES, else `count` distinct ones drawn by `random`. */
export function sample(random: Random, values: readonly unknown[], count: number): unknown[] {
  if (ALL_VALUES || values.length <= count) return [...values];
  const picked: unknown[] = [];
  while (picked.length < count) {
    const v = values[random.int(0, values.length)];
    if (!picked.some((p) => Object.is(p, v))) picked.push(v);
  }
  return picked;
}

/** The bench a hostile call runs on; replaced when an accepted call may have changed the scene's shape. */
export interface BenchBox { b: Bench }

/**
 * Runs one hostile `call` on a reset bench and checks it ended one of two
 * ways: refused with an Error that `named` accepts (never the engine's own
 * unchecked message), `unchanged` (if given) reading the same before and
 * after, and the scene then moving exactly like the reference; or accepted,
 * with CHECK_FRAMES sound frames after it. Returns what went wrong.
 */
export function tryHostile(
  box: BenchBox, what: string, call: (s: Scene) => void, named: (message: string) => boolean, unchanged?: (s: Scene) => string,
): string[] {
  const failures: string[] = [];
  let b = box.b;
  try { b.reset(); } catch { b = box.b = bench(); }
  const before = unchanged?.(b.s);
  let refused = false;
  try {
    call(b.s);
  } catch (e) {
    refused = true;
    const message = e instanceof Error ? e.message : String(e);
    if (!(e instanceof Error)) failures.push(`${what}: threw a non-Error ${String(e)}`);
    else if (UNCHECKED.test(message)) failures.push(`${what}: unchecked, threw ${e.name}: ${message}`);
    else if (!named(message)) failures.push(`${what}: refused without naming what it refused: ${message}`);
    const after = unchanged?.(b.s);
    if (after !== before) failures.push(`${what}: refused but left ${after} (was ${before})`);
  }
  for (let i = 0; i < CHECK_FRAMES; i++) {
    try { frame(b.s); } catch (e) { failures.push(`${what}: ${refused ? 'refused' : 'accepted'}, then frame ${i} threw ${String(e)}`); break; }
    if (refused && JSON.stringify(state(b.s)) !== JSON.stringify(b.reference[i])) { failures.push(`${what}: refused but the scene diverged at frame ${i}`); break; }
    const broken = refused ? '' : brokenState(b.s);
    if (broken) { failures.push(`${what}: accepted, then at frame ${i} ${broken}`); break; }
  }
  // An accepted call may have added or removed bodies, joints or steppers.
  if (!refused) box.b = bench();
  return failures;
}
