// Dynamic things (laid out in level-data.ts): a box pyramid, a crate stack, a seesaw on a hinge, ragdolls,
// thrown balls. Each body gets a Babylon mesh that follows it through the
// adapter's BodyLinks.
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Scene } from '@babylonjs/core/scene';
import {
  Sphere, createRagdoll,
  type Box, type Capsule, type Quat, type Ragdoll, type RigidBody, type Vec3, type World,
} from '../src/index';
import { BodyLinks, createRagdollMeshes, meshFromShape } from '../src/babylon/index';
import { material } from './level';
import { RAGDOLL_SPAWNS, createPropBodies, ragdollRotation, type PropMaterial } from './level-data';

/** Mesh detail of the props (software WebGL draws every triangle). */
export const MESH_DETAIL = { segments: 10, tessellation: 10, subdivisions: 1 };
export const MAX_BALLS = 20;
const MAX_RAGDOLLS = 6;

/** The props' materials, by the names level-data.ts uses. */
export function propMaterials(scene: Scene): Record<PropMaterial, StandardMaterial> {
  return {
    box: material(scene, 'pyramidMat', 0.3, 0.55, 0.85),
    crate: material(scene, 'crateMat', 0.72, 0.5, 0.26),
    plank: material(scene, 'plankMat', 0.55, 0.38, 0.22),
    ball: material(scene, 'ballMat', 0.85, 0.25, 0.3),
    ragdoll: material(scene, 'ragdollMat', 0.9, 0.78, 0.62),
    pivot: material(scene, 'pivotMat', 0.4, 0.4, 0.45),
  };
}

export class Props {
  readonly links = new BodyLinks({ disposeRemoved: true });
  readonly ragdolls: Ragdoll[] = [];
  readonly balls: RigidBody[] = [];
  private readonly world: World;
  private readonly scene: Scene;
  private readonly mats: Record<PropMaterial, StandardMaterial>;

  constructor(world: World, scene: Scene) {
    this.world = world;
    this.scene = scene;
    this.mats = propMaterials(scene);
  }

  /** The initial props of the level (laid out in level-data.ts, shared with the worker mode). */
  populate(): void {
    for (const { body, material } of createPropBodies(this.world)) {
      const mesh = meshFromShape(body.shape, body.isDynamic ? `body${body.id}` : 'seesawPivot', this.scene, MESH_DETAIL);
      mesh.material = this.mats[material];
      if (body.isDynamic) this.links.add(mesh, body);
      else { mesh.position.set(body.position.x, body.position.y, body.position.z); mesh.freezeWorldMatrix(); }
    }
    for (const { at, yaw } of RAGDOLL_SPAWNS) this.spawnRagdoll(at, yaw);
  }

  addBody(shape: Box | Sphere | Capsule, position: Vec3, rotation: Quat | null, mat: StandardMaterial, density: number, velocity?: Vec3): RigidBody {
    const body = this.world.createBody({
      type: 'dynamic', shape, position, rotation: rotation ?? undefined, density, friction: 0.6, linearVelocity: velocity,
    });
    const mesh = meshFromShape(shape, `body${body.id}`, this.scene, MESH_DETAIL);
    mesh.material = mat;
    this.links.add(mesh, body);
    return body;
  }

  /** A ball of 0.15 m radius thrown from `from` along `dir` (unit) at `speed`. */
  throwBall(from: Vec3, dir: Vec3, speed: number): RigidBody {
    const ball = this.addBody(new Sphere(0.15), from, null, this.mats.ball, 800, { x: dir.x * speed, y: dir.y * speed, z: dir.z * speed });
    this.balls.push(ball);
    if (this.balls.length > MAX_BALLS) this.world.removeBody(this.balls.shift()!);
    return ball;
  }

  /** A humanoid ragdoll with its pelvis at `at`, turned by `yaw` and tipped a little so it falls. */
  spawnRagdoll(at: Vec3, yaw: number): Ragdoll {
    const ragdoll = createRagdoll(this.world, { position: at, rotation: ragdollRotation(yaw) });
    createRagdollMeshes(ragdoll, this.scene, { ...MESH_DETAIL, material: this.mats.ragdoll, links: this.links, namePrefix: `ragdoll${ragdoll.bodies[0]!.id}-` });
    this.ragdolls.push(ragdoll);
    if (this.ragdolls.length > MAX_RAGDOLLS) this.ragdolls.shift()!.remove();
    return ragdoll;
  }
}
