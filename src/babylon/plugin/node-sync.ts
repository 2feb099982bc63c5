// Stage: footing bodies back to Babylon nodes after the steps. A node (or a
// thin instance's matrix) takes its body's pose through the shape's offset,
// between the last two steps for dynamic bodies; a parented node gets the
// pose in its parent's frame and keeps its scale.
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Quat, Vec3 } from '../../index';
import { footingToNode, instancesWithMatrix } from './pose';
import { BodyData } from './body-data';

export class NodeSync {
  private readonly tmpV = new Vector3();
  private readonly tmpV2 = new Vector3();
  private readonly tmpQ = new Quaternion();
  private readonly tmpQ2 = new Quaternion();
  private readonly tmpM = new Matrix();
  private readonly tmpM2 = new Matrix();
  private readonly tmpScale = new Vector3();
  private readonly tmpVec: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly tmpQuat: Quat = { x: 0, y: 0, z: 0, w: 1 };

  /** The end of a frame: every body that syncs, at interpolation factor alpha. */
  syncAll(bodies: Array<PhysicsBody>, alpha: number): void {
    for (const body of bodies) {
      if (!body.disableSync && body.transformNode) this.syncBody(body, alpha);
    }
  }

  syncBody(body: PhysicsBody, alpha: number, node: TransformNode = body.transformNode): void {
    if (body.numInstances > 0) {
      const m = node as Mesh;
      const matrices = m._thinInstanceDataStorage?.matrixData;
      if (!matrices) return;
      const list = body._pluginDataInstances as BodyData[];
      const n = instancesWithMatrix(body, matrices);
      for (let i = 0; i < n; i++) {
        const d = list[i]!;
        this.posedNode(d, alpha, this.tmpV, this.tmpQ);
        // Keep the instance's scale; write rotation and translation.
        Matrix.FromArrayToRef(matrices, i * 16, this.tmpM);
        this.tmpM.decompose(this.tmpScale);
        Matrix.ComposeToRef(this.tmpScale, this.tmpQ, this.tmpV, this.tmpM);
        this.tmpM.copyToArray(matrices, i * 16);
        d.syncedPosition.copyFrom(this.tmpV);
        d.syncedRotation.copyFrom(this.tmpQ);
      }
      m.thinInstanceBufferUpdated('matrix');
      return;
    }
    const d = body._pluginData as BodyData | undefined;
    if (!(d instanceof BodyData) || !d.rigid) return;
    this.posedNode(d, alpha, this.tmpV, this.tmpQ);
    d.syncedPosition.copyFrom(this.tmpV);
    d.syncedRotation.copyFrom(this.tmpQ);
    const parent = node.parent as TransformNode | null;
    if (parent && !parent.getWorldMatrix().isIdentity()) {
      // Express the world pose in the parent's frame, keeping the node's own scale.
      parent.computeWorldMatrix(true);
      this.tmpScale.copyFrom(node.scaling);
      Matrix.ComposeToRef(node.absoluteScaling, this.tmpQ, this.tmpV, this.tmpM);
      parent.getWorldMatrix().invertToRef(this.tmpM2);
      this.tmpM.multiplyToRef(this.tmpM2, this.tmpM);
      this.tmpM.decompose(undefined, this.tmpQ2, this.tmpV2);
      node.position.copyFrom(this.tmpV2);
      if (node.rotationQuaternion) node.rotationQuaternion.copyFrom(this.tmpQ2).normalize();
      else this.tmpQ2.toEulerAnglesToRef(node.rotation);
      node.scaling.copyFrom(this.tmpScale);
    } else {
      node.position.copyFrom(this.tmpV);
      if (node.rotationQuaternion) node.rotationQuaternion.copyFrom(this.tmpQ);
      else this.tmpQ.toEulerAnglesToRef(node.rotation);
    }
  }

  /** The node's world pose from the footing body, between the last two steps (alpha) for dynamic bodies. */
  private posedNode(d: BodyData, alpha: number, outP: Vector3, outQ: Quaternion): void {
    const r = d.rigid;
    if (!r) {
      outP.set(d.position.x, d.position.y, d.position.z);
      outQ.set(d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w);
      return;
    }
    // Animated bodies follow the user's targets: shown where they are, not a step behind.
    if (alpha < 1 && r.isDynamic) {
      footingToNode(r.getInterpolatedPosition(this.tmpVec, alpha), r.getInterpolatedRotation(this.tmpQuat, alpha), d.rigidGeometry, outP, outQ);
    } else {
      footingToNode(r.position, r.rotation, d.rigidGeometry, outP, outQ);
    }
  }
}
