// A joint projection may move a body that rests on immovable ground at most
// 5 mm into each ground plane per pass (joints/rows.ts translateSlot), with
// every ground normal the body has, not only the last contact's: in a seam a
// floor box's side face can be the last, and a pull straight down then went
// through the floor's top unclipped (fuzz seed 2844). Over one solve the
// moves into a ground add up to at most half the body's thinnest half size
// (fuzz seed 2340).
import { describe, expect, it } from 'vitest';
import { Sphere, World, type Vec3 } from '../../src/index';
import { GROUND_NORMALS, SolverBodies } from '../../src/dynamics/solver-bodies';
import { translateSlot } from '../../src/joints/rows';
import { seeded } from '../helpers/random';

const SINK = 0.005;

function slotWithGrounds(normals: readonly Vec3[]): { B: SolverBodies; i: number } {
  const world = new World({ gravity: { x: 0, y: 0, z: 0 } });
  const body = world.createBody({ type: 'dynamic', shape: new Sphere(0.2), mass: 0.5, position: { x: 0, y: 0.2, z: 0 } });
  const B = new SolverBodies();
  const i = B.add(body);
  normals.forEach((n, m) => {
    const q = i * 3 * GROUND_NORMALS + 3 * m;
    B.groundNormal[q] = n.x; B.groundNormal[q + 1] = n.y; B.groundNormal[q + 2] = n.z;
  });
  B.grounded[i] = normals.length;
  return { B, i };
}

/** Moves slot i by d through translateSlot and returns the move made. */
function move(B: SolverBodies, i: number, d: Vec3): Vec3 {
  const x = B.px[i]!, y = B.py[i]!, z = B.pz[i]!;
  B.delta.fill(0);
  B.delta[0] = d.x; B.delta[1] = d.y; B.delta[2] = d.z;
  translateSlot(B, i);
  return { x: B.px[i]! - x, y: B.py[i]! - y, z: B.pz[i]! - z };
}

const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const unit = (v: Vec3): Vec3 => { const l = Math.hypot(v.x, v.y, v.z); return { x: v.x / l, y: v.y / l, z: v.z / l }; };

describe('joint projection against the ground', () => {
  it('in a seam, a pull down is clipped by the floor even when the side face was recorded last', () => {
    // Floor top (up), then the floor box's rounded top edge as seen from the terrain side.
    const { B, i } = slotWithGrounds([{ x: 0, y: 1, z: 0 }, unit({ x: 0, y: 0.22, z: 0.976 })]);
    const m = move(B, i, { x: -0.0016, y: -0.0477, z: 0.0079 });
    expect(m.y).toBeGreaterThanOrEqual(-SINK - 1e-12);
    expect(m.y).toBeLessThan(-SINK + 1e-9);
  });

  it('a move that goes into no ground is made whole', () => {
    const { B, i } = slotWithGrounds([{ x: 0, y: 1, z: 0 }, { x: 0, y: 0, z: 1 }]);
    const m = move(B, i, { x: 0.03, y: 0.02, z: 0.01 });
    expect(m.x).toBeCloseTo(0.03, 12); expect(m.y).toBeCloseTo(0.02, 12); expect(m.z).toBeCloseTo(0.01, 12);
  });

  it('random grounds and moves: never more than 5 mm into any ground, and no ground clips a move it allows', () => {
    const rng = seeded(1844, 'projection grounds');
    let clipped = 0;
    for (let t = 0; t < 2000; t++) {
      const k = rng.int(1, GROUND_NORMALS + 1);
      const normals: Vec3[] = [];
      // Grounds facing up-ish and a side wall now and then: a body can rest on all of them at once.
      for (let m = 0; m < k; m++) { const v = rng.unitVec3(); normals.push(unit({ x: v.x, y: Math.abs(v.y) + 0.2, z: v.z })); }
      const { B, i } = slotWithGrounds(normals);
      const d = rng.vec3(-0.08, 0.08);
      const m = move(B, i, d);
      const free = normals.every((n) => dot(d, n) >= -SINK);
      if (free) {
        expect(Math.hypot(m.x - d.x, m.y - d.y, m.z - d.z)).toBeLessThan(1e-12);
      } else {
        clipped++;
        for (const n of normals) expect(dot(m, n)).toBeGreaterThanOrEqual(-SINK - 1e-9); // translateSlot lets 1e-9 m of rounding through
        // Never longer than asked.
        expect(Math.hypot(m.x, m.y, m.z)).toBeLessThanOrEqual(Math.hypot(d.x, d.y, d.z) + 1e-12);
      }
    }
    console.log(`[projection grounds] ${clipped} of 2000 moves clipped`);
    expect(clipped).toBeGreaterThan(500);
  });

  it('many small pulls into the ground in one solve add up to at most half the body\'s thinnest half size, and a lift gives the budget back', () => {
    // Fuzz seed 2340: two joints and four sub-steps pulled a 2.8 cm hull 5 mm
    // a move, 2-4 cm a solve, until it went through a seam.
    const { B, i } = slotWithGrounds([{ x: 0, y: 1, z: 0 }]);
    const budget = 0.5 * 0.2;
    expect(B.sinkBudget[i]).toBeCloseTo(budget, 12);
    const y0 = B.py[i]!;
    let sideways = 0;
    for (let n = 0; n < 100; n++) sideways += move(B, i, { x: 0.001, y: -0.004, z: 0 }).x;
    console.log(`[projection grounds] 100 pulls of 4 mm: sunk ${((y0 - B.py[i]!) * 1000).toFixed(3)} mm (budget ${budget * 1000} mm), sideways ${(sideways * 1000).toFixed(3)} mm`);
    expect(y0 - B.py[i]!).toBeLessThanOrEqual(budget + 1e-12);
    expect(y0 - B.py[i]!).toBeGreaterThan(budget - 1e-9);
    // The sideways part of a pull is kept once the budget is spent.
    expect(sideways).toBeCloseTo(0.1, 9);
    // Lifted 3 cm, the body may be pulled 3 cm down again, and no further.
    move(B, i, { x: 0, y: 0.03, z: 0 });
    const y1 = B.py[i]!;
    for (let n = 0; n < 20; n++) move(B, i, { x: 0, y: -0.004, z: 0 });
    expect(y1 - B.py[i]!).toBeCloseTo(0.03, 9);
  });
});
