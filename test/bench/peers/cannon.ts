import * as CANNON from 'cannon-es';
import type { Scene, ShapeDesc } from '../../scenes/scene';
import { COMPARABLE, JointErrorMeter, localPoint, sceneJoints, type EngineAdapter, type EngineInstance, type EngineSettings } from './adapter';

// cannon-es has no capsule: a Y-aligned cylinder (8 segments) plus two end spheres.
const CAPSULE_SEGMENTS = 8;
/** A cylinder's segments (its side is a prism). */
const CYLINDER_SEGMENTS = 16;

function addShape(body: CANNON.Body, desc: ShapeDesc, boxLimbs: boolean): void {
  if (boxLimbs && desc.kind === 'capsule') {
    // Ragdolls: a capsule limb as its bounding box (the cylinder + spheres compound costs cannon-es 3 shapes per limb).
    body.addShape(new CANNON.Box(new CANNON.Vec3(desc.radius, desc.halfHeight + desc.radius, desc.radius)));
    return;
  }
  switch (desc.kind) {
    case 'box':
      body.addShape(new CANNON.Box(new CANNON.Vec3(desc.halfExtents.x, desc.halfExtents.y, desc.halfExtents.z)));
      return;
    case 'sphere':
      body.addShape(new CANNON.Sphere(desc.radius));
      return;
    case 'capsule': {
      const { radius: r, halfHeight: h } = desc;
      body.addShape(new CANNON.Cylinder(r, r, 2 * h, CAPSULE_SEGMENTS));
      body.addShape(new CANNON.Sphere(r), new CANNON.Vec3(0, h, 0));
      body.addShape(new CANNON.Sphere(r), new CANNON.Vec3(0, -h, 0));
      return;
    }
    case 'cylinder':
      body.addShape(new CANNON.Cylinder(desc.radius, desc.radius, 2 * desc.halfHeight, CYLINDER_SEGMENTS));
      return;
    case 'hull':
      // ConvexPolyhedron wants its faces given; cannon-es builds no hull from points.
      throw new Error('cannon-es: no convex hull from points');
  }
}

export const cannonAdapter: EngineAdapter = {
  name: 'cannon-es',
  version: 'cannon-es 0.20.0',
  notes:
    'SAPBroadphase (the default NaiveBroadphase is O(n²)); GSSolver 10 iterations (default); ' +
    'allowSleep false (default); capsule = cylinder(8 segments) + 2 spheres; cylinder = 16 segments; no hulls (not run on scenes with them); ' +
    'per-body material friction √μ so that cannon\'s product rule gives μ; default damping 0.01; ' +
    'ragdolls: box limbs (capsule → its bounding box), PointToPointConstraint (default max force) with collideConnected false.',
  joints: true,
  shapeKinds: ['box', 'sphere', 'capsule', 'cylinder'],
  async create(scene: Scene, settings: EngineSettings = COMPARABLE): Promise<EngineInstance> {
    const world = new CANNON.World({
      gravity: new CANNON.Vec3(scene.gravity.x, scene.gravity.y, scene.gravity.z),
      ...(settings.sleeping === undefined ? {} : { allowSleep: settings.sleeping }),
    });
    world.broadphase = new CANNON.SAPBroadphase(world);
    if (settings.velocityIterations !== undefined) (world.solver as CANNON.GSSolver).iterations = settings.velocityIterations;
    const materials = new Map<number, CANNON.Material>();
    const joints = sceneJoints(scene);
    const bodies: CANNON.Body[] = [];
    for (const b of scene.bodies) {
      let material = materials.get(b.friction);
      if (material === undefined) {
        material = new CANNON.Material({ friction: Math.sqrt(b.friction), restitution: 0 });
        materials.set(b.friction, material);
      }
      const body = new CANNON.Body({
        mass: b.type === 'dynamic' ? b.mass : 0,
        type: b.type === 'dynamic' ? CANNON.Body.DYNAMIC : CANNON.Body.STATIC,
        position: new CANNON.Vec3(b.position.x, b.position.y, b.position.z),
        quaternion: new CANNON.Quaternion(b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w),
        material,
        ...(settings.sleeping === undefined ? {} : { allowSleep: settings.sleeping }),
      });
      addShape(body, b.shape, joints.length > 0);
      world.addBody(body);
      bodies.push(body);
    }
    for (const j of joints) {
      const la = localPoint(scene.bodies[j.bodyA]!, j.anchor), lb = localPoint(scene.bodies[j.bodyB]!, j.anchor);
      const c = new CANNON.PointToPointConstraint(bodies[j.bodyA]!, new CANNON.Vec3(la.x, la.y, la.z), bodies[j.bodyB]!, new CANNON.Vec3(lb.x, lb.y, lb.z));
      c.collideConnected = false;
      world.addConstraint(c);
    }
    const meter = new JointErrorMeter(scene);
    const dt = scene.dt;
    return {
      step() {
        world.step(dt);
      },
      readPositions(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.position;
          out[3 * i] = p.x;
          out[3 * i + 1] = p.y;
          out[3 * i + 2] = p.z;
        }
      },
      readPoses(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.position, q = bodies[i]!.quaternion;
          out[7 * i] = p.x; out[7 * i + 1] = p.y; out[7 * i + 2] = p.z;
          out[7 * i + 3] = q.x; out[7 * i + 4] = q.y; out[7 * i + 5] = q.z; out[7 * i + 6] = q.w;
        }
      },
      dispose() {
        for (const body of bodies) world.removeBody(body);
      },
      maxJointError() {
        return meter.measure((i, out, o) => {
          const p = bodies[i]!.position, q = bodies[i]!.quaternion;
          out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z; out[o + 3] = q.x; out[o + 4] = q.y; out[o + 5] = q.z; out[o + 6] = q.w;
        });
      },
    };
  },
};
