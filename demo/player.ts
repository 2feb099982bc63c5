// The capsule character: a CharacterController driven by a Walker, keyboard
// input relative to a third-person camera that orbits with the mouse and is
// kept out of walls by a sphere cast from the character's head.
import type { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import { Sphere, type RigidBody, type Vec3, type World } from '../src/index';
import { CharacterController, Walker } from '../character/index';

const STAND_HALF_HEIGHT = 0.6;
const CROUCH_HALF_HEIGHT = 0.3;
const RADIUS = 0.3;
const WALK_SPEED = 4;
const RUN_SPEED = 7;
const CROUCH_SPEED = 2;
const CAMERA_PROBE_RADIUS = 0.2;

/** Which movement keys are held (set by the demo's keyboard handler). */
export interface MoveKeys {
  forward: boolean; back: boolean; left: boolean; right: boolean; run: boolean; crouch: boolean;
}

export class Player {
  readonly controller: CharacterController;
  readonly walker: Walker;
  /** The visible capsule: also the node that carries the Inspector properties. */
  readonly mesh: Mesh;
  readonly keys: MoveKeys = { forward: false, back: false, left: false, right: false, run: false, crouch: false };
  /** Camera orbit: yaw about y (0 looks along +z), pitch above the horizon, distance. */
  yaw = 0;
  pitch = 0.35;
  distance = 6;
  crouched = false;

  private readonly world: World;
  private readonly prev: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly camShape = new Sphere(CAMERA_PROBE_RADIUS);
  private readonly identity = { x: 0, y: 0, z: 0, w: 1 };
  private readonly head: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly camOffset: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly castOptions: { exclude: RigidBody | null } = { exclude: null };
  private readonly lookAt = new Vector3();
  private facing = 0;

  constructor(world: World, scene: Scene, spawn: Vec3, mat: StandardMaterial) {
    this.world = world;
    this.controller = new CharacterController(world, { position: spawn, radius: RADIUS, halfHeight: STAND_HALF_HEIGHT });
    this.walker = new Walker(this.controller, { speed: WALK_SPEED });
    this.castOptions.exclude = this.controller.body;
    this.prev.x = spawn.x; this.prev.y = spawn.y; this.prev.z = spawn.z;
    this.mesh = CreateCapsule('player', { radius: RADIUS, height: 2 * (STAND_HALF_HEIGHT + RADIUS), tessellation: 16 }, scene);
    this.mesh.material = mat;
    this.mesh.rotationQuaternion = new Quaternion();
    // a visor so that the facing direction shows
    const visor = CreateBox('playerVisor', { width: 0.3, height: 0.1, depth: 0.12 }, scene);
    visor.parent = this.mesh;
    visor.position.set(0, 0.45, 0.27);
    visor.material = mat;
    this.mesh.position.set(spawn.x, spawn.y, spawn.z);
  }

  /** Teleports the character (and the interpolation start) and stops it. */
  teleport(p: Vec3): void {
    this.controller.setPosition(p);
    this.prev.x = p.x; this.prev.y = p.y; this.prev.z = p.z;
    const v = this.walker.velocity;
    v.x = 0; v.y = 0; v.z = 0;
  }

  /** One fixed step: input → walker → controller. */
  step(dt: number): void {
    const p = this.controller.position;
    this.prev.x = p.x; this.prev.y = p.y; this.prev.z = p.z;
    const k = this.keys;
    if (k.crouch !== this.crouched) {
      // Standing up fails (and is retried next step) while something is overhead.
      if (this.controller.setHalfHeight(k.crouch ? CROUCH_HALF_HEIGHT : STAND_HALF_HEIGHT)) this.crouched = k.crouch;
    }
    const f = (k.forward ? 1 : 0) - (k.back ? 1 : 0);
    const r = (k.right ? 1 : 0) - (k.left ? 1 : 0);
    // camera forward (sin yaw, 0, cos yaw) and right (cos yaw, 0, −sin yaw) in Babylon's left-handed axes
    const sy = Math.sin(this.yaw), cy = Math.cos(this.yaw);
    let x = f * sy + r * cy, z = f * cy - r * sy;
    const len = Math.hypot(x, z);
    if (len > 1) { x /= len; z /= len; }
    this.walker.settings.speed = this.crouched ? CROUCH_SPEED : k.run ? RUN_SPEED : WALK_SPEED;
    this.walker.setInput(x, 0, z);
    if (len > 0.01) this.facing = Math.atan2(x, z);
    this.walker.update(dt);
  }

  /** Places the capsule mesh between the last two steps (alpha in [0, 1]) and the camera behind it. */
  render(alpha: number, camera: TargetCamera): void {
    const p = this.controller.position;
    const m = this.mesh;
    m.position.set(this.prev.x + (p.x - this.prev.x) * alpha, this.prev.y + (p.y - this.prev.y) * alpha, this.prev.z + (p.z - this.prev.z) * alpha);
    const sy = this.crouched ? CROUCH_HALF_HEIGHT + RADIUS : STAND_HALF_HEIGHT + RADIUS;
    m.scaling.y = sy / (STAND_HALF_HEIGHT + RADIUS);
    Quaternion.RotationYawPitchRollToRef(this.facing, 0, 0, m.rotationQuaternion!);
    this.placeCamera(camera);
  }

  /**
   * The camera looks at the head from `distance` behind; a sphere cast from
   * the head towards the wanted camera position stops it in front of walls:
   * camera = head + offset · max(0, fraction − margin).
   */
  private placeCamera(camera: TargetCamera): void {
    const m = this.mesh.position;
    const head = this.head;
    head.x = m.x; head.y = m.y + 0.5; head.z = m.z;
    const cp = Math.cos(this.pitch);
    const o = this.camOffset;
    o.x = -Math.sin(this.yaw) * cp * this.distance;
    o.y = Math.sin(this.pitch) * this.distance;
    o.z = -Math.cos(this.yaw) * cp * this.distance;
    this.castOptions.exclude = this.controller.body;
    const hit = this.world.shapeCast(this.camShape, head, this.identity, o, this.castOptions);
    let f = 1;
    if (hit) f = Math.max(0, hit.fraction - 0.05 / this.distance);
    camera.position.set(head.x + o.x * f, head.y + o.y * f, head.z + o.z * f);
    this.lookAt.set(head.x, head.y, head.z);
    camera.setTarget(this.lookAt);
  }
}

