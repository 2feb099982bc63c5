// Ragdolls the page builds in the worker: their bodies get host handles, their joints `trackJoint` handles.
import type { RigidBody } from '../dynamics/body';
import type { Joint } from '../joints/joint';
import { createRagdoll, createRagdollFromDescription, type Ragdoll, type RagdollBoneDesc, type RagdollWorld } from '../ragdoll/ragdoll';
import type { World } from '../world/world';
import { describeShape } from './describe';
import { queryShape } from './host-queries';
import type { HostSlots } from './host-slots';
import { generationOf, slotOf, type RagdollData, type RagdollDescData } from './protocol';

const RAGDOLL_FIELDS = [
  'position', 'rotation', 'scale', 'joints', 'bones', 'density', 'friction', 'angularDamping', 'linearDamping', 'collisionGroup', 'collisionMask',
  'jointFriction', 'linearVelocity', 'userData',
];

export class HostRagdolls {
  /** Ragdolls the page created, by the handle `createRagdoll` answered with. */
  private readonly entries = new Map<number, { ragdoll: Ragdoll; bodies: number[]; joints: number[] }>();
  private nextHandle = 1;

  constructor(
    private readonly slots: HostSlots, private readonly joints: Map<number, Joint>, private readonly jointHandleOf: Map<Joint, number>,
    private readonly trackJoint: (joint: Joint) => number,
  ) {}

  /**
   * Builds a ragdoll (the humanoid, or `desc.bones`), gives its bodies host
   * handles and its joints `trackJoint` handles. All or nothing: a
   * description refused half-way takes out what it had added.
   */
  build(world: World, desc: RagdollDescData): RagdollData {
    if (desc === null || typeof desc !== 'object') throw new TypeError(`desc must be a ragdoll description object (got ${String(desc)})`);
    for (const key of Object.keys(desc)) {
      if (!RAGDOLL_FIELDS.includes(key)) throw new RangeError(`${key} is not a ragdoll option (options: ${RAGDOLL_FIELDS.join(', ')})`);
    }
    const { bones, ...options } = desc;
    if (options.position === null || typeof options.position !== 'object') throw new TypeError(`position must be a { x, y, z } object (got ${String(options.position)})`);
    let skeleton: RagdollBoneDesc[] | null = null;
    if (bones !== undefined) {
      if (!Array.isArray(bones)) throw new TypeError(`bones must be an array of bone descriptions (got ${String(bones)})`);
      skeleton = bones.map((bone, i) => {
        if (bone === null || typeof bone !== 'object') throw new TypeError(`bones[${i}] must be a bone description object`);
        return { ...bone, shape: queryShape(bone.shape, `bones[${i}]`) };
      });
    }
    const added: RigidBody[] = [];
    const addedJoints: Joint[] = [];
    const recording: RagdollWorld = {
      createBody: (d) => { const b = world.createBody(d); added.push(b); return b; },
      removeBody: (b) => world.removeBody(b),
      addJoint: (j) => { world.addJoint(j); addedJoints.push(j); },
      removeJoint: (j) => world.removeJoint(j),
    };
    let ragdoll: Ragdoll;
    try {
      ragdoll = skeleton
        ? createRagdollFromDescription(recording, skeleton, { position: options.position, rotation: options.rotation }, options)
        : createRagdoll(recording, options);
    } catch (error) {
      for (let i = addedJoints.length - 1; i >= 0; i--) if (addedJoints[i]!.owner) world.removeJoint(addedJoints[i]!);
      for (let i = added.length - 1; i >= 0; i--) if (added[i]!.world) world.removeBody(added[i]!);
      throw error;
    }
    const data: RagdollData = { handle: this.nextHandle++, bodies: [], names: ragdoll.names.slice(), shapes: [], joints: [] };
    for (const body of ragdoll.bodies) {
      data.bodies.push(this.slots.register(body));
      data.shapes.push(describeShape(body.shape));
    }
    for (const joint of ragdoll.joints) data.joints.push(this.trackJoint(joint));
    this.entries.set(data.handle, { ragdoll, bodies: data.bodies, joints: data.joints });
    return data;
  }

  /** Removes a ragdoll the page created: its bodies and joints leave the world and lose their handles. */
  remove(handle: number): void {
    const entry = this.entries.get(handle);
    if (!entry) throw new Error(`removeRagdoll: no ragdoll with handle ${String(handle)}`);
    for (const body of entry.ragdoll.bodies) this.slots.retire(body);
    entry.ragdoll.remove();
    for (const h of entry.bodies) {
      const slot = slotOf(h);
      if (this.slots.generations[slot] === generationOf(h) && this.slots.bodies[slot]) {
        this.slots.release(slot);
      }
    }
    for (const h of entry.joints) {
      const joint = this.joints.get(h);
      if (joint) this.jointHandleOf.delete(joint);
      this.joints.delete(h);
    }
    this.entries.delete(handle);
  }
}
