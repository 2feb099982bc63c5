/**
 * One adapter per engine for the peer table (test/bench/peer-table.bench-run.ts).
 * An adapter builds a `Scene` (test/scenes) in its engine with settings chosen
 * to make the engines do comparable work, steps it, and reads positions back.
 */
import type { BallJointSceneDesc, JointedScene } from '../../scenes/ragdolls';
import type { Scene, ShapeDesc } from '../../scenes/scene';

interface Vec3 { x: number; y: number; z: number }
interface Quat { x: number; y: number; z: number; w: number }

/** Settings every adapter applies where its engine lets it. */
export const COMPARABLE = Object.freeze({
  /** Velocity (impulse) iterations per step: Jolt's and crashcat's default, cannon-es's GSSolver default. */
  velocityIterations: 10,
  /** Off for the timing, so every engine simulates every body every step. */
  sleeping: false,
});

/**
 * Settings an adapter applies where its engine has them (`COMPARABLE` unless
 * a caller passes others); a field left undefined keeps the engine's own default.
 */
export interface EngineSettings {
  readonly velocityIterations?: number;
  readonly sleeping?: boolean;
}

export interface EngineInstance {
  /** One fixed step of `scene.dt`. */
  step(): void;
  /** Writes the centre of every scene body (scene order) as x, y, z triples into `out`. */
  readPositions(out: Float64Array): void;
  /** Writes every scene body's pose (scene order) as x, y, z, qx, qy, qz, qw into `out`. */
  readPoses?(out: Float64Array): void;
  /** Frees engine memory (WASM engines); safe to call once. */
  dispose(): void;
  /** Jointed scenes: the largest distance (m) between a joint's two anchors in the current poses. */
  maxJointError?(): number;
}

export interface EngineAdapter {
  readonly name: string;
  /** Package and version, for the table notes. */
  readonly version: string;
  /** How this adapter's settings differ from the engine's defaults or from the others. */
  readonly notes: string;
  /** `settings` default to `COMPARABLE`; an adapter without the parameter (crashcat) always uses `COMPARABLE`. */
  create(scene: Scene, settings?: EngineSettings): Promise<EngineInstance>;
  /** Builds the ball joints of a `JointedScene` (test/scenes/ragdolls.ts); engines without it skip those scenes. */
  readonly joints?: boolean;
  /** The shape kinds it builds, when not all of them: it skips the scenes with others. */
  readonly shapeKinds?: readonly ShapeDesc['kind'][];
}

/** Whether `adapter` builds every shape `scene` uses. */
export function buildsShapes(adapter: EngineAdapter, scene: Scene): boolean {
  const kinds = adapter.shapeKinds;
  return kinds === undefined || scene.bodies.every((b) => kinds.includes(b.shape.kind));
}

/** The ball joints of a scene (none for the plain scenes). */
export function sceneJoints(scene: Scene): readonly BallJointSceneDesc[] {
  return (scene as Partial<JointedScene>).joints ?? [];
}

/**
 * Joint error from body poses, the same for every engine: each joint's anchor
 * in both bodies' frames from the scene's start poses, then |x_B + q_B a_B −
 * x_A − q_A a_A| from the engine's current poses.
 */
export class JointErrorMeter {
  private readonly local: Float64Array;
  private readonly pose = new Float64Array(14);

  constructor(private readonly scene: Scene) {
    const joints = sceneJoints(scene);
    this.local = new Float64Array(6 * joints.length);
    for (let k = 0; k < joints.length; k++) {
      const j = joints[k]!;
      for (let side = 0; side < 2; side++) {
        const b = scene.bodies[side === 0 ? j.bodyA : j.bodyB]!;
        const q = b.rotation;
        // conj(q) · (anchor − x)
        const vx = j.anchor.x - b.position.x, vy = j.anchor.y - b.position.y, vz = j.anchor.z - b.position.z;
        const r = rotate(-q.x, -q.y, -q.z, q.w, vx, vy, vz);
        this.local.set(r, 6 * k + 3 * side);
      }
    }
  }

  /** `readPose(i, out, offset)` writes body i's position and rotation (x, y, z, qx, qy, qz, qw) at out[offset..]. */
  measure(readPose: (i: number, out: Float64Array, offset: number) => void): number {
    const joints = sceneJoints(this.scene);
    const p = this.pose;
    let worst = 0;
    for (let k = 0; k < joints.length; k++) {
      const j = joints[k]!;
      readPose(j.bodyA, p, 0);
      readPose(j.bodyB, p, 7);
      const l = this.local;
      const a = rotate(p[3]!, p[4]!, p[5]!, p[6]!, l[6 * k]!, l[6 * k + 1]!, l[6 * k + 2]!);
      const b = rotate(p[10]!, p[11]!, p[12]!, p[13]!, l[6 * k + 3]!, l[6 * k + 4]!, l[6 * k + 5]!);
      const d = Math.hypot(p[7]! + b[0] - p[0]! - a[0], p[8]! + b[1] - p[1]! - a[1], p[9]! + b[2] - p[2]! - a[2]);
      if (!(d <= worst)) worst = d;
    }
    return worst;
  }
}

/** A world point in a scene body's start frame: conj(q)·(p − x). */
export function localPoint(b: { readonly position: Readonly<Vec3>; readonly rotation: Readonly<Quat> }, p: Readonly<Vec3>): Vec3 {
  const r = rotate(-b.rotation.x, -b.rotation.y, -b.rotation.z, b.rotation.w, p.x - b.position.x, p.y - b.position.y, p.z - b.position.z);
  return { x: r[0], y: r[1], z: r[2] };
}

function rotate(qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number): [number, number, number] {
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  return [vx + qw * tx + (qy * tz - qz * ty), vy + qw * ty + (qz * tx - qx * tz), vz + qw * tz + (qx * ty - qy * tx)];
}
