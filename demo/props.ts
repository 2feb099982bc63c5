// Dynamic things: a box pyramid, a crate stack, a seesaw on a hinge, ragdolls,
// thrown balls. Each body gets a Babylon mesh that follows it through the
// adapter's BodyLinks.
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Scene } from '@babylonjs/core/scene';
import {
  Box, HingeJoint, Sphere, createRagdoll,
  type Capsule, type Quat, type Ragdoll, type RigidBody, type Vec3, type World,
} from '../src/index';
import { BodyLinks, createRagdollMeshes, meshFromShape } from '../src/babylon/index';
import { material } from './level';

/** Mesh detail of the props (software WebGL draws every triangle). */
const MESH_DETAIL = { segments: 10, tessellation: 10, subdivisions: 1 };
const MAX_BALLS = 20;
const MAX_RAGDOLLS = 6;

export class Props {
  readonly links = new BodyLinks({ disposeRemoved: true });
  readonly ragdolls: Ragdoll[] = [];
  readonly balls: RigidBody[] = [];
  private readonly world: World;
  private readonly scene: Scene;
  private readonly mats: Record<'box' | 'crate' | 'plank' | 'ball' | 'ragdoll' | 'pivot', StandardMaterial>;

  constructor(world: World, scene: Scene) {
    this.world = world;
    this.scene = scene;
    this.mats = {
      box: material(scene, 'pyramidMat', 0.3, 0.55, 0.85),
      crate: material(scene, 'crateMat', 0.72, 0.5, 0.26),
      plank: material(scene, 'plankMat', 0.55, 0.38, 0.22),
      ball: material(scene, 'ballMat', 0.85, 0.25, 0.3),
      ragdoll: material(scene, 'ragdollMat', 0.9, 0.78, 0.62),
      pivot: material(scene, 'pivotMat', 0.4, 0.4, 0.45),
    };
  }

  /** The initial props of the level. */
  populate(): void {
    // Box pyramid, base 5 (15 boxes of 0.5 m), left of the start.
    const s = 0.5;
    for (let row = 0; row < 5; row++) {
      for (let i = 0; i < 5 - row; i++) {
        this.addBody(new Box({ x: s / 2, y: s / 2, z: s / 2 }), { x: -5 + (i - (4 - row) / 2) * (s + 0.01), y: s / 2 + row * s, z: 11 }, null, this.mats.box, 300);
      }
    }
    // A stack of crates.
    for (let k = 0; k < 4; k++) {
      this.addBody(new Box({ x: 0.3, y: 0.3, z: 0.3 }), { x: -1.6, y: 0.3 + 0.6 * k, z: 13 }, null, this.mats.crate, 200);
    }
    this.addBody(new Box({ x: 0.3, y: 0.3, z: 0.3 }), { x: -0.9, y: 0.3, z: 13.2 }, null, this.mats.crate, 200);
    this.seesaw({ x: 3.5, y: 0, z: 12 });
    this.spawnRagdoll({ x: 1, y: 1.3, z: 17 }, 0.3);
    this.spawnRagdoll({ x: 4, y: 1.3, z: 18 }, -0.4);
  }

  /** A plank on a hinge about z over a static pivot block, with a crate on one end. */
  private seesaw(at: Vec3): void {
    const pivotHeight = 0.5;
    const pivot = this.world.createBody({ type: 'static', shape: new Box({ x: 0.15, y: pivotHeight / 2, z: 0.5 }), position: { x: at.x, y: pivotHeight / 2, z: at.z } });
    const pivotMesh = meshFromShape(pivot.shape, 'seesawPivot', this.scene);
    pivotMesh.material = this.mats.pivot;
    pivotMesh.position.set(at.x, pivotHeight / 2, at.z);
    const plank = this.addBody(new Box({ x: 2, y: 0.06, z: 0.5 }), { x: at.x, y: pivotHeight + 0.08, z: at.z }, null, this.mats.plank, 400);
    this.world.addJoint(new HingeJoint({
      bodyA: pivot, bodyB: plank, anchor: { x: at.x, y: pivotHeight, z: at.z }, axis: { x: 0, y: 0, z: 1 },
      lowerAngle: -0.3, upperAngle: 0.3,
    }));
    this.addBody(new Box({ x: 0.25, y: 0.25, z: 0.25 }), { x: at.x + 1.6, y: pivotHeight + 0.5, z: at.z }, null, this.mats.crate, 200);
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
    const tilt = 0.25;
    // yaw about y, then a small tilt about x: q = q_y · q_x
    const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cx = Math.cos(tilt / 2), sx = Math.sin(tilt / 2);
    const rotation = { x: cy * sx, y: sy * cx, z: -sy * sx, w: cy * cx };
    const ragdoll = createRagdoll(this.world, { position: at, rotation });
    createRagdollMeshes(ragdoll, this.scene, { ...MESH_DETAIL, material: this.mats.ragdoll, links: this.links, namePrefix: `ragdoll${ragdoll.bodies[0]!.id}-` });
    this.ragdolls.push(ragdoll);
    if (this.ragdolls.length > MAX_RAGDOLLS) this.ragdolls.shift()!.remove();
    return ragdoll;
  }
}
