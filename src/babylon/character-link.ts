/**
 * CharacterLink: a Walker stepped by the world and a Babylon node that shows
 * it. The link is a world stepper, so `world.advance(frameSeconds)` runs the
 * walker once per fixed step, after the rigid bodies (the order
 * `followGround` needs: the platform has moved, then the character rides
 * it). The character's capsule has no previous pose of its own (the
 * controller teleports its kinematic body), so the link keeps the pose from
 * before each step and `sync(alpha)` places the node between the two, as
 * `BodyLinks.sync` does for bodies.
 *
 * The node faces `walker.yaw` (which turns towards the input at the walker's
 * turnSpeed), interpolated the same way: rotation = controller.rotation ·
 * R_up(yaw).
 *
 * Walker events ('landed', 'jumped', 'hit') and the link's `afterStep` run
 * inside the world step: they may apply impulses, not add bodies.
 */
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { MAX_POSITION, quat, SnapshotError, type StepperSnapshot, type Vec3, type World, type WorldStepper } from '../index';
import { CHARACTER_SNAPSHOT_VERSION, Walker, type MoveResult, type WalkerSnapshot } from '../../character/index';
import { described, requireNode, requireObject } from './checks';

/**
 * Layout of the link's stepper state (in `world.snapshot()`): f64 = [previous
 * x, y, z, previous yaw, captured step, walker f64 (11), controller f64 (…)];
 * i32 = [controller i32 length, walker i32 (3), controller i32 (…)].
 */
const L_F_HEADER = 5, L_WALKER_F = 11, L_I_HEADER = 1, L_WALKER_I = 3;

export interface CharacterLinkOptions {
  /** Node position relative to the capsule centre, in the character's frame (local Y = up, before yaw). Default (0, 0, 0): a capsule mesh centred on its origin. */
  offset?: Readonly<Vec3>;
  /** Turn the node to `walker.yaw`. Default true; false leaves the node's rotation alone. */
  face?: boolean;
  /** Called at the start of every fixed step, before the walker moves (read input, crouch). */
  beforeStep?: (link: CharacterLink, dt: number) => void;
  /** Called after every walker update with its result (e.g. `CharacterDebugView.record`). */
  afterStep?: (result: MoveResult, link: CharacterLink) => void;
}

export class CharacterLink implements WorldStepper {
  readonly world: World;
  readonly walker: Walker;
  readonly node: TransformNode;
  /** Node offset from the capsule centre in the character's frame; may be changed (finite, within ±MAX_POSITION: checked by sync and teleport). */
  readonly offset: Vec3;

  /** Capsule centre and yaw before the latest step (the interpolation start). */
  private readonly previous: Vec3 = { x: 0, y: 0, z: 0 };
  private previousYaw = 0;
  /** world.stepCount when `previous` was taken: a step split into parts calls postStep once per part. */
  private capturedStep = -1;
  private readonly spawn: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly spawnYaw: number;
  private readonly offsetWorld: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly turn = new Quaternion();
  private readonly frame = new Quaternion();
  private attached = false;
  private faceValue = true;
  private beforeStepValue: ((link: CharacterLink, dt: number) => void) | null = null;
  private afterStepValue: ((result: MoveResult, link: CharacterLink) => void) | null = null;

  /** Registers the link with `world` (`world.addStepper`); `dispose` removes it. */
  constructor(world: World, walker: Walker, node: TransformNode, options: CharacterLinkOptions = {}) {
    if (world === null || typeof world !== 'object') throw new TypeError(`CharacterLink: world must be a footing World (got ${described(world)})`);
    if (!(walker instanceof Walker)) throw new TypeError(`CharacterLink: walker must be a Walker (got ${described(walker)})`);
    if (walker.controller.world !== world) throw new Error('CharacterLink: the walker\'s controller belongs to another world');
    requireNode(node, 'CharacterLink: node');
    requireObject(options, 'CharacterLink: options');
    const o = options.offset ?? { x: 0, y: 0, z: 0 };
    checkOffset('CharacterLink: offset', o);
    const face = options.face ?? true;
    checkFace(face);
    this.world = world;
    this.walker = walker;
    this.node = node;
    this.offset = { x: o.x, y: o.y, z: o.z };
    this.face = face;
    this.beforeStep = options.beforeStep ?? null;
    this.afterStep = options.afterStep ?? null;
    // Babylon ignores `rotation` (Euler) once rotationQuaternion is set; made once here.
    if (this.face && !node.rotationQuaternion) node.rotationQuaternion = new Quaternion();
    const p = walker.controller.position;
    this.spawn.x = p.x; this.spawn.y = p.y; this.spawn.z = p.z;
    this.spawnYaw = walker.yaw;
    this.capture();
    // Placed before it becomes a stepper: a link the caller never got must not step the walker.
    this.sync(1);
    world.addStepper(this);
    this.attached = true;
  }

  /** Turn the node to `walker.yaw`; false leaves the node's rotation alone. */
  get face(): boolean { return this.faceValue; }
  set face(v: boolean) { checkFace(v); this.faceValue = v; }

  /** Called at the start of every fixed step, before the walker moves; null for none. */
  get beforeStep(): ((link: CharacterLink, dt: number) => void) | null { return this.beforeStepValue; }
  set beforeStep(f: ((link: CharacterLink, dt: number) => void) | null) {
    // Refused here, not by every later step.
    if (f != null && typeof f !== 'function') throw new TypeError(`CharacterLink: beforeStep must be a function or null (got ${described(f)})`);
    this.beforeStepValue = f ?? null;
  }

  /** Called after every walker update with its result; null for none. */
  get afterStep(): ((result: MoveResult, link: CharacterLink) => void) | null { return this.afterStepValue; }
  set afterStep(f: ((result: MoveResult, link: CharacterLink) => void) | null) {
    if (f != null && typeof f !== 'function') throw new TypeError(`CharacterLink: afterStep must be a function or null (got ${described(f)})`);
    this.afterStepValue = f ?? null;
  }

  /** WorldStepper: one walker update per fixed step (the world calls it). */
  postStep(world: World, dt: number): void {
    if (world.stepCount !== this.capturedStep) this.capture();
    if (this.beforeStepValue !== null) this.beforeStepValue(this, dt);
    const r = this.walker.update(dt);
    if (this.afterStepValue !== null) this.afterStepValue(r, this);
  }

  /**
   * Places the node between the pose before the latest step and the pose
   * after it: alpha from `world.advance` (1 = the latest step). Allocates nothing.
   */
  sync(alpha = 1): void {
    if (typeof alpha !== 'number' || alpha !== alpha) throw new RangeError(`CharacterLink.sync: alpha must be a number in [0, 1] (got ${String(alpha)})`);
    // offset is writable in place: checked before the node is touched
    checkOffset('CharacterLink.sync: offset', this.offset);
    const a = alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
    const c = this.walker.controller;
    const p = c.position, q0 = this.previous;
    const o = this.offsetWorld;
    o.x = this.offset.x; o.y = this.offset.y; o.z = this.offset.z;
    const cr = c.rotation;
    if (o.x !== 0 || o.y !== 0 || o.z !== 0) quat.rotate(o, cr, o);
    this.node.position.set(q0.x + (p.x - q0.x) * a + o.x, q0.y + (p.y - q0.y) * a + o.y, q0.z + (p.z - q0.z) * a + o.z);
    if (!this.faceValue) return;
    // yaw is not wrapped (see Walker.yaw): the difference of one step is the turn taken.
    const yaw = this.previousYaw + (this.walker.yaw - this.previousYaw) * a;
    const half = 0.5 * yaw;
    this.turn.set(0, Math.sin(half), 0, Math.cos(half));
    this.frame.set(cr.x, cr.y, cr.z, cr.w);
    const r = this.node.rotationQuaternion ?? (this.node.rotationQuaternion = new Quaternion());
    this.frame.multiplyToRef(this.turn, r);
  }

  /**
   * Moves the character to `position` (capsule centre) and stops it
   * (`Walker.teleport`), with `yaw` when given, and puts the node there
   * without interpolating from the old place.
   */
  teleport(position: Readonly<Vec3>, yaw?: number): void {
    // checked before the walker moves: sync's refusal after it would leave the node behind the character
    checkOffset('CharacterLink.teleport: offset', this.offset);
    this.walker.teleport(position, yaw);
    this.capture();
    this.sync(1);
  }

  /** Teleports back to where the character was when the link was made, facing the yaw it had then. */
  reset(): void {
    this.teleport(this.spawn, this.spawnYaw);
  }

  /** Removes the link from the world's steppers (the walker, controller and node stay). */
  dispose(): void {
    if (!this.attached) return;
    this.attached = false;
    this.world.removeStepper(this);
  }

  /** @internal WorldStepper: the walker's and controller's state and the interpolation start, for `world.snapshot()`. */
  snapshotState(): StepperSnapshot {
    const w = this.walker.snapshot();
    const cf = w.controller.f64, ci = w.controller.i32;
    const f64 = new Float64Array(L_F_HEADER + L_WALKER_F + cf.length);
    f64[0] = this.previous.x; f64[1] = this.previous.y; f64[2] = this.previous.z;
    f64[3] = this.previousYaw; f64[4] = this.capturedStep;
    f64.set(w.f64, L_F_HEADER);
    f64.set(cf, L_F_HEADER + L_WALKER_F);
    const i32 = new Int32Array(L_I_HEADER + L_WALKER_I + ci.length);
    i32[0] = ci.length;
    i32.set(w.i32, L_I_HEADER);
    i32.set(ci, L_I_HEADER + L_WALKER_I);
    return { f64, i32 };
  }

  /** @internal WorldStepper: throws a SnapshotError unless `restoreState(state)` fits this link. Changes nothing. */
  validateState(state: StepperSnapshot): void {
    const ws = this.walkerSnapshot(state);
    for (let k = 0; k < L_F_HEADER; k++) if (!Number.isFinite(state.f64[k]!)) throw new SnapshotError(`CharacterLink: state value ${k} is ${state.f64[k]}`);
    // The walker's own checks (bounds and its controller's), so that restoreState cannot throw part-way through the world's restore.
    try {
      this.walker.validateSnapshot(ws);
    } catch (e) {
      throw new SnapshotError(`CharacterLink: ${(e as Error).message}`);
    }
  }

  /** @internal WorldStepper: restores a state `validateState` accepted. */
  restoreState(state: StepperSnapshot): void {
    this.walker.restore(this.walkerSnapshot(state));
    const f = state.f64;
    this.previous.x = f[0]!; this.previous.y = f[1]!; this.previous.z = f[2]!;
    this.previousYaw = f[3]!;
    this.capturedStep = f[4]!;
  }

  private walkerSnapshot(state: StepperSnapshot): WalkerSnapshot {
    const f = state.f64, i = state.i32;
    if (!(f instanceof Float64Array) || !(i instanceof Int32Array) || f.length < L_F_HEADER + L_WALKER_F || i.length < L_I_HEADER + L_WALKER_I || i.length !== L_I_HEADER + L_WALKER_I + i[0]!) {
      throw new SnapshotError('CharacterLink: the stepper state is not a character link\'s (truncated or of another layout)');
    }
    return {
      version: CHARACTER_SNAPSHOT_VERSION,
      f64: f.subarray(L_F_HEADER, L_F_HEADER + L_WALKER_F),
      i32: i.subarray(L_I_HEADER, L_I_HEADER + L_WALKER_I),
      controller: { version: CHARACTER_SNAPSHOT_VERSION, f64: f.subarray(L_F_HEADER + L_WALKER_F), i32: i.subarray(L_I_HEADER + L_WALKER_I) },
    };
  }

  private capture(): void {
    const p = this.walker.controller.position;
    this.previous.x = p.x; this.previous.y = p.y; this.previous.z = p.z;
    this.previousYaw = this.walker.yaw;
    this.capturedStep = this.world.stepCount;
  }
}

/** Throws naming `field` unless `o` is a { x, y, z } of finite numbers within ±MAX_POSITION. */
function checkOffset(field: string, o: Readonly<Vec3>): void {
  if (o === null || typeof o !== 'object') throw new TypeError(`${field} must be a { x, y, z } object (got ${described(o)})`);
  // typeof as well: Math.abs takes a numeric string, which would then concatenate into the node's position
  if (!(typeof o.x === 'number' && typeof o.y === 'number' && typeof o.z === 'number' &&
    Math.abs(o.x) <= MAX_POSITION && Math.abs(o.y) <= MAX_POSITION && Math.abs(o.z) <= MAX_POSITION)) {
    throw new RangeError(`${field} must be finite, each component within ±${MAX_POSITION} m (MAX_POSITION; got (${String(o.x)}, ${String(o.y)}, ${String(o.z)}))`);
  }
}

function checkFace(face: unknown): void {
  if (typeof face !== 'boolean') throw new TypeError(`CharacterLink: face must be a boolean (got ${described(face)})`);
}
