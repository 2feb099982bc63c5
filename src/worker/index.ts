// The `footing/worker` entry point: physics in a Web Worker. The client
// (main thread) imports no physics code; the host (worker) owns the World.
export { PhysicsClient, PhysicsWorkerError, type PhysicsClientOptions } from './client';
export { PhysicsHost, hostPhysics, shapeFromDesc, type PhysicsHostOptions } from './host';
export { describeShape } from './describe';
export {
  FRAME_STRIDE, F_POSITION, F_ROTATION, F_STATE, F_GENERATION, SLOT_COUNT, slotOf, generationOf,
  STATE_EMPTY, STATE_AWAKE, STATE_SLEEPING, STATE_GROUNDED, STATE_AIRBORNE, STATE_SLIDING,
  type ShapeDesc, type BodyDescData, type TrackedBodyData, type CharacterDescData, type WorldDescData, type RaycastHitData, type RaycastOptionsData,
  type ClientMessage, type HostMessage, type MessagePortLike,
} from './protocol';
