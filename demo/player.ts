// The capsule character: a CharacterController driven by a Walker, stepped by
// the world through footing/babylon's CharacterLink (inside world.advance,
// drawn interpolated, facing its walking direction), keyboard input relative
// to a FollowCamera that orbits with the mouse and stays out of walls.
import type { TargetCamera } from '@babylonjs/core/Cameras/targetCamera';
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import type { Vec3, World } from '../src/index';
import { CharacterController, Walker } from '../character/index';
import { CharacterLink, FollowCamera } from '../src/babylon/index';

const STAND_HALF_HEIGHT = 0.6;
const CROUCH_HALF_HEIGHT = 0.3;
const RADIUS = 0.3;
const WALK_SPEED = 4;
const RUN_SPEED = 7;
const CROUCH_SPEED = 2;
const CAMERA_PROBE_RADIUS = 0.2;

/** The character's shape (also what the worker mode creates its character with). */
export const PLAYER_SHAPE = { radius: RADIUS, halfHeight: STAND_HALF_HEIGHT, walkSpeed: WALK_SPEED } as const;

/** The visible capsule, with a visor so that the facing direction shows. */
export function createPlayerMesh(scene: Scene, mat: StandardMaterial): Mesh {
  const mesh = CreateCapsule('player', { radius: RADIUS, height: 2 * (STAND_HALF_HEIGHT + RADIUS), tessellation: 16 }, scene);
  mesh.material = mat;
  const visor = CreateBox('playerVisor', { width: 0.3, height: 0.1, depth: 0.12 }, scene);
  visor.parent = mesh;
  visor.position.set(0, 0.45, 0.27);
  visor.material = mat;
  return mesh;
}

/** Which movement keys are held (set by the demo's keyboard handler). */
export interface MoveKeys {
  forward: boolean; back: boolean; left: boolean; right: boolean; run: boolean; crouch: boolean;
}

export class Player {
  readonly controller: CharacterController;
  readonly walker: Walker;
  /** The visible capsule: also the node that carries the Inspector properties. */
  readonly mesh: Mesh;
  readonly link: CharacterLink;
  readonly camera: FollowCamera;
  readonly keys: MoveKeys = { forward: false, back: false, left: false, right: false, run: false, crouch: false };
  crouched = false;

  constructor(world: World, scene: Scene, spawn: Vec3, mat: StandardMaterial, camera: TargetCamera) {
    this.controller = new CharacterController(world, { position: spawn, radius: RADIUS, halfHeight: STAND_HALF_HEIGHT });
    this.walker = new Walker(this.controller, { speed: WALK_SPEED });
    this.mesh = createPlayerMesh(scene, mat);
    this.link = new CharacterLink(world, this.walker, this.mesh, { beforeStep: () => this.readInput() });
    this.camera = new FollowCamera(world, camera, this.mesh, { distance: 6, pitch: 0.35, radius: CAMERA_PROBE_RADIUS, exclude: this.controller.body });
  }

  /** Camera orbit about y (0 looks along +z); walking input is relative to it. */
  get yaw(): number { return this.camera.yaw; }
  set yaw(v: number) { this.camera.yaw = v; }
  get pitch(): number { return this.camera.pitch; }
  set pitch(v: number) { this.camera.pitch = v; }
  get distance(): number { return this.camera.distance; }
  set distance(v: number) { this.camera.distance = v; }

  /** Teleports the character and stops it (no interpolation from the old place). */
  teleport(p: Vec3): void {
    this.link.teleport(p);
  }

  /** Places the capsule between the last two steps (alpha from world.advance) and the camera behind it. */
  render(alpha: number, frameSeconds: number): void {
    this.link.sync(alpha);
    const sy = this.crouched ? CROUCH_HALF_HEIGHT + RADIUS : STAND_HALF_HEIGHT + RADIUS;
    this.mesh.scaling.y = sy / (STAND_HALF_HEIGHT + RADIUS);
    this.camera.update(frameSeconds);
  }

  /** At the start of every fixed step: crouch, and the held keys → walker input. */
  private readInput(): void {
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
  }
}
