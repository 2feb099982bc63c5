import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { Scene } from '@babylonjs/core/scene';
import { Capsule, type Quat, type Vec3, type World } from '../src/index';
import type { QueryStats } from './types';

const RAY_HIT_COLOR = new Color3(0.2, 1, 0.3);
const RAY_MISS_COLOR = new Color3(0.55, 0.55, 0.55);
const NORMAL_COLOR = new Color3(1, 0.9, 0.2);
const CAST_COLOR = new Color3(0.4, 0.8, 1);
/** Length of the drawn hit normal, metres. */
const NORMAL_LENGTH = 0.6;

const CAST_RADIUS = 0.3;
const CAST_HALF_HEIGHT = 0.4;

function line(scene: Scene, name: string, points: Vector3[], color: Color3): LinesMesh {
  const mesh = CreateLines(name, { points, updatable: true }, scene);
  mesh.color = color;
  mesh.isPickable = false;
  return mesh;
}

/**
 * A ray that sweeps across the scene and a capsule that is swept along +X,
 * both re-queried every frame through the world's public query API and drawn
 * with lines and capsules. The Babylon objects and the query inputs are made
 * once; each frame only rewrites them.
 */
export class QueryView {
  readonly stats: QueryStats = {
    rayHits: 0, rayMisses: 0, rayFraction: -1, rayDistance: -1,
    rayPoint: { x: 0, y: 0, z: 0 }, rayNormal: { x: 0, y: 0, z: 0 },
    castHits: 0, castFraction: -1,
  };

  private readonly world: World;
  private readonly rayFrom: Vec3 = { x: -10, y: 5, z: 0 };
  private readonly rayTo: Vec3 = { x: 6, y: -1, z: 0 };
  private readonly rayPoints = [Vector3.Zero(), Vector3.Zero()];
  private readonly normalPoints = [Vector3.Zero(), Vector3.Zero()];
  private readonly rayLine: LinesMesh;
  private readonly normalLine: LinesMesh;

  readonly castShape = new Capsule(CAST_RADIUS, CAST_HALF_HEIGHT);
  private readonly castStart: Vec3 = { x: -7, y: 1.2, z: 0 };
  private readonly castRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly castTranslation: Vec3 = { x: 14, y: 0, z: 0 };
  private readonly castPoints = [Vector3.Zero(), Vector3.Zero()];
  private readonly castLine: LinesMesh;
  private readonly castStartMesh: Mesh;
  private readonly castHitMesh: Mesh;

  constructor(world: World, scene: Scene) {
    this.world = world;
    this.rayLine = line(scene, 'ray', this.rayPoints, RAY_HIT_COLOR);
    this.normalLine = line(scene, 'rayNormal', this.normalPoints, NORMAL_COLOR);
    this.castLine = line(scene, 'castPath', this.castPoints, CAST_COLOR);

    const capsuleOptions = { radius: CAST_RADIUS, height: 2 * (CAST_HALF_HEIGHT + CAST_RADIUS), tessellation: 12 };
    const wire = new StandardMaterial('castWire', scene);
    wire.wireframe = true;
    wire.disableLighting = true;
    wire.emissiveColor = CAST_COLOR;
    this.castStartMesh = CreateCapsule('castStart', capsuleOptions, scene);
    this.castStartMesh.material = wire;
    this.castStartMesh.isPickable = false;

    const glass = new StandardMaterial('castHit', scene);
    glass.diffuseColor = CAST_COLOR;
    glass.emissiveColor = new Color3(0.1, 0.25, 0.35);
    glass.alpha = 0.4;
    this.castHitMesh = CreateCapsule('castHit', capsuleOptions, scene);
    this.castHitMesh.material = glass;
    this.castHitMesh.isPickable = false;
    this.castStartMesh.rotationQuaternion = new Quaternion();
    this.castHitMesh.rotationQuaternion = new Quaternion();
  }

  /** Moves both queries to their pose at `seconds` since start, runs them and redraws. */
  update(seconds: number): void {
    this.updateRay(seconds);
    this.updateCast(seconds);
  }

  private updateRay(seconds: number): void {
    // The far end swings from side to side along a line behind the bodies, so
    // the ray crosses the stack, the dropped shapes and the bare ground in turn.
    this.rayTo.z = 8 * Math.sin(0.6 * seconds);
    const from = this.rayFrom;
    const to = this.rayTo;
    const hit = this.world.raycast(from, to);
    const s = this.stats;
    this.rayPoints[0]!.set(from.x, from.y, from.z);
    if (hit) {
      s.rayHits++;
      s.rayFraction = hit.fraction;
      s.rayDistance = hit.distance;
      s.rayPoint.x = hit.point.x; s.rayPoint.y = hit.point.y; s.rayPoint.z = hit.point.z;
      s.rayNormal.x = hit.normal.x; s.rayNormal.y = hit.normal.y; s.rayNormal.z = hit.normal.z;
      this.rayPoints[1]!.set(hit.point.x, hit.point.y, hit.point.z);
      this.normalPoints[0]!.set(hit.point.x, hit.point.y, hit.point.z);
      this.normalPoints[1]!.set(
        hit.point.x + NORMAL_LENGTH * hit.normal.x,
        hit.point.y + NORMAL_LENGTH * hit.normal.y,
        hit.point.z + NORMAL_LENGTH * hit.normal.z,
      );
      this.rayLine.color = RAY_HIT_COLOR;
      this.normalLine.isVisible = true;
      CreateLines('rayNormal', { points: this.normalPoints, instance: this.normalLine });
    } else {
      s.rayMisses++;
      s.rayFraction = -1;
      s.rayDistance = -1;
      this.rayPoints[1]!.set(to.x, to.y, to.z);
      this.rayLine.color = RAY_MISS_COLOR;
      this.normalLine.isVisible = false;
    }
    CreateLines('ray', { points: this.rayPoints, instance: this.rayLine });
  }

  private updateCast(seconds: number): void {
    const start = this.castStart;
    start.z = 2.5 * Math.sin(0.35 * seconds);
    const t = this.castTranslation;
    const hit = this.world.shapeCast(this.castShape, start, this.castRotation, t);
    const s = this.stats;
    const q = this.castRotation;
    this.castStartMesh.position.set(start.x, start.y, start.z);
    this.castStartMesh.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
    this.castPoints[0]!.set(start.x, start.y, start.z);
    // The pose at first contact is start + translation · fraction.
    const f = hit ? hit.fraction : 1;
    this.castPoints[1]!.set(start.x + t.x * f, start.y + t.y * f, start.z + t.z * f);
    if (hit) {
      s.castHits++;
      s.castFraction = hit.fraction;
      this.castHitMesh.isVisible = true;
      this.castHitMesh.position.copyFrom(this.castPoints[1]!);
      this.castHitMesh.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
    } else {
      s.castFraction = -1;
      this.castHitMesh.isVisible = false;
    }
    CreateLines('castPath', { points: this.castPoints, instance: this.castLine });
  }
}
