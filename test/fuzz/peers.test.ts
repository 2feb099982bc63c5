/**
 * The fuzz peers (test/fuzz/peers.ts) build --new-shapes compound bodies where
 * footing does: at the parts' centre of mass with footing's principal axes,
 * with the mass footing gives them and, in that frame, the same principal
 * inertia (the engines compute it themselves from the parts).
 */
import { describe, expect, it } from 'vitest';
import { BODY_STRIDE, buildFooting } from './engines';
import { generateWorld } from './generator';
import { buildJolt, buildRapier } from './peers';

const SEED = 5;

describe('fuzz peers with compound bodies', () => {
  it('Rapier and Jolt place each compound at footing\'s body pose, with its mass and inertia', async () => {
    console.log(`[fuzz peers compound] seed=${SEED}`);
    const spec = generateWorld(SEED, { joints: false, newShapes: true });
    const compounds: number[] = [];
    spec.bodies.forEach((b, i) => { if (b.shape.kind === 'compound') compounds.push(i); });
    expect(compounds.length).toBeGreaterThan(3);
    const footing = buildFooting(spec);
    const ref = new Float64Array(BODY_STRIDE * spec.bodies.length);
    footing.readBodies(ref);
    for (const build of [buildRapier, buildJolt]) {
      const peer = await build(spec);
      const st = new Float64Array(BODY_STRIDE * spec.bodies.length);
      peer.readBodies(st);
      let pose = 0, rot = 0, mass = 0, inertia = 0;
      for (const i of compounds) {
        const o = BODY_STRIDE * i;
        pose = Math.max(pose, Math.hypot(st[o]! - ref[o]!, st[o + 1]! - ref[o + 1]!, st[o + 2]! - ref[o + 2]!));
        // |q_peer · q_footing| = 1 for the same rotation (either sign).
        let dot = 0;
        for (let k = 3; k < 7; k++) dot += st[o + k]! * ref[o + k]!;
        rot = Math.max(rot, 1 - Math.abs(dot));
        mass = Math.max(mass, Math.abs(peer.masses[i]! / footing.masses[i]! - 1));
        for (let k = 0; k < 3; k++) inertia = Math.max(inertia, Math.abs(peer.inertia[3 * i + k]! / footing.inertia[3 * i + k]! - 1));
      }
      console.log(`[fuzz peers compound] ${peer.engine}: ${compounds.length} compounds, worst position ${pose.toExponential(2)} m, 1 − |q·q| ${rot.toExponential(2)}, mass ${(100 * mass).toFixed(3)} %, principal inertia ${(100 * inertia).toFixed(2)} %`);
      peer.dispose();
      // Rapier holds poses in single precision.
      expect(pose).toBeLessThan(1e-4);
      expect(rot).toBeLessThan(1e-6);
      expect(mass).toBeLessThan(1e-4);
      // Jolt rounds boxes and cylinders by its convex radius and Rapier builds its own hulls: a few percent.
      expect(inertia).toBeLessThan(0.1);
    }
    footing.dispose();
  });
});
