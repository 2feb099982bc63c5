import RAPIER from '@dimforge/rapier3d-compat';
import type { Scene, ShapeDesc } from '../../scenes/scene';
import { COMPARABLE, JointErrorMeter, localPoint, sceneJoints, type EngineAdapter, type EngineInstance, type EngineSettings } from './adapter';

let ready: Promise<void> | undefined;

function colliderDesc(desc: ShapeDesc): RAPIER.ColliderDesc {
  switch (desc.kind) {
    case 'box': return RAPIER.ColliderDesc.cuboid(desc.halfExtents.x, desc.halfExtents.y, desc.halfExtents.z);
    case 'sphere': return RAPIER.ColliderDesc.ball(desc.radius);
    case 'capsule': return RAPIER.ColliderDesc.capsule(desc.halfHeight, desc.radius);
    case 'cylinder': return RAPIER.ColliderDesc.cylinder(desc.halfHeight, desc.radius);
    case 'hull': {
      const hull = RAPIER.ColliderDesc.convexHull(new Float32Array(desc.points.flatMap((p) => [p.x, p.y, p.z])));
      if (!hull) throw new Error('Rapier: convex hull construction failed');
      return hull;
    }
  }
}

export const rapierAdapter: EngineAdapter = {
  name: 'Rapier',
  version: '@dimforge/rapier3d-compat 0.21.0',
  notes:
    'numSolverIterations left at its default 4: in Rapier each solver iteration is a substep (a PGS velocity ' +
    'pass with soft bias, then a stabilization pass), so 4 is its comparable default rather than 10; ' +
    'cylinders and hulls: ColliderDesc.cylinder and ColliderDesc.convexHull (no rounding); ' +
    'canSleep false on every body; friction combine = average (same μ everywhere, so μ); no damping (default); ' +
    'ragdolls: spherical impulse joints with contacts between the jointed bodies disabled.',
  joints: true,
  async create(scene: Scene, settings: EngineSettings = COMPARABLE): Promise<EngineInstance> {
    ready ??= RAPIER.init();
    await ready;
    const world = new RAPIER.World(new RAPIER.Vector3(scene.gravity.x, scene.gravity.y, scene.gravity.z));
    world.timestep = scene.dt;
    const bodies: RAPIER.RigidBody[] = [];
    for (const b of scene.bodies) {
      const bodyDesc = (b.type === 'dynamic' ? RAPIER.RigidBodyDesc.dynamic() : RAPIER.RigidBodyDesc.fixed())
        .setTranslation(b.position.x, b.position.y, b.position.z)
        .setRotation({ x: b.rotation.x, y: b.rotation.y, z: b.rotation.z, w: b.rotation.w });
      if (settings.sleeping !== undefined) bodyDesc.setCanSleep(settings.sleeping);
      const body = world.createRigidBody(bodyDesc);
      const cd = colliderDesc(b.shape).setFriction(b.friction).setRestitution(b.restitution);
      if (b.type === 'dynamic') cd.setMass(b.mass);
      world.createCollider(cd, body);
      bodies.push(body);
    }
    const meter = new JointErrorMeter(scene);
    for (const j of sceneJoints(scene)) {
      const a = bodies[j.bodyA]!, b = bodies[j.bodyB]!;
      const la = localPoint(scene.bodies[j.bodyA]!, j.anchor), lb = localPoint(scene.bodies[j.bodyB]!, j.anchor);
      const joint = world.createImpulseJoint(RAPIER.JointData.spherical(la, lb), a, b, true);
      joint.setContactsEnabled(false);
    }
    let disposed = false;
    return {
      step() {
        world.step();
      },
      readPositions(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.translation();
          out[3 * i] = p.x;
          out[3 * i + 1] = p.y;
          out[3 * i + 2] = p.z;
        }
      },
      readPoses(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.translation(), q = bodies[i]!.rotation();
          out[7 * i] = p.x; out[7 * i + 1] = p.y; out[7 * i + 2] = p.z;
          out[7 * i + 3] = q.x; out[7 * i + 4] = q.y; out[7 * i + 5] = q.z; out[7 * i + 6] = q.w;
        }
      },
      dispose() {
        if (!disposed) world.free();
        disposed = true;
      },
      maxJointError() {
        return meter.measure((i, out, o) => {
          const p = bodies[i]!.translation(), q = bodies[i]!.rotation();
          out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z; out[o + 3] = q.x; out[o + 4] = q.y; out[o + 5] = q.z; out[o + 6] = q.w;
        });
      },
    };
  },
};
