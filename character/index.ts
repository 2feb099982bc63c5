// The `footing/character` entry point: explicit named exports only.
export {
  CharacterController, MoveResult, MAX_CHARACTER_PLANES, MAX_CHARACTER_ITERATIONS, MAX_CHARACTER_SWEEPS, MAX_CHARACTER_LENGTH, MAX_CHARACTER_DISPLACEMENT,
  CHARACTER_SNAPSHOT_VERSION, type CharacterSnapshot, type CharacterSettings, type CharacterControllerOptions,
} from './controller';
export { CharacterPlane, solvePlanes, solvePlanesWith, clipVector, type SolveLimits, type SlopeLimit } from './plane-solver';
export {
  Walker, WalkerEvent, MAX_WALKER_SPEED, MAX_WALKER_DT, MAX_WALKER_ACCELERATION, MAX_WALKER_RATE, MAX_WALKER_VELOCITY, type WalkerSnapshot, type WalkerSettings, type WalkerState,
  type WalkerEventName, type WalkerListener,
} from './walker';
