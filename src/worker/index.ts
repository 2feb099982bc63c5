// The `footing/worker` entry point: physics in a Web Worker. The client
// (main thread) imports no physics code; the host (worker) owns the World.
export { PhysicsClient, PhysicsWorkerError, type PhysicsClientOptions } from './client';
export { PhysicsHost, hostPhysics, shapeFromDesc, workerSnapshotTransferList, type PhysicsHostOptions } from './host';
export { describeShape } from './describe';
export {
  FRAME_STRIDE, F_POSITION, F_ROTATION, F_STATE, F_GENERATION, SLOT_COUNT, slotOf, generationOf,
  STATE_EMPTY, STATE_AWAKE, STATE_SLEEPING, STATE_GROUNDED, STATE_AIRBORNE, STATE_SLIDING, WORKER_EVENT_NAMES, JOINT_KIND_NAMES, PROTOCOL_VERSION,
  type ShapeDesc, type BodyDescData, type TrackedBodyData, type CharacterDescData, type WorldDescData, type RaycastHitData, type RaycastOptionsData,
  type JointDescData, type JointKindName, type JointChangesData, type WorldSettingsData, type WorldSettingsState, type WorkerSnapshot,
  type WorkerEventName, type WorkerEventMap, type WorkerListener, type ContactEventData, type SensorEventData, type JointBreakEventData,
  type ClientMessage, type HostMessage, type MessagePortLike,
  type QueryOptionsData, type ShapeCastHitData, type OverlapContactData, type CharacterSettingsData, type CharacterSettingsState,
  type RagdollDescData, type RagdollBoneData, type RagdollData,
} from './protocol';
