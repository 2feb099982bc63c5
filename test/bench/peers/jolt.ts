import initJolt from 'jolt-physics';
import type { Scene, ShapeDesc } from '../../scenes/scene';
import { COMPARABLE, type EngineAdapter, type EngineInstance } from './adapter';

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
  }
}

export const joltAdapter: EngineAdapter = {
  name: 'Jolt',
  version: 'jolt-physics 1.1.0 (wasm-compat, single-threaded)',
  notes:
    'mNumVelocitySteps 10 (default), mNumPositionSteps 2 (default); mAllowSleeping false (world and bodies); ' +
    'two object layers / two broadphase layers (moving, non-moving); default damping 0.05; friction combine = geometric mean.',
  async create(scene: Scene): Promise<EngineInstance> {
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
    physicsSettings.mAllowSleeping = COMPARABLE.sleeping;
    physicsSettings.mNumVelocitySteps = COMPARABLE.velocityIterations;
    system.SetPhysicsSettings(physicsSettings);
    const gravity = new Jolt.Vec3(scene.gravity.x, scene.gravity.y, scene.gravity.z);
    system.SetGravity(gravity);
    Jolt.destroy(gravity);

    const bodyInterface = system.GetBodyInterface();
    const bodies: InstanceType<JoltModule['Body']>[] = [];
    for (const b of scene.bodies) {
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
      creation.mAllowSleeping = COMPARABLE.sleeping;
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
      dispose() {
        if (disposed) return;
        disposed = true;
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
