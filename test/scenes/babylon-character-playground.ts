/**
 * The character controller scene of Babylon's Physics V2 documentation
 * ("Physics character controller": a 1.8 m capsule driven by keys, walking at
 * 10 m/s, 8 m/s of air control, jumping 1.5 m under a gravity of 18 m/s²),
 * ported as a function of the controller class. Its character code calls
 * only the API of Babylon's PhysicsCharacterController (the type below is a
 * Pick of it), so the same function runs Havok's class or
 * FootingCharacterController: the class is the only thing that changes.
 *
 * The level is the caller's (static bodies in the physics engine, meshes for
 * show). The keys are `input`: `direction` in the character's frame (the
 * documentation turns it by the camera's yaw; here the orientation is fixed
 * at identity, so it is the world direction) and `jump` while the jump key
 * is held.
 */
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import type {
  CharacterShapeOptions, CharacterSupportedState, CharacterSurfaceInfo, PhysicsCharacterController,
} from '@babylonjs/core/Physics/v2/characterController';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent';

/** The part of Babylon's controller the scene uses. */
export type PlaygroundController = Pick<PhysicsCharacterController,
  'checkSupport' | 'getVelocity' | 'setVelocity' | 'integrate' | 'calculateMovement' | 'getPosition' | 'setPosition' | 'setShapeOptions' |
  'characterStrength' | 'characterMass' | 'maxSlopeCosine' | 'maxStepHeight' | 'keepDistance' | 'dispose'>;

/** A controller class with Babylon's constructor: PhysicsCharacterController, FootingCharacterController, … */
export type PlaygroundControllerClass = new (position: Vector3, characterShapeOptions: CharacterShapeOptions, scene: Scene) => PlaygroundController;

export type PlaygroundState = 'IN_AIR' | 'ON_GROUND' | 'START_JUMP';

export interface PlaygroundInput {
  readonly direction: Vector3;
  jump: boolean;
}

export interface CharacterPlayground {
  readonly controller: PlaygroundController;
  readonly display: Mesh;
  readonly input: PlaygroundInput;
  /** The state machine's state after the last physics step. */
  readonly state: PlaygroundState;
  /** The support reported by the last physics step (Babylon's CharacterSupportedState: 0 unsupported, 1 sliding, 2 supported). */
  readonly support: CharacterSupportedState;
}

// the documentation's numbers
export const CAPSULE_HEIGHT = 1.8;
export const CAPSULE_RADIUS = 0.6;
export const ON_GROUND_SPEED = 10;
export const IN_AIR_SPEED = 8;
export const JUMP_HEIGHT = 1.5;
export const CHARACTER_GRAVITY = 18;

export function createCharacterPlayground(scene: Scene, Controller: PlaygroundControllerClass, start: Vector3): CharacterPlayground {
  const gravity = new Vector3(0, -CHARACTER_GRAVITY, 0);
  const input: PlaygroundInput = { direction: new Vector3(0, 0, 0), jump: false };
  const forwardLocal = new Vector3(0, 0, 1);
  const orientation = Quaternion.Identity();
  const display = CreateCapsule('CharacterDisplay', { height: CAPSULE_HEIGHT, radius: CAPSULE_RADIUS }, scene);
  const controller = new Controller(start.clone(), { capsuleHeight: CAPSULE_HEIGHT, capsuleRadius: CAPSULE_RADIUS }, scene);
  let state: PlaygroundState = 'IN_AIR';
  let support = 0 as CharacterSupportedState;
  const SUPPORTED = 2 as CharacterSupportedState;

  // The state machine: on the ground while supported, in the air otherwise; a jump lasts one step.
  const nextState = (info: CharacterSurfaceInfo): PlaygroundState => {
    if (state === 'IN_AIR') return info.supportedState === SUPPORTED ? 'ON_GROUND' : 'IN_AIR';
    if (state === 'ON_GROUND') {
      if (info.supportedState !== SUPPORTED) return 'IN_AIR';
      return input.jump ? 'START_JUMP' : 'ON_GROUND';
    }
    return 'IN_AIR';
  };

  // The velocity the character wants this step, from the state, the keys and the surface.
  const desiredVelocity = (dt: number, info: CharacterSurfaceInfo, current: Vector3): Vector3 => {
    state = nextState(info);
    const upWorld = gravity.normalizeToNew().scaleInPlace(-1);
    const forwardWorld = forwardLocal.applyRotationQuaternion(orientation);
    if (state === 'IN_AIR') {
      const wish = input.direction.scale(IN_AIR_SPEED).applyRotationQuaternion(orientation);
      const out = controller.calculateMovement(dt, forwardWorld, upWorld, current, Vector3.ZeroReadOnly, wish, upWorld);
      // air control acts sideways only: keep the vertical speed, then fall
      out.addInPlace(upWorld.scale(-out.dot(upWorld)));
      out.addInPlace(upWorld.scale(current.dot(upWorld)));
      out.addInPlace(gravity.scale(dt));
      return out;
    }
    if (state === 'ON_GROUND') {
      const wish = input.direction.scale(ON_GROUND_SPEED).applyRotationQuaternion(orientation);
      let out = controller.calculateMovement(dt, forwardWorld, info.averageSurfaceNormal, current, info.averageSurfaceVelocity, wish, upWorld);
      // uphill, walk horizontally at the speed that keeps the speed along the slope
      out.subtractInPlace(info.averageSurfaceVelocity);
      if (out.dot(upWorld) > 1e-3) {
        const speed = out.length();
        out.normalizeFromLength(speed);
        const horizontal = speed / info.averageSurfaceNormal.dot(upWorld);
        out = info.averageSurfaceNormal.cross(out).cross(upWorld).scaleInPlace(horizontal);
      }
      return out.addInPlace(info.averageSurfaceVelocity);
    }
    // START_JUMP: the take-off speed that reaches JUMP_HEIGHT, u = √(2 g h)
    const u = Math.sqrt(2 * CHARACTER_GRAVITY * JUMP_HEIGHT);
    return current.add(upWorld.scale(u - current.dot(upWorld)));
  };

  scene.onBeforeRenderObservable.add(() => {
    display.position.copyFrom(controller.getPosition());
  });

  scene.onAfterPhysicsObservable.add(() => {
    if (scene.deltaTime === undefined) return;
    const dt = scene.deltaTime / 1000;
    if (dt === 0) return;
    const info = controller.checkSupport(dt, new Vector3(0, -1, 0));
    support = info.supportedState;
    controller.setVelocity(desiredVelocity(dt, info, controller.getVelocity()));
    controller.integrate(dt, info, gravity);
  });

  return {
    controller, display, input,
    get state() { return state; },
    get support() { return support; },
  };
}
