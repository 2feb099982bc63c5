import { Random } from '../helpers/random';
import type { Vec3 } from '../../src/index';
import { DT, EARTH_GRAVITY, IDENTITY, staticBox, type BodyDesc, type Scene, type ShapeDesc } from './scene';

const FRICTION = 0.6;
const DENSITY = 200; // kg/m³: masses from ~3 kg (small sphere) to 200 kg (1 m box)
const CELL = 1.1; // spawn grid pitch; every body fits in a sphere of radius CELL / 2
const INNER_HALF = 6.5; // container interior half-width (x and z)
const WALL_HALF_THICKNESS = 0.25;
const WALL_HALF_HEIGHT = 6;

export const PILE_SEED = 0x5eed_0003;

/**
 * The rock every `hull` body of the mixed pile is a scaled copy of: an
 * icosahedron's 12 corners pulled in by 0–20 % each (all still on the hull),
 * inside the unit sphere.
 */
export const ROCK_POINTS: readonly Readonly<Vec3>[] = (() => {
  const g = (1 + Math.sqrt(5)) / 2, l = Math.hypot(1, g);
  const corners: [number, number, number][] = [];
  for (const a of [-1, 1]) for (const b of [-1, 1]) corners.push([0, a, b * g], [a, b * g, 0], [b * g, 0, a]);
  return corners.map(([x, y, z], i) => {
    const k = (1 - 0.05 * ((i * 7) % 5)) / l;
    return { x: x * k, y: y * k * 0.8, z: z * k };
  });
})();
/** Volume of the convex hull of ROCK_POINTS (m³; footing's ConvexHull gives the same, checked in scenes.test.ts). */
export const ROCK_VOLUME = 1.5150964342259332;

/**
 * `count` boxes, spheres and capsules (sizes 0.3–1 m, random orientations)
 * on a seeded grid above a static walled container, dropped together.
 * The grid is 10 × 10 in x/z and as many layers as needed (10 for 1000).
 * `mixed`: cylinders and convex hulls too (boxes 25 %, spheres 20 %,
 * capsules 20 %, cylinders 20 %, hulls 15 %), named `pile-<count>-mixed`.
 */
export function pileScene(count = 1000, seed = PILE_SEED, mixed = false): Scene {
  const rng = new Random(seed);
  const bodies: BodyDesc[] = [];
  // Floor (top at y = 0) and four walls.
  const outer = INNER_HALF + 2 * WALL_HALF_THICKNESS;
  bodies.push(staticBox({ x: outer, y: 0.5, z: outer }, { x: 0, y: -0.5, z: 0 }, FRICTION));
  const wy = WALL_HALF_HEIGHT;
  const wo = INNER_HALF + WALL_HALF_THICKNESS;
  bodies.push(staticBox({ x: WALL_HALF_THICKNESS, y: wy, z: outer }, { x: -wo, y: wy, z: 0 }, FRICTION));
  bodies.push(staticBox({ x: WALL_HALF_THICKNESS, y: wy, z: outer }, { x: wo, y: wy, z: 0 }, FRICTION));
  bodies.push(staticBox({ x: INNER_HALF, y: wy, z: WALL_HALF_THICKNESS }, { x: 0, y: wy, z: -wo }, FRICTION));
  bodies.push(staticBox({ x: INNER_HALF, y: wy, z: WALL_HALF_THICKNESS }, { x: 0, y: wy, z: wo }, FRICTION));

  const side = 10;
  const x0 = -0.5 * (side - 1) * CELL;
  for (let i = 0; i < count; i++) {
    const cx = i % side;
    const cz = Math.floor(i / side) % side;
    const layer = Math.floor(i / (side * side));
    const size = rng.range(0.3, 1);
    const pick = rng.next();
    let shape: ShapeDesc;
    let volume: number;
    let boundingRadius: number;
    const [pBox, pSphere, pCapsule, pCylinder] = mixed ? [0.25, 0.45, 0.65, 0.85] : [0.4, 0.7, 1, 1];
    if (pick < pBox) {
      const hx = 0.5 * size, hy = 0.5 * rng.range(0.3, size), hz = 0.5 * rng.range(0.3, size);
      shape = { kind: 'box', halfExtents: { x: hx, y: hy, z: hz } };
      volume = 8 * hx * hy * hz;
      boundingRadius = Math.hypot(hx, hy, hz);
    } else if (pick < pSphere) {
      const r = 0.5 * size;
      shape = { kind: 'sphere', radius: r };
      volume = (4 / 3) * Math.PI * r * r * r;
      boundingRadius = r;
    } else if (pick < pCapsule) {
      // Total length `size`, radius a quarter of it: 2 (h + r) = size, r = h.
      const r = 0.25 * size;
      shape = { kind: 'capsule', radius: r, halfHeight: r };
      volume = Math.PI * r * r * (2 * r) + (4 / 3) * Math.PI * r * r * r;
      boundingRadius = 2 * r;
    } else if (pick < pCylinder) {
      // Diameter `size`, height between 0.3 m and `size` (barrels, wheels, discs).
      const r = 0.5 * size, h = 0.5 * rng.range(0.3, size);
      shape = { kind: 'cylinder', radius: r, halfHeight: h };
      volume = 2 * Math.PI * r * r * h;
      boundingRadius = Math.hypot(r, h);
    } else {
      const k = 0.5 * size;
      shape = { kind: 'hull', points: ROCK_POINTS.map((p) => ({ x: k * p.x, y: k * p.y, z: k * p.z })) };
      volume = ROCK_VOLUME * k * k * k;
      boundingRadius = k;
    }
    // Draw the rotation unconditionally so the random stream does not depend on the branch.
    const q = rng.quat();
    // A body too big to turn freely inside its cell stays axis-aligned (no initial overlaps).
    const rotation = boundingRadius <= 0.5 * CELL ? q : IDENTITY;
    const jitter = 0.5 * CELL - (boundingRadius <= 0.5 * CELL ? boundingRadius : 0.5);
    bodies.push({
      shape,
      type: 'dynamic',
      position: {
        x: x0 + cx * CELL + rng.range(-jitter, jitter),
        y: 0.6 + layer * CELL,
        z: x0 + cz * CELL + rng.range(-jitter, jitter),
      },
      rotation,
      mass: DENSITY * volume,
      friction: FRICTION,
      restitution: 0,
    });
  }
  return {
    name: mixed ? `pile-${count}-mixed` : `pile-${count}`,
    description: `${count} ${mixed ? 'boxes/spheres/capsules/cylinders/convex hulls' : 'boxes/spheres/capsules'} (0.3–1 m, ${DENSITY} kg/m³, μ = ${FRICTION}, seed ${seed}) dropped into a ${2 * INNER_HALF} m walled container`,
    gravity: EARTH_GRAVITY,
    dt: DT,
    bodies,
    bounds: {
      min: { x: -INNER_HALF - 0.5, y: 0, z: -INNER_HALF - 0.5 },
      max: { x: INNER_HALF + 0.5, y: 40, z: INNER_HALF + 0.5 },
    },
    measureDrift: false,
  };
}
