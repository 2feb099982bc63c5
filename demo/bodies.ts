import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { Scene } from '@babylonjs/core/scene';
import { Box, Capsule, Sphere, type Quat, type RigidBody, type Vec3, type World } from '../src/index';

/** A dynamic body and the Babylon mesh that mirrors it. */
export interface BodyView {
  body: RigidBody;
  mesh: Mesh;
}

/** Half the side of the square ground (metres); its top face is y = 0. */
export const GROUND_HALF_SIZE = 20;

function material(scene: Scene, name: string, r: number, g: number, b: number): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(r, g, b);
  m.specularColor = new Color3(0.15, 0.15, 0.15);
  return m;
}

/** A rotation of `angle` radians about the unit axis (ax, ay, az). */
function axisAngle(ax: number, ay: number, az: number, angle: number): Quat {
  const s = Math.sin(angle / 2);
  return { x: ax * s, y: ay * s, z: az * s, w: Math.cos(angle / 2) };
}

/**
 * Builds the static ground and the dynamic shapes in `world`, with one Babylon
 * mesh per body. Sizes are chosen so that every resting body's centre lies
 * between 0.3 m (a capsule on its side) and 3.5 m (the top of the stack).
 */
export function populate(world: World, scene: Scene): BodyView[] {
  world.createBody({
    type: 'static',
    shape: new Box({ x: GROUND_HALF_SIZE, y: 0.5, z: GROUND_HALF_SIZE }),
    position: { x: 0, y: -0.5, z: 0 },
    friction: 0.6,
  });
  const groundMesh = CreateGround('ground', { width: 2 * GROUND_HALF_SIZE, height: 2 * GROUND_HALF_SIZE }, scene);
  groundMesh.material = material(scene, 'groundMat', 0.34, 0.37, 0.32);

  const boxMat = material(scene, 'boxMat', 0.85, 0.55, 0.25);
  const stackMat = material(scene, 'stackMat', 0.3, 0.55, 0.85);
  const sphereMat = material(scene, 'sphereMat', 0.8, 0.25, 0.3);
  const capsuleMat = material(scene, 'capsuleMat', 0.35, 0.75, 0.4);
  const views: BodyView[] = [];

  const addBox = (half: Vec3, position: Vec3, rotation: Quat, mat: StandardMaterial): void => {
    const body = world.createBody({ type: 'dynamic', shape: new Box(half), position, rotation, density: 500, friction: 0.6 });
    const mesh = CreateBox(`box${views.length}`, { width: 2 * half.x, height: 2 * half.y, depth: 2 * half.z }, scene);
    mesh.material = mat;
    views.push({ body, mesh });
  };
  const addSphere = (radius: number, position: Vec3): void => {
    const body = world.createBody({ type: 'dynamic', shape: new Sphere(radius), position, density: 500, friction: 0.5 });
    const mesh = CreateSphere(`sphere${views.length}`, { diameter: 2 * radius, segments: 16 }, scene);
    mesh.material = sphereMat;
    views.push({ body, mesh });
  };
  const addCapsule = (radius: number, halfHeight: number, position: Vec3, rotation: Quat): void => {
    const body = world.createBody({
      type: 'dynamic', shape: new Capsule(radius, halfHeight), position, rotation, density: 500, friction: 0.5,
    });
    // Babylon's capsule height is the full tip-to-tip length, along local Y like ours.
    const mesh = CreateCapsule(`capsule${views.length}`, { radius, height: 2 * (halfHeight + radius), tessellation: 16 }, scene);
    mesh.material = capsuleMat;
    views.push({ body, mesh });
  };

  const identity: Quat = { x: 0, y: 0, z: 0, w: 1 };
  // A stack of four unit cubes resting on the ground from the start.
  for (let i = 0; i < 4; i++) {
    addBox({ x: 0.5, y: 0.5, z: 0.5 }, { x: 0, y: 0.5 + i, z: 0 }, identity, stackMat);
  }
  // Shapes dropped from a few metres, tilted so that they land on an edge and tumble.
  addBox({ x: 0.5, y: 0.5, z: 0.5 }, { x: 3, y: 3, z: 1 }, axisAngle(0, 0, 1, 0.5), boxMat);
  addBox({ x: 0.7, y: 0.35, z: 0.45 }, { x: 3.4, y: 5.5, z: -1.2 }, axisAngle(0.6, 0, 0.8, 0.9), boxMat);
  addSphere(0.5, { x: -3, y: 4, z: 0.5 });
  addSphere(0.35, { x: -2.2, y: 6, z: 2.2 });
  addCapsule(0.3, 0.5, { x: 1.5, y: 4.5, z: -3 }, axisAngle(1, 0, 0, 1.2));
  addCapsule(0.3, 0.4, { x: -1.6, y: 3, z: -2.4 }, axisAngle(0, 0, 1, 1.4));

  for (const view of views) view.mesh.rotationQuaternion = new Quaternion();
  syncMeshes(views);
  return views;
}

/** Copies every body's pose onto its mesh (footing and Babylon share the same axes and quaternion convention). */
export function syncMeshes(views: readonly BodyView[]): void {
  for (let i = 0; i < views.length; i++) {
    const view = views[i]!;
    const p = view.body.position;
    const q = view.body.rotation;
    view.mesh.position.set(p.x, p.y, p.z);
    view.mesh.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
  }
}
