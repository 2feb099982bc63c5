/**
 * Live tuning in the Babylon Inspector. The Inspector's "Custom" section
 * (node.inspectableCustomProperties) binds each entry to a property ON the
 * node, so accessor properties are defined on the node that read and write
 * the CharacterController's settings, the Walker's settings and the world's
 * solver settings. footing reads those at the start of every move / step,
 * so a change takes effect on the next one.
 */
import { InspectableType, type IInspectable } from '@babylonjs/core/Misc/iInspectable';
import type { Node } from '@babylonjs/core/node';
import type { FrictionModel, PositionCorrection, World } from '../index';
import { CharacterController, Walker, type CharacterSettings, type WalkerSettings } from '../../character/index';
import { described, requireObject } from './checks';

export interface CharacterInspectorTargets {
  controller?: CharacterController;
  walker?: Walker;
  world?: World;
}

type NumericCharacterKey = Exclude<keyof CharacterSettings, 'collisionMask'>;
type NumericSolverKey = 'velocityIterations' | 'positionIterations' | 'subSteps' | 'subStepIterations' | 'relaxIterations' | 'contactHertz' | 'contactDampingRatio' | 'relaxation' | 'baumgarte';
type NumericWalkerKey = Exclude<keyof WalkerSettings, 'gravity'>;

interface Slider { label: string; min: number; max: number; step: number; integer?: boolean }

// Records keyed by every numeric setting: a setting added to the settings
// type without a slider here is a compile error, so the property types below
// never name a property that is not defined. Listed in display order.
const CHARACTER_SLIDERS: Readonly<Record<NumericCharacterKey, Slider>> = {
  maxSlopeDegrees: { label: 'Max slope (°)', min: 0, max: 90, step: 1 },
  stepHeight: { label: 'Step height (m)', min: 0, max: 1, step: 0.01 },
  minStepForward: { label: 'Min step forward (m)', min: 0, max: 0.5, step: 0.01 },
  snapDistance: { label: 'Snap distance (m)', min: 0, max: 1, step: 0.01 },
  skinWidth: { label: 'Skin width (m)', min: 0, max: 0.1, step: 0.001 },
  maxIterations: { label: 'NGS iterations', min: 1, max: 128, step: 1, integer: true },
  maxSweeps: { label: 'Sweeps', min: 1, max: 16, step: 1, integer: true },
  tolerance: { label: 'Tolerance (m)', min: 1e-6, max: 0.01, step: 1e-5 },
  slop: { label: 'Contact slop (m)', min: 0, max: 0.02, step: 0.001 },
  gatherDistance: { label: 'Gather distance (m)', min: 0, max: 0.5, step: 0.01 },
  pushStrength: { label: 'Push strength (N)', min: 0, max: 2000, step: 10 },
  characterMass: { label: 'Character mass (kg)', min: 1, max: 300, step: 1 },
};

const WALKER_SLIDERS: Readonly<Record<NumericWalkerKey, Slider>> = {
  speed: { label: 'Walk speed (m/s)', min: 0, max: 15, step: 0.1 },
  acceleration: { label: 'Acceleration (m/s²)', min: 0, max: 200, step: 1 },
  airAcceleration: { label: 'Air control (m/s²)', min: 0, max: 100, step: 1 },
  airDeceleration: { label: 'Air braking, no input (m/s²)', min: 0, max: 50, step: 0.5 },
  airDrag: { label: 'Air drag (1/s)', min: 0, max: 5, step: 0.05 },
  jumpSpeed: { label: 'Jump speed (m/s)', min: 0, max: 15, step: 0.1 },
  coyoteTime: { label: 'Coyote time (s)', min: 0, max: 0.5, step: 0.01 },
  maxFallSpeed: { label: 'Max fall speed (m/s)', min: 0, max: 200, step: 1 },
  turnSpeed: { label: 'Turn speed (rad/s)', min: 0, max: 50, step: 0.5 },
};

const SOLVER_SLIDERS: Readonly<Record<NumericSolverKey, Slider>> = {
  velocityIterations: { label: 'Velocity iterations (ngs, baumgarte)', min: 1, max: 100, step: 1, integer: true },
  positionIterations: { label: 'Position iterations (ngs)', min: 0, max: 50, step: 1, integer: true },
  subSteps: { label: 'Sub-steps (soft)', min: 1, max: 32, step: 1, integer: true },
  subStepIterations: { label: 'Iterations per sub-step (soft)', min: 1, max: 16, step: 1, integer: true },
  relaxIterations: { label: 'Relax iterations (soft)', min: 0, max: 16, step: 1, integer: true },
  contactHertz: { label: 'Contact hertz (soft)', min: 5, max: 240, step: 1 },
  contactDampingRatio: { label: 'Contact damping ratio', min: 0, max: 20, step: 0.1 },
  relaxation: { label: 'Relaxation ω', min: 0.1, max: 1.9, step: 0.05 },
  baumgarte: { label: 'Baumgarte β', min: 0, max: 1, step: 0.01 },
};

/** The node properties `exposeInspectorProperties` defines for a CharacterController: `character` + the setting name. */
export type CharacterInspectorProperties = { [K in NumericCharacterKey as `character${Capitalize<K>}`]: number };
/** The node properties defined for a Walker: `walker` + the setting name. */
export type WalkerInspectorProperties = { [K in NumericWalkerKey as `walker${Capitalize<K>}`]: number };
/** The node properties defined for a World: `solver` + the setting name, and the sleeping switch. */
export type SolverInspectorProperties = { [K in NumericSolverKey as `solver${Capitalize<K>}`]: number } & {
  solverWarmStarting: boolean;
  solverShockPropagation: boolean;
  solverPositionCorrection: PositionCorrection;
  solverFrictionModel: FrictionModel;
  solverSleeping: boolean;
};
/** The properties defined for `targets`: those of each target given. */
export type InspectorProperties<T extends CharacterInspectorTargets> =
  (T['controller'] extends CharacterController ? CharacterInspectorProperties : unknown) &
  (T['walker'] extends Walker ? WalkerInspectorProperties : unknown) &
  (T['world'] extends World ? SolverInspectorProperties : unknown);

/** Node property name for a setting: `character…`, `walker…`, `solver…` + the setting name capitalised. */
export function inspectorPropertyName(group: 'character' | 'walker' | 'solver', key: string): string {
  return group + key.charAt(0).toUpperCase() + key.slice(1);
}

function clampNumber(v: unknown, s: Slider): number {
  let x = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(x)) x = s.min;
  if (s.integer) x = Math.round(x);
  return Math.min(s.max, Math.max(s.min, x));
}

/**
 * Defines forwarding properties on `node` and adds their entries to
 * `node.inspectableCustomProperties`. Returns the node, typed with the
 * properties it now has. Values written through the properties are clamped
 * to the slider range (and rounded for integer settings), so the Inspector
 * cannot make a setting invalid.
 *
 * Calling it again on the same node re-points the properties to the new
 * targets and replaces their Inspector entries (no entry is listed twice);
 * the properties of a group not given again stay as they were. When a
 * property cannot be defined (the node has a fixed one of that name),
 * nothing is defined and the call throws.
 *
 * Example: `const player = exposeInspectorProperties(playerMesh, { controller, walker, world })`,
 * then `player.characterMaxSlopeDegrees = 30` is what the "Max slope" slider does.
 */
export function exposeInspectorProperties<N extends Node, T extends CharacterInspectorTargets>(node: N, targets: T): N & InspectorProperties<T> {
  requireObject(node, 'exposeInspectorProperties: node');
  requireObject(targets, 'exposeInspectorProperties: targets');
  const { controller, walker, world } = targets;
  if (controller && !(controller instanceof CharacterController)) throw new TypeError(`exposeInspectorProperties: targets.controller must be a CharacterController (got ${described(controller)})`);
  if (walker && !(walker instanceof Walker)) throw new TypeError(`exposeInspectorProperties: targets.walker must be a Walker (got ${described(walker)})`);
  if (world && (typeof world !== 'object' || typeof world.solverSettings !== 'object' || typeof world.sleeping !== 'object')) {
    throw new TypeError(`exposeInspectorProperties: targets.world must be a footing World (got ${described(world)})`);
  }
  // Collected first and defined together: a name the node cannot take is found before any property changes.
  const props: { name: string; get: () => unknown; set: (v: unknown) => void; entry: IInspectable }[] = [];
  const sliders = (group: 'character' | 'walker' | 'solver', table: Readonly<Record<string, Slider>>, object: Record<string, unknown>): void => {
    for (const key of Object.keys(table)) {
      const s = table[key]!;
      const name = inspectorPropertyName(group, key);
      props.push({
        name, get: () => object[key], set: (v) => { object[key] = clampNumber(v, s); },
        entry: { label: s.label, propertyName: name, type: InspectableType.Slider, min: s.min, max: s.max, step: s.step },
      });
    }
  };
  if (controller) sliders('character', CHARACTER_SLIDERS, controller.settings as unknown as Record<string, unknown>);
  if (walker) sliders('walker', WALKER_SLIDERS, walker.settings as unknown as Record<string, unknown>);
  if (world) {
    sliders('solver', SOLVER_SLIDERS, world.solverSettings as unknown as Record<string, unknown>);
    const checkbox = (name: string, label: string, get: () => boolean, set: (v: boolean) => void): void => {
      const prop = inspectorPropertyName('solver', name);
      props.push({ name: prop, get, set: (v) => set(Boolean(v)), entry: { label, propertyName: prop, type: InspectableType.Checkbox } });
    };
    const options = <T extends string>(name: 'positionCorrection' | 'frictionModel', label: string, values: readonly T[]): void => {
      const prop = inspectorPropertyName('solver', name);
      props.push({
        name: prop,
        get: () => world.solverSettings[name],
        set: (v) => { if (values.includes(v as T)) (world.solverSettings as unknown as Record<string, unknown>)[name] = v; },
        entry: { label, propertyName: prop, type: InspectableType.Options, options: values.map((c) => ({ label: c, value: c })) },
      });
    };
    checkbox('warmStarting', 'Warm starting', () => world.solverSettings.warmStarting, (v) => { world.solverSettings.warmStarting = v; });
    checkbox('shockPropagation', 'Shock propagation (soft)', () => world.solverSettings.shockPropagation, (v) => { world.solverSettings.shockPropagation = v; });
    options<PositionCorrection>('positionCorrection', 'Position correction', ['soft', 'ngs', 'baumgarte']);
    options<FrictionModel>('frictionModel', 'Friction model', ['constant', 'catto2005', 'coulomb']);
    checkbox('sleeping', 'Sleeping', () => world.sleeping.enabled, (v) => { world.sleeping.enabled = v; });
  }
  for (const p of props) {
    // Ours from an earlier call are configurable and are replaced; anything else of that name is the node's own.
    if (p.name in node && !Object.getOwnPropertyDescriptor(node, p.name)?.configurable) {
      throw new Error(`exposeInspectorProperties: the node already has a property "${p.name}"`);
    }
  }
  const list = (node.inspectableCustomProperties ??= []);
  for (const p of props) {
    Object.defineProperty(node, p.name, { get: p.get, set: p.set, enumerable: true, configurable: true });
    const i = list.findIndex((e) => e.propertyName === p.name);
    if (i >= 0) list[i] = p.entry;
    else list.push(p.entry);
  }
  return node as N & InspectorProperties<T>;
}
