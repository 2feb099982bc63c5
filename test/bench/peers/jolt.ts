import initJolt from 'jolt-physics';
import type { JointedScene } from '../../scenes/ragdolls';
import type { Scene, ShapeDesc } from '../../scenes/scene';
import { COMPARABLE, JointErrorMeter, sceneJoints, type EngineAdapter, type EngineInstance, type EngineSettings } from './adapter';

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

let joltPromise: Promise<JoltModule> | undefined;

const LAYER_NON_MOVING = 0;
const LAYER_MOVING = 1;
const NUM_OBJECT_LAYERS = 2;
const NUM_BROADPHASE_LAYERS = 2;

function makeShape(Jolt: JoltModule, desc: ShapeDesc) {
  switch (desc.kind) {
    case 'box': {
      const h = new Jolt.Vec3(desc.halfExtents.x, desc.halfExtents.y, desc.halfExtents.z);
      // Default convex radius (0.05 m): the box is rounded inside its extents, not grown.
      const shape = new Jolt.BoxShape(h);
      Jolt.destroy(h);
      return shape;
    }
    case 'sphere': return new Jolt.SphereShape(desc.radius);
    case 'capsule': return new Jolt.CapsuleShape(desc.halfHeight, desc.radius);
    // Default convex radius (0.05 m), as for the box: rounded inside the shape.
    case 'cylinder': return new Jolt.CylinderShape(desc.halfHeight, desc.radius, 0.05);
    case 'hull': {
      const settings = new Jolt.ConvexHullShapeSettings();
      for (const p of desc.points) {
        const v = new Jolt.Vec3(p.x, p.y, p.z);
        settings.mPoints.push_back(v);
        Jolt.destroy(v);
      }
      const result = settings.Create();
      if (result.HasError()) throw new Error(`Jolt: convex hull: ${result.GetError().c_str()}`);
      const shape = result.Get();
      // The settings hold the shape's only reference: take one before freeing them
      // (the body adds its own; this one is never released, one hull per body).
      shape.AddRef();
      Jolt.destroy(settings);
      return shape;
    }
  }
}

export const joltAdapter: EngineAdapter = {
  name: 'Jolt',
  version: 'jolt-physics 1.1.0 (wasm-compat, single-threaded)',
  notes:
    'mNumVelocitySteps 10 (default), mNumPositionSteps 2 (default); mAllowSleeping false (world and bodies); ' +
    'cylinders: CylinderShape with the default 0.05 m convex radius; hulls: ConvexHullShapeSettings at its defaults; ' +
    'two object layers / two broadphase layers (moving, non-moving); default damping 0.05; friction combine = geometric mean; ' +
    'ragdolls: PointConstraint (world-space point) per joint, collision between jointed bodies disabled by a GroupFilterTable ' +
    '(one group per ragdoll, one sub-group per bone).',
  joints: true,
  async create(scene: Scene, engineSettings: EngineSettings = COMPARABLE): Promise<EngineInstance> {
    joltPromise ??= initJolt();
    const Jolt = await joltPromise;

    // Collision filtering: the usual two-layer setup (static never collides with static).
    const settings = new Jolt.JoltSettings();
    const objectFilter = new Jolt.ObjectLayerPairFilterTable(NUM_OBJECT_LAYERS);
    objectFilter.EnableCollision(LAYER_NON_MOVING, LAYER_MOVING);
    objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
    const bpNonMoving = new Jolt.BroadPhaseLayer(0);
    const bpMoving = new Jolt.BroadPhaseLayer(1);
    const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(NUM_OBJECT_LAYERS, NUM_BROADPHASE_LAYERS);
    bpInterface.MapObjectToBroadPhaseLayer(LAYER_NON_MOVING, bpNonMoving);
    bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, bpMoving);
    // The table copies the layer values, so the temporaries can go now.
    Jolt.destroy(bpNonMoving);
    Jolt.destroy(bpMoving);
    settings.mObjectLayerPairFilter = objectFilter;
    settings.mBroadPhaseLayerInterface = bpInterface;
    settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(
      bpInterface, NUM_BROADPHASE_LAYERS, objectFilter, NUM_OBJECT_LAYERS,
    );
    // JoltInterface takes ownership of the three filter objects; the settings struct itself is ours.
    const jolt = new Jolt.JoltInterface(settings);
    Jolt.destroy(settings);

    const system = jolt.GetPhysicsSystem();
    const physicsSettings = system.GetPhysicsSettings();
    if (engineSettings.sleeping !== undefined) physicsSettings.mAllowSleeping = engineSettings.sleeping;
    if (engineSettings.velocityIterations !== undefined) physicsSettings.mNumVelocitySteps = engineSettings.velocityIterations;
    system.SetPhysicsSettings(physicsSettings);
    const gravity = new Jolt.Vec3(scene.gravity.x, scene.gravity.y, scene.gravity.z);
    system.SetGravity(gravity);
    Jolt.destroy(gravity);

    const bodyInterface = system.GetBodyInterface();
    const bodies: InstanceType<JoltModule['Body']>[] = [];
    // Ragdolls: no collision between a bone and its parent (same skeleton in every ragdoll).
    const joints = sceneJoints(scene);
    const jointed = scene as Partial<JointedScene>;
    const per = jointed.bodiesPerRagdoll ?? 0, first = jointed.firstRagdollBody ?? 0;
    let groupFilter: InstanceType<JoltModule['GroupFilterTable']> | undefined;
    if (joints.length > 0 && per > 0) {
      groupFilter = new Jolt.GroupFilterTable(per);
      for (const j of joints) {
        if (j.bodyA - first >= per) break;
        groupFilter.DisableCollision(j.bodyA - first, j.bodyB - first);
      }
    }
    for (let bi = 0; bi < scene.bodies.length; bi++) {
      const b = scene.bodies[bi]!;
      const dynamic = b.type === 'dynamic';
      const position = new Jolt.RVec3(b.position.x, b.position.y, b.position.z);
      const rotation = new Jolt.Quat(b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w);
      const creation = new Jolt.BodyCreationSettings(
        makeShape(Jolt, b.shape),
        position,
        rotation,
        dynamic ? Jolt.EMotionType_Dynamic : Jolt.EMotionType_Static,
        dynamic ? LAYER_MOVING : LAYER_NON_MOVING,
      );
      creation.mFriction = b.friction;
      creation.mRestitution = b.restitution;
      if (engineSettings.sleeping !== undefined) creation.mAllowSleeping = engineSettings.sleeping;
      if (groupFilter !== undefined && bi >= first) {
        creation.mCollisionGroup.SetGroupFilter(groupFilter);
        creation.mCollisionGroup.SetGroupID(Math.floor((bi - first) / per));
        creation.mCollisionGroup.SetSubGroupID((bi - first) % per);
      }
      if (dynamic) {
        creation.mOverrideMassProperties = Jolt.EOverrideMassProperties_CalculateInertia;
        creation.mMassPropertiesOverride.mMass = b.mass;
      }
      const body = bodyInterface.CreateBody(creation);
      bodyInterface.AddBody(body.GetID(), dynamic ? Jolt.EActivation_Activate : Jolt.EActivation_DontActivate);
      Jolt.destroy(creation);
      Jolt.destroy(position);
      Jolt.destroy(rotation);
      bodies.push(body);
    }

    const constraints: InstanceType<JoltModule['Constraint']>[] = [];
    for (const j of joints) {
      const settings = new Jolt.PointConstraintSettings();
      settings.mSpace = Jolt.EConstraintSpace_WorldSpace;
      const p = new Jolt.RVec3(j.anchor.x, j.anchor.y, j.anchor.z);
      settings.mPoint1 = p;
      settings.mPoint2 = p;
      const c = settings.Create(bodies[j.bodyA]!, bodies[j.bodyB]!);
      system.AddConstraint(c);
      constraints.push(c);
      Jolt.destroy(p);
      Jolt.destroy(settings);
    }
    const meter = new JointErrorMeter(scene);
    const dt = scene.dt;
    let disposed = false;
    return {
      step() {
        jolt.Step(dt, 1);
      },
      readPositions(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.GetPosition();
          out[3 * i] = p.GetX();
          out[3 * i + 1] = p.GetY();
          out[3 * i + 2] = p.GetZ();
        }
      },
      readPoses(out) {
        for (let i = 0; i < bodies.length; i++) {
          const p = bodies[i]!.GetPosition(), q = bodies[i]!.GetRotation();
          out[7 * i] = p.GetX(); out[7 * i + 1] = p.GetY(); out[7 * i + 2] = p.GetZ();
          out[7 * i + 3] = q.GetX(); out[7 * i + 4] = q.GetY(); out[7 * i + 5] = q.GetZ(); out[7 * i + 6] = q.GetW();
        }
      },
      maxJointError() {
        return meter.measure((i, out, o) => {
          const p = bodies[i]!.GetPosition(), q = bodies[i]!.GetRotation();
          out[o] = p.GetX(); out[o + 1] = p.GetY(); out[o + 2] = p.GetZ();
          out[o + 3] = q.GetX(); out[o + 4] = q.GetY(); out[o + 5] = q.GetZ(); out[o + 6] = q.GetW();
        });
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        for (const c of constraints) system.RemoveConstraint(c);
        for (const body of bodies) {
          const id = body.GetID();
          bodyInterface.RemoveBody(id);
          bodyInterface.DestroyBody(id);
        }
        Jolt.destroy(jolt);
      },
    };
  },
};
