// The `footing/babylon` entry point: the only part of footing that imports
// Babylon.js (deep @babylonjs/core imports, so bundlers keep what is used).
export { BodyLink, BodyLinks, syncNodeToBody } from './link';
export {
  colliderFromMesh, bakeTriangles, triangleMeshFromMeshes, createStaticMeshCollider, heightFieldFromGround,
  type GroundHeightField, type PrimitiveKind, type MeshCollider, type BakedTriangles, type StaticMeshColliderOptions,
} from './colliders';
export { PhysicsDebugView, type PhysicsDebugViewOptions } from './debug-view';
export { CharacterDebugView, type CharacterDebugViewOptions, type CharacterFrameStats } from './character-view';
export {
  exposeInspectorProperties, inspectorPropertyName, type CharacterInspectorTargets, type InspectorProperties,
  type CharacterInspectorProperties, type WalkerInspectorProperties, type SolverInspectorProperties,
} from './inspector';
export { LineBuffer } from './line-buffer';
export { CharacterLink, type CharacterLinkOptions } from './character-link';
export { FollowCamera, type FollowCameraOptions } from './follow-camera';
export { meshFromShape, setMeshMaterial, createRagdollMeshes, type ShapeMeshOptions, type RagdollMeshOptions } from './shape-mesh';
export { FootingCharacterController, isFootingWorld, type FootingCharacterControllerOptions, type FootingCharacterControllerClass, type FootingCharacterCollisionEvent, type FootingWorldHost } from './character-controller/index';
export { FootingPlugin, FootingEventMask, FootingPluginUnsupportedError, type FootingPluginOptions } from './plugin/footing-plugin';
