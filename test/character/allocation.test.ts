/**
 * Allocation check of CharacterController.move and Walker.update (60 Hz,
 * default settings).
 *
 * heapUsed under vitest is too noisy at this scale (other files run in the
 * same process, and code not yet optimised boxes every double it computes).
 * So the check uses V8's sampling heap profiler (node:inspector) after a long
 * warm-up and counts the bytes allocated in functions defined in character/
 * per move: in a real level (walls, stairs, a ramp; the World's queries are
 * measured too and logged, not asserted) and against a query stub (a
 * World-shaped object whose geometry is static half-spaces answered in
 * closed form; capsule vs plane n · x ≥ d: the capsule's lowest point along n
 * is an end of its segment minus the radius).
 */
import { describe, expect, it } from 'vitest';
import { Session } from 'node:inspector';
import { Box, World } from '../../src/index';
import { CharacterController, Walker } from '../../character/index';
import { DT, staticBox } from './helpers';

interface V { x: number; y: number; z: number }
interface CapsuleLike { radius: number; halfHeight: number }

class PlaneWorld {
  readonly normals: V[] = [];
  readonly offsets: number[] = [];
  readonly body = { isStatic: true, isDynamic: false, userData: null, setPosition(): void {}, getPointVelocity(out: V): V { out.x = 0; out.y = 0; out.z = 0; return out; } };
  addPlane(n: V, d: number): void {
    const l = Math.hypot(n.x, n.y, n.z);
    this.normals.push({ x: n.x / l, y: n.y / l, z: n.z / l });
    this.offsets.push(d);
  }
  createBody(): unknown { return this.body; }
  removeBody(): void {}
  /** Lowest signed distance of the capsule (axis Y) to plane i. */
  private gap(i: number, s: CapsuleLike, p: V): number {
    const n = this.normals[i]!;
    const c = n.x * p.x + n.y * p.y + n.z * p.z - this.offsets[i]!;
    return c - Math.abs(n.y) * s.halfHeight - s.radius;
  }
  overlap(shape: CapsuleLike, p: V, _r: unknown, o: { collector: { contacts: unknown[]; take(): { body: unknown; point: V; normal: V; depth: number } } }): unknown[] {
    const col = o.collector;
    col.contacts.length = 0;
    for (let i = 0; i < this.normals.length; i++) {
      const g = this.gap(i, shape, p);
      if (g >= 0) continue;
      const n = this.normals[i]!;
      const c = col.take();
      c.body = this.body;
      c.normal.x = n.x; c.normal.y = n.y; c.normal.z = n.z;
      c.depth = -g;
      c.point.x = p.x - n.x * shape.radius; c.point.y = p.y - n.y * shape.radius; c.point.z = p.z - n.z * shape.radius;
    }
    return col.contacts;
  }
  shapeCast(shape: CapsuleLike, p: V, _r: unknown, t: V, o: { out: { fraction: number; point: V; normal: V; body: unknown; triangle: number } }): unknown {
    let best = Infinity, bi = -1;
    for (let i = 0; i < this.normals.length; i++) {
      const n = this.normals[i]!;
      const g = this.gap(i, shape, p);
      const closing = -(n.x * t.x + n.y * t.y + n.z * t.z);
      if (closing <= 1e-12) continue;
      const f = Math.max(0, g) / closing;
      if (f <= 1 && f < best) { best = f; bi = i; }
    }
    if (bi < 0) return null;
    const n = this.normals[bi]!;
    const out = o.out;
    out.fraction = Math.max(0, best - 1e-6);
    out.normal.x = n.x; out.normal.y = n.y; out.normal.z = n.z;
    out.point.x = p.x + t.x * best - n.x * shape.radius; out.point.y = p.y + t.y * best - n.y * shape.radius; out.point.z = p.z + t.z * best - n.z * shape.radius;
    out.body = this.body;
    return out;
  }
  raycast(from: V, to: V, o: { out: { distance: number; fraction: number; normal: V; point: V; body: unknown } }): unknown {
    let best = Infinity, bi = -1;
    const dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
    for (let i = 0; i < this.normals.length; i++) {
      const n = this.normals[i]!;
      const s0 = n.x * from.x + n.y * from.y + n.z * from.z - this.offsets[i]!;
      const dn = n.x * dx + n.y * dy + n.z * dz;
      if (s0 < 0 || dn >= 0) continue;
      const f = -s0 / dn;
      if (f <= 1 && f < best) { best = f; bi = i; }
    }
    if (bi < 0) return null;
    const n = this.normals[bi]!;
    const out = o.out;
    const len = Math.hypot(dx, dy, dz);
    out.fraction = best; out.distance = best * len;
    out.normal.x = n.x; out.normal.y = n.y; out.normal.z = n.z;
    out.point.x = from.x + dx * best; out.point.y = from.y + dy * best; out.point.z = from.z + dz * best;
    out.body = this.body;
    return out;
  }
}

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: ProfileNode[] }

/** Bytes allocated per call of `run(n)` by functions in character/, sampled by V8 (interval 32 B). */
function characterBytes(run: (n: number) => void, n: number): { own: number; total: number } {
  const session = new Session();
  session.connect();
  let own = 0, total = 0;
  session.post('HeapProfiler.startSampling', { samplingInterval: 32 });
  run(n);
  session.post('HeapProfiler.stopSampling', (err, res) => {
    if (err) throw err;
    const walk = (node: ProfileNode): void => {
      total += node.selfSize;
      const url = node.callFrame.url;
      if (url.includes('/character/') && !url.includes('/test/')) own += node.selfSize;
      for (const ch of node.children) walk(ch);
    };
    walk((res as unknown as { profile: { head: ProfileNode } }).profile.head);
  });
  session.disconnect();
  return { own: own / n, total: total / n };
}

function driver(w: Walker): (n: number) => number {
  let t = 0, planes = 0;
  return (n: number): number => {
    for (let i = 0; i < n; i++) {
      t += DT;
      w.setInput(Math.cos(t * 0.7), 0, Math.sin(t * 1.3));
      if (i % 97 === 0) w.jump();
      const r = w.update(DT);
      if (r.planeCount >= 2) planes++;
    }
    return planes;
  };
}

describe('CharacterController allocation', () => {
  it('move + walker update allocate nothing in character/ code (2000 moves after 10000 warm-up, query stub)', () => {
    const pw = new PlaneWorld();
    pw.addPlane({ x: 0, y: 1, z: 0 }, 0); // floor
    pw.addPlane({ x: -1, y: 0, z: 0 }, -4); // wall x ≤ 4
    pw.addPlane({ x: 1, y: 0, z: 0 }, -4); // wall x ≥ −4
    // a 30° corner opening towards −z
    pw.addPlane({ x: -Math.cos(Math.PI / 12), y: 0, z: Math.sin(Math.PI / 12) }, -3);
    pw.addPlane({ x: Math.cos(Math.PI / 12), y: 0, z: Math.sin(Math.PI / 12) }, -3);
    const c = new CharacterController(pw as unknown as World, { position: { x: 0, y: 0.91, z: 0 } });
    const run = driver(new Walker(c));
    run(10000); // warm up JIT (optimised code keeps doubles unboxed; interpreted code boxes every double result) and pools
    const { own, total } = characterBytes(run, 2000);
    const planes = run(0);
    console.log(`stub level: ${own.toFixed(1)} B/move in character/, ${total.toFixed(1)} B/move in all; ${planes} moves with ≥ 2 planes`);
    // A { x, y, z } object costs ≥ 40 B; what remains is sampling noise and
    // an occasional boxed double (a HeapNumber is 12–16 B) in unoptimised paths.
    expect(own).toBeLessThan(24);
    expect(planes).toBeGreaterThan(100);
    expect(Math.abs(c.position.x)).toBeLessThan(4);
  });

  it('move + walker update allocate nothing in character/ code (2000 moves after 5000 warm-up, real World level)', () => {
    const world = new World();
    world.createBody({ type: 'static', shape: new Box({ x: 20, y: 0.5, z: 20 }), position: { x: 0, y: -0.5, z: 0 } });
    for (let k = 0; k < 4; k++) staticBox(world, { x: 1, y: (k + 1) * 0.125, z: 3 }, { x: 3 + k * 0.4, y: (k + 1) * 0.125, z: 0 });
    staticBox(world, { x: 0.2, y: 2, z: 8 }, { x: -4, y: 2, z: 0 });
    staticBox(world, { x: 8, y: 2, z: 0.2 }, { x: 0, y: 2, z: 5 }, 0.3);
    staticBox(world, { x: 3, y: 0.3, z: 1.5 }, { x: 0, y: 0, z: -3 }, 0.5, 0.4);
    const c = new CharacterController(world, { position: { x: 0, y: 0.91, z: 0 } });
    const run = driver(new Walker(c));
    run(5000);
    const { own, total } = characterBytes(run, 2000);
    console.log(`real level: ${own.toFixed(1)} B/move in character/, ${total.toFixed(1)} B/move in all (World queries included)`);
    expect(own).toBeLessThan(24);
  });
});
