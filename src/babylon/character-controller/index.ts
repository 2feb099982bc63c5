// Babylon's PhysicsCharacterController API on footing (docs/babylon-character.md).
export {
  FootingCharacterController, type FootingCharacterControllerOptions, type FootingCharacterControllerClass, type FootingCharacterCollisionEvent,
} from './footing-character-controller';
export { isFootingWorld, resolveFootingWorld, type FootingWorldHost } from './world-host';
