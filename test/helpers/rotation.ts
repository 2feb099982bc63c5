/** Row-major rotation matrix of a unit quaternion { x, y, z, w } (its columns are the turned axes), for tests that check tensors by hand. */
export function rotationMatrix(q: { readonly x: number; readonly y: number; readonly z: number; readonly w: number }): number[][] {
  const { x, y, z, w } = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}
