// The demo level as numbers: every static block, the kinematic platforms and
// their motion, the terrain's height field, the props' layout. No Babylon
// imports: level.ts and props.ts turn it into meshes (and, on the main
// thread, colliders from those meshes); physics.worker.ts builds the same
// colliders from it in worker mode.
import { Box, HingeJoint, type Quat, type RigidBody, type Vec3, type World } from '../src/index';

/** Half the side of the ground square, metres (its top face is y = 0). */
export const GROUND_HALF = 30;
export const LEVEL_FRICTION = 0.7;
export const PLATFORM_FRICTION = 0.8;

export type LevelMaterial = 'grey' | 'sand' | 'brick' | 'teal';

/** A static box: full size, centre, rotation (null: none). */
export interface BlockData {
  name: string;
  width: number; height: number; depth: number;
  position: Vec3;
  rotation: Quat | null;
  material: LevelMaterial;
}

/** Where things are, for the HUD help, the tests and spawning. */
export interface Landmarks {
  spawn: { x: number; y: number; z: number };
  /** In front of the first step of the 0.2 m staircase, facing +z. */
  stairs020: { x: number; z: number; top: number; length: number };
  stairs035: { x: number; z: number; top: number; length: number };
  tunnel: { x: number; z: number; ceiling: number };
}

/** Rotation by `angle` about the unit axis (x, y, z) (what Babylon's Quaternion.RotationAxis gives). */
function axisAngle(x: number, y: number, z: number, angle: number): Quat {
  const s = Math.sin(angle / 2);
  return { x: x * s, y: y * s, z: z * s, w: Math.cos(angle / 2) };
}

const TUNNEL_X = 4, TUNNEL_Z = -12, TUNNEL_CLEAR = 1.4;

/** Every static box of the level except the ground, in build order. */
export function levelBlocks(): BlockData[] {
  const blocks: BlockData[] = [];
  const block = (name: string, width: number, height: number, depth: number, x: number, y: number, z: number, rotation: Quat | null, material: LevelMaterial): void => {
    blocks.push({ name, width, height, depth, position: { x, y, z }, rotation, material });
  };

  // Ramps rising towards +z at 20°, 35° and 50°, 3 m wide, 5 m along the slope.
  // A box of thickness T rotated by −θ about x has its top face's low edge at
  // centre + (T/2)(0, cos θ, −sin θ) − (L/2)(0, sin θ, cos θ); put that edge on y = 0, z = z0.
  const T = 0.4, L = 5, z0 = 4;
  [20, 35, 50].forEach((deg, i) => {
    const th = (deg * Math.PI) / 180;
    const x = -7 - 3.5 * i;
    const y = -0.5 * T * Math.cos(th) + 0.5 * L * Math.sin(th);
    const z = z0 + 0.5 * T * Math.sin(th) + 0.5 * L * Math.cos(th);
    block(`ramp${deg}`, 3, T, L, x, y, z, axisAngle(1, 0, 0, -th), (['sand', 'teal', 'brick'] as const)[i]!);
  });

  // Two staircases going +z: 8 risers of 0.2 m and 5 risers of 0.35 m, tread 0.4 m, with a landing on top.
  const stairs = (name: string, x: number, zStart: number, rise: number, n: number, material: LevelMaterial): void => {
    const tread = 0.4;
    for (let k = 0; k < n; k++) {
      const h = (k + 1) * rise;
      block(`${name}_${k}`, 2.5, h, tread, x, h / 2, zStart + (k + 0.5) * tread, null, material);
    }
    const top = n * rise;
    block(`${name}_landing`, 2.5, top, 2, x, top / 2, zStart + n * tread + 1, null, material);
  };
  stairs('stairs020', 7, 4, 0.2, 8, 'grey');
  stairs('stairs035', 10.5, 4, 0.35, 5, 'brick');

  // An acute wedge corner: two walls meeting at 30°, opening towards +z.
  const wallH = 2, wallL = 4;
  for (const side of [-1, 1]) {
    const a = side * (15 * Math.PI) / 180;
    const dir = { x: Math.sin(a), z: Math.cos(a) };
    // each wall runs from the apex (−8, −10) along dir, its inner face through the apex
    block(`wedge${side}`, 0.3, wallH, wallL, -8 + dir.x * wallL / 2 + side * 0.15 * Math.cos(a), wallH / 2, -10 + dir.z * wallL / 2 - side * 0.15 * Math.sin(a),
      axisAngle(0, 1, 0, a), 'grey');
  }

  // A narrow V corridor along z: two walls leaning out at 35° from vertical, 0.5 m apart at the bottom.
  for (const side of [-1, 1]) {
    const lean = (35 * Math.PI) / 180;
    const h = 2.5;
    const cx = -2 + side * (0.25 + 0.5 * h * Math.sin(lean) + 0.15 * Math.cos(lean));
    const cy = 0.5 * h * Math.cos(lean) - 0.15 * Math.sin(lean);
    block(`vwall${side}`, 0.3, h, 7, cx, cy, -12, axisAngle(0, 0, 1, side * -lean), 'teal');
  }

  // A low tunnel along z: 1.4 m clear height (the standing capsule is 1.8 m; crouch with C).
  block('tunnelWallL', 0.3, TUNNEL_CLEAR, 6, TUNNEL_X - 1.15, TUNNEL_CLEAR / 2, TUNNEL_Z, null, 'brick');
  block('tunnelWallR', 0.3, TUNNEL_CLEAR, 6, TUNNEL_X + 1.15, TUNNEL_CLEAR / 2, TUNNEL_Z, null, 'brick');
  block('tunnelRoof', 2.6, 0.3, 6, TUNNEL_X, TUNNEL_CLEAR + 0.15, TUNNEL_Z, null, 'grey');
  return blocks;
}

/** The kinematic platforms (tops 0.25 m above the ground: one step up), 0.3 m thick, centre y 0.1. */
export const PLATFORM_DATA = [
  { name: 'sliderPlatform', width: 3, depth: 3, x: 17, z: 6 },
  { name: 'turntable', width: 4, depth: 4, x: 17, z: -4 },
] as const;
export const PLATFORM_HEIGHT = 0.3;
export const PLATFORM_Y = 0.1;

/** Linear and rotating kinematic platforms driven by setKinematicTarget. */
export class Platforms {
  readonly slider: RigidBody;
  readonly turntable: RigidBody;
  private readonly target = { x: 0, y: 0, z: 0 };
  private readonly rotation = { x: 0, y: 0, z: 0, w: 1 };
  private readonly sliderHome: { x: number; y: number; z: number };

  constructor(slider: RigidBody, turntable: RigidBody) {
    this.slider = slider;
    this.turntable = turntable;
    this.sliderHome = { x: slider.position.x, y: slider.position.y, z: slider.position.z };
  }

  /** Sets the poses the platforms must reach at `time` (the end of the coming step). */
  update(time: number): void {
    const t = this.target;
    // slides ±3 m along x with a 10 s period
    t.x = this.sliderHome.x + 3 * Math.sin((2 * Math.PI * time) / 10);
    t.y = this.sliderHome.y;
    t.z = this.sliderHome.z;
    this.slider.setKinematicTarget(t);
    // turns about y at 0.5 rad/s
    const half = 0.25 * time;
    const q = this.rotation;
    q.x = 0; q.y = Math.sin(half); q.z = 0; q.w = Math.cos(half);
    this.turntable.setKinematicTarget(this.turntable.position, q);
  }
}

/** The terrain patch: size × size metres in n × n cells, centred at (cx, cz). */
export const TERRAIN = { size: 12, n: 24, cx: -14, cz: -18 } as const;

/**
 * A size × size height field of n × n cells centred at (cx, cz): gentle hills
 * h = 0.9 sin(πu) sin(πv) (0.6 + 0.4 sin(3πu) cos(2πv)), zero at the border so
 * that it meets the ground. Triangles in Babylon's winding for a face seen
 * from +y (as its ground builders wind theirs): (b − a) × (c − a) points down.
 */
export function terrainGrid(size: number, n: number, cx: number, cz: number): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const u = i / n, v = j / n;
      const h = 0.9 * Math.sin(Math.PI * u) * Math.sin(Math.PI * v) * (0.6 + 0.4 * Math.sin(3 * Math.PI * u) * Math.cos(2 * Math.PI * v));
      positions.push(cx + (u - 0.5) * size, h, cz + (v - 0.5) * size);
    }
  }
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices.push(a, b, c, b, d, c);
    }
  }
  return { positions, indices };
}

export const LANDMARKS: Landmarks = {
  spawn: { x: 0, y: 0.91, z: 0 },
  stairs020: { x: 7, z: 4, top: 1.6, length: 8 * 0.4 },
  stairs035: { x: 10.5, z: 4, top: 1.75, length: 5 * 0.4 },
  tunnel: { x: TUNNEL_X, z: TUNNEL_Z + 3, ceiling: TUNNEL_CLEAR },
};

export type PropMaterial = 'box' | 'crate' | 'plank' | 'ball' | 'ragdoll' | 'pivot';

/** A dynamic box of the initial props: half extents, centre, density, material. */
export interface PropBoxData {
  halfExtents: Vec3;
  position: Vec3;
  density: number;
  material: PropMaterial;
}

/** The box pyramid (base 5, 15 boxes of 0.5 m, left of the start) and the crate stack. */
export function propBoxes(): PropBoxData[] {
  const boxes: PropBoxData[] = [];
  const s = 0.5;
  for (let row = 0; row < 5; row++) {
    for (let i = 0; i < 5 - row; i++) {
      boxes.push({ halfExtents: { x: s / 2, y: s / 2, z: s / 2 }, position: { x: -5 + (i - (4 - row) / 2) * (s + 0.01), y: s / 2 + row * s, z: 11 }, density: 300, material: 'box' });
    }
  }
  for (let k = 0; k < 4; k++) {
    boxes.push({ halfExtents: { x: 0.3, y: 0.3, z: 0.3 }, position: { x: -1.6, y: 0.3 + 0.6 * k, z: 13 }, density: 200, material: 'crate' });
  }
  boxes.push({ halfExtents: { x: 0.3, y: 0.3, z: 0.3 }, position: { x: -0.9, y: 0.3, z: 13.2 }, density: 200, material: 'crate' });
  return boxes;
}

export const SEESAW_AT: Vec3 = { x: 3.5, y: 0, z: 12 };
/** The two initial ragdolls: pelvis position and yaw. */
export const RAGDOLL_SPAWNS: readonly { at: Vec3; yaw: number }[] = [
  { at: { x: 1, y: 1.3, z: 17 }, yaw: 0.3 },
  { at: { x: 4, y: 1.3, z: 18 }, yaw: -0.4 },
];

/** A ragdoll's rotation: yaw about y, then a small tilt about x so it falls (q = q_y · q_x). */
export function ragdollRotation(yaw: number, tilt = 0.25): Quat {
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cx = Math.cos(tilt / 2), sx = Math.sin(tilt / 2);
  return { x: cy * sx, y: sy * cx, z: -sy * sx, w: cy * cx };
}

export const PROP_FRICTION = 0.6;

/** A dynamic prop body and the material to draw it with. */
export interface PropBody { body: RigidBody; material: PropMaterial }

/**
 * The initial props' rigid bodies: the pyramid, the crates and the seesaw (a
 * plank on a hinge about z over a static pivot block, a crate on one end).
 * The ragdolls are made by the caller (their meshes need the Ragdoll).
 */
export function createPropBodies(world: World): PropBody[] {
  const out: PropBody[] = [];
  const dynamic = (halfExtents: Vec3, position: Vec3, density: number, material: PropMaterial): RigidBody => {
    const body = world.createBody({ type: 'dynamic', shape: new Box(halfExtents), position, density, friction: PROP_FRICTION });
    out.push({ body, material });
    return body;
  };
  for (const b of propBoxes()) dynamic(b.halfExtents, b.position, b.density, b.material);
  const at = SEESAW_AT;
  const pivotHeight = 0.5;
  const pivot = world.createBody({ type: 'static', shape: new Box({ x: 0.15, y: pivotHeight / 2, z: 0.5 }), position: { x: at.x, y: pivotHeight / 2, z: at.z } });
  out.push({ body: pivot, material: 'pivot' });
  const plank = dynamic({ x: 2, y: 0.06, z: 0.5 }, { x: at.x, y: pivotHeight + 0.08, z: at.z }, 400, 'plank');
  world.addJoint(new HingeJoint({
    bodyA: pivot, bodyB: plank, anchor: { x: at.x, y: pivotHeight, z: at.z }, axis: { x: 0, y: 0, z: 1 },
    lowerAngle: -0.3, upperAngle: 0.3,
  }));
  dynamic({ x: 0.25, y: 0.25, z: 0.25 }, { x: at.x + 1.6, y: pivotHeight + 0.5, z: at.z }, 200, 'crate');
  return out;
}
