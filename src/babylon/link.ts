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
import { described, requireNode, requireObject } from './checks';

/** One node following one body. */
export class BodyLink {
  readonly node: TransformNode;
  readonly body: RigidBody;
  constructor(node: TransformNode, body: RigidBody) {
    requireLinkable(node, body, 'BodyLink');
    this.node = node;
    this.body = body;
    // Babylon ignores `rotation` (Euler) once rotationQuaternion is set; make it once here, not per frame.
    if (!node.rotationQuaternion) node.rotationQuaternion = new Quaternion();
  }
}

function requireBody(body: RigidBody, field: string): void {
  if (!(body instanceof RigidBody)) throw new TypeError(`${field} must be a footing RigidBody (got ${described(body)})`);
}

/**
 * A node and body a link can keep: a live node (a disposed one would be
 * written every frame, never drawn) and a body in a world (sync would drop
 * the link at once, and with disposeRemoved dispose the node just linked).
 */
function requireLinkable(node: TransformNode, body: RigidBody, caller: string): void {
  requireNode(node, `${caller}: node`);
  requireBody(body, `${caller}: body`);
  if (typeof node.isDisposed === 'function' && node.isDisposed()) throw new RangeError(`${caller}: node ${described(node)} is disposed`);
  if (body.world === null) throw new RangeError(`${caller}: body ${body.id} has been removed from its world`);
}

/** Throws a RangeError naming `field` unless `alpha` is a finite number (out of [0, 1] extrapolates, as the body's getInterpolated* do). */
function requireAlpha(alpha: number, field: string): void {
  if (typeof alpha !== 'number' || !(alpha - alpha === 0)) throw new RangeError(`${field} must be a finite number (got ${described(alpha)})`);
}

const scratchPosition: Vec3 = { x: 0, y: 0, z: 0 };
const scratchRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };

/**
 * Places `node` at the body's pose interpolated by `alpha` in [0, 1]
 * (1 = the latest step). Allocates nothing.
 */
export function syncNodeToBody(node: TransformNode, body: RigidBody, alpha = 1): void {
  // Checks only: they read their arguments and allocate nothing unless they throw.
  requireNode(node, 'syncNodeToBody: node');
  requireBody(body, 'syncNodeToBody: body');
  requireAlpha(alpha, 'syncNodeToBody: alpha');
  place(node, body, alpha);
}

/** syncNodeToBody without the checks (for links checked when added). */
function place(node: TransformNode, body: RigidBody, alpha: number): void {
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
 * left where it was; dispose it yourself, or pass `disposeRemoved`), and so
 * are links whose node was disposed.
 */
export class BodyLinks {
  readonly links: BodyLink[] = [];
  /** Dispose a node when its body is found removed from the world. Default false. */
  disposeRemoved: boolean;

  constructor(options: { disposeRemoved?: boolean } = {}) {
    requireObject(options, 'BodyLinks: options');
    const disposeRemoved = options.disposeRemoved;
    if (disposeRemoved !== undefined && typeof disposeRemoved !== 'boolean') throw new TypeError(`BodyLinks: options.disposeRemoved must be a boolean (got ${described(disposeRemoved)})`);
    this.disposeRemoved = disposeRemoved ?? false;
  }

  add(node: TransformNode, body: RigidBody): BodyLink {
    // Checked before anything is kept: a bad link in the list would make every later sync throw.
    requireLinkable(node, body, 'BodyLinks.add');
    const link = new BodyLink(node, body);
    place(node, body, 1);
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

  /**
   * Copies every body's interpolated pose onto its node. Links whose node was
   * disposed are dropped too. Allocates nothing while no link was dropped.
   */
  sync(alpha = 1): void {
    // Checked before any link is touched: a throw mid-loop would leave removed links half compacted.
    requireAlpha(alpha, 'BodyLinks.sync: alpha');
    const links = this.links;
    let write = 0;
    for (let i = 0; i < links.length; i++) {
      const l = links[i]!;
      if (l.node.isDisposed()) continue;
      if (l.body.world === null) {
        if (this.disposeRemoved) l.node.dispose();
        continue;
      }
      place(l.node, l.body, alpha);
      links[write++] = l;
    }
    links.length = write;
  }
}
