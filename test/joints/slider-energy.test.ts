/**
 * Joints must not add energy (issue 16 §1), in the jointed fuzz worlds that
 * gained it once sliders joined the generator (docs/joints.md, "Sliders in
 * the jointed fuzz worlds"):
 * - a stale warm start: joints in series that two sweeps do not converge
 *   (a light body between a slider and a far hinge; seed 2020's weld and
 *   47 m slider on one spinning cylinder) were handed energy by every
 *   sub-step's warm start (JointSolver.trimWarmStarts);
 * - an unpaid lift: the anchor projection (PointRow.projectB) carried a
 *   heavy B to a light A's anchor every sub-step, raising the pair's centre
 *   of mass with nothing to pay for it (JointSolver.shiftPairBack).
 *
 * The scenes fly free under gravity, so only the motion about the centre of
 * mass can be released: "releasable" is that kinetic energy. The bodies
 * start with random velocities the joints do not allow; the first step takes
 * that out (an inelastic catch), so the energy is tracked from the state
 * after it. Default settings, 60 Hz, 600 steps.
 */
import { describe, expect, it } from 'vitest';
import { Box, Capsule, Sphere, World, type RigidBody, type Vec3 } from '../../src/index';
import { HingeJoint } from '../../src/joints/hinge';
import { SixDofJoint } from '../../src/joints/six-dof';
import { SliderJoint } from '../../src/joints/slider';
import { runWorld } from '../fuzz/run';
import { allFinite, totalEnergy } from '../helpers/energy';

const DT = 1 / 60;
const GRAVITY = { x: 0, y: -9.81, z: 0 };

/** Numerical Recipes' LCG: a fixed, platform-independent sequence per seed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

type Link = 'slider' | 'slider, heavy A' | 'locked six-dof';

interface SceneOptions {
  /** The joint between the light capsule and the heavy box. */
  link: Link;
  /** Distance (m) of the third body from the light capsule; the hinge anchor is half way. */
  far: number;
}

/**
 * A 0.15 kg capsule held to a 700 kg box by `link` (a slider with 20 N of
 * friction and ±1 m limits, its slide axis fixed in the capsule, or with the
 * box as A; or a six-dof with every axis locked, the capsule as A), and
 * hinged to a 58 kg sphere `far` metres away. Velocities up to 20 m/s and
 * 5 rad/s, orientations and axes random.
 */
function scene(seed: number, o: SceneOptions): { world: World; bodies: RigidBody[] } {
  const r = lcg(seed);
  const u = (): number => 2 * r() - 1;
  const unit = (): Vec3 => {
    const x = u(), y = u(), z = u(), n = Math.hypot(x, y, z);
    return { x: x / n, y: y / n, z: z / n };
  };
  const rotation = (): { x: number; y: number; z: number; w: number } => {
    const a = unit(), t = r() * Math.PI, s = Math.sin(t / 2);
    return { x: a.x * s, y: a.y * s, z: a.z * s, w: Math.cos(t / 2) };
  };
  const scaled = (max: number): Vec3 => {
    const d = unit(), s = max * r();
    return { x: d.x * s, y: d.y * s, z: d.z * s };
  };
  const world = new World({ gravity: GRAVITY });
  const common = { type: 'dynamic', angularDamping: 0, linearDamping: 0, canSleep: false } as const;
  const heavy = world.createBody({
    ...common, shape: new Box({ x: 0.1, y: 1.2, z: 0.1 }), mass: 700, position: { x: 0, y: 10, z: 0 }, rotation: rotation(),
    linearVelocity: scaled(20), angularVelocity: scaled(5),
  });
  const light = world.createBody({
    ...common, shape: new Capsule(0.06, 0.58), mass: 0.15, position: { x: 1.5, y: 11, z: 1 }, rotation: rotation(),
    linearVelocity: scaled(20), angularVelocity: scaled(5),
  });
  const d = unit();
  const third = world.createBody({
    ...common, shape: new Sphere(0.3), mass: 58, position: { x: 1.5 + d.x * o.far, y: 11 + d.y * o.far, z: 1 + d.z * o.far },
    rotation: rotation(), linearVelocity: scaled(20), angularVelocity: scaled(5),
  });
  const anchor = { x: 0.75, y: 10.5, z: 0.5 };
  const axis = unit();
  if (o.link === 'locked six-dof') {
    world.addJoint(new SixDofJoint({ bodyA: light, bodyB: heavy, anchor, axis }));
  } else {
    const heavyA = o.link === 'slider, heavy A';
    world.addJoint(new SliderJoint({
      bodyA: heavyA ? heavy : light, bodyB: heavyA ? light : heavy, anchor, axis, lowerLimit: -1, upperLimit: 1, frictionForce: 20,
    }));
  }
  world.addJoint(new HingeJoint({
    bodyA: light, bodyB: third, anchor: { x: 1.5 + d.x * o.far / 2, y: 11 + d.y * o.far / 2, z: 1 + d.z * o.far / 2 }, axis: unit(),
  }));
  return { world, bodies: [heavy, light, third] };
}

/** Kinetic energy of the motion relative to the bodies' centre of mass. */
function internalKinetic(bodies: readonly RigidBody[]): number {
  let m = 0, px = 0, py = 0, pz = 0;
  for (const b of bodies) {
    m += b.mass; px += b.mass * b.linearVelocity.x; py += b.mass * b.linearVelocity.y; pz += b.mass * b.linearVelocity.z;
  }
  return totalEnergy(bodies, { x: 0, y: 0, z: 0 }) - 0.5 * (px * px + py * py + pz * pz) / m;
}

/** Largest E(t) − E(start) over 600 steps as a share of the releasable energy; E(start) after the first step. */
function maxGainRatio(seed: number, o: SceneOptions): { ratio: number; step: number; finite: boolean } {
  const { world, bodies } = scene(seed, o);
  world.step(DT);
  const e0 = totalEnergy(bodies, GRAVITY), releasable = internalKinetic(bodies);
  let gain = -Infinity, step = 0;
  for (let i = 0; i < 600; i++) {
    world.step(DT);
    const g = totalEnergy(bodies, GRAVITY) - e0;
    if (g > gain) { gain = g; step = i; }
  }
  return { ratio: gain / releasable, step, finite: allFinite(bodies) };
}

function checkSeeds(o: SceneOptions, seeds: readonly number[], label: string): void {
  let worst = -Infinity, worstSeed = -1;
  for (const seed of seeds) {
    const r = maxGainRatio(seed, o);
    console.log(`[${label}] seed=${seed}: max gain ${(100 * r.ratio).toFixed(3)} % of the releasable energy (step ${r.step})`);
    expect(r.finite).toBe(true);
    if (r.ratio > worst) { worst = r.ratio; worstSeed = seed; }
  }
  console.log(`[${label}] worst: seed=${worstSeed}, ${(100 * worst).toFixed(3)} %`);
  expect(worst).toBeLessThan(0.01);
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

describe('slider and far hinge on a light body: no energy gain', () => {
  it('slider (20 N friction, ±1 m limits) from a 0.15 kg capsule to a 700 kg box, hinge from the capsule to a 58 kg sphere 14 m away: gain ≤ 1 % of the releasable energy over 600 steps, 12 seeds', () => {
    // Before trimWarmStarts: seed 12 +6.98 % (step 395), seed 3 +2.90 %.
    checkSeeds({ link: 'slider', far: 14 }, SEEDS, 'light slider, hinge 14 m');
  });

  it('the same with the sphere 28 m away: ≤ 1 %', () => {
    // Before: seed 3 +1.25 %.
    checkSeeds({ link: 'slider', far: 28 }, SEEDS, 'light slider, hinge 28 m');
  });

  it('slider with the box as A and the capsule as B, sphere 3 m away: ≤ 1 % (the hinge projection lifted the 58 kg sphere to the capsule)', () => {
    // Before the pair shift: seed 3 +36 % (step 455), seed 7 +30 %.
    checkSeeds({ link: 'slider, heavy A', far: 3 }, SEEDS, 'heavy-A slider, hinge 3 m');
  });

  it('a locked six-dof (point block, projected) with the capsule as A, sphere 3 m away: ≤ 1 % (its projection lifted the 700 kg box to the capsule)', () => {
    // Before the pair shift: seed 1 +2700 %, seed 6 +500 %.
    checkSeeds({ link: 'locked six-dof', far: 3 }, SEEDS, 'locked six-dof, hinge 3 m');
  });
});

describe('jointed fuzz worlds that gained energy (minimized)', () => {
  const CASES: readonly { seed: number; keep: number[]; before: string }[] = [
    // A 0.15 kg capsule hinged to a 59 kg body 28 m away and on a 20 N friction slider along a box welded to a 616 kg sphere.
    { seed: 2023, keep: [14, 47, 90, 120, 121, 148, 149], before: '+8.8 % (step 127)' },
    // A 20 kg capsule welded 14 m from a 56 kg cylinder (both at 93 rad/s) with a 3.1 kg capsule on a slider anchored 41 m from it.
    { seed: 2020, keep: [18, 62, 63, 90], before: '+849 % (step 182)' },
    // A 116 kg thin box hinged to the floor box 9.8 m from its anchor, with a 0.87 N·m velocity motor (a stale warm start the trim skipped while motors were exempt).
    { seed: 2054, keep: [165], before: '+17046 % (step 396)' },
  ];
  for (const c of CASES) {
    it(`seed ${c.seed} bodies ${c.keep.join(',')}: energy within E(0) + 1 % of the releasable energy (was ${c.before})`, async () => {
      const r = await runWorld(c.seed, true, {}, undefined, { keep: c.keep, extras: false });
      console.log(`[fuzz energy repro] seed=${c.seed} joints keep=${c.keep.join(',')}: max energy excess ${(100 * r.maxEnergyExcessRatio).toFixed(3)} % (step ${r.maxEnergyExcessStep})`);
      expect(r.failures.filter((f) => f.check === 'energy' || f.check === 'finite' || f.check === 'thrown')).toEqual([]);
      expect(r.maxEnergyExcessRatio).toBeLessThan(0.01);
      expect(r.stepsRun).toBe(600);
    }, 60_000);
  }
});
