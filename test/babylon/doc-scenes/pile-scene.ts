// The benchmark scene, written only against Babylon's Physics V2 API
// (and the character controller's Babylon API): 500 PhysicsAggregates
// (boxes, spheres, capsules) dropped into a walled 10 m × 10 m pen, 20
// ragdoll-like chains of six boxes on ball-and-socket constraints dropped on
// top, and 10 capsule characters walking circles on the open ground around
// the pen. Used by test/bench/babylon-plugin.bench-run.ts and, small, by
// doc-scenes.test.ts.
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateCapsule } from '@babylonjs/core/Meshes/Builders/capsuleBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { IPhysicsEnginePluginV2 } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate';
import { BallAndSocketConstraint } from '@babylonjs/core/Physics/v2/physicsConstraint';
import type { CharacterSurfaceInfo } from '@babylonjs/core/Physics/v2/characterController';
import type { Scene } from '@babylonjs/core/scene';
import { physicsScene } from '../plugin-scenes';

/** What both character classes (Babylon's PhysicsCharacterController, FootingCharacterController) offer that the scene uses. */
export interface BabylonCharacter {
  checkSupport(deltaTime: number, direction: Vector3): CharacterSurfaceInfo;
  getVelocity(): Vector3;
  setVelocity(velocity: Vector3): void;
  integrate(deltaTime: number, surfaceInfo: CharacterSurfaceInfo, gravity: Vector3): void;
  getPosition(): Vector3;
}
export type CharacterFactory = (position: Vector3, scene: Scene) => BabylonCharacter;

export interface PileSceneSize {
  /** Aggregates in the pen. Default 500. */
  aggregates?: number;
  /** Chains of six boxes. Default 20. */
  chains?: number;
  /** Walking characters. Default 10. */
  characters?: number;
}

export interface PileScene {
  scene: Scene;
  aggregates: PhysicsAggregate[];
  chains: PhysicsAggregate[][];
  /** The characters' circles: centre and start heading, for a caller that walks them itself. */
  walkers: { centre: Vector3; heading: number }[];
  characters: BabylonCharacter[];
  /** Moves every character one frame (Babylon's way: checkSupport, setVelocity, integrate). */
  walk(frame: number, dt: number): void;
}

export const PEN_HALF = 5;
export const WALL_HEIGHT = 4;
export const LINK = { x: 0.16, y: 0.4, z: 0.16 };
export const CHAIN_LINKS = 6;
export const WALK_SPEED = 3;
/** rad/s: circles of radius WALK_SPEED / TURN_RATE = 3 m. */
export const TURN_RATE = 1;
export const CHARACTER_RING = 12;
export const CAPSULE = { height: 1.8, radius: 0.3 };

/** Unit direction of character i's heading at `frame` (frames of dt). */
export function walkHeading(start: number, frame: number, dt: number): number {
  return start + TURN_RATE * frame * dt;
}

function box(scene: Scene, name: string, size: Vector3, at: Vector3): Mesh {
  const m = CreateBox(name, { width: size.x, height: size.y, depth: size.z }, scene);
  m.position.copyFrom(at);
  return m;
}

export function buildPileScene(plugin: IPhysicsEnginePluginV2, makeCharacter: CharacterFactory | null, size: PileSceneSize = {}): PileScene {
  const nAgg = size.aggregates ?? 500, nChains = size.chains ?? 20, nChars = size.characters ?? 10;
  const scene = physicsScene(plugin);
  new PhysicsAggregate(box(scene, 'ground', new Vector3(50, 1, 50), new Vector3(0, -0.5, 0)), PhysicsShapeType.BOX, { mass: 0, friction: 0.6 }, scene);
  for (const [x, z, w, d] of [[PEN_HALF + 0.25, 0, 0.5, 2 * PEN_HALF + 1], [-PEN_HALF - 0.25, 0, 0.5, 2 * PEN_HALF + 1], [0, PEN_HALF + 0.25, 2 * PEN_HALF, 0.5], [0, -PEN_HALF - 0.25, 2 * PEN_HALF, 0.5]] as const) {
    new PhysicsAggregate(box(scene, 'wall', new Vector3(w, WALL_HEIGHT, d), new Vector3(x, WALL_HEIGHT / 2, z)), PhysicsShapeType.BOX, { mass: 0, friction: 0.6 }, scene);
  }
  // A 9 × 9 grid per layer, 1.05 m apart, layers 1.1 m apart from 1 m up; the kind cycles box, sphere, capsule.
  const aggregates: PhysicsAggregate[] = [];
  const perLayer = 81;
  for (let i = 0; i < nAgg; i++) {
    const layer = Math.floor(i / perLayer), k = i % perLayer;
    const at = new Vector3(-4.2 + 1.05 * (k % 9) + 0.05 * (layer % 2), 1 + 1.1 * layer, -4.2 + 1.05 * Math.floor(k / 9));
    const kind = i % 3;
    let mesh: Mesh, type: PhysicsShapeType;
    if (kind === 0) { mesh = CreateBox(`box${i}`, { width: 0.8, height: 0.5, depth: 0.6 }, scene); type = PhysicsShapeType.BOX; }
    else if (kind === 1) { mesh = CreateSphere(`ball${i}`, { diameter: 0.7, segments: 6 }, scene); type = PhysicsShapeType.SPHERE; }
    else { mesh = CreateCapsule(`pill${i}`, { height: 0.9, radius: 0.2, tessellation: 8 }, scene); type = PhysicsShapeType.CAPSULE; }
    mesh.position.copyFrom(at);
    mesh.rotationQuaternion = Quaternion.RotationAxis(new Vector3(1, 0.3, 0.2).normalize(), 0.37 * i);
    aggregates.push(new PhysicsAggregate(mesh, type, { mass: 1 + (i % 5) * 0.5, friction: 0.5, restitution: 0.1 }, scene));
  }
  // Chains hang as dropped: links end to end along Y, ball-and-socket at the shared ends, above the pile.
  const top = 1 + 1.1 * Math.ceil(nAgg / perLayer) + 1;
  const chains: PhysicsAggregate[][] = [];
  for (let c = 0; c < nChains; c++) {
    const x = -3.6 + 1.8 * (c % 5), z = -3.6 + 2.4 * Math.floor(c / 5);
    const links: PhysicsAggregate[] = [];
    for (let l = 0; l < CHAIN_LINKS; l++) {
      const m = box(scene, `link${c}_${l}`, new Vector3(LINK.x, LINK.y, LINK.z), new Vector3(x, top + (CHAIN_LINKS - l) * LINK.y, z));
      const agg = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 2, friction: 0.5 }, scene);
      if (l > 0) {
        const joint = new BallAndSocketConstraint(new Vector3(0, -LINK.y / 2, 0), new Vector3(0, LINK.y / 2, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
        links[l - 1]!.body.addConstraint(agg.body, joint);
        joint.isCollisionsEnabled = false;
      }
      links.push(agg);
    }
    chains.push(links);
  }
  const walkers: { centre: Vector3; heading: number }[] = [];
  const characters: BabylonCharacter[] = [];
  for (let i = 0; i < nChars; i++) {
    const a = (2 * Math.PI * i) / Math.max(nChars, 1);
    const centre = new Vector3(CHARACTER_RING * Math.cos(a), 0, CHARACTER_RING * Math.sin(a));
    walkers.push({ centre, heading: a });
    // Start on the circle: centre + radius · (sin h, 0, −cos h) walks counter-clockwise with heading h.
    const r = WALK_SPEED / TURN_RATE;
    if (makeCharacter) characters.push(makeCharacter(new Vector3(centre.x + r * Math.sin(a), CAPSULE.height / 2 + 0.01, centre.z - r * Math.cos(a)), scene));
  }
  const gravity = new Vector3(0, -9.81, 0), down = new Vector3(0, -1, 0), v = new Vector3();
  const walk = (frame: number, dt: number): void => {
    for (let i = 0; i < characters.length; i++) {
      const ch = characters[i]!;
      const h = walkHeading(walkers[i]!.heading, frame, dt);
      const support = ch.checkSupport(dt, down);
      const vy = ch.getVelocity().y;
      // Supported (2): walk along the ground; otherwise keep falling.
      v.set(WALK_SPEED * Math.cos(h), support.supportedState === 2 ? 0 : vy - 9.81 * dt, WALK_SPEED * Math.sin(h));
      ch.setVelocity(v);
      ch.integrate(dt, support, gravity);
    }
  };
  return { scene, aggregates, chains, walkers, characters, walk };
}
