/**
 * CharacterDebugView: what the character's plane solver did on its last move.
 *   - every gathered plane as a small translucent quad at its contact point,
 *     facing along its normal (cyan; flattened wall copies of steep slopes in
 *     orange; planes that pushed the character in red);
 *   - the sweeps' solve points joined by lines, ending at the accepted position;
 *   - a wireframe capsule at the last solve point (the target of the final
 *     shape cast);
 *   - the numbers (NGS iterations, sweeps, planes, grounded …) in `stats`.
 *
 * Call `record(result)` after every `move` / `walker.update` of the frame
 * (to sum iterations over the frame's fixed steps), then `update()` once per
 * rendered frame.
 *
 * The meshes and materials (48 plane quads, the solve-point lines, the
 * capsule) are made by the first `update` while the view is enabled: a view
 * created disabled adds nothing to the scene (or the Inspector's scene
 * explorer) until it is first shown.
 */
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder';
import type { Scene } from '@babylonjs/core/scene';
import { CharacterController, type MoveResult } from '../../character/index';
import { requireBoolean, requireInteger, requirePositive } from '../math/validate';
import { described, requireObject } from './checks';
import { LineBuffer } from './line-buffer';

/** Numbers of the character's solver for the current frame. */
export interface CharacterFrameStats {
  /** Moves recorded this frame (fixed steps taken). */
  moves: number;
  /** NGS iterations summed over the frame's moves. */
  iterations: number;
  /** Largest iteration count of a single solve this frame. */
  maxSolveIterations: number;
  /** Sweeps (shape casts of the solve loop) summed over the frame's moves. */
  sweeps: number;
  /** Planes of the last move's final solve. */
  planes: number;
  grounded: boolean;
  sliding: boolean;
  steppedUp: boolean;
  recovered: boolean;
}

export interface CharacterDebugViewOptions {
  /** Side of the plane quads, metres > 0. Default 0.35. */
  planeSize?: number;
}

/** How many quads exist: the controller keeps at most MAX_CHARACTER_PLANES (48) per set. */
const PLANE_POOL = 48;

export class CharacterDebugView {
  readonly controller: CharacterController;
  /** The current frame's numbers (published by `update`). */
  readonly stats: CharacterFrameStats = {
    moves: 0, iterations: 0, maxSolveIterations: 0, sweeps: 0, planes: 0, grounded: false, sliding: false, steppedUp: false, recovered: false,
  };

  private readonly scene: Scene;
  private readonly planeSize: number;
  private readonly quads: Mesh[] = [];
  private readonly materials: StandardMaterial[] = [];
  private solveLines: LineBuffer | null = null;
  private castCapsule: Mesh | null = null;
  private readonly minusZ = new Vector3(0, 0, -1);
  private readonly dir = new Vector3();
  private frameMoves = 0;
  private frameIterations = 0;
  private frameMaxIterations = 0;
  private frameSweeps = 0;
  private frameSteppedUp = false;
  private frameRecovered = false;
  private enabledValue = true;
  private disposed = false;
  private capsuleRadius = 0;
  private capsuleHalfHeight = 0;

  constructor(scene: Scene, controller: CharacterController, options: CharacterDebugViewOptions = {}) {
    requireObject(scene, 'CharacterDebugView: scene');
    if (!(controller instanceof CharacterController)) throw new TypeError(`CharacterDebugView: controller must be a CharacterController (got ${described(controller)})`);
    requireObject(options, 'CharacterDebugView: options');
    const planeSize = options.planeSize ?? 0.35;
    requirePositive(planeSize, 'CharacterDebugView: planeSize');
    this.controller = controller;
    this.scene = scene;
    this.planeSize = planeSize;
  }

  /** Whether the meshes and materials exist yet (made by the first update while enabled). */
  get built(): boolean {
    return this.solveLines !== null;
  }

  private build(): void {
    const scene = this.scene;
    const size = this.planeSize;
    const colours = [new Color3(0.2, 0.85, 1), new Color3(1, 0.55, 0.1), new Color3(1, 0.2, 0.25)];
    for (const c of colours) {
      const m = new StandardMaterial('footingCharPlane', scene);
      m.disableLighting = true;
      m.emissiveColor = c;
      m.alpha = 0.45;
      m.backFaceCulling = false;
      this.materials.push(m);
    }
    const source = CreatePlane('footingCharPlane0', { size, sideOrientation: Mesh.DOUBLESIDE }, scene);
    for (let i = 0; i < PLANE_POOL; i++) {
      const quad = i === 0 ? source : source.clone(`footingCharPlane${i}`);
      quad.isPickable = false;
      quad.rotationQuaternion = new Quaternion();
      quad.material = this.materials[0]!;
      quad.isVisible = false;
      this.quads.push(quad);
    }
    this.solveLines = new LineBuffer('footingCharSolve', 64, new Color3(1, 1, 0.2), scene);
    const wire = new StandardMaterial('footingCharCast', scene);
    wire.wireframe = true;
    wire.disableLighting = true;
    wire.emissiveColor = new Color3(1, 0.4, 1);
    this.materials.push(wire);
    this.castCapsule = this.makeCapsule(scene);
    this.castCapsule.material = wire;
    this.setMeshesEnabled(this.enabledValue);
  }

  private setMeshesEnabled(value: boolean): void {
    if (this.solveLines === null || this.castCapsule === null) return;
    for (const q of this.quads) q.setEnabled(value);
    this.solveLines.mesh.setEnabled(value);
    this.castCapsule.setEnabled(value);
  }

  get enabled(): boolean {
    return this.enabledValue;
  }
  set enabled(value: boolean) {
    if (this.disposed || value === this.enabledValue) return;
    this.enabledValue = value;
    this.setMeshesEnabled(value);
  }

  /** Adds one move's numbers to the frame totals (call after each move). Allocates nothing. */
  record(result: MoveResult): void {
    // Checked before any total changes: one bad result would leave NaN in the frame's numbers.
    if (result === null || typeof result !== 'object') throw new TypeError(`CharacterDebugView.record: result must be a MoveResult (got ${described(result)})`);
    requireInteger(result.iterations, 0, Number.MAX_SAFE_INTEGER, 'CharacterDebugView.record: result.iterations');
    requireInteger(result.maxSolveIterations, 0, Number.MAX_SAFE_INTEGER, 'CharacterDebugView.record: result.maxSolveIterations');
    requireInteger(result.sweeps, 0, Number.MAX_SAFE_INTEGER, 'CharacterDebugView.record: result.sweeps');
    requireBoolean(result.steppedUp, 'CharacterDebugView.record: result.steppedUp');
    requireBoolean(result.recovered, 'CharacterDebugView.record: result.recovered');
    this.frameMoves++;
    this.frameIterations += result.iterations;
    if (result.maxSolveIterations > this.frameMaxIterations) this.frameMaxIterations = result.maxSolveIterations;
    this.frameSweeps += result.sweeps;
    if (result.steppedUp) this.frameSteppedUp = true;
    if (result.recovered) this.frameRecovered = true;
  }

  /**
   * Publishes the frame totals into `stats`, resets them, and (when enabled)
   * redraws the last move's planes, solve points and last shape-cast pose.
   */
  update(): void {
    if (this.disposed) return;
    const r = this.controller.result;
    const s = this.stats;
    s.moves = this.frameMoves;
    s.iterations = this.frameIterations;
    s.maxSolveIterations = this.frameMaxIterations;
    s.sweeps = this.frameSweeps;
    s.steppedUp = this.frameSteppedUp;
    s.recovered = this.frameRecovered;
    s.planes = r.planeCount;
    s.grounded = r.grounded;
    s.sliding = r.sliding;
    this.frameMoves = 0;
    this.frameIterations = 0;
    this.frameMaxIterations = 0;
    this.frameSweeps = 0;
    this.frameSteppedUp = false;
    this.frameRecovered = false;
    if (!this.enabledValue) return;
    if (!this.built) this.build();
    this.drawPlanes(r);
    this.drawSolvePoints(r);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const q of this.quads) q.dispose();
    for (const m of this.materials) m.dispose();
    this.solveLines?.dispose();
    this.castCapsule?.dispose();
  }

  private makeCapsule(scene: Scene): Mesh {
    const c = this.controller;
    this.capsuleRadius = c.radius;
    this.capsuleHalfHeight = c.halfHeight;
    const mesh = CreateCapsule('footingCharCast', { radius: c.radius, height: 2 * (c.halfHeight + c.radius), tessellation: 10 }, scene);
    mesh.isPickable = false;
    mesh.isVisible = false;
    mesh.rotationQuaternion = Quaternion.Identity();
    return mesh;
  }

  private drawPlanes(r: MoveResult): void {
    const n = Math.min(r.planeCount, this.quads.length);
    for (let i = 0; i < this.quads.length; i++) {
      const quad = this.quads[i]!;
      if (i >= n) {
        quad.isVisible = false;
        continue;
      }
      const plane = r.planes[i]!;
      const p = plane.point;
      const nn = plane.normal;
      quad.isVisible = true;
      // lift the quad 1 mm off the surface so it does not z-fight with it
      quad.position.set(p.x + nn.x * 0.001, p.y + nn.y * 0.001, p.z + nn.z * 0.001);
      // CreatePlane's quad lies in XY facing −Z: rotate −Z onto the normal.
      this.dir.set(nn.x, nn.y, nn.z);
      Quaternion.FromUnitVectorsToRef(this.minusZ, this.dir, quad.rotationQuaternion!);
      quad.material = this.materials[plane.flattened ? 1 : plane.push > 0 ? 2 : 0]!;
    }
  }

  private drawSolvePoints(r: MoveResult): void {
    const lines = this.solveLines!;
    lines.begin();
    const count = r.solvePointCount;
    for (let i = 0; i < count; i++) {
      const a = r.solvePoints[i]!;
      lines.cross(a.x, a.y, a.z, 0.05);
      const b = i + 1 < count ? r.solvePoints[i + 1]! : r.position;
      lines.add(a.x, a.y, a.z, b.x, b.y, b.z);
    }
    lines.end();
    const cap = this.castCapsule!;
    if (r.sweeps === 0) {
      cap.isVisible = false;
      return;
    }
    const c = this.controller;
    if (this.capsuleRadius !== c.radius || this.capsuleHalfHeight !== c.halfHeight) {
      // crouching changed the capsule: rebuild the wireframe (rare)
      const scene = cap.getScene();
      const material = cap.material;
      cap.dispose();
      this.castCapsule = this.makeCapsule(scene);
      this.castCapsule.material = material;
    }
    // The capsule where the last cast of the solve loop stopped.
    const last = r.castPosition;
    const q = c.rotation;
    const shown = this.castCapsule!;
    shown.position.set(last.x, last.y, last.z);
    shown.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
    shown.isVisible = true;
  }
}
