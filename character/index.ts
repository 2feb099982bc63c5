// The `footing/character` entry point: explicit named exports only.
export {
  CharacterController, MoveResult, MAX_CHARACTER_PLANES, CHARACTER_SNAPSHOT_VERSION, type CharacterSnapshot,
  type CharacterSettings, type CharacterControllerOptions,
} from './controller';
export { CharacterPlane, solvePlanes, solvePlanesWith, clipVector, type SolveLimits } from './plane-solver';
export { Walker, WalkerEvent, type WalkerSnapshot, type WalkerSettings, type WalkerState, type WalkerEventName, type WalkerListener } from './walker';
