/**
 * PhysicsDebugView: wireframes of every collider in a footing world, drawn in
 * a Babylon scene and updated each frame, with the options of
 * cannon-es-debugger (`color`, `scale`, `onInit`, `onUpdate`), plus contact
 * points and normals, joints, sleeping bodies in another colour and, on
 * demand, the bodies' AABBs.
 *
 * Bodies added to the world later (thrown balls, ragdolls) get their
 * wireframe on the next `update`; wireframes of removed bodies are disposed.
 */
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import type { Aabb, DebugDrawSink, Quat, RigidBody, Shape, Vec3, World } from '../index';
import { requireBoolean, requireInteger, requireNonNegative, requirePositive } from '../math/validate';
import { described, requireObject } from './checks';
import { LineBuffer } from './line-buffer';
import { meshFromShape, setMeshMaterial, type ShapeMeshOptions } from './shape-mesh';

/** Wireframes need fewer segments than solid meshes. */
const WIREFRAME_DETAIL: ShapeMeshOptions = { segments: 8, tessellation: 10, subdivisions: 2 };

export interface PhysicsDebugViewOptions {
  /** Wireframe colour of awake (and static) bodies: a Color3 or a CSS hex string/number like cannon-es-debugger's. Default green. */
  color?: Color3 | string | number;
  /** Colour of sleeping bodies. Default grey-blue. */
  sleepingColor?: Color3 | string | number;
  /** Scale applied to every wireframe (1 = the collider's size). Default 1. */
  scale?: number;
  /** Called once per body when its wireframe is created. */
  onInit?: (body: RigidBody, mesh: Mesh, shape: Shape) => void;
  /** Called every update after the wireframe has been moved onto its body. */
  onUpdate?: (body: RigidBody, mesh: Mesh, shape: Shape) => void;
  /** Draw contact points and normals. Default true. */
  contacts?: boolean;
  /** Draw joints (body centre → anchor A → anchor B → body centre). Default true. */
  joints?: boolean;
  /** Draw each body's AABB. Default false (toggle with `showAabbs`). */
  aabbs?: boolean;
  /** Length of drawn contact normals, metres ≥ 0. Default 0.3. */
  normalLength?: number;
  /** Line capacity of the contact, joint and AABB layers (segments each), an integer in [1, 65536]. Default 4096. */
  maxLines?: number;
}

/**
 * Most segments a line layer holds (16 × the default): each of the four
 * layers keeps two vertices per segment in the scene, made up front.
 */
const MAX_DEBUG_LINES = 65536;

interface Entry {
  body: RigidBody;
  mesh: Mesh;
  sleeping: boolean;
  seen: number;
}

/** `c` as a Color3; anything else Babylon would read as black (FromHexString('zz')) is refused, naming `field`. */
function toColor3(c: Color3 | string | number | undefined, fallback: Color3, field: string): Color3 {
  if (c === undefined) return fallback;
  if (typeof c === 'number') {
    if (!Number.isInteger(c) || c < 0 || c > 0xffffff) throw new RangeError(`${field} must be an integer in [0, 0xffffff] (0xRRGGBB; got ${c})`);
    return Color3.FromHexString(`#${c.toString(16).padStart(6, '0')}`);
  }
  if (typeof c === 'string') {
    if (!/^#?[0-9a-fA-F]{6}$/.test(c)) throw new RangeError(`${field} must be a hex colour '#RRGGBB' (got '${c}')`);
    return Color3.FromHexString(c.startsWith('#') ? c : `#${c}`);
  }
  if (c !== null && typeof c === 'object' && typeof c.clone === 'function' && Number.isFinite(c.r) && Number.isFinite(c.g) && Number.isFinite(c.b)) return c.clone();
  throw new TypeError(`${field} must be a Color3, a hex string '#RRGGBB' or a number 0xRRGGBB (got ${described(c)})`);
}

function wireMaterial(name: string, color: Color3, scene: Scene): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.wireframe = true;
  m.disableLighting = true;
  m.emissiveColor = color;
  m.diffuseColor = Color3.Black();
  m.specularColor = Color3.Black();
  // Draw over the solid meshes a little so the wireframe is readable.
  m.zOffset = -1;
  return m;
}

export class PhysicsDebugView {
  readonly scene: Scene;
  readonly world: World;
  /** Draw contacts / joints / AABBs; may be changed at any time. */
  showContacts: boolean;
  showJoints: boolean;
  showAabbs: boolean;
  readonly scale: number;

  private readonly options: PhysicsDebugViewOptions;
  private readonly awakeMaterial: StandardMaterial;
  private readonly sleepingMaterial: StandardMaterial;
  private readonly entries: Entry[] = [];
  private readonly byBody = new Map<RigidBody, Entry>();
  /** Scratch for contact points and normals. */
  /** Draws each contact point as a cross and its normal (world.debugDraw). */
  private readonly contactSink: DebugDrawSink = {
    contactPoint: (c) => {
      const p = c.point, n = c.normal, len = this.normalLengthValue;
      this.contactLines.cross(p.x, p.y, p.z, 0.04);
      this.normalLines.add(p.x, p.y, p.z, p.x + n.x * len, p.y + n.y * len, p.z + n.z * len);
    },
  };
  private readonly contactLines: LineBuffer;
  private readonly normalLines: LineBuffer;
  private readonly jointLines: LineBuffer;
  private readonly aabbLines: LineBuffer;
  private frame = 0;
  private normalLengthValue = 0.3;
  private enabledValue = true;
  private disposed = false;
  private readonly p: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly q: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly a: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly b: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly box: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };

  constructor(scene: Scene, world: World, options: PhysicsDebugViewOptions = {}) {
    // Everything is checked before the first material or mesh is added to the scene.
    requireObject(scene, 'PhysicsDebugView: scene');
    if (world === null || typeof world !== 'object' || typeof world.debugDraw !== 'function') throw new TypeError(`PhysicsDebugView: world must be a footing World (got ${described(world)})`);
    requireObject(options, 'PhysicsDebugView: options');
    const scale = options.scale ?? 1;
    requirePositive(scale, 'PhysicsDebugView: scale');
    const cap = options.maxLines ?? 4096;
    requireInteger(cap, 1, MAX_DEBUG_LINES, 'PhysicsDebugView: maxLines');
    const awake = toColor3(options.color, new Color3(0, 1, 0), 'PhysicsDebugView: color');
    const sleeping = toColor3(options.sleepingColor, new Color3(0.45, 0.5, 0.75), 'PhysicsDebugView: sleepingColor');
    for (const key of ['onInit', 'onUpdate'] as const) {
      if (options[key] !== undefined && typeof options[key] !== 'function') throw new TypeError(`PhysicsDebugView: ${key} must be a function (got ${described(options[key])})`);
    }
    for (const key of ['contacts', 'joints', 'aabbs'] as const) if (options[key] !== undefined) requireBoolean(options[key], `PhysicsDebugView: ${key}`);
    this.scene = scene;
    this.world = world;
    this.options = options;
    this.scale = scale;
    this.showContacts = options.contacts ?? true;
    this.showJoints = options.joints ?? true;
    this.showAabbs = options.aabbs ?? false;
    this.normalLength = options.normalLength ?? 0.3;
    this.awakeMaterial = wireMaterial('footingDebugAwake', awake, scene);
    this.sleepingMaterial = wireMaterial('footingDebugSleeping', sleeping, scene);
    this.contactLines = new LineBuffer('footingDebugContacts', cap, new Color3(1, 0.2, 0.2), scene);
    this.normalLines = new LineBuffer('footingDebugNormals', cap, new Color3(1, 0.9, 0.1), scene);
    this.jointLines = new LineBuffer('footingDebugJoints', cap, new Color3(0.2, 0.8, 1), scene);
    this.aabbLines = new LineBuffer('footingDebugAabbs', cap, new Color3(0.9, 0.5, 1), scene);
    try {
      this.update();
    } catch (e) {
      // An onInit that throws: take out what was added, the view is never handed out.
      this.dispose();
      throw e;
    }
  }

  /** Length of drawn contact normals, metres ≥ 0. */
  get normalLength(): number { return this.normalLengthValue; }
  set normalLength(v: number) {
    requireNonNegative(v, 'PhysicsDebugView: normalLength');
    this.normalLengthValue = v;
  }

  /** Number of wireframes currently shown (one per body). */
  get wireframeCount(): number {
    return this.entries.length;
  }

  /** The wireframe of `body`, if it has one yet. */
  meshOf(body: RigidBody): Mesh | undefined {
    return this.byBody.get(body)?.mesh;
  }

  /** Hides everything and stops updating (false), or shows and updates again (true). */
  get enabled(): boolean {
    return this.enabledValue;
  }
  set enabled(value: boolean) {
    if (this.disposed || value === this.enabledValue) return;
    this.enabledValue = value;
    for (let i = 0; i < this.entries.length; i++) this.entries[i]!.mesh.setEnabled(value);
    this.contactLines.mesh.setEnabled(value);
    this.normalLines.mesh.setEnabled(value);
    this.jointLines.mesh.setEnabled(value);
    this.aabbLines.mesh.setEnabled(value);
    if (value) this.update();
  }

  /**
   * Moves every wireframe onto its body (interpolated by `alpha` from
   * `world.advance`, 1 = the latest step) and redraws contacts, joints and
   * AABBs. Allocates only when bodies were added.
   */
  update(alpha = 1): void {
    if (this.disposed || !this.enabledValue) return;
    const frame = ++this.frame;
    const bodies = this.world.bodies;
    const onUpdate = this.options.onUpdate;
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i]!;
      let e = this.byBody.get(body);
      if (e === undefined) e = this.createEntry(body);
      e.seen = frame;
      const p = body.getInterpolatedPosition(this.p, alpha);
      const q = body.getInterpolatedRotation(this.q, alpha);
      e.mesh.position.set(p.x, p.y, p.z);
      e.mesh.rotationQuaternion!.set(q.x, q.y, q.z, q.w);
      const sleeping = body.isSleeping && !body.isStatic;
      if (sleeping !== e.sleeping) {
        e.sleeping = sleeping;
        setMeshMaterial(e.mesh, sleeping ? this.sleepingMaterial : this.awakeMaterial);
      }
      if (onUpdate) onUpdate(body, e.mesh, body.shape);
    }
    if (this.entries.length !== bodies.length) this.dropRemoved(frame);
    this.drawContacts();
    this.drawJoints();
    this.drawAabbs();
  }

  /** Removes every mesh, material and line mesh this view created. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const e of this.entries) e.mesh.dispose();
    this.entries.length = 0;
    this.byBody.clear();
    this.contactLines.dispose();
    this.normalLines.dispose();
    this.jointLines.dispose();
    this.aabbLines.dispose();
    this.awakeMaterial.dispose();
    this.sleepingMaterial.dispose();
  }

  private createEntry(body: RigidBody): Entry {
    const mesh = meshFromShape(body.shape, `footingDebug#${body.id}`, this.scene, WIREFRAME_DETAIL);
    mesh.isPickable = false;
    setMeshMaterial(mesh, this.awakeMaterial);
    mesh.rotationQuaternion = new Quaternion();
    mesh.scaling.setAll(this.scale);
    mesh.setEnabled(this.enabledValue);
    const entry: Entry = { body, mesh, sleeping: false, seen: 0 };
    this.entries.push(entry);
    this.byBody.set(body, entry);
    this.options.onInit?.(body, mesh, body.shape);
    return entry;
  }

  private dropRemoved(frame: number): void {
    const entries = this.entries;
    let write = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.seen !== frame) {
        this.byBody.delete(e.body);
        e.mesh.dispose();
        continue;
      }
      entries[write++] = e;
    }
    entries.length = write;
  }

  private drawContacts(): void {
    const points = this.contactLines;
    const normals = this.normalLines;
    points.begin();
    normals.begin();
    if (this.showContacts) this.world.debugDraw(this.contactSink);
    points.end();
    normals.end();
  }

  private drawJoints(): void {
    const lines = this.jointLines;
    lines.begin();
    if (this.showJoints) {
      const joints = this.world.joints;
      for (let i = 0; i < joints.length; i++) {
        const j = joints[i]!;
        if (j.broken) continue;
        const a = j.getAnchorA(this.a);
        const b = j.getAnchorB(this.b);
        const pa = j.bodyA.position;
        const pb = j.bodyB.position;
        lines.add(pa.x, pa.y, pa.z, a.x, a.y, a.z);
        lines.add(a.x, a.y, a.z, b.x, b.y, b.z);
        lines.add(b.x, b.y, b.z, pb.x, pb.y, pb.z);
        lines.cross(a.x, a.y, a.z, 0.03);
      }
    }
    lines.end();
  }

  private drawAabbs(): void {
    const lines = this.aabbLines;
    lines.begin();
    if (this.showAabbs) {
      const bodies = this.world.bodies;
      const box = this.box;
      for (let i = 0; i < bodies.length; i++) {
        const body = bodies[i]!;
        body.shape.computeAabb(box, body.position, body.rotation);
        const x0 = box.min.x, y0 = box.min.y, z0 = box.min.z, x1 = box.max.x, y1 = box.max.y, z1 = box.max.z;
        // the 12 edges: four along each axis
        lines.add(x0, y0, z0, x1, y0, z0); lines.add(x0, y1, z0, x1, y1, z0);
        lines.add(x0, y0, z1, x1, y0, z1); lines.add(x0, y1, z1, x1, y1, z1);
        lines.add(x0, y0, z0, x0, y1, z0); lines.add(x1, y0, z0, x1, y1, z0);
        lines.add(x0, y0, z1, x0, y1, z1); lines.add(x1, y0, z1, x1, y1, z1);
        lines.add(x0, y0, z0, x0, y0, z1); lines.add(x1, y0, z0, x1, y0, z1);
        lines.add(x0, y1, z0, x0, y1, z1); lines.add(x1, y1, z0, x1, y1, z1);
      }
    }
    lines.end();
  }
}
