/**
 * A fixed-capacity set of line segments in one Babylon LinesMesh, rewritten
 * every frame without allocating: segments go into a Float32Array that is
 * uploaded once per `end()`; unused segments collapse to the origin.
 */
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { Scene } from '@babylonjs/core/scene';

export class LineBuffer {
  readonly mesh: LinesMesh;
  readonly capacity: number;
  /** Segments written since `begin()`. */
  count = 0;
  private readonly data: Float32Array;
  private uploaded = 0;

  constructor(name: string, capacity: number, color: Color3, scene: Scene) {
    this.capacity = capacity;
    const lines: Vector3[][] = [];
    for (let i = 0; i < capacity; i++) lines.push([Vector3.Zero(), Vector3.Zero()]);
    this.mesh = CreateLineSystem(name, { lines, updatable: true }, scene);
    this.mesh.color = color.clone();
    this.mesh.isPickable = false;
    // The bounds were computed from collapsed segments: never cull the mesh.
    this.mesh.alwaysSelectAsActiveMesh = true;
    this.mesh.doNotSyncBoundingInfo = true;
    this.data = new Float32Array(capacity * 6);
    this.mesh.isVisible = false;
  }

  begin(): void {
    this.count = 0;
  }

  /** Adds the segment a–b; returns false (and drops it) when the buffer is full. */
  add(ax: number, ay: number, az: number, bx: number, by: number, bz: number): boolean {
    if (this.count >= this.capacity) return false;
    const d = this.data;
    const o = this.count * 6;
    d[o] = ax; d[o + 1] = ay; d[o + 2] = az;
    d[o + 3] = bx; d[o + 4] = by; d[o + 5] = bz;
    this.count++;
    return true;
  }

  /** A small three-axis cross of half size `h` centred at (x, y, z). */
  cross(x: number, y: number, z: number, h: number): void {
    this.add(x - h, y, z, x + h, y, z);
    this.add(x, y - h, z, x, y + h, z);
    this.add(x, y, z - h, x, y, z + h);
  }

  /** Uploads the segments written since `begin()` and shows the mesh when there are any. */
  end(): void {
    const d = this.data;
    // Only the tail used last frame needs clearing.
    if (this.uploaded > this.count) d.fill(0, this.count * 6, this.uploaded * 6);
    if (this.count > 0 || this.uploaded > 0) this.mesh.updateVerticesData(VertexBuffer.PositionKind, d);
    this.uploaded = this.count;
    this.mesh.isVisible = this.count > 0;
  }

  dispose(): void {
    this.mesh.dispose();
  }
}
