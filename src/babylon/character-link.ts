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
import { quat, type Vec3, type World, type WorldStepper } from '../index';
import type { MoveResult, Walker } from '../../character/index';

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
  /** Node offset from the capsule centre in the character's frame; may be changed. */
  readonly offset: Vec3;
  face: boolean;
  beforeStep: ((link: CharacterLink, dt: number) => void) | null;
  afterStep: ((result: MoveResult, link: CharacterLink) => void) | null;

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

  /** Registers the link with `world` (`world.addStepper`); `dispose` removes it. */
  constructor(world: World, walker: Walker, node: TransformNode, options: CharacterLinkOptions = {}) {
    if (walker.controller.world !== world) throw new Error('CharacterLink: the walker\'s controller belongs to another world');
    const o = options.offset ?? { x: 0, y: 0, z: 0 };
    if (!Number.isFinite(o.x) || !Number.isFinite(o.y) || !Number.isFinite(o.z)) {
      throw new RangeError(`CharacterLink: offset must be finite (got (${String(o.x)}, ${String(o.y)}, ${String(o.z)}))`);
    }
    this.world = world;
    this.walker = walker;
    this.node = node;
    this.offset = { x: o.x, y: o.y, z: o.z };
    this.face = options.face ?? true;
    this.beforeStep = options.beforeStep ?? null;
    this.afterStep = options.afterStep ?? null;
    // Babylon ignores `rotation` (Euler) once rotationQuaternion is set; made once here.
    if (this.face && !node.rotationQuaternion) node.rotationQuaternion = new Quaternion();
    const p = walker.controller.position;
    this.spawn.x = p.x; this.spawn.y = p.y; this.spawn.z = p.z;
    this.spawnYaw = walker.yaw;
    this.capture();
    world.addStepper(this);
    this.attached = true;
    this.sync(1);
  }

  /** @internal WorldStepper: one walker update per fixed step. */
  postStep(world: World, dt: number): void {
    if (world.stepCount !== this.capturedStep) this.capture();
    if (this.beforeStep !== null) this.beforeStep(this, dt);
    const r = this.walker.update(dt);
    if (this.afterStep !== null) this.afterStep(r, this);
  }

  /**
   * Places the node between the pose before the latest step and the pose
   * after it: alpha from `world.advance` (1 = the latest step). Allocates nothing.
   */
  sync(alpha = 1): void {
    const a = alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
    const c = this.walker.controller;
    const p = c.position, q0 = this.previous;
    const o = this.offsetWorld;
    o.x = this.offset.x; o.y = this.offset.y; o.z = this.offset.z;
    const cr = c.rotation;
    if (o.x !== 0 || o.y !== 0 || o.z !== 0) quat.rotate(o, cr, o);
    this.node.position.set(q0.x + (p.x - q0.x) * a + o.x, q0.y + (p.y - q0.y) * a + o.y, q0.z + (p.z - q0.z) * a + o.z);
    if (!this.face) return;
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

  private capture(): void {
    const p = this.walker.controller.position;
    this.previous.x = p.x; this.previous.y = p.y; this.previous.z = p.z;
    this.previousYaw = this.walker.yaw;
    this.capturedStep = this.world.stepCount;
  }
}
