/**
 * Joint-free fuzz worlds that failed the tunnelling check, cut down to the
 * bodies that still failed (`npm run fuzz -- --seed S --worlds 1 --minimize`),
 * and replayed here with their measured depth (lowest point under the
 * ground / the body's smallest size; the check fails above 1):
 * - 1002, bodies 6, 47, 50, 83: capsule 50 (r 3.4 cm, 143 m/s) on the floor
 *   box 10 m beside the terrain got a 0.7 m deep point from a far terrain
 *   triangle's extended plane (collide-capsule-mesh); 2.01 before the fix.
 * - 1005, body 31 alone: a 5.4 cm thick box at 153 m/s into the terrain kept
 *   far speculative points facing sideways instead of its face's corners
 *   (triangle-contact finish) and slid 2.5 m per step over the hill with
 *   points from its start pose only (world.turnSplit); 5.27 before the fix.
 * - 1020, body 27 alone: a capsule (r 3.5 cm) landing on the floor box at
 *   134 m/s, set rolling by friction within the impact step, turned 0.12 m
 *   into the floor (the same split by relative motion); 1.68 before.
 * - 1024, body 26 alone: a 0.465 × 0.105 × 0.158 m box at 132 m/s into the
 *   terrain, set spinning at 330 rad/s by the impact within the step, turned
 *   its far corner 0.36 m into the terrain, which no point held (continuous
 *   collision, dynamics/continuous.ts); 3.46 before.
 * - 1025, body 24 alone: the same with a 0.15 kg box at 173 m/s, spun to
 *   560 rad/s; 1.29 before.
 * - 1036, body 45 alone: a 2.38 × 0.05 × 2.68 m plate sliding up a terrain
 *   hill at 110 m/s; its manifold (four points over many triangles) missed
 *   the slope ahead, continuous collision put it back against the slope
 *   every step with its speed kept, and it turned its trailing edge into
 *   the terrain behind (continuous.ts stopApproach now takes the speed into
 *   the surface it was put back against); 4.65 before.
 * - 1056, bodies 12 and 63: a 3.7 kg capsule at 174 m/s strikes a 2.36 m
 *   stick lying on the terrain and spins it to 707 rad/s; the stick's middle
 *   rests on the terrain, so its shrunk shape starts touching it and only a
 *   small sphere at its centre was swept, while its ends turned into the
 *   terrain (continuous.ts now sweeps a deeper core that keeps its length);
 *   1.34 before.
 * - 2013 (jointed world), body 5 alone (no joint left): a 0.556 × 0.06 × 1.10 m box skidding
 *   over the terrain at 130 m/s and 158 rad/s, its contact points losing to
 *   its turn (continuous.ts limitDepth: it may not end deeper in a surface
 *   it started in than it started); 1.55 before.
 *
 * Jointed:
 * - 2013, body 14 alone: a thin capsule (r 5 cm, 66 m/s) on a cone-twist
 *   to a point on the floor box 30 m away, with collision; its swing meets
 *   the terrain, the contact holds it, the anchor gap opens to 13 m, and the
 *   joint projection teleported it 2 m through the terrain in one pass
 *   (rows.ts PointRow.projectB now moves ≤ 5 cm per pass and ≤ 5 mm into a
 *   body's ground); 20.9 before.
 * - 2001, bodies 94 and 127: a 99 kg thin capsule on a cone-twist and a ball
 *   joint to a body 4.8 m away (the two joints cannot both hold), dragged
 *   into the terrain by the joints, which the sweeps solve after the
 *   contacts (ngs.ts pushOutOfImmovables now lets the contact win); 51.1
 *   before.
 * - 2919, all 177 bodies, 120 steps (the failure was at step 77): a 0.14 kg
 *   capsule (body 154, r 4.2 cm) pulled down by its joint at about 650 m/s²
 *   hit the floor box by its edge at 23 m/s; its end went 0.45 m into the
 *   box, 7.5 mm from the side face, and continuous collision's depth limit
 *   pushed it out through that side face, under the terrain sheet beyond
 *   (continuous.ts limitDepth now puts such a body back along its path);
 *   5.38 before.
 * - 2943, 33 bodies (2, 3, 9, …, 69): a 2.66 m × 6.5 cm plate (body 3) pulled
 *   by joints across a terrain seam folding by 0.09°. The box-mesh
 *   collider's edge pair (plate edge × seam) beat the face axis by a
 *   millimetre and passed the active-feature check through a corner of the
 *   seam, giving one point on the seam; the plate's far end sank through the
 *   one-sided triangle beside it (collide-box-mesh.ts now keeps an edge pair
 *   only when the triangle edge of the pair is active); 1.23 before.
 * - 2040, the whole world with its characters, cloth and rope, 360 steps
 *   (the failure was at step 356; without the extras it passes): a 0.11 kg
 *   hull (body 196) resting on the floor on a ball joint to a 181 kg body.
 *   The projection moved the heavy body 5 cm against the pull of its other
 *   joints, more work than the pair's relative motion could pay, and moving
 *   the pair back together for it (shiftPairBack) pushed the grounded hull
 *   5 cm into the floor each pass, 23 m down in the end. Work against other
 *   joints that cannot be paid now undoes the pass instead (joint-solver.ts
 *   putBack); 245 before.
 * - 2053, the whole world, 100 steps (the failure was at step 82): a 146 kg
 *   hull (body 46) on a cone-twist and a ball joint that cannot both hold,
 *   the one projection lifting it 4 cm a pass and the other pushing it 5 cm
 *   down. The first putBack also undid the lift whenever the other joints'
 *   pull added a few millijoules to its 57.6 J, and left the hull to the
 *   downward projection; now a pass is undone only when the relative motion
 *   pays the lift but not that work; 1.057 before.
 * - 2071, the whole world, 100 steps (the failure was at step 88): a 6.7 kg
 *   hull straddling a 3° ridge of the terrain (an active edge). Against each
 *   triangle alone EPA's way out was sideways over the ridge, 29° and 60°
 *   off the vertical; those contacts did not hold it up and its cone-twist
 *   pulled it 4 cm a pass into the terrain. Edge and corner normals now stay
 *   within the edge's normal cone (triangle-contact.ts normalInFeatureCone);
 *   82.9 before.
 * - 2447, the whole world, 280 steps (the failure was at step 271): a
 *   470 kg hull (body 65, radius 13 cm) resting on the terrain is B of a
 *   hinge whose A weighs 4.4 kg. The hinge's lock projection turned B alone
 *   onto A's axis, and a turn, unlike a translation, is not held by the
 *   5 mm sink clamp: the hull's far side went 6.9 cm into the terrain. A B
 *   more than twice as heavy as A is now turned together with A by inverse
 *   inertia, still at most 0.1 rad a pass (AngularLock2.shareTurn); 1.066
 *   before.
 *
 * Energy:
 * - 1601, bodies 33, 36 and 98: a 0.24 kg hull at 122 m/s on the floor,
 *   under a 134.5 kg sphere. The hull is more than 500 times lighter than the
 *   load on it, so shock propagation treated it as immovable and set the
 *   sphere's approach to zero against it, launching the sphere at the hull's
 *   speed: 15 → 57 m/s within a step, +207 % of the releasable energy (the
 *   pass gives the lower body no reaction). The shock pass now only stops
 *   the upper body moving towards the lower one (shock.ts).
 * - 2384 (jointed), 10 bodies: a 590 kg capsule on a distance spring to a
 *   918 kg cylinder and a ball joint to a lighter body, beside a thin capsule
 *   spinning at 195 rad/s that splits most steps into 11–16 parts. The ball
 *   joint's projection moved the capsule against the spring every sub-step
 *   and paid only the gravity it lifted; the spring gave the stretch back as
 *   speed: +23.6 % of the releasable energy before. The projection now also
 *   pays the work against the pull of the joints it does not hold
 *   (joint-solver.ts addConstraintWork).
 * - 2569 (jointed), whole world, 200 steps: the same through a slider. A
 *   176 kg box (body 34) on a slider and a distance joint to body 18 and a
 *   ball joint to a 3.5 kg body reached 545 m/s at step 159: +7.8 % before.
 * - 2027 (jointed), whole world, 120 steps: thin capsules on hinges whose
 *   lock projection (AngularLock2.projectB) turned them outside the
 *   integration; the sweeps after it used the world inertia of the old
 *   rotation, the small long-axis moment on the wrong axis, and the capsules
 *   spun up to 1e15 rad/s; +122 % before.
 * - 2011 (jointed), whole world, 20 steps: with the inertia retaken inside
 *   the limits' projection, a 1.3 kg thin capsule reached 1.4e5 rad/s at
 *   step 16 (+1026 %): its contact rows kept effective masses of the old
 *   inertia. The solver now retakes the inertia of bodies the projection
 *   turned far and rebuilds their contact rows together (solver.ts, between
 *   JointSolver.project and the relax sweep's joint rows).
 * - 2232 (jointed), bodies 1, 3 and 4: a 226 kg capsule on a floor hinge
 *   22.8 m from its centre, welded by a fixed joint 21.7 m long to a 337 kg
 *   thin capsule; body 3, spinning at 260 rad/s, only splits every step into
 *   about 13 parts. At parts of 1/360 s and shorter the two joints do not
 *   agree within the sweeps, and their warm starts, each trimmed alone,
 *   together gave the pair energy every part: +338 % before. Each group of
 *   joints linked through dynamic bodies is now trimmed once more along the
 *   sum of its warm starts (joint-solver.ts trimGroups).
 * - 2844 (jointed), whole world, 70 steps: a 0.55 kg hull on a cone-twist
 *   to a 16.9 kg capsule lay in the seam between the floor box's top edge
 *   and the terrain. The joint projection pulled it down 4.8 cm a pass: the
 *   limit of 5 mm into a ground it rests on was taken along one contact
 *   normal only, the last recorded, which was the floor edge's near-
 *   horizontal one. A vertex ended 10.9 cm under the floor's top (1.26× the
 *   hull's smallest size). Every distinct ground normal is now kept
 *   (solver-bodies.ts groundNormal) and the move clipped against each.
 * - 2762 (jointed), whole world, 480 steps: a six-dof joint between a 4.3 kg
 *   thin box and a thin capsule. After a projection turned the box, the
 *   solver retook its world inertia (SolverBodies.refreshInertia), but the
 *   joint's rows had already measured their geometry at the new pose with
 *   the old inertia and kept it: a linear limit row's cached effective mass
 *   no longer matched the inverse inertia it applies its impulse through,
 *   and one unbiased row raised the pair's kinetic energy from 16 kJ to
 *   3.6 MJ; +806 % of the releasable energy at step 474. Retaking a slot's
 *   inertia now counts as a pose change (SolverBodies.takeInertia), so the
 *   rows measure again.
 * - 2735 (jointed), whole world, 365 steps: the same through a slider's
 *   rows; a 3.9 kg capsule reached 874 m/s at step 360 (+1.85 %).
 * - 2232 (jointed), whole world, 535 steps: with the above fixed, a six-dof's
 *   soft linear limit (10 Hz) between a 115 kg cylinder and a 681 kg sphere,
 *   35 m past its limit, handed the pair 22-72 kJ a sub-step through its
 *   warm start: it had engaged when its effective mass was 0.035 kg, and the
 *   mass, and with it the stiffness, had since grown to 4.4 kg. +3.77 % at
 *   step 532. A soft limit now keeps the stiffness it engaged with
 *   (AxisRow.springMass).
 * - 2340 (jointed), whole world, 305 steps: a 0.21 kg hull 2.8 cm across,
 *   on a hinge stretched 12 m, slid into the seam of the floor box and the
 *   terrain. Its joint projections pulled it down 5 mm a move, the bound
 *   for a grounded body, but two joints and four sub-steps made that 2-4 cm
 *   a solve; at the seam the push-out no longer lifted it back. The moves
 *   into a ground now add up to at most half the body's thinnest half size
 *   a solve (SolverBodies.sinkBudget).
 * - 3182 (jointed), whole world, 165 steps: a 0.3 kg hull 2.2 cm thick,
 *   held by three joints, slid down the terrain into the seam at the floor
 *   box's edge. There its contact normals faced sideways (the floor box's
 *   side face, the terrain sheet's edge), so the projections, pulling it
 *   down 5 cm a sub-step, were not clipped; its whole shape and its core
 *   touched both surfaces at the start of the part, so the continuous
 *   sweeps skipped them, and it went 0.2 m down the seam in one part
 *   (186× its size under the sheet at step 161). A core that touches a
 *   surface at the start and moves further into it is now stopped there
 *   (continuous.ts keepStart).
 * - 4019 (joint-free), whole world, 20 steps: a 9.3 kg hull 2 cm thick and
 *   9.4 cm across landed at 69 m/s; friction spun it from 2.5 to 804 rad/s
 *   within the step. Its sweep used the hull scaled about its centre of mass
 *   by 1 − δ/th, which moves the faces in by δ but its far corners by
 *   δ·R/th (R/th about 3.4): once the small hull touched, a corner of the
 *   real one was 2.2 cm into the floor box, 1.089× its smallest size. The
 *   scale is now 1 − δ/R (continuous.ts innerShape).
 */
import { describe, expect, it } from 'vitest';
import { WorldChecker } from './checks';
import { buildFooting } from './engines';
import { formatFailure, runWorld, worldSpec } from './run';

const CASES: readonly { seed: number; keep?: number[]; before: number; joints?: boolean; steps?: number; extras?: boolean }[] = [
  { seed: 1002, keep: [6, 47, 50, 83], before: 2.01 },
  { seed: 1005, keep: [31], before: 5.27 },
  { seed: 1020, keep: [27], before: 1.68 },
  { seed: 1024, keep: [26], before: 3.46 },
  { seed: 1025, keep: [24], before: 1.29 },
  { seed: 1036, keep: [45], before: 4.65 },
  { seed: 1056, keep: [12, 63], before: 1.34 },
  { seed: 2013, keep: [5], before: 1.55, joints: true },
  { seed: 2013, keep: [14], before: 20.9, joints: true },
  { seed: 2001, keep: [94, 127], before: 51.1, joints: true },
  { seed: 2919, before: 5.38, joints: true, steps: 120 },
  { seed: 2040, before: 245, joints: true, steps: 360, extras: true },
  { seed: 2053, before: 1.057, joints: true, steps: 100, extras: true },
  { seed: 2071, before: 82.9, joints: true, steps: 100, extras: true },
  { seed: 2447, before: 1.066, joints: true, steps: 280, extras: true },
  { seed: 2844, before: 1.261, joints: true, steps: 70, extras: true },
  { seed: 2340, before: 169.4, joints: true, steps: 305, extras: true },
  { seed: 3182, before: 186.2, joints: true, steps: 165, extras: true },
  { seed: 4019, before: 1.089, steps: 20 },
  { seed: 2943, keep: [2, 3, 9, 10, 11, 14, 15, 16, 18, 19, 20, 21, 22, 24, 25, 26, 28, 35, 36, 47, 48, 52, 54, 55, 58, 59, 61, 62, 64, 66, 67, 68, 69], before: 1.23, joints: true },
];

describe('fuzz tunnelling repros (minimized)', () => {
  for (const c of CASES) {
    const bodies = c.keep?.join(',') ?? 'all';
    const steps = c.steps ?? 600;
    it(`seed ${c.seed} bodies ${bodies}, ${steps} steps: no lowest point deeper than the body's smallest size (was ${c.before}×)`, async () => {
      const r = await runWorld(c.seed, c.joints === true, { steps }, undefined, { keep: c.keep, extras: c.extras === true });
      console.log(`[fuzz repro] seed=${c.seed}${c.joints ? ' joints' : ''} keep=${bodies}: max depth/size ${r.maxDepthRatio.toFixed(3)} (${r.maxDepth.toFixed(4)} m), ${r.failures.length} failure(s)`);
      expect(r.failures.map((f) => formatFailure(r, f)).join('\n')).toBe('');
      expect(r.maxDepthRatio).toBeLessThan(1);
      expect(r.stepsRun).toBe(steps);
    }, 60_000);
  }
});

describe('fuzz check repros', () => {
  it('seed 2794 (joints), 222 steps: a capsule on a floor hinge without collideConnected, swung through the floor box and in under the terrain sheet\'s edge within one step, is exempt by the per-part test (without it the check failed it, 6.9× at step 221)', async () => {
    // Body 139, a 0.78 kg capsule 1.4 m long, is swung by its motorised floor
    // hinge (anchor 10 m away) with its contact with the floor box switched
    // off. In step 221, split into 16 parts, its lower end went down through
    // the floor box's top (z < 0) and on in under the terrain sheet (z > 0)
    // from below; after the step only the end under the sheet is seen.
    const spec = worldSpec(2794, true);
    const instance = buildFooting(spec);
    const withParts = new WorldChecker(spec, instance);
    const stepsOnly = new WorldChecker(spec, { ...instance, readExemptInPart: undefined });
    try {
      withParts.start(); stepsOnly.start();
      for (let s = 0; s < 222; s++) { instance.step(s); withParts.check(s); stepsOnly.check(s); }
    } finally {
      instance.dispose();
    }
    const tunnelling = (c: WorldChecker) => c.failures.filter((f) => f.check === 'tunnelling');
    const missed = tunnelling(stepsOnly);
    console.log(`[fuzz repro] seed=2794 joints: with the per-part test ${withParts.failures.length} failure(s), max depth/size ${withParts.maxDepthRatio.toFixed(3)}; after-step test only: ${missed.map((f) => `body ${f.index} step ${f.step} ${f.value.toFixed(3)} m`).join(', ')}`);
    expect(withParts.failures).toEqual([]);
    expect(withParts.maxDepthRatio).toBeLessThan(1);
    expect(missed.length).toBe(1);
    expect(missed[0]!.index).toBe(139);
    expect(missed[0]!.step).toBe(221);
    expect(missed[0]!.value).toBeGreaterThan(0.5);
  }, 90_000);
});

describe('fuzz energy repros (minimized)', () => {

  it('seed 1601 bodies 33,36,98: a light hull flung up into a heavy sphere does not launch it (was +207 % of the releasable energy)', async () => {
    const r = await runWorld(1601, false, {}, undefined, { keep: [33, 36, 98], extras: false });
    console.log(`[fuzz repro] seed=1601 keep=33,36,98: max energy excess ${(100 * r.maxEnergyExcessRatio).toFixed(3)} % at step ${r.maxEnergyExcessStep}, ${r.failures.length} failure(s)`);
    expect(r.failures.map((f) => formatFailure(r, f)).join('\n')).toBe('');
    expect(r.maxEnergyExcessRatio).toBeLessThan(0);
    expect(r.stepsRun).toBe(600);
  }, 60_000);

  const jointed: readonly { seed: number; keep?: number[]; steps: number; before: string; extras?: boolean; what: string }[] = [
    { seed: 2384, keep: [31, 33, 63, 64, 66, 75, 77, 82, 86, 99], steps: 600, before: '+23.6 %', what: 'the joint projection does not pump a spring' },
    { seed: 2569, steps: 200, before: '+7.8 %', what: 'the joint projection does not pump a slider' },
    { seed: 2027, steps: 120, before: '+122 %', extras: true, what: 'a thin capsule turned by its hinge lock projection is swept with its new inertia' },
    { seed: 2011, steps: 20, before: '+1026 %', extras: true, what: 'a thin capsule turned by a limit projection keeps contact rows that match its inertia' },
    { seed: 2232, keep: [1, 3, 4], steps: 600, before: '+338 %', what: 'a long weld on a floor hinge, stepped in small parts, gains nothing from its joints\' warm starts' },
    { seed: 2762, steps: 480, before: '+806 %', extras: true, what: 'a six-dof\'s axis rows measure their mass again when the solver retakes a turned body\'s inertia' },
    { seed: 2232, steps: 535, before: '+3.77 %', extras: true, what: 'a soft limit keeps the stiffness it engaged with' },
    { seed: 2735, steps: 365, before: '+1.85 %', extras: true, what: 'a slider\'s axis rows measure their mass again when the solver retakes a turned body\'s inertia' },
  ];
  for (const c of jointed) {
    const bodies = c.keep?.join(',') ?? 'all';
    it(`seed ${c.seed} (joints) bodies ${bodies}, ${c.steps} steps: ${c.what} (was ${c.before} of the releasable energy)`, async () => {
      const r = await runWorld(c.seed, true, { steps: c.steps }, undefined, { keep: c.keep, extras: c.extras === true });
      console.log(`[fuzz repro] seed=${c.seed} joints keep=${bodies}: max energy excess ${(100 * r.maxEnergyExcessRatio).toFixed(3)} % at step ${r.maxEnergyExcessStep}, ${r.failures.length} failure(s)`);
      expect(r.failures.map((f) => formatFailure(r, f)).join('\n')).toBe('');
      expect(r.maxEnergyExcessRatio).toBeLessThan(0);
      expect(r.stepsRun).toBe(c.steps);
    }, 60_000);
  }
});
