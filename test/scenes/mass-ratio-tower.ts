import { DT, EARTH_GRAVITY, IDENTITY, staticBox, type BodyDesc, type Scene } from './scene';

const HALF = 0.5;
const GAP_Y = 0.005;
const FRICTION = 0.6;

/**
 * A single column of `height` 1 m cubes alternating 1 kg and `ratio` kg
 * (bottom one light), on a static ground box whose top is y = 0. Heavy on
 * light is the classic stress for sequential impulses: the light box's
 * contacts must carry ten times its own weight within the iteration budget.
 */
export function massRatioTowerScene(height = 10, ratio = 10): Scene {
  const bodies: BodyDesc[] = [];
  bodies.push(staticBox({ x: 10, y: 0.5, z: 10 }, { x: 0, y: -0.5, z: 0 }, FRICTION));
  for (let i = 0; i < height; i++) {
    bodies.push({
      shape: { kind: 'box', halfExtents: { x: HALF, y: HALF, z: HALF } },
      type: 'dynamic',
      position: { x: 0, y: HALF + i * (2 * HALF + GAP_Y), z: 0 },
      rotation: IDENTITY,
      mass: i % 2 === 0 ? 1 : ratio,
      friction: FRICTION,
      restitution: 0,
    });
  }
  return {
    name: `tower-${ratio}to1`,
    description: `${height} stacked 1 m cubes alternating 1 kg and ${ratio} kg (light at the bottom), μ = ${FRICTION}`,
    gravity: EARTH_GRAVITY,
    dt: DT,
    bodies,
    bounds: { min: { x: -10, y: 0, z: -10 }, max: { x: 10, y: height + 5, z: 10 } },
    measureDrift: true,
  };
}
