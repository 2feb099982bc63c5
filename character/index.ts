// The `footing/character` entry point: explicit named exports only.
export {
  CharacterController, MoveResult, MAX_CHARACTER_PLANES, MAX_CHARACTER_ITERATIONS, MAX_CHARACTER_SWEEPS,
  type CharacterSettings, type CharacterControllerOptions,
} from './controller';
export { CharacterPlane, solvePlanes, solvePlanesWith, clipVector, type SolveLimits } from './plane-solver';
export { Walker, WalkerEvent, type WalkerSettings, type WalkerState, type WalkerEventName, type WalkerListener } from './walker';
