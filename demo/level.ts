// The static level: every piece is a Babylon mesh first, and its collider is
// made from the mesh by the adapter (colliderFromMesh for boxes,
// triangleMeshFromMeshes for the terrain), the way a game would do it.
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture';
import { Texture } from '@babylonjs/core/Materials/Textures/texture';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { CreateGround } from '@babylonjs/core/Meshes/Builders/groundBuilder';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import type { Scene } from '@babylonjs/core/scene';
import { Box, type RigidBody, type World } from '../src/index';
import { colliderFromMesh, triangleMeshFromMeshes } from '../src/babylon/index';

/** Half the side of the ground square, metres (its top face is y = 0). */
export const GROUND_HALF = 30;

/** Where things are, for the HUD help, the tests and spawning. */
export interface Landmarks {
  spawn: { x: number; y: number; z: number };
  /** In front of the first step of the 0.2 m staircase, facing +z. */
  stairs020: { x: number; z: number; top: number; length: number };
  stairs035: { x: number; z: number; top: number; length: number };
  tunnel: { x: number; z: number; ceiling: number };
}

export interface Level {
  landmarks: Landmarks;
  /** Kinematic platforms, moved by `update(time)` before each step. */
  platforms: Platforms;
  meshes: Mesh[];
}

export function material(scene: Scene, name: string, r: number, g: number, b: number): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseColor = new Color3(r, g, b);
  m.specularColor = new Color3(0.1, 0.1, 0.1);
  return m;
}

function gridMaterial(scene: Scene): StandardMaterial {
  // 1 m cells with a stronger line every 5 m, drawn once into a canvas texture.
  const size = 512;
  const tex = new DynamicTexture('gridTex', { width: size, height: size }, scene, true);
  const ctx = tex.getContext();
  ctx.fillStyle = '#6d7a6a';
  ctx.fillRect(0, 0, size, size);
  const cells = 5;
  for (let i = 0; i <= cells; i++) {
    const x = (i * size) / cells;
    ctx.strokeStyle = i % cells === 0 ? '#2f3a2d' : '#55614f';
    ctx.lineWidth = i % cells === 0 ? 6 : 3;
    ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, size); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(0, x); ctx.lineTo(size, x); ctx.stroke();
  }
  tex.update();
  // DynamicTexture clamps by default; the grid repeats.
  tex.wrapU = Texture.WRAP_ADDRESSMODE;
  tex.wrapV = Texture.WRAP_ADDRESSMODE;
  tex.uScale = (2 * GROUND_HALF) / cells;
  tex.vScale = (2 * GROUND_HALF) / cells;
  const m = new StandardMaterial('groundMat', scene);
  m.diffuseTexture = tex;
  m.specularColor = new Color3(0.05, 0.05, 0.05);
  return m;
}

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

export function buildLevel(world: World, scene: Scene): Level {
  const meshes: Mesh[] = [];
  const grey = material(scene, 'levelGrey', 0.62, 0.62, 0.66);
  const sand = material(scene, 'levelSand', 0.8, 0.72, 0.52);
  const brick = material(scene, 'levelBrick', 0.68, 0.42, 0.36);
  const teal = material(scene, 'levelTeal', 0.3, 0.6, 0.62);

  // Ground: a Babylon ground mesh for the picture, a thick static box for the physics.
  const ground = CreateGround('ground', { width: 2 * GROUND_HALF, height: 2 * GROUND_HALF }, scene);
  ground.material = gridMaterial(scene);
  ground.freezeWorldMatrix();
  meshes.push(ground);
  world.createBody({ type: 'static', shape: new Box({ x: GROUND_HALF, y: 0.5, z: GROUND_HALF }), position: { x: 0, y: -0.5, z: 0 }, friction: 0.7, userData: 'ground' });

  /** A static box mesh and its collider (from the mesh, through the adapter). */
  const block = (name: string, w: number, h: number, d: number, x: number, y: number, z: number, rot: Quaternion | null, mat: StandardMaterial): Mesh => {
    const mesh = CreateBox(name, { width: w, height: h, depth: d }, scene);
    mesh.position.set(x, y, z);
    if (rot) mesh.rotationQuaternion = rot;
    mesh.material = mat;
    mesh.freezeWorldMatrix();
    world.createBody({ type: 'static', ...colliderFromMesh(mesh, 'box'), friction: 0.7, userData: name });
    meshes.push(mesh);
    return mesh;
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
    block(`ramp${deg}`, 3, T, L, x, y, z, Quaternion.RotationAxis(Vector3.Right(), -th), [sand, teal, brick][i]!);
  });

  // Two staircases going +z: 8 risers of 0.2 m and 5 risers of 0.35 m, tread 0.4 m, with a landing on top.
  const stairs = (name: string, x: number, zStart: number, rise: number, n: number, mat: StandardMaterial): void => {
    const tread = 0.4;
    for (let k = 0; k < n; k++) {
      const h = (k + 1) * rise;
      block(`${name}_${k}`, 2.5, h, tread, x, h / 2, zStart + (k + 0.5) * tread, null, mat);
    }
    const top = n * rise;
    block(`${name}_landing`, 2.5, top, 2, x, top / 2, zStart + n * tread + 1, null, mat);
  };
  stairs('stairs020', 7, 4, 0.2, 8, grey);
  stairs('stairs035', 10.5, 4, 0.35, 5, brick);

  // An acute wedge corner: two walls meeting at 30°, opening towards +z.
  const wallH = 2, wallL = 4;
  for (const side of [-1, 1]) {
    const a = side * (15 * Math.PI) / 180;
    const dir = { x: Math.sin(a), z: Math.cos(a) };
    // each wall runs from the apex (−8, −10) along dir, its inner face through the apex
    block(`wedge${side}`, 0.3, wallH, wallL, -8 + dir.x * wallL / 2 + side * 0.15 * Math.cos(a), wallH / 2, -10 + dir.z * wallL / 2 - side * 0.15 * Math.sin(a),
      Quaternion.RotationAxis(Vector3.Up(), a), grey);
  }

  // A narrow V corridor along z: two walls leaning out at 35° from vertical, 0.5 m apart at the bottom.
  for (const side of [-1, 1]) {
    const lean = (35 * Math.PI) / 180;
    const h = 2.5;
    const cx = -2 + side * (0.25 + 0.5 * h * Math.sin(lean) + 0.15 * Math.cos(lean));
    const cy = 0.5 * h * Math.cos(lean) - 0.15 * Math.sin(lean);
    block(`vwall${side}`, 0.3, h, 7, cx, cy, -12, Quaternion.RotationAxis(Vector3.Forward(), side * -lean), teal);
  }

  // A low tunnel along z: 1.4 m clear height (the standing capsule is 1.8 m; crouch with C).
  const tunnelX = 4, tunnelZ = -12, clear = 1.4;
  block('tunnelWallL', 0.3, clear, 6, tunnelX - 1.15, clear / 2, tunnelZ, null, brick);
  block('tunnelWallR', 0.3, clear, 6, tunnelX + 1.15, clear / 2, tunnelZ, null, brick);
  block('tunnelRoof', 2.6, 0.3, 6, tunnelX, clear + 0.15, tunnelZ, null, grey);

  // Kinematic platforms (tops 0.25 m above the ground: one step up).
  const platMat = material(scene, 'platform', 0.95, 0.8, 0.25);
  const platformBody = (name: string, w: number, d: number, x: number, z: number): { body: RigidBody; mesh: Mesh } => {
    const mesh = CreateBox(name, { width: w, height: 0.3, depth: d }, scene);
    mesh.position.set(x, 0.1, z);
    mesh.material = platMat;
    mesh.rotationQuaternion = new Quaternion();
    const body = world.createBody({ type: 'kinematic', ...colliderFromMesh(mesh, 'box'), friction: 0.8, userData: name });
    meshes.push(mesh);
    return { body, mesh };
  };
  const slider = platformBody('sliderPlatform', 3, 3, 17, 6);
  const turntable = platformBody('turntable', 4, 4, 17, -4);

  // A terrain patch: a height field baked into a TriangleMesh from its Babylon mesh.
  const terrain = terrainMesh(scene, 12, 24, -14, -18);
  terrain.material = material(scene, 'terrain', 0.45, 0.6, 0.38);
  meshes.push(terrain);
  world.createBody({ type: 'static', shape: triangleMeshFromMeshes(terrain), friction: 0.7, userData: 'terrain' });

  return {
    meshes,
    platforms: new Platforms(slider.body, turntable.body),
    landmarks: {
      spawn: { x: 0, y: 0.91, z: 0 },
      stairs020: { x: 7, z: 4, top: 1.6, length: 8 * 0.4 },
      stairs035: { x: 10.5, z: 4, top: 1.75, length: 5 * 0.4 },
      tunnel: { x: tunnelX, z: tunnelZ + 3, ceiling: clear },
    },
    // the platform meshes follow their bodies through the demo's BodyLinks
  } satisfies Level;
}

/** Meshes of the two kinematic platforms, by body, for linking. */
export function platformMeshes(level: Level): Mesh[] {
  return level.meshes.filter((m) => m.name === 'sliderPlatform' || m.name === 'turntable');
}

/**
 * A size × size height field of n × n cells centred at (cx, cz): gentle hills
 * h = 0.9 sin(πu) sin(πv) (0.6 + 0.4 sin(3πu) cos(2πv)), zero at the border so
 * that it meets the ground.
 */
export function terrainMesh(scene: Scene, size: number, n: number, cx: number, cz: number): Mesh {
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
      // Babylon's winding for a face seen from +y (as its ground builders wind
      // theirs): (b − a) × (c − a) points down. triangleMeshFromMeshes turns it
      // into TriangleMesh's counter-clockwise front.
      indices.push(a, b, c, b, d, c);
    }
  }
  const normals: number[] = [];
  VertexData.ComputeNormals(positions, indices, normals);
  const data = new VertexData();
  data.positions = positions;
  data.indices = indices;
  data.normals = normals;
  const mesh = new Mesh('terrain', scene);
  data.applyToMesh(mesh);
  mesh.freezeWorldMatrix();
  return mesh;
}
