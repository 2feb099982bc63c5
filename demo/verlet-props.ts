/**
 * Verlet props for the level: a cloth banner hanging from a bar and a rope the
 * character can walk through (its capsule body pushes the particles aside).
 * Rendered as an updatable ribbon and line; vertex buffers are refilled from
 * the particle positions every frame.
 */
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { CreateRibbon } from '@babylonjs/core/Meshes/Builders/ribbonBuilder';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import { createCloth, createRope, type Cloth, type Rope, type World } from 'footing';
import { material } from './level';

export class VerletProps {
  readonly cloth: Cloth;
  readonly rope: Rope;
  private readonly paths: Vector3[][];
  private readonly ropePoints: Vector3[];
  private ribbon: Mesh;
  private line: LinesMesh;

  constructor(world: World, private readonly scene: Scene) {
    // Banner ahead of the spawn (facing it), rope between the two.
    this.cloth = createCloth(world, {
      width: 2, height: 1.4, segments: { x: 14, y: 10 }, pinned: 'top',
      position: { x: 2.5, y: 2.2, z: 6.5 }, mass: 0.5, radius: 0.03,
    });
    this.rope = createRope(world, { from: { x: 2, y: 3.0, z: 2 }, to: { x: 2, y: 0.6, z: 2 }, segments: 16, mass: 0.3, radius: 0.03 });
    const c = this.cloth;
    this.paths = [];
    for (let row = 0; row < c.rows; row++) {
      const path: Vector3[] = [];
      for (let col = 0; col < c.columns; col++) path.push(new Vector3());
      this.paths.push(path);
    }
    this.ropePoints = [];
    for (let i = 0; i < this.rope.system.count; i++) this.ropePoints.push(new Vector3());
    this.readPositions();
    this.ribbon = CreateRibbon('banner', { pathArray: this.paths, updatable: true, sideOrientation: 2 }, scene);
    const mat = material(scene, 'bannerMat', 0.9, 0.75, 0.2);
    mat.backFaceCulling = false;
    this.ribbon.material = mat;
    this.line = CreateLines('rope', { points: this.ropePoints, updatable: true }, scene);
    this.line.color = new Color3(0.35, 0.2, 0.1);
  }

  private readPositions(): void {
    const c = this.cloth;
    const p = c.system.positions;
    for (let row = 0; row < c.rows; row++) {
      const path = this.paths[row]!;
      for (let col = 0; col < c.columns; col++) {
        const i = c.index(col, row) * 3;
        path[col]!.set(p[i]!, p[i + 1]!, p[i + 2]!);
      }
    }
    const r = this.rope.system.positions;
    for (let i = 0; i < this.ropePoints.length; i++) this.ropePoints[i]!.set(r[3 * i]!, r[3 * i + 1]!, r[3 * i + 2]!);
  }

  /** Copies the particles into the meshes (after the physics steps of a frame). */
  render(): void {
    this.readPositions();
    this.ribbon = CreateRibbon('banner', { pathArray: this.paths, instance: this.ribbon });
    this.line = CreateLines('rope', { points: this.ropePoints, instance: this.line });
  }
}
