/**
 * Babylon nodes that follow footing bodies. Rendering runs at the display
 * rate while the world steps at a fixed rate, so each node is placed between
 * the body's last two step poses with the alpha returned by `world.advance`
 * (Glenn Fiedler, "Fix Your Timestep!"): p = p₀ + (p₁ − p₀)·alpha, rotation
 * by nlerp. footing and Babylon share axes and the (x, y, z, w) quaternion
 * convention, so poses are copied component by component.
 */
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { RigidBody, type Quat, type Vec3 } from '../index';
import { described, requireNode } from './checks';

/** One node following one body. */
export class BodyLink {
  readonly node: TransformNode;
  readonly body: RigidBody;
  constructor(node: TransformNode, body: RigidBody) {
    requireNode(node, 'BodyLink: node');
    requireBody(body, 'BodyLink: body');
    this.node = node;
    this.body = body;
    // Babylon ignores `rotation` (Euler) once rotationQuaternion is set; make it once here, not per frame.
    if (!node.rotationQuaternion) node.rotationQuaternion = new Quaternion();
  }
}

function requireBody(body: RigidBody, field: string): void {
  if (!(body instanceof RigidBody)) throw new TypeError(`${field} must be a footing RigidBody (got ${described(body)})`);
}

const scratchPosition: Vec3 = { x: 0, y: 0, z: 0 };
const scratchRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };

/**
 * Places `node` at the body's pose interpolated by `alpha` in [0, 1]
 * (1 = the latest step). Allocates nothing.
 */
export function syncNodeToBody(node: TransformNode, body: RigidBody, alpha = 1): void {
  const p = body.getInterpolatedPosition(scratchPosition, alpha);
  const q = body.getInterpolatedRotation(scratchRotation, alpha);
  node.position.set(p.x, p.y, p.z);
  const r = node.rotationQuaternion;
  if (r) r.set(q.x, q.y, q.z, q.w);
  else node.rotationQuaternion = new Quaternion(q.x, q.y, q.z, q.w);
}

/**
 * A set of node ↔ body links updated together:
 *
 * ```ts
 * const links = new BodyLinks();
 * links.add(mesh, body);
 * scene.onBeforeRenderObservable.add(() => links.sync(world.advance(engine.getDeltaTime() / 1000)));
 * ```
 *
 * Links whose body has left the world are dropped by `sync` (their node is
 * left where it was; dispose it yourself, or pass `disposeRemoved`).
 */
export class BodyLinks {
  readonly links: BodyLink[] = [];
  /** Dispose a node when its body is found removed from the world. Default false. */
  disposeRemoved: boolean;

  constructor(options: { disposeRemoved?: boolean } = {}) {
    this.disposeRemoved = options.disposeRemoved ?? false;
  }

  add(node: TransformNode, body: RigidBody): BodyLink {
    // Checked before anything is kept: a bad link in the list would make every later sync throw.
    requireNode(node, 'BodyLinks.add: node');
    requireBody(body, 'BodyLinks.add: body');
    const link = new BodyLink(node, body);
    syncNodeToBody(node, body, 1);
    this.links.push(link);
    return link;
  }

  /** Removes the link of `nodeOrBody` (the node is not disposed). Returns whether one was found. */
  remove(nodeOrBody: TransformNode | RigidBody): boolean {
    for (let i = 0; i < this.links.length; i++) {
      const l = this.links[i]!;
      if (l.node === nodeOrBody || l.body === nodeOrBody) {
        this.links.splice(i, 1);
        return true;
      }
    }
    return false;
  }

  /** Copies every body's interpolated pose onto its node. Allocates nothing while no body was removed. */
  sync(alpha = 1): void {
    const links = this.links;
    let write = 0;
    for (let i = 0; i < links.length; i++) {
      const l = links[i]!;
      if (l.body.world === null) {
        if (this.disposeRemoved) l.node.dispose();
        continue;
      }
      syncNodeToBody(l.node, l.body, alpha);
      links[write++] = l;
    }
    links.length = write;
  }
}
