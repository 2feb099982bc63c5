import { describe, expect, it } from 'vitest';
import * as m3 from '../../src/math/mat3';
import * as q from '../../src/math/quat';
import * as v from '../../src/math/vec3';
import { seeded } from '../helpers/random';

describe('vec3', () => {
  it('cross is orthogonal and right-handed', () => {
    const out = v.cross(v.vec3(), { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
    expect(out.z).toBeCloseTo(1, 12);
    expect(out.x).toBeCloseTo(0, 12);
  });
  it('orthonormalBasis gives t1 × t2 = n for random n', () => {
    const rng = seeded(101, 'orthonormalBasis');
    const t1 = v.vec3(), t2 = v.vec3(), c = v.vec3();
    for (let i = 0; i < 1000; i++) {
      const n = rng.unitVec3();
      v.orthonormalBasis(t1, t2, n);
      expect(Math.abs(v.dot(t1, n))).toBeLessThan(1e-12);
      expect(Math.abs(v.dot(t2, n))).toBeLessThan(1e-12);
      expect(Math.abs(v.length(t1) - 1)).toBeLessThan(1e-12);
      v.cross(c, t1, t2);
      expect(v.distance(c, n)).toBeLessThan(1e-12);
    }
  });
  it('normalize returns the length and zero for tiny vectors', () => {
    const out = v.vec3();
    expect(v.normalize(out, { x: 3, y: 4, z: 0 })).toBeCloseTo(5, 12);
    expect(out.x).toBeCloseTo(0.6, 12);
    expect(v.normalize(out, { x: 0, y: 0, z: 0 })).toBe(0);
  });
});

describe('quat', () => {
  it('rotate and inverseRotate are inverse, and agree with the matrix', () => {
    const rng = seeded(102, 'quat.rotate');
    const a = v.vec3(), b = v.vec3(), c = v.vec3();
    const m = m3.mat3();
    for (let i = 0; i < 1000; i++) {
      const r = rng.quat();
      const p = rng.vec3(-5, 5);
      q.rotate(a, r, p);
      q.inverseRotate(b, r, a);
      expect(v.distance(b, p)).toBeLessThan(1e-12);
      m3.transformVec3(c, m3.fromQuat(m, r), p);
      expect(v.distance(c, a)).toBeLessThan(1e-12);
    }
  });
  it('90° about Y takes +X to -Z', () => {
    const r = q.fromAxisAngle(q.quat(), { x: 0, y: 1, z: 0 }, Math.PI / 2);
    const out = q.rotate(v.vec3(), r, { x: 1, y: 0, z: 0 });
    expect(out.z).toBeCloseTo(-1, 12);
  });
  it('integrate at constant ω matches the exact rotation to O(dt²)', () => {
    const w = { x: 0, y: 0, z: 1 };
    let r = q.quat();
    const dt = 1 / 600;
    for (let i = 0; i < 600; i++) r = q.integrate(r, r, w, dt);
    expect(Math.abs(q.angle(r) - 1)).toBeLessThan(1e-3);
  });
  it('fromUnitVectors maps from onto to, including opposite vectors', () => {
    const rng = seeded(103, 'fromUnitVectors');
    const out = v.vec3();
    for (let i = 0; i < 200; i++) {
      const f = rng.unitVec3();
      const t = i % 10 === 0 ? v.negate(v.vec3(), f) : rng.unitVec3();
      q.rotate(out, q.fromUnitVectors(q.quat(), f, t), f);
      expect(v.distance(out, t)).toBeLessThan(1e-9);
    }
  });
  it('turnBy turns q by the part t of a turn about a fixed world axis: rot(axis, t·angle)·q, unit and turned by t·angle', () => {
    const rng = seeded(104, 'turnBy');
    const out = q.quat(), ref = q.quat(), rel = q.quat(), inv = q.quat();
    for (let i = 0; i < 200; i++) {
      const r = rng.quat(), axis = rng.unitVec3();
      const t = rng.range(0, 1), angle = rng.range(0, 3);
      q.TURN[0] = t; q.TURN[1] = angle;
      q.turnBy(out, r, axis);
      q.multiply(ref, q.fromAxisAngle(rel, axis, t * angle), r);
      expect(Math.abs(q.dot(out, ref))).toBeGreaterThan(1 - 1e-12);
      expect(Math.abs(q.dot(out, out) - 1)).toBeLessThan(1e-12);
      // The turn from r to out is t·angle about the world axis.
      q.multiply(rel, out, q.conjugate(inv, r));
      expect(Math.abs(q.angle(rel) - t * angle)).toBeLessThan(1e-9);
    }
  });
});

describe('mat3', () => {
  it('invert(A)·A = I and rotateDiagonal equals R D Rᵀ', () => {
    const rng = seeded(104, 'mat3');
    const R = m3.mat3(), D = m3.mat3(), Rt = m3.mat3(), t = m3.mat3(), M = m3.mat3(), inv = m3.mat3(), I = m3.mat3();
    for (let i = 0; i < 200; i++) {
      const r = rng.quat();
      const d = rng.vec3(0.1, 3);
      m3.fromQuat(R, r);
      m3.diagonal(D, d.x, d.y, d.z);
      m3.transpose(Rt, R);
      m3.multiply(t, R, D);
      m3.multiply(t, t, Rt);
      m3.rotateDiagonal(M, r, d);
      for (const k of ['m00', 'm01', 'm02', 'm10', 'm11', 'm12', 'm20', 'm21', 'm22'] as const) {
        expect(Math.abs(M[k] - t[k])).toBeLessThan(1e-12);
      }
      m3.multiply(I, m3.invert(inv, M), M);
      expect(Math.abs(I.m00 - 1) + Math.abs(I.m11 - 1) + Math.abs(I.m22 - 1) + Math.abs(I.m01) + Math.abs(I.m12)).toBeLessThan(1e-9);
    }
  });
});
