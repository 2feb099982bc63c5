/**
 * `ragdoll-drop-<seed>`: one ragdoll of ragdolls.ts (same bones, masses,
 * friction and ball joints) in a seeded random orientation, dropped from 3 m
 * onto a static floor. Plain data like every scene (scene.ts), so footing and
 * the peer engines build the same drop; test/bench/ragdoll-drops.bench-run.ts
 * measures how deep the limbs dip into the floor.
 */
import { Random } from '../helpers/random';
import { DENSITY, FRICTION, placeRagdoll, RAGDOLL_BODIES, rotate, skeleton, type BallJointSceneDesc, type JointedScene } from './ragdolls';
import { DT, EARTH_GRAVITY, staticBox, type BodyDesc, type ShapeDesc } from './scene';
import type { Quat, Vec3 } from '../../src/index';

/** Height (m) of the ragdoll's lowest point above the floor top (y = 0) at the start. */
export const DROP_HEIGHT = 3;

/** Lowest world y of `shape` at `position` turned by `q` (box: its lowest corner; capsule: lower segment end − r). */
export function lowestPoint(shape: ShapeDesc, position: Readonly<Vec3>, q: Readonly<Quat>): number {
  switch (shape.kind) {
    case 'sphere': return position.y - shape.radius;
    case 'capsule': {
      const tip = rotate(q, { x: 0, y: shape.halfHeight, z: 0 });
      return position.y - Math.abs(tip.y) - shape.radius;
    }
    case 'box': {
      // y of a rotated box's extreme corner: Σ |R_yk| h_k.
      const h = shape.halfExtents;
      const ex = rotate(q, { x: h.x, y: 0, z: 0 }), ey = rotate(q, { x: 0, y: h.y, z: 0 }), ez = rotate(q, { x: 0, y: 0, z: h.z });
      return position.y - Math.abs(ex.y) - Math.abs(ey.y) - Math.abs(ez.y);
    }
    case 'cylinder': {
      // The rim's lowest point: axis part |a_y| h plus the cap disc's r √(1 − a_y²).
      const ay = rotate(q, { x: 0, y: 1, z: 0 }).y;
      return position.y - Math.abs(ay) * shape.halfHeight - shape.radius * Math.sqrt(Math.max(0, 1 - ay * ay));
    }
    case 'hull': {
      let lowest = Infinity;
      for (const p of shape.points) lowest = Math.min(lowest, rotate(q, p).y);
      return position.y + lowest;
    }
  }
}

/**
 * One ragdoll turned by a uniformly random rotation (test/helpers/random.ts,
 * seeded by `seed`) about its pelvis, lifted so that its lowest point is
 * DROP_HEIGHT above the floor top; the pelvis is over the origin.
 */
export function ragdollDropScene(seed: number): JointedScene {
  const rng = new Random(seed);
  const q = rng.quat();
  const bones = skeleton();
  let lowest = Infinity;
  for (const bone of bones) lowest = Math.min(lowest, lowestPoint(bone.shape, rotate(q, bone.position), q));
  const bodies: BodyDesc[] = [staticBox({ x: 30, y: 0.5, z: 30 }, { x: 0, y: -0.5, z: 0 }, FRICTION)];
  const joints: BallJointSceneDesc[] = [];
  const first = bodies.length;
  placeRagdoll(bodies, joints, bones, q, { x: 0, y: DROP_HEIGHT - lowest, z: 0 });
  return {
    name: `ragdoll-drop-${seed}`,
    description: `one ragdoll of ${RAGDOLL_BODIES} bodies (as ragdolls-32: ${DENSITY} kg/m³, μ = ${FRICTION}, 9 ball joints) ` +
      `in a random orientation (seed ${seed}), its lowest point dropped from ${DROP_HEIGHT} m onto a floor`,
    gravity: EARTH_GRAVITY,
    dt: DT,
    bodies,
    bounds: { min: { x: -10, y: -0.05, z: -10 }, max: { x: 10, y: 40, z: 10 } },
    measureDrift: false,
    joints,
    bodiesPerRagdoll: RAGDOLL_BODIES,
    firstRagdollBody: first,
  };
}
