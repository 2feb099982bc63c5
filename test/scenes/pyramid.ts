import { DT, EARTH_GRAVITY, IDENTITY, staticBox, type BodyDesc, type Scene } from './scene';

const HALF = 0.5; // 1 m cubes
const GAP_X = 0.05; // horizontal gap between neighbours in a row
const GAP_Y = 0.005; // start each row just above the one below it
const FRICTION = 0.6;

/**
 * A 2D pyramid (one cube deep) of 1 m, 1 kg cubes with `base` cubes in the
 * bottom row: base·(base+1)/2 cubes on a static ground box whose top is y = 0.
 * Each row is offset by half a pitch, so every cube rests on two below it.
 */
export function pyramidScene(base: number): Scene {
  const pitch = 2 * HALF + GAP_X;
  const bodies: BodyDesc[] = [];
  const groundHalfX = 0.5 * base * pitch + 10;
  bodies.push(staticBox({ x: groundHalfX, y: 0.5, z: 10 }, { x: 0, y: -0.5, z: 0 }, FRICTION));
  for (let row = 0; row < base; row++) {
    const count = base - row;
    const y = HALF + row * (2 * HALF + GAP_Y);
    const x0 = -0.5 * (count - 1) * pitch;
    for (let i = 0; i < count; i++) {
      bodies.push({
        shape: { kind: 'box', halfExtents: { x: HALF, y: HALF, z: HALF } },
        type: 'dynamic',
        position: { x: x0 + i * pitch, y, z: 0 },
        rotation: IDENTITY,
        mass: 1,
        friction: FRICTION,
        restitution: 0,
      });
    }
  }
  const height = base * (2 * HALF + GAP_Y);
  return {
    name: `pyramid-${base}`,
    description: `2D pyramid, base ${base} (${(base * (base + 1)) / 2} unit cubes, 1 kg, ${GAP_X * 100} cm gaps, μ = ${FRICTION}) on a static ground box`,
    gravity: EARTH_GRAVITY,
    dt: DT,
    bodies,
    // Escaped: sank below the ground top (centre under y = 0) or was thrown well clear.
    bounds: {
      min: { x: -groundHalfX, y: 0, z: -10 },
      max: { x: groundHalfX, y: height + 5, z: 10 },
    },
    measureDrift: true,
  };
}
