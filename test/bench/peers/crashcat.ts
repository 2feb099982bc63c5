import {
  addBroadphaseLayer,
  addObjectLayer,
  box,
  capsule,
  convexHull,
  createWorld,
  cylinder,
  createWorldSettings,
  enableCollision,
  MotionType,
  registerAll,
  rigidBody,
  sphere,
  updateWorld,
  type RigidBody,
} from 'crashcat';
import type { Scene, ShapeDesc } from '../../scenes/scene';
import { COMPARABLE, type EngineAdapter, type EngineInstance } from './adapter';

let registered = false;

function makeShape(desc: ShapeDesc) {
  switch (desc.kind) {
    case 'box': return box.create({ halfExtents: [desc.halfExtents.x, desc.halfExtents.y, desc.halfExtents.z] });
    case 'sphere': return sphere.create({ radius: desc.radius });
    case 'capsule': return capsule.create({ radius: desc.radius, halfHeightOfCylinder: desc.halfHeight });
    case 'cylinder': return cylinder.create({ radius: desc.radius, halfHeight: desc.halfHeight });
    case 'hull': return convexHull.create({ positions: desc.points.flatMap((p) => [p.x, p.y, p.z]) });
  }
}

export const crashcatAdapter: EngineAdapter = {
  name: 'crashcat',
  version: 'crashcat 0.0.5',
  notes:
    'solver.velocityIterations 10 (default), positionIterations 2 (default); sleeping.allowSleeping false ' +
    '(world and bodies); two object layers / two broadphase layers; default damping 0.05.',
  async create(scene: Scene): Promise<EngineInstance> {
    if (!registered) {
      registerAll();
      registered = true;
    }
    const settings = createWorldSettings();
    const bpMoving = addBroadphaseLayer(settings);
    const bpNonMoving = addBroadphaseLayer(settings);
    const moving = addObjectLayer(settings, bpMoving);
    const nonMoving = addObjectLayer(settings, bpNonMoving);
    enableCollision(settings, moving, nonMoving);
    enableCollision(settings, moving, moving);
    settings.gravity = [scene.gravity.x, scene.gravity.y, scene.gravity.z];
    settings.solver.velocityIterations = COMPARABLE.velocityIterations;
    settings.sleeping.allowSleeping = COMPARABLE.sleeping;
    const world = createWorld(settings);

    const bodies: RigidBody[] = [];
    for (const b of scene.bodies) {
      const dynamic = b.type === 'dynamic';
      bodies.push(
        rigidBody.create(world, {
          shape: makeShape(b.shape),
          motionType: dynamic ? MotionType.DYNAMIC : MotionType.STATIC,
          objectLayer: dynamic ? moving : nonMoving,
          position: [b.position.x, b.position.y, b.position.z],
          quaternion: [b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w],
          friction: b.friction,
          restitution: b.restitution,
          allowSleeping: COMPARABLE.sleeping,
          ...(dynamic ? { mass: b.mass } : {}),
        }),
      );
    }
    const dt = scene.dt;
    return {
      step() {
        updateWorld(world, undefined, dt);
      },
      readPositions(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.position;
          out[3 * i] = p[0]!;
          out[3 * i + 1] = p[1]!;
          out[3 * i + 2] = p[2]!;
        }
      },
      dispose() {
        // Plain JS objects: the garbage collector frees the world.
      },
    };
  },
};
