import { describe, expect, it } from 'vitest';
import { reserveFloat64, reserveInt32, reserveUint8, resizedFloat64, resizedInt32, resizedUint8 } from '../../src/math/typed-arrays';

describe('typed-array growth', () => {
  it('resized… copies the old entries and fills the rest', () => {
    const f = resizedFloat64(new Float64Array([1.5, -2]), 5);
    expect(Array.from(f)).toEqual([1.5, -2, 0, 0, 0]);
    const i = resizedInt32(new Int32Array([7, 8, 9]), 6, -1);
    expect(Array.from(i)).toEqual([7, 8, 9, -1, -1, -1]);
    const u = resizedUint8(new Uint8Array([3]), 2, 4);
    expect(Array.from(u)).toEqual([3, 4]);
  });

  it('reserve… keeps a long enough array and otherwise at least doubles it', () => {
    const a = new Float64Array(8);
    expect(reserveFloat64(a, 8)).toBe(a);
    expect(reserveFloat64(a, 9).length).toBe(16);
    expect(reserveInt32(new Int32Array(4), 100).length).toBe(100);
    const u = reserveUint8(new Uint8Array([1, 2]), 3);
    expect(Array.from(u)).toEqual([1, 2, 0, 0]);
  });
});
