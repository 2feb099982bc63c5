// The static level: every piece is a Babylon mesh first, and its collider is
// made from the mesh by the adapter (colliderFromMesh for boxes,
// triangleMeshFromMeshes for the terrain), the way a game would do it. The
// numbers live in level-data.ts, which the worker mode builds from too;
// without a world (worker mode) only the meshes are made.
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture';
import { Texture } from '@babylonjs/core/Materials/Textures/texture';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import type { Scene } from '@babylonjs/core/scene';
import { Box, type RigidBody, type World } from '../src/index';
import {
  GROUND_HALF, LANDMARKS, LEVEL_FRICTION, PLATFORM_DATA, PLATFORM_FRICTION, PLATFORM_HEIGHT, PLATFORM_Y, Platforms, TERRAIN,
  levelBlocks, terrainGrid, type Landmarks, type LevelMaterial,
} from './level-data';

export { GROUND_HALF, Platforms, type Landmarks } from './level-data';
import { colliderFromMesh, triangleMeshFromMeshes } from '../src/babylon/index';

export interface Level {
  landmarks: Landmarks;
  /** Kinematic platforms, moved by `update(time)` before each step (null without a world). */
  platforms: Platforms | null;
  meshes: Mesh[];
}

export function material(scene: Scene, name: string, r: number, g: number, b: number): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(r, g, b);
  m.specularColor = new Color3(0.1, 0.1, 0.1);
  return m;
}

function gridMaterial(scene: Scene): StandardMaterial {
  // 1 m cells with a stronger line every 5 m, drawn once into a canvas texture.
  const size = 512;
  const tex = new DynamicTexture('gridTex', { width: size, height: size }, scene, true);
  const ctx = tex.getContext();
  ctx.fillStyle = '#6d7a6a';
  ctx.fillRect(0, 0, size, size);
  const cells = 5;
  for (let i = 0; i <= cells; i++) {
    const x = (i * size) / cells;
    ctx.strokeStyle = i % cells === 0 ? '#2f3a2d' : '#55614f';
    ctx.lineWidth = i % cells === 0 ? 6 : 3;
    ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, size); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(0, x); ctx.lineTo(size, x); ctx.stroke();
  }
  tex.update();
  // DynamicTexture clamps by default; the grid repeats.
  tex.wrapU = Texture.WRAP_ADDRESSMODE;
  tex.wrapV = Texture.WRAP_ADDRESSMODE;
  tex.uScale = (2 * GROUND_HALF) / cells;
  tex.vScale = (2 * GROUND_HALF) / cells;
  const m = new StandardMaterial('groundMat', scene);
  m.diffuseTexture = tex;
  m.specularColor = new Color3(0.05, 0.05, 0.05);
  return m;
}

export function buildLevel(world: World | null, scene: Scene): Level {
  const meshes: Mesh[] = [];
  const mats: Record<LevelMaterial, StandardMaterial> = {
    grey: material(scene, 'levelGrey', 0.62, 0.62, 0.66),
    sand: material(scene, 'levelSand', 0.8, 0.72, 0.52),
    brick: material(scene, 'levelBrick', 0.68, 0.42, 0.36),
    teal: material(scene, 'levelTeal', 0.3, 0.6, 0.62),
  };

  // Ground: a Babylon ground mesh for the picture, a thick static box for the physics.
  const ground = CreateGround('ground', { width: 2 * GROUND_HALF, height: 2 * GROUND_HALF }, scene);
  ground.material = gridMaterial(scene);
  ground.freezeWorldMatrix();
  meshes.push(ground);
  world?.createBody({ type: 'static', shape: new Box({ x: GROUND_HALF, y: 0.5, z: GROUND_HALF }), position: { x: 0, y: -0.5, z: 0 }, friction: LEVEL_FRICTION, userData: 'ground' });

  // Ramps, staircases, a wedge corner, a V corridor and a low tunnel: each a
  // static box mesh and its collider (from the mesh, through the adapter).
  for (const b of levelBlocks()) {
    const mesh = CreateBox(b.name, { width: b.width, height: b.height, depth: b.depth }, scene);
    mesh.position.set(b.position.x, b.position.y, b.position.z);
    if (b.rotation) mesh.rotationQuaternion = new Quaternion(b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w);
    mesh.material = mats[b.material];
    mesh.freezeWorldMatrix();
    world?.createBody({ type: 'static', ...colliderFromMesh(mesh, 'box'), friction: LEVEL_FRICTION, userData: b.name });
    meshes.push(mesh);
  }

  // Kinematic platforms (tops 0.25 m above the ground: one step up).
  const platMat = material(scene, 'platform', 0.95, 0.8, 0.25);
  const platformBodies: RigidBody[] = [];
  for (const p of PLATFORM_DATA) {
    const mesh = CreateBox(p.name, { width: p.width, height: PLATFORM_HEIGHT, depth: p.depth }, scene);
    mesh.position.set(p.x, PLATFORM_Y, p.z);
    mesh.material = platMat;
    mesh.rotationQuaternion = new Quaternion();
    if (world) platformBodies.push(world.createBody({ type: 'kinematic', ...colliderFromMesh(mesh, 'box'), friction: PLATFORM_FRICTION, userData: p.name }));
    meshes.push(mesh);
  }

  // A terrain patch: a height field baked into a TriangleMesh from its Babylon mesh.
  const terrain = terrainMesh(scene, TERRAIN.size, TERRAIN.n, TERRAIN.cx, TERRAIN.cz);
  terrain.material = material(scene, 'terrain', 0.45, 0.6, 0.38);
  meshes.push(terrain);
  world?.createBody({ type: 'static', shape: triangleMeshFromMeshes(terrain), friction: LEVEL_FRICTION, userData: 'terrain' });

  return {
    meshes,
    platforms: world ? new Platforms(platformBodies[0]!, platformBodies[1]!) : null,
    landmarks: LANDMARKS,
    // the platform meshes follow their bodies through the demo's BodyLinks
  } satisfies Level;
}

/** Meshes of the two kinematic platforms, by body, for linking. */
export function platformMeshes(level: Level): Mesh[] {
  return level.meshes.filter((m) => m.name === 'sliderPlatform' || m.name === 'turntable');
}

/** The terrain's height field (level-data.ts) as a Babylon mesh. */
export function terrainMesh(scene: Scene, size: number, n: number, cx: number, cz: number): Mesh {
  const { positions, indices } = terrainGrid(size, n, cx, cz);
  const normals: number[] = [];
  VertexData.ComputeNormals(positions, indices, normals);
  const data = new VertexData();
  data.positions = positions;
  data.indices = indices;
  data.normals = normals;
  const mesh = new Mesh('terrain', scene);
  data.applyToMesh(mesh);
  mesh.freezeWorldMatrix();
  return mesh;
}
