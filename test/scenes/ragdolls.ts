/**
 * `ragdolls-32`: 32 ragdolls of 10 bodies (box torso, sphere head, capsule
 * upper/lower arms and legs) joined by 9 ball-socket joints each (no limits),
 * dropped as a crossed log pile onto a floor. Plain data like every scene
 * (scene.ts), plus a joint list, so footing and the peer engines build the
 * same thing; this file imports nothing from footing.
 *
 * Each ragdoll lies face down along its local long axis (model Y → world Z or
 * X), two per layer side by side, layers alternating by 90° and 0.5 m apart,
 * so the pile collapses onto itself like a heap of limp bodies.
 */
import { DT, EARTH_GRAVITY, IDENTITY, staticBox, type BodyDesc, type Scene, type ShapeDesc } from './scene';
import type { Quat, Vec3 } from '../../src/index';

/** A ball-socket joint between two scene bodies (indices into `scene.bodies`), at a world point. */
export interface BallJointSceneDesc {
  readonly bodyA: number;
  readonly bodyB: number;
  readonly anchor: Readonly<Vec3>;
}

export interface JointedScene extends Scene {
  readonly joints: readonly BallJointSceneDesc[];
  /** Bodies per ragdoll (the first is the torso); ragdoll k's bodies start at `firstRagdollBody + k · bodiesPerRagdoll`. */
  readonly bodiesPerRagdoll: number;
  readonly firstRagdollBody: number;
}

export const FRICTION = 0.6;
export const DENSITY = 1000;

export interface Bone { shape: ShapeDesc; position: Vec3; parent: number; anchor: Vec3 | null }

/** One ragdoll in model space: standing, pelvis at the origin, Y up; about 1.75 m and 62 kg. */
export function skeleton(): Bone[] {
  const cap = (radius: number, halfHeight: number): ShapeDesc => ({ kind: 'capsule', radius, halfHeight });
  const bones: Bone[] = [
    { shape: { kind: 'box', halfExtents: { x: 0.17, y: 0.27, z: 0.1 } }, position: { x: 0, y: 0.27, z: 0 }, parent: -1, anchor: null },
    { shape: { kind: 'sphere', radius: 0.1 }, position: { x: 0, y: 0.68, z: 0 }, parent: 0, anchor: { x: 0, y: 0.565, z: 0 } },
  ];
  for (const s of [-1, 1]) {
    // Arm: shoulder at the torso's top side, hanging 2 cm clear of it.
    const x = s * 0.23;
    bones.push({ shape: cap(0.05, 0.1), position: { x, y: 0.38, z: 0 }, parent: 0, anchor: { x, y: 0.53, z: 0 } });
    bones.push({ shape: cap(0.045, 0.1), position: { x, y: 0.08, z: 0 }, parent: bones.length - 1, anchor: { x, y: 0.228, z: 0 } });
  }
  for (const s of [-1, 1]) {
    const x = s * 0.09;
    bones.push({ shape: cap(0.07, 0.15), position: { x, y: -0.25, z: 0 }, parent: 0, anchor: { x, y: -0.02, z: 0 } });
    bones.push({ shape: cap(0.06, 0.16), position: { x, y: -0.7, z: 0 }, parent: bones.length - 1, anchor: { x, y: -0.475, z: 0 } });
  }
  return bones;
}

export function volume(shape: ShapeDesc): number {
  switch (shape.kind) {
    case 'box': return 8 * shape.halfExtents.x * shape.halfExtents.y * shape.halfExtents.z;
    case 'sphere': return (4 / 3) * Math.PI * shape.radius ** 3;
    case 'capsule': return Math.PI * shape.radius ** 2 * 2 * shape.halfHeight + (4 / 3) * Math.PI * shape.radius ** 3;
    case 'cylinder': return 2 * Math.PI * shape.radius ** 2 * shape.halfHeight;
    case 'hull': throw new Error('volume: hull bones are not supported');
  }
}

export function rotate(q: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  const tx = 2 * (q.y * v.z - q.z * v.y), ty = 2 * (q.z * v.x - q.x * v.z), tz = 2 * (q.x * v.y - q.y * v.x);
  return { x: v.x + q.w * tx + (q.y * tz - q.z * ty), y: v.y + q.w * ty + (q.z * tx - q.x * tz), z: v.z + q.w * tz + (q.x * ty - q.y * tx) };
}

function multiply(a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  return {
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  };
}

export const RAGDOLL_BODIES = 10;

/**
 * Appends one ragdoll's bodies (`bones` turned by `q`, the model origin at
 * `root`) and its ball joints to the scene lists.
 */
export function placeRagdoll(bodies: BodyDesc[], joints: BallJointSceneDesc[], bones: readonly Bone[], q: Readonly<Quat>, root: Readonly<Vec3>): void {
  const first = bodies.length;
  for (const bone of bones) {
    const p = rotate(q, bone.position);
    bodies.push({
      shape: bone.shape, type: 'dynamic', position: { x: root.x + p.x, y: root.y + p.y, z: root.z + p.z }, rotation: q,
      mass: DENSITY * volume(bone.shape), friction: FRICTION, restitution: 0,
    });
    if (bone.anchor !== null) {
      const a = rotate(q, bone.anchor);
      joints.push({ bodyA: first + bone.parent, bodyB: bodies.length - 1, anchor: { x: root.x + a.x, y: root.y + a.y, z: root.z + a.z } });
    }
  }
}

export function ragdollsScene(count = 32): JointedScene {
  const bodies: BodyDesc[] = [staticBox({ x: 30, y: 0.5, z: 30 }, { x: 0, y: -0.5, z: 0 }, FRICTION)];
  const joints: BallJointSceneDesc[] = [];
  const bones = skeleton();
  const s = Math.SQRT1_2;
  // Lying face down: model Y (head) → world +Z, model Z (front) → world −Y.
  const lieDown: Quat = { x: s, y: 0, z: 0, w: s };
  const yaw90: Quat = { x: 0, y: s, z: 0, w: s };
  for (let k = 0; k < count; k++) {
    const layer = Math.floor(k / 2);
    const side = (k % 2) * 2 - 1;
    // Alternate layers cross at 90°; heads alternate direction within a layer.
    const head = side < 0 ? IDENTITY : { x: 0, y: 1, z: 0, w: 0 };
    const q = multiply(layer % 2 === 0 ? IDENTITY : yaw90, multiply(head, lieDown));
    const offset = rotate(layer % 2 === 0 ? IDENTITY : yaw90, { x: 0.45 * side, y: 0, z: 0 });
    placeRagdoll(bodies, joints, bones, q, { x: offset.x, y: 0.35 + 0.5 * layer, z: offset.z });
  }
  return {
    name: `ragdolls-${count}`,
    description: `${count} ragdolls of ${RAGDOLL_BODIES} bodies (box torso, sphere head, capsule limbs; ${DENSITY} kg/m³, μ = ${FRICTION}) ` +
      `and 9 ball joints each, dropped as a crossed pile of ${Math.ceil(count / 2)} layers onto a floor`,
    gravity: EARTH_GRAVITY,
    dt: DT,
    bodies,
    // A limb's centre may sit a little under the floor top while the pile crushes it (capsule radius ≥ 4.5 cm):
    // escaped means through the floor, i.e. more than 5 cm under it.
    bounds: { min: { x: -10, y: -0.05, z: -10 }, max: { x: 10, y: 40, z: 10 } },
    measureDrift: false,
    joints,
    bodiesPerRagdoll: RAGDOLL_BODIES,
    firstRagdollBody: 1,
  };
}
