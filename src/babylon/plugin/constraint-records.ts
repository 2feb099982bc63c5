// Stage: Babylon constraints attached to body records. A PhysicsConstraint
// gets one ConstraintData (constraints.ts makes the footing joints) holding a
// pair per body.addConstraint call; this module attaches, finds and disposes them.
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { ConstrainedBodyPair } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import type { PhysicsBody } from '@babylonjs/core/Physics/v2/physicsBody';
import type { PhysicsConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import type { World } from '../../index';
import { ConstraintData } from './constraints';
import type { BodyRecords } from './body-records';

export class ConstraintRecords {
  private readonly all = new Set<ConstraintData>();

  constructor(private readonly world: World, private readonly records: BodyRecords) {}

  attach(constraint: PhysicsConstraint, body: PhysicsBody, childBody: PhysicsBody, instanceIndex?: number, childInstanceIndex?: number): void {
    const a = this.records.record(body, instanceIndex), b = this.records.record(childBody, childInstanceIndex);
    // Made (and its type and limits checked) before anything is written to the constraint.
    const known: unknown = constraint._pluginData;
    const c = known instanceof ConstraintData ? known : new ConstraintData(this.world, constraint);
    if (!constraint._initOptions) {
      // The frames PhysicsViewer draws (HavokPlugin fills the same field): pivots and axes in each node's frame.
      const o = constraint.options;
      const axisA = o.axisA?.clone() ?? new Vector3(1, 0, 0), axisB = o.axisB?.clone() ?? new Vector3(1, 0, 0);
      const perpAxisA = o.perpAxisA?.clone() ?? axisA.getNormalToRef(new Vector3()), perpAxisB = o.perpAxisB?.clone() ?? axisB.getNormalToRef(new Vector3());
      constraint._initOptions = { pivotA: o.pivotA?.clone() ?? Vector3.Zero(), pivotB: o.pivotB?.clone() ?? Vector3.Zero(), axisA, axisB, perpAxisA, perpAxisB };
    }
    c.addPair(a, b);
    if (c !== known) {
      constraint._pluginData = c;
      this.all.add(c);
    }
  }

  /** The constraint's data; throws for one not attached to bodies yet. */
  of(constraint: PhysicsConstraint): ConstraintData {
    const c = constraint._pluginData as ConstraintData | undefined;
    if (!(c instanceof ConstraintData)) throw new TypeError('FootingPlugin: the constraint is not attached to bodies yet (body.addConstraint)');
    return c;
  }

  dispose(constraint: PhysicsConstraint): void {
    const c = constraint._pluginData as ConstraintData | undefined;
    if (c instanceof ConstraintData) { c.dispose(); this.all.delete(c); }
    constraint._pluginData = undefined;
  }

  bodiesUsing(constraint: PhysicsConstraint): ConstrainedBodyPair[] {
    const c = constraint._pluginData as ConstraintData | undefined;
    if (!(c instanceof ConstraintData)) return [];
    return c.pairs.map((p) => ({ parentBody: p.a.body, parentBodyIndex: p.a.index, childBody: p.b.body, childBodyIndex: p.b.index }));
  }
}
