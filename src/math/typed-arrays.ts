/**
 * Growing typed-array columns. A typed array has a fixed length, so a column
 * that must hold more is replaced by a longer copy; these are the only two
 * ways the library does it.
 *
 * - `resized…(a, length, fill)`: a new array of exactly `length` holding `a`
 *   at its start and `fill` after it (`length ≥ a.length`).
 * - `reserve…(a, needed)`: `a` itself when it holds `needed` entries, else a
 *   copy of length max(needed, 2 · a.length), so n appends cost O(n) copies.
 *
 * One function per element type keeps every call site monomorphic.
 */

export function resizedFloat64(a: Float64Array, length: number, fill = 0): Float64Array<ArrayBuffer> {
  const b = new Float64Array(length);
  if (fill !== 0) b.fill(fill, a.length);
  b.set(a);
  return b;
}

export function resizedInt32(a: Int32Array, length: number, fill = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  if (fill !== 0) b.fill(fill, a.length);
  b.set(a);
  return b;
}

export function resizedUint8(a: Uint8Array, length: number, fill = 0): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(length);
  if (fill !== 0) b.fill(fill, a.length);
  b.set(a);
  return b;
}

export function reserveFloat64<B extends ArrayBufferLike>(a: Float64Array<B>, needed: number): Float64Array<B> | Float64Array<ArrayBuffer> {
  return a.length >= needed ? a : resizedFloat64(a, Math.max(needed, 2 * a.length));
}

export function reserveInt32<B extends ArrayBufferLike>(a: Int32Array<B>, needed: number): Int32Array<B> | Int32Array<ArrayBuffer> {
  return a.length >= needed ? a : resizedInt32(a, Math.max(needed, 2 * a.length));
}

export function reserveUint8<B extends ArrayBufferLike>(a: Uint8Array<B>, needed: number): Uint8Array<B> | Uint8Array<ArrayBuffer> {
  return a.length >= needed ? a : resizedUint8(a, Math.max(needed, 2 * a.length));
}
