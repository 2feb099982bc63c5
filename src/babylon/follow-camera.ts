/**
 * FollowCamera: a third-person camera that orbits a target (a node, e.g. the
 * character's, or a point) and does not go through walls.
 *
 * Each update the wanted camera position is pivot + distance · d, with the
 * pivot `height` above the target and d = (−sin yaw cos pitch, sin pitch,
 * −cos yaw cos pitch) (yaw 0 looks along +z, as Walker.yaw). A sphere of
 * `radius` is cast from the pivot along that offset (footing's shapeCast):
 * at the first hit the sphere touches the obstacle, so a camera placed at
 * the hit fraction (less `margin`) keeps at least `radius` from every
 * surface. The allowed distance is taken at once when it shrinks (no frame
 * inside a wall) and eased back out with time constant `easeOutTime` when it
 * grows (no jump when the obstacle clears):
 *   d ← allowed                                  if allowed < d
 *   d ← d + (allowed − d)(1 − e^(−Δt/τ))         otherwise
 * so d never exceeds the allowed distance of the current frame.
 *
 * The camera is turned to the orbit's yaw and pitch (it looks at the pivot);
 * a TargetCamera or one of its subclasses (UniversalCamera, FreeCamera), not
 * an ArcRotateCamera, which places itself.
 */
import type { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Sphere, type RigidBody, type ShapeCastHit, type ShapeCastOptions, type Vec3, type World } from '../index';
import { described, requireNode, requireObject } from './checks';

export interface FollowCameraOptions {
  /** Orbit distance from the pivot, metres > 0. Default 5. */
  distance?: number;
  /** Orbit angle about +y, radians (0 looks along +z). Default 0. */
  yaw?: number;
  /** Angle above the horizon, radians in [−π/2, π/2]. Default 0.35. */
  pitch?: number;
  /** Pivot height above the target, metres. Default 0.5 (a capsule's head from its centre). */
  height?: number;
  /** Radius of the probe sphere (the smallest clearance kept from walls), metres > 0. Default 0.2. */
  radius?: number;
  /** Extra gap left in front of a hit, metres ≥ 0. Default 0.02. */
  margin?: number;
  /** Time constant of easing back out once the way is clear, seconds ≥ 0 (0: at once). Default 0.25. */
  easeOutTime?: number;
  /** A body the probe ignores: the character's own capsule (`controller.body`). Default null. */
  exclude?: RigidBody | null;
  /** Groups the probe hits. Default 0xffffffff. */
  collisionMask?: number;
  /** Return false to let the camera pass through a body (small props, ragdolls). */
  filter?: ((body: RigidBody) => boolean) | null;
}

function requireNumber(value: number, field: string, min: number, max: number, minOpen = false): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || (minOpen ? value <= min : value < min) || value > max) {
    throw new RangeError(`FollowCamera: ${field} must be a finite number in ${minOpen ? '(' : '['}${min}, ${max}] (got ${String(value)})`);
  }
}

export class FollowCamera {
  readonly world: World;
  readonly camera: TargetCamera;
  /** The followed node (its world position, after `link.sync`) or point. */
  target: TransformNode | Vec3;
  distance: number;
  yaw: number;
  pitch: number;
  height: number;
  margin: number;
  easeOutTime: number;
  /** Distance used by the last update (≤ distance; smaller behind walls). */
  currentDistance: number;
  /** Whether the last update's probe hit something. */
  blocked = false;

  private readonly probe: Sphere;
  private readonly identity = { x: 0, y: 0, z: 0, w: 1 };
  private readonly pivot: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly offset: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly hit: ShapeCastHit;
  private readonly castOptions: ShapeCastOptions;

  constructor(world: World, camera: TargetCamera, target: TransformNode | Vec3, options: FollowCameraOptions = {}) {
    if (world === null || typeof world !== 'object' || typeof world.shapeCast !== 'function') throw new TypeError(`FollowCamera: world must be a footing World (got ${described(world)})`);
    requireNode(camera, 'FollowCamera: camera', 'TargetCamera');
    requireTarget(target);
    requireObject(options, 'FollowCamera: options');
    this.world = world;
    this.camera = camera;
    this.target = target;
    this.distance = options.distance ?? 5;
    this.yaw = options.yaw ?? 0;
    this.pitch = options.pitch ?? 0.35;
    this.height = options.height ?? 0.5;
    this.margin = options.margin ?? 0.02;
    this.easeOutTime = options.easeOutTime ?? 0.25;
    const radius = options.radius ?? 0.2;
    requireNumber(radius, 'radius', 0, 1e3, true);
    this.checkSettings();
    this.probe = new Sphere(radius);
    this.currentDistance = this.distance;
    this.hit = { fraction: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body: null as unknown as RigidBody, triangle: -1 };
    this.castOptions = { exclude: options.exclude ?? null, collisionMask: options.collisionMask ?? 0xffffffff, filter: options.filter ?? null, out: this.hit };
  }

  /** Radius of the probe sphere, metres. */
  get radius(): number {
    return this.probe.radius;
  }

  /** The body the probe ignores (e.g. after the character's body was replaced). */
  set exclude(body: RigidBody | null) {
    this.castOptions.exclude = body;
  }

  /**
   * Places the camera for a frame of `frameSeconds` (for the ease-out) and
   * points it at the pivot. Call after the target was moved (after
   * `link.sync(alpha)`). Allocates nothing.
   */
  update(frameSeconds: number): void {
    if (!(frameSeconds >= 0) || !Number.isFinite(frameSeconds)) throw new RangeError(`FollowCamera.update: frameSeconds must be a finite number ≥ 0 (got ${String(frameSeconds)})`);
    this.checkSettings();
    const t = this.target;
    requireTarget(t);
    let tp: Readonly<Vec3> = t as Vec3;
    if (isNode(t)) {
      // The world matrix is refreshed at render; the node was just moved.
      if (t.parent) { t.computeWorldMatrix(true); tp = t.getAbsolutePosition(); } else tp = t.position;
    }
    const pivot = this.pivot;
    pivot.x = tp.x; pivot.y = tp.y + this.height; pivot.z = tp.z;
    const cp = Math.cos(this.pitch);
    const o = this.offset;
    const D = this.distance;
    o.x = -Math.sin(this.yaw) * cp * D;
    o.y = Math.sin(this.pitch) * D;
    o.z = -Math.cos(this.yaw) * cp * D;
    const hit = this.world.shapeCast(this.probe, pivot, this.identity, o, this.castOptions);
    let allowed = D;
    this.blocked = hit !== null;
    if (hit !== null) {
      allowed = hit.fraction * D - this.margin;
      if (allowed < 0) allowed = 0;
    }
    let d = this.currentDistance;
    if (allowed < d || this.easeOutTime === 0) d = allowed;
    else d += (allowed - d) * (1 - Math.exp(-frameSeconds / this.easeOutTime));
    if (d > D) d = D;
    this.currentDistance = d;
    const k = D > 0 ? d / D : 0;
    const cam = this.camera;
    cam.position.set(pivot.x + o.x * k, pivot.y + o.y * k, pivot.z + o.z * k);
    // Looking back along the offset is looking at the pivot, whatever the
    // distance (also 0): the rotation is the orbit's yaw and pitch (Babylon's
    // positive pitch looks down). setTarget would allocate every frame.
    if (cam.rotationQuaternion) Quaternion.RotationYawPitchRollToRef(this.yaw, this.pitch, 0, cam.rotationQuaternion);
    else cam.rotation.set(this.pitch, this.yaw, 0);
  }

  private checkSettings(): void {
    // Fast path with named loads only (no double arguments to box); false for NaN.
    if (
      this.distance > 0 && this.distance <= 1e4 && Math.abs(this.yaw) <= 1e9 && Math.abs(this.pitch) <= Math.PI / 2 &&
      Math.abs(this.height) <= 1e4 && this.margin >= 0 && this.margin <= 1e3 && this.easeOutTime >= 0 && this.easeOutTime <= 1e3
    ) return;
    requireNumber(this.distance, 'distance', 0, 1e4, true);
    requireNumber(this.yaw, 'yaw', -1e9, 1e9);
    requireNumber(this.pitch, 'pitch', -Math.PI / 2, Math.PI / 2);
    requireNumber(this.height, 'height', -1e4, 1e4);
    requireNumber(this.margin, 'margin', 0, 1e3);
    requireNumber(this.easeOutTime, 'easeOutTime', 0, 1e3);
  }
}

/** `target` is a public field: a null written there is named, not read through. */
function requireTarget(t: TransformNode | Vec3): void {
  if (t === null || typeof t !== 'object') throw new TypeError(`FollowCamera: target must be a Babylon node or a { x, y, z } point (got ${described(t)})`);
}

function isNode(t: TransformNode | Vec3): t is TransformNode {
  return typeof (t as TransformNode).getAbsolutePosition === 'function';
}
