import { Box, Capsule, ConvexHull, Cylinder, Sphere, World, type RigidBody, type Shape } from '../../src/index';
import type { Scene, ShapeDesc } from './scene';

export interface FootingSceneOptions {
  /** Solver velocity iterations. Default: the World's own default. */
  velocityIterations?: number;
  /** Whether bodies may sleep. Default: the World's own default. */
  sleeping?: boolean;
}

export interface FootingScene {
  readonly world: World;
  /** One body per `scene.bodies` entry, same order. */
  readonly bodies: readonly RigidBody[];
}

function makeShape(desc: ShapeDesc): Shape {
  switch (desc.kind) {
    case 'box': return new Box(desc.halfExtents);
    case 'sphere': return new Sphere(desc.radius);
    case 'capsule': return new Capsule(desc.radius, desc.halfHeight);
    case 'cylinder': return new Cylinder(desc.radius, desc.halfHeight);
    case 'hull': return new ConvexHull(desc.points);
  }
}

/** Builds a footing World holding `scene` (bodies in scene order). */
export function buildFootingWorld(scene: Scene, options: FootingSceneOptions = {}): FootingScene {
  const world = new World({
    gravity: scene.gravity,
    ...(options.velocityIterations === undefined ? {} : { solver: { velocityIterations: options.velocityIterations } }),
  });
  if (options.sleeping !== undefined) world.sleeping.enabled = options.sleeping;
  const bodies: RigidBody[] = [];
  for (const b of scene.bodies) {
    bodies.push(
      world.createBody({
        type: b.type,
        shape: makeShape(b.shape),
        position: b.position,
        rotation: b.rotation,
        ...(b.type === 'dynamic' ? { mass: b.mass } : {}),
        friction: b.friction,
        restitution: b.restitution,
      }),
    );
  }
  return { world, bodies };
}
