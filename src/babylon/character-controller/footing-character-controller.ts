/**
 * FootingCharacterController: the public API of Babylon's
 * PhysicsCharacterController (Physics V2) on footing's CharacterController,
 * so that a scene written for Havok's controller runs by swapping the class
 * name. How to swap and what differs from Havok: docs/babylon-character.md.
 *
 * Babylon's controller is velocity-level: the game sets a velocity, and
 * `integrate(dt, …)` moves the capsule by velocity·dt through the geometry,
 * leaving the velocity with the part that pointed into what it touched
 * removed. Here the move is one `CharacterController.move(velocity·dt)` (the
 * plane solver, step up, ground probe and snap of footing's controller) and
 * the velocity is clipped against the planes of that move. The pushes on
 * dynamic bodies follow Babylon's model rather than footing's (impulse that
 * stops the approach, capped by characterStrength·dt, plus the character's
 * weight), because `onTriggerCollisionObservable` reports each of them.
 */
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Observable } from '@babylonjs/core/Misc/observable';
import type { Scene } from '@babylonjs/core/scene';
import type { CharacterShapeOptions, CharacterSupportedState, CharacterSurfaceInfo } from '@babylonjs/core/Physics/v2/characterController';
import { MAX_GRAVITY, MAX_LINEAR_SPEED, MAX_POSITION, MAX_SHAPE_SIZE, type Capsule, type RigidBody, type Vec3, type World } from '../../index';
import { CharacterController } from '../../../character/index';
import { resolveFootingWorld, type FootingWorldHost } from './world-host';
import { surfaceMovement } from './surface-movement';
import { described } from '../checks';
import {
  capsuleOf, requireBoundedVector, requireRange, requireVector, requireWritableVector, safeLength,
  type FootingCharacterCollisionEvent, type FootingCharacterControllerOptions,
} from './options';

export type { FootingCharacterCollisionEvent, FootingCharacterControllerOptions } from './options';

// Babylon's CharacterSupportedState values (a numeric enum; imported as a type only, so that
// this module does not load Babylon's Havok-bound controller).
const UNSUPPORTED = 0 as CharacterSupportedState;
const SLIDING = 1 as CharacterSupportedState;
const SUPPORTED = 2 as CharacterSupportedState;

/** Babylon's damping of the approach speed a push removes, and the share of a penetration it recovers per second. */
const PUSH_DAMPING = 0.9;
const PUSH_RECOVERY = 0.4;
/**
 * Metres beyond keepDistance within which a walkable plane still counts as
 * the ground the character stands on (groundNormalInto): the face beside a
 * seam, not the whole gather reach, so a ramp takes over within centimetres.
 */
const SEAM_REACH = 0.01;
/** A plane counts towards support along a direction d when n · d̂ is below this (Babylon's threshold). */
const SUPPORT_FACING = -0.08;
/** Largest push force footing accepts (CharacterSettings.pushStrength bound); Babylon's default 1e38 means "unbounded". */
const MAX_FOOTING_FORCE = 1e6;
/** Bound of calculateMovement's vector components: their products and squares stay far from overflow. */
const MAX_MOVEMENT_COMPONENT = 1e15;

/** Throws naming `name` unless `dt` is a finite number > 0. */
function requireDeltaTime(where: string, dt: number): void {
  if (typeof dt !== 'number' || !(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`FootingCharacterController.${where}: deltaTime must be a finite number > 0 (got ${String(dt)})`);
}

/** A class with Babylon's constructor signature (what `FootingCharacterController.forWorld` returns). */
export type FootingCharacterControllerClass = new (position: Vector3, characterShapeOptions: CharacterShapeOptions, scene: Scene) => FootingCharacterController;

export class FootingCharacterController {
  /**
   * A class with Babylon's three-argument constructor bound to `world`: for
   * scenes whose physics plugin is not FootingPlugin (a footing world
   * stepped by hand). `new (FootingCharacterController.forWorld(world))(position, shape, scene)`.
   */
  static forWorld(world: World | FootingWorldHost): FootingCharacterControllerClass {
    return class extends FootingCharacterController {
      constructor(position: Vector3, characterShapeOptions: CharacterShapeOptions, scene: Scene) {
        super(position, characterShapeOptions, scene, { world });
      }
    };
  }

  /** The footing world the character moves in. */
  readonly world: World;
  /** @internal calculateMovementToRef's deltaTime, read by surfaceMovement */
  movementDt = 1 / 60;
  /** Collision events: one per touching dynamic body per integrate, with the impulse the character gave it. */
  readonly onTriggerCollisionObservable = new Observable<FootingCharacterCollisionEvent>();

  private readonly scene: Scene;
  private readonly host: FootingWorldHost | null;
  private controllerValue: CharacterController;
  private shapeOptionsValue: CharacterShapeOptions;
  private heightValue: number;
  private readonly positionValue: Vector3;
  private readonly velocityValue = new Vector3(0, 0, 0);
  private readonly collisionGroup: number;
  private strength = 1e38;
  private mass = 0;
  private staticFrictionValue = 0;
  private dynamicFrictionValue = 1;
  private maxSlopeCosineValue = 0.5;
  private upValue: Vector3 = new Vector3(0, 1, 0);
  private footOffsetValue: number;
  private accelerationValue = 0.05;
  private maxAccelerationValue = 50;
  private penetrationRecoverySpeedValue = 1;
  private maxCharacterSpeedForSolverValue = 10;
  private disposed = false;
  /** The time step and gravity of the move in progress (fields, not arguments: doubles passed to calls get boxed). */
  private stepDt = 1 / 60;
  private readonly stepGravity: Vec3 = { x: 0, y: 0, z: 0 };
  // scratch owned by this controller
  private readonly disp: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly clip: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly inVel: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly pointVel: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly impulse: Vec3 = { x: 0, y: 0, z: 0 };
  /** Whether the move in progress started grounded (1), and on what ground normal (clipVelocity). */
  private startGrounded = 0;
  private readonly startGroundNormal: Vec3 = { x: 0, y: 1, z: 0 };
  /** Scratch of groundNormalInto's callers after a move. */
  private readonly groundNormal: Vec3 = { x: 0, y: 1, z: 0 };
  private readonly event: FootingCharacterCollisionEvent;

  /**
   * Babylon's signature; `options.world` (or the static `forWorld`) names
   * the footing world when the scene's physics plugin is not FootingPlugin.
   */
  constructor(position: Vector3, characterShapeOptions: CharacterShapeOptions, scene: Scene, options: FootingCharacterControllerOptions = {}) {
    requireVector('position', position);
    const capsule = capsuleOf(characterShapeOptions);
    if (scene === null || typeof scene !== 'object') throw new TypeError(`FootingCharacterController: scene must be a Babylon Scene (got ${described(scene)})`);
    if (options === null || typeof options !== 'object') throw new TypeError(`FootingCharacterController: options must be an object (got ${described(options)})`);
    if (options.settings != null && typeof options.settings !== 'object') throw new TypeError(`FootingCharacterController: options.settings must be an object (got ${described(options.settings)})`);
    const { world, host } = resolveFootingWorld(scene, options.world);
    this.world = world;
    this.host = host;
    this.scene = scene;
    this.shapeOptionsValue = characterShapeOptions;
    this.heightValue = capsule.height;
    this.footOffsetValue = capsule.height / 2;
    this.positionValue = new Vector3(position.x, position.y, position.z);
    this.collisionGroup = options.collisionGroup ?? 1;
    this.controllerValue = new CharacterController(world, {
      ...options.settings,
      radius: capsule.radius, halfHeight: capsule.halfHeight, position, collisionGroup: this.collisionGroup,
      // Babylon's defaults for the settings its API names (keepDistance, keepContactTolerance, maxCastIterations, maxSlopeCosine, maxStepHeight).
      skinWidth: 0.05, gatherDistance: 0.1, maxSweeps: 10, maxSlopeDegrees: 60, stepHeight: 0,
      // Pushing is done here, Babylon's way (see pushBodies).
      pushStrength: 0,
    });
    this.event = {
      collider: null, colliderIndex: 0, body: null as unknown as RigidBody, impulse: new Vector3(), impulsePosition: new Vector3(),
    };
  }

  /** The footing controller underneath (rebuilt when the radius or `up` changes). Its settings are live. */
  get controller(): CharacterController { return this.controllerValue; }
  /** The collision capsule (footing's Capsule; Babylon returns a PhysicsShape). */
  get shape(): Capsule { return this.controllerValue.capsule; }
  /** The options the capsule was last built from. */
  get shapeOptions(): CharacterShapeOptions { return this.shapeOptionsValue; }

  /** Up vector; a new value or direction takes effect at the next call (the capsule is rebuilt along it). Checked when set and when used (it may be changed in place). */
  get up(): Vector3 { return this.upValue; }
  set up(v: Vector3) {
    // a zero vector is refused where it is used, as one changed in place is (the next checkSupport or integrate)
    requireVector('up', v);
    this.upValue = v;
  }
  /** Distance from `getPosition()` down to the feet along `up`, metres in [0, MAX_SHAPE_SIZE]; setShapeOptions keeps the feet there. Default: half the capsule height. */
  get footOffset(): number { return this.footOffsetValue; }
  set footOffset(v: number) { requireRange('footOffset', v, 0, MAX_SHAPE_SIZE); this.footOffsetValue = v; }
  /** Babylon's gain towards the desired velocity per calculateMovement call, in [0, 1]. Default 0.05. */
  get acceleration(): number { return this.accelerationValue; }
  set acceleration(v: number) { requireRange('acceleration', v, 0, 1); this.accelerationValue = v; }
  /** Largest velocity change of calculateMovement per second, m/s² ≥ 0. Default 50. */
  get maxAcceleration(): number { return this.maxAccelerationValue; }
  set maxAcceleration(v: number) { requireRange('maxAcceleration', v, 0, Number.MAX_VALUE); this.maxAccelerationValue = v; }
  /** Babylon's penetration recovery speed, ≥ 0; accepted for compatibility (footing's solver recovers by projection, at most one radius per move). Default 1. */
  get penetrationRecoverySpeed(): number { return this.penetrationRecoverySpeedValue; }
  set penetrationRecoverySpeed(v: number) { requireRange('penetrationRecoverySpeed', v, 0, Number.MAX_VALUE); this.penetrationRecoverySpeedValue = v; }
  /** Babylon's simplex solver speed bound, ≥ 0; accepted for compatibility (footing's solver works on positions). Default 10. */
  get maxCharacterSpeedForSolver(): number { return this.maxCharacterSpeedForSolverValue; }
  set maxCharacterSpeedForSolver(v: number) { requireRange('maxCharacterSpeedForSolver', v, 0, Number.MAX_VALUE); this.maxCharacterSpeedForSolverValue = v; }

  /** Gap kept between the capsule and what it touches, metres ≥ 0 (footing's skinWidth). Default 0.05. */
  get keepDistance(): number { return this.controllerValue.settings.skinWidth; }
  set keepDistance(v: number) { requireRange('keepDistance', v, 0, 1000); this.controllerValue.settings.skinWidth = v; }
  /** How far beyond keepDistance surfaces are gathered as contacts, metres ≥ 0 (footing's gatherDistance). Default 0.1. */
  get keepContactTolerance(): number { return this.controllerValue.settings.gatherDistance; }
  set keepContactTolerance(v: number) { requireRange('keepContactTolerance', v, 0, 1000); this.controllerValue.settings.gatherDistance = v; }
  /** Shape casts per move, integer in [1, 100] (footing's maxSweeps). Default 10. */
  get maxCastIterations(): number { return this.controllerValue.settings.maxSweeps; }
  set maxCastIterations(v: number) {
    if (!Number.isInteger(v) || v < 1 || v > 100) throw new RangeError(`FootingCharacterController: maxCastIterations must be an integer in [1, 100] (got ${String(v)})`);
    this.controllerValue.settings.maxSweeps = v;
  }
  /** Cosine of the steepest walkable slope, in [0, 1] (footing's maxSlopeDegrees = acos). Default 0.5 (60°). */
  get maxSlopeCosine(): number { return this.maxSlopeCosineValue; }
  set maxSlopeCosine(v: number) {
    requireRange('maxSlopeCosine', v, 0, 1);
    this.maxSlopeCosineValue = v;
    this.controllerValue.settings.maxSlopeDegrees = Math.acos(v) * 180 / Math.PI;
  }
  /** Highest step climbed by walking into it, metres ≥ 0 (footing's stepHeight); 0: only what the capsule's rounded bottom rolls over. Default 0. */
  get maxStepHeight(): number { return this.controllerValue.settings.stepHeight; }
  set maxStepHeight(v: number) { requireRange('maxStepHeight', v, 0, 1000); this.controllerValue.settings.stepHeight = v; }
  /** Largest force the character pushes dynamic bodies with, N ≥ 0. Default 1e38 (unbounded). */
  get characterStrength(): number { return this.strength; }
  set characterStrength(v: number) { requireRange('characterStrength', v, 0, Number.MAX_VALUE); this.strength = v; }
  /** Mass whose weight (gravity passed to integrate) presses on dynamic bodies below, kg ≥ 0. Default 0. */
  get characterMass(): number { return this.mass; }
  set characterMass(v: number) { requireRange('characterMass', v, 0, MAX_FOOTING_FORCE); this.mass = v; }
  /** Friction against surfaces: the velocity stops when its part into them is at least 1/√(1+μ²) of it. Default 0. */
  get staticFriction(): number { return this.staticFrictionValue; }
  set staticFriction(v: number) { requireRange('staticFriction', v, 0, 1e6); this.staticFrictionValue = v; }
  /** 1: the velocity loses its part into surfaces; 0: it keeps its speed along them. Default 1. */
  get dynamicFriction(): number { return this.dynamicFrictionValue; }
  set dynamicFriction(v: number) { requireRange('dynamicFriction', v, 0, 1); this.dynamicFrictionValue = v; }

  /** Capsule centre (the controller's own vector: read it, move with setPosition). */
  getPosition(): Vector3 { return this.positionValue; }

  /** Teleports the character (no collision); it is unsupported until its next move. */
  setPosition(position: Vector3): void {
    this.requireLive('setPosition');
    requireVector('position', position);
    this.controllerValue.setPosition(position);
    // x/y/z, not copyFrom: that reads Vector3's private fields, and a plain { x, y, z } would write NaN
    this.positionValue.set(position.x, position.y, position.z);
  }

  /** Velocity, m/s (the controller's own vector). */
  getVelocity(): Vector3 { return this.velocityValue; }

  setVelocity(velocity: Vector3): void {
    // bounded as footing's bodies are: the squares of the clip overflow long before 1e300
    requireBoundedVector('velocity', velocity, MAX_LINEAR_SPEED, 'm/s, MAX_LINEAR_SPEED');
    this.velocityValue.set(velocity.x, velocity.y, velocity.z);
  }

  /**
   * Rebuilds the capsule from new options (`capsuleHeight`, `capsuleRadius`;
   * Babylon's defaults 1.8 and 0.6 for the ones left out). With
   * `preserveFootPosition` the feet stay where they are (crouch: the centre
   * goes down). Returns false and changes nothing when a taller capsule would
   * overlap geometry (standing up under a low ceiling); Babylon grows into it.
   */
  setShapeOptions(characterShapeOptions: CharacterShapeOptions, preserveFootPosition = true): boolean {
    this.requireLive('setShapeOptions');
    const capsule = capsuleOf(characterShapeOptions);
    const ctl = this.controllerValue;
    const up = ctl.up;
    const old = this.positionValue;
    const ox = old.x, oy = old.y, oz = old.z;
    {
      // where the centre will end, checked before anything changes (a failed setPosition after the rebuild would leave half a change)
      const k = !preserveFootPosition ? 0 : this.footOffsetValue !== this.heightValue / 2 ? capsule.height / 2 - this.footOffsetValue
        : capsule.halfHeight + capsule.radius - ctl.halfHeight - ctl.radius;
      const tx = ox + up.x * k, ty = oy + up.y * k, tz = oz + up.z * k;
      if (!(Math.abs(tx) <= MAX_POSITION && Math.abs(ty) <= MAX_POSITION && Math.abs(tz) <= MAX_POSITION)) {
        throw new RangeError(`FootingCharacterController.setShapeOptions: capsuleHeight ${capsule.height} m would put the centre at (${tx}, ${ty}, ${tz}), beyond ±${MAX_POSITION} m (MAX_POSITION)`);
      }
    }
    if (capsule.radius === ctl.radius) {
      // footing keeps the feet (centre − up·(halfHeight + radius)) and refuses to grow into geometry
      if (!ctl.setHalfHeight(capsule.halfHeight)) return false;
    } else {
      const grown = capsule.radius > ctl.radius || capsule.halfHeight > ctl.halfHeight;
      const dh = capsule.halfHeight + capsule.radius - ctl.halfHeight - ctl.radius;
      const next = this.rebuild(capsule.radius, capsule.halfHeight, ox + up.x * dh, oy + up.y * dh, oz + up.z * dh);
      if (grown && this.overlaps(next)) {
        next.dispose();
        return false;
      }
      ctl.dispose();
      this.controllerValue = next;
    }
    const c = this.controllerValue;
    let px = c.position.x, py = c.position.y, pz = c.position.z;
    if (!preserveFootPosition) {
      px = ox; py = oy; pz = oz;
    } else if (this.footOffsetValue !== this.heightValue / 2) {
      // a footOffset set by hand: the feet are at centre − up·footOffset
      const k = capsule.height / 2 - this.footOffsetValue;
      px = ox + up.x * k; py = oy + up.y * k; pz = oz + up.z * k;
    }
    if (px !== c.position.x || py !== c.position.y || pz !== c.position.z) c.setPosition({ x: px, y: py, z: pz });
    this.positionValue.set(px, py, pz);
    this.shapeOptionsValue = characterShapeOptions;
    this.heightValue = capsule.height;
    this.footOffsetValue = capsule.height / 2;
    return true;
  }

  /** Support along `direction` (usually gravity's): a new object (checkSupportToRef fills one). */
  checkSupport(deltaTime: number, direction: Vector3): CharacterSurfaceInfo {
    const info: CharacterSurfaceInfo = {
      isSurfaceDynamic: false, supportedState: UNSUPPORTED, averageSurfaceNormal: new Vector3(), averageSurfaceVelocity: new Vector3(),
      averageAngularSurfaceVelocity: new Vector3(),
    };
    this.checkSupportToRef(deltaTime, direction, info);
    return info;
  }

  /**
   * Support along `direction` from the planes and the ground the last move
   * ended on (as Babylon reads the contacts its last integrate gathered):
   * SUPPORTED on walkable ground, SLIDING on ground steeper than
   * maxSlopeCosine, else UNSUPPORTED; with the ground's normal, its velocity
   * at the contact now and its angular velocity. When the ground probe found
   * nothing, a plane the last move gathered counts up to keepContactTolerance
   * beyond keepDistance, as Havok's support query counts the contacts of its
   * manifold (at the seam of a ramp the capsule can end a move a centimetre
   * above both surfaces, which the probe calls airborne), unless the
   * character leaves it faster than |direction| (a jump). `deltaTime` is
   * checked and otherwise unused.
   */
  checkSupportToRef(deltaTime: number, direction: Vector3, surfaceInfo: CharacterSurfaceInfo): void {
    this.requireLive('checkSupport');
    // 0 is valid here (Babylon's first frame has scene.deltaTime 0, and a support probe does not move anything)
    if (typeof deltaTime !== 'number' || !(deltaTime >= 0) || !Number.isFinite(deltaTime)) {
      throw new RangeError(`FootingCharacterController.checkSupport: deltaTime must be a finite number ≥ 0 (got ${String(deltaTime)})`);
    }
    requireVector('direction', direction);
    // every field it writes, checked before the first write (a frozen or partial object would be half filled)
    if (surfaceInfo === null || typeof surfaceInfo !== 'object') throw new TypeError(`FootingCharacterController.checkSupportToRef: surfaceInfo must be a CharacterSurfaceInfo (got ${described(surfaceInfo)})`);
    try {
      // the values already there written back: a read-only field throws here (strict mode), before anything changes,
      // without a property descriptor allocated every frame
      surfaceInfo.isSurfaceDynamic = surfaceInfo.isSurfaceDynamic;
      surfaceInfo.supportedState = surfaceInfo.supportedState;
    } catch {
      throw new TypeError('FootingCharacterController.checkSupportToRef: surfaceInfo.isSurfaceDynamic and surfaceInfo.supportedState must be writable (surfaceInfo is frozen or read-only)');
    }
    requireWritableVector('surfaceInfo.averageSurfaceNormal', surfaceInfo.averageSurfaceNormal);
    requireWritableVector('surfaceInfo.averageSurfaceVelocity', surfaceInfo.averageSurfaceVelocity);
    requireWritableVector('surfaceInfo.averageAngularSurfaceVelocity', surfaceInfo.averageAngularSurfaceVelocity);
    this.syncUp();
    const ctl = this.controllerValue;
    const r = ctl.result;
    const up = ctl.up;
    const n = surfaceInfo.averageSurfaceNormal, v = surfaceInfo.averageSurfaceVelocity, w = surfaceInfo.averageAngularSurfaceVelocity;
    n.set(0, 0, 0); v.set(0, 0, 0); w.set(0, 0, 0);
    surfaceInfo.isSurfaceDynamic = false;
    surfaceInfo.supportedState = UNSUPPORTED;
    // not direction.length(): its squares overflow for 1e200 components (a gravity-sized vector scaled up still points down)
    const len = safeLength(direction.x, direction.y, direction.z);
    if (!(len > 1e-12)) return;
    const dx = direction.x / len, dy = direction.y / len, dz = direction.z / len;
    if (-(dx * up.x + dy * up.y + dz * up.z) > 0.999) {
      // along −up: the ground probe of the last move (walkable normals, step edges, snap), else the planes below
      if (r.grounded || r.sliding) {
        this.probeSupport(surfaceInfo);
        return;
      }
    }
    // the planes of the last move within keepContactTolerance that face against `direction`
    const s = ctl.settings, p = ctl.position, vel = this.velocityValue;
    const reach = s.slop + s.gatherDistance;
    let count = 0;
    for (let i = 0; i < r.planeCount; i++) {
      const q = r.planes[i]!;
      if (q.flattened) continue;
      const qn = q.normal;
      if (q.push <= 0 && qn.x * p.x + qn.y * p.y + qn.z * p.z - q.distance > reach) continue;
      if (q.push <= 0 && qn.x * vel.x + qn.y * vel.y + qn.z * vel.z > len) continue;
      if (qn.x * dx + qn.y * dy + qn.z * dz >= SUPPORT_FACING) continue;
      n.x += qn.x; n.y += qn.y; n.z += qn.z;
      if (q.body !== null && !q.body.isStatic) {
        q.body.getPointVelocity(this.pointVel, q.point);
        v.x += this.pointVel.x; v.y += this.pointVel.y; v.z += this.pointVel.z;
        const qa = q.body.angularVelocity;
        w.x += qa.x; w.y += qa.y; w.z += qa.z;
        if (q.body.isDynamic) surfaceInfo.isSurfaceDynamic = true;
      }
      count++;
    }
    if (count === 0) return;
    n.normalize();
    v.scaleInPlace(1 / count);
    w.scaleInPlace(1 / count);
    surfaceInfo.supportedState = -(n.x * dx + n.y * dy + n.z * dz) >= this.maxSlopeCosineValue ? SUPPORTED : SLIDING;
    if (surfaceInfo.supportedState !== SUPPORTED) surfaceInfo.isSurfaceDynamic = false;
  }

  /** Support from the ground probe of the last move (grounded or sliding), with the ground's normal as groundNormalInto gives it. */
  private probeSupport(surfaceInfo: CharacterSurfaceInfo): void {
    const r = this.controllerValue.result;
    surfaceInfo.supportedState = r.grounded ? SUPPORTED : SLIDING;
    const n = this.groundNormal;
    this.groundNormalInto(n);
    surfaceInfo.averageSurfaceNormal.set(n.x, n.y, n.z);
    const body = r.groundBody;
    if (r.grounded && body !== null && !body.isStatic) {
      body.getPointVelocity(this.pointVel, r.groundPoint);
      surfaceInfo.averageSurfaceVelocity.set(this.pointVel.x, this.pointVel.y, this.pointVel.z);
      surfaceInfo.averageAngularSurfaceVelocity.set(body.angularVelocity.x, body.angularVelocity.y, body.angularVelocity.z);
      surfaceInfo.isSurfaceDynamic = body.isDynamic;
    }
  }

  /**
   * The normal of the ground the last move ended on, into `out`; false when
   * it did not end grounded. The flattest of the probe's ground and the
   * walkable planes the move gathered within SEAM_REACH of touching: where
   * flat ground meets a ramp the probe can report the capsule's contact with
   * the edge between them, steeper than either face, and a velocity along it
   * leaves the ramp (calculateMovement keeps most of a normal component from
   * one frame to the next: the character rose centimetres off a 5° ramp).
   */
  private groundNormalInto(out: Vec3): boolean {
    const ctl = this.controllerValue, r = ctl.result;
    const g = r.groundNormal;
    out.x = g.x; out.y = g.y; out.z = g.z;
    if (!r.grounded) return false;
    const up = ctl.up, p = ctl.position;
    let best = g.x * up.x + g.y * up.y + g.z * up.z;
    for (let i = 0; i < r.planeCount; i++) {
      const q = r.planes[i]!, qn = q.normal;
      if (q.flattened) continue;
      const qu = qn.x * up.x + qn.y * up.y + qn.z * up.z;
      if (qu <= best || qu < this.maxSlopeCosineValue) continue;
      if (qn.x * p.x + qn.y * p.y + qn.z * p.z - q.distance > SEAM_REACH) continue;
      best = qu; out.x = qn.x; out.y = qn.y; out.z = qn.z;
    }
    return true;
  }

  /**
   * Moves the character by its velocity over `deltaTime` seconds through the
   * geometry, then removes from the velocity the part pointing into what it
   * touched (kept whole after a step up). `gravity` is not added to the
   * velocity (the game does that, as with Babylon's); it gives the weight of
   * `characterMass` on dynamic bodies below. `surfaceInfo` is checked and
   * otherwise unused (footing's solver gathers its own contacts).
   */
  integrate(deltaTime: number, surfaceInfo: CharacterSurfaceInfo, gravity: Vector3): void {
    this.requireLive('integrate');
    requireDeltaTime('integrate', deltaTime);
    if (surfaceInfo === null || typeof surfaceInfo !== 'object') throw new TypeError('FootingCharacterController.integrate: surfaceInfo must be a CharacterSurfaceInfo (from checkSupport)');
    requireBoundedVector('gravity', gravity, MAX_GRAVITY, 'm/s², MAX_GRAVITY');
    this.stepDt = deltaTime;
    const g = this.stepGravity;
    g.x = gravity.x; g.y = gravity.y; g.z = gravity.z;
    this.step(deltaTime);
  }

  /**
   * Moves by `displacement` through the geometry over the scene's last frame
   * time (scene.deltaTime; nothing happens before the first frame), and sets
   * the velocity to the displacement over that time, clipped.
   */
  moveWithCollisions(displacement: Vector3): void {
    this.requireLive('moveWithCollisions');
    requireVector('displacement', displacement);
    const ms = this.scene.deltaTime;
    if (ms === undefined || !(ms > 0) || !Number.isFinite(ms)) return;
    const dt = ms / 1000;
    const vx = displacement.x / dt, vy = displacement.y / dt, vz = displacement.z / dt;
    // checked before the velocity is set: a displacement of 1e307 over a millisecond would leave it infinite
    if (!(Math.abs(vx) <= MAX_LINEAR_SPEED && Math.abs(vy) <= MAX_LINEAR_SPEED && Math.abs(vz) <= MAX_LINEAR_SPEED)) {
      throw new RangeError(`FootingCharacterController.moveWithCollisions: displacement (${displacement.x}, ${displacement.y}, ${displacement.z}) over the frame's ${dt} s is faster than ${MAX_LINEAR_SPEED} m/s (MAX_LINEAR_SPEED)`);
    }
    if (!(Math.abs(displacement.x) <= MAX_POSITION && Math.abs(displacement.y) <= MAX_POSITION && Math.abs(displacement.z) <= MAX_POSITION)) {
      throw new RangeError(`FootingCharacterController.moveWithCollisions: displacement must be within ±${MAX_POSITION} m (MAX_POSITION; got (${displacement.x}, ${displacement.y}, ${displacement.z}))`);
    }
    this.checkPositionView();
    this.velocityValue.set(vx, vy, vz);
    this.stepDt = dt;
    const g = this.stepGravity;
    g.x = 0; g.y = 0; g.z = 0;
    this.step(dt);
  }

  /** Babylon's helper: see surfaceMovement (surface-movement.ts). Returns false (result untouched) when forward is parallel to up. */
  calculateMovementToRef(
    deltaTime: number, forwardWorld: Vector3, surfaceNormal: Vector3, currentVelocity: Vector3, surfaceVelocity: Vector3,
    desiredVelocity: Vector3, upWorld: Vector3, result: Vector3,
  ): boolean {
    requireDeltaTime('calculateMovement', deltaTime);
    const b = MAX_MOVEMENT_COMPONENT, what = 'MAX_MOVEMENT_COMPONENT';
    requireBoundedVector('forwardWorld', forwardWorld, b, what);
    requireBoundedVector('surfaceNormal', surfaceNormal, b, what);
    requireBoundedVector('currentVelocity', currentVelocity, b, what);
    requireBoundedVector('surfaceVelocity', surfaceVelocity, b, what);
    requireBoundedVector('desiredVelocity', desiredVelocity, b, what);
    requireBoundedVector('upWorld', upWorld, b, what);
    requireWritableVector('result', result);
    this.movementDt = deltaTime;
    return surfaceMovement(this, forwardWorld, surfaceNormal, currentVelocity, surfaceVelocity, desiredVelocity, upWorld, result);
  }

  /** calculateMovementToRef into a new vector (zero when forward is parallel to up). */
  calculateMovement(
    deltaTime: number, forwardWorld: Vector3, surfaceNormal: Vector3, currentVelocity: Vector3, surfaceVelocity: Vector3,
    desiredVelocity: Vector3, upWorld: Vector3,
  ): Vector3 {
    const result = new Vector3(0, 0, 0);
    this.calculateMovementToRef(deltaTime, forwardWorld, surfaceNormal, currentVelocity, surfaceVelocity, desiredVelocity, upWorld, result);
    return result;
  }

  /** Removes the character's body from the world and the observers. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controllerValue.dispose();
    this.onTriggerCollisionObservable.clear();
  }

  // ------------------------------------------------------------------ internals

  /** One move by velocity·dt, the velocity clipped after it, then the pushes. `dt` is the caller's own number, handed on unboxed. */
  private step(dt: number): void {
    const vel = this.velocityValue;
    // the checks of a move, before anything changes, inline: doubles handed to a call that is not inlined get boxed every frame
    const vx = vel.x, vy = vel.y, vz = vel.z;
    if (!(Math.abs(vx) <= MAX_LINEAR_SPEED && Math.abs(vy) <= MAX_LINEAR_SPEED && Math.abs(vz) <= MAX_LINEAR_SPEED)) this.badVelocity();
    this.checkPositionView();
    if (!(Math.abs(vx * dt) <= MAX_POSITION && Math.abs(vy * dt) <= MAX_POSITION && Math.abs(vz * dt) <= MAX_POSITION)) this.badReach();
    this.syncUp();
    const ctl = this.controllerValue;
    const pos = this.positionValue;
    // getPosition() hands out the vector itself: honour a write to it as a teleport (checked by checkPositionView)
    if (pos.x !== ctl.position.x || pos.y !== ctl.position.y || pos.z !== ctl.position.z) this.setPosition(pos);
    const inVel = this.inVel;
    inVel.x = vel.x; inVel.y = vel.y; inVel.z = vel.z;
    const d = this.disp;
    d.x = vel.x * dt; d.y = vel.y * dt; d.z = vel.z * dt;
    this.startGrounded = this.groundNormalInto(this.startGroundNormal) ? 1 : 0;
    const r = ctl.move(d, dt);
    pos.set(r.position.x, r.position.y, r.position.z);
    if (!r.steppedUp) this.clipVelocity();
    this.pushBodies();
  }

  /** Throws after dispose(). */
  private requireLive(where: string): void {
    if (this.disposed) throw new Error(`FootingCharacterController.${where}: used after dispose()`);
  }

  /** A velocity (the vector getVelocity() hands out, which may have been written) that a move cannot take. */
  private badVelocity(): never {
    const v = this.velocityValue;
    throw new RangeError(`FootingCharacterController: velocity (the vector getVelocity() returns) must be finite, each component within ±${MAX_LINEAR_SPEED} m/s (MAX_LINEAR_SPEED; got (${v.x}, ${v.y}, ${v.z})); setVelocity sets it`);
  }

  private badReach(): never {
    const v = this.velocityValue;
    throw new RangeError(`FootingCharacterController: velocity × deltaTime must be within ±${MAX_POSITION} m per move (MAX_POSITION; velocity (${v.x}, ${v.y}, ${v.z}), deltaTime ${this.stepDt})`);
  }

  /**
   * The vector getPosition() hands out may have been written: a finite write
   * is a teleport (step), a bad one is undone (put back to the controller's
   * position) and named, before anything changes.
   */
  private checkPositionView(): void {
    const pos = this.positionValue;
    if (Math.abs(pos.x) <= MAX_POSITION && Math.abs(pos.y) <= MAX_POSITION && Math.abs(pos.z) <= MAX_POSITION) return;
    const p = this.controllerValue.position;
    const x = pos.x, y = pos.y, z = pos.z;
    pos.set(p.x, p.y, p.z);
    throw new RangeError(`FootingCharacterController: position (the vector getPosition() returns) was set to (${x}, ${y}, ${z}); it must be finite, each component within ±${MAX_POSITION} m (MAX_POSITION); it is back at (${p.x}, ${p.y}, ${p.z})`);
  }

  /**
   * The velocity after a move: without the part into the planes it touched
   * (footing's clipVelocity), then Babylon's frictions: it stops when the
   * removed part is at least 1/√(1+μs²) of it, and dynamicFriction < 1 gives
   * back a share of the speed lost along the surface.
   */
  private clipVelocity(): void {
    const vel = this.velocityValue;
    const c = this.clip;
    c.x = vel.x; c.y = vel.y; c.z = vel.z;
    this.controllerValue.clipVelocity(c);
    const v02 = vel.x * vel.x + vel.y * vel.y + vel.z * vel.z;
    const v12 = c.x * c.x + c.y * c.y + c.z * c.z;
    const removed2 = Math.max(0, v02 - v12);
    if (removed2 > 0) {
      const fs = this.staticFrictionValue;
      if (fs > 0 && removed2 * (1 + fs * fs) >= v02) {
        c.x = 0; c.y = 0; c.z = 0;
      } else {
        const fd = this.dynamicFrictionValue;
        if (fd < 1 && v12 >= 1e-5 && v12 > 1e-4 * v02) {
          const k = fd + (1 - fd) * Math.sqrt(v02 / v12);
          c.x *= k; c.y *= k; c.z *= k;
        }
      }
    }
    // The clip may not make a grounded character leave its ground faster than
    // the velocity asked to, neither the ground it started on nor the one it
    // ended on. Clipped against the edge where flat ground meets a ramp, the
    // velocity turns steeper than the ramp; calculateMovement keeps most of a
    // normal component from one frame to the next, and the character would
    // rise off the ramp by centimetres within a few frames, out of the
    // ground probe's reach.
    if (this.startGrounded === 1) this.keepOnGround(c, this.startGroundNormal);
    if (this.groundNormalInto(this.groundNormal)) this.keepOnGround(c, this.groundNormal);
    vel.set(c.x, c.y, c.z);
  }

  /**
   * Turns `c` so that it leaves the ground of normal `n` no faster than the
   * asked velocity (inVel) did, keeping its speed: the clip against an edge
   * at the foot of a ramp lifts the velocity, which then runs along the
   * ground instead (removing the lift alone would brake the character).
   */
  private keepOnGround(c: Vec3, n: Readonly<Vec3>): void {
    const inVel = this.inVel;
    const leave = c.x * n.x + c.y * n.y + c.z * n.z;
    const asked = Math.max(0, inVel.x * n.x + inVel.y * n.y + inVel.z * n.z);
    if (!(leave > asked)) return;
    const speed2 = c.x * c.x + c.y * c.y + c.z * c.z;
    const k = leave - asked;
    c.x -= k * n.x; c.y -= k * n.y; c.z -= k * n.z;
    const l2 = c.x * c.x + c.y * c.y + c.z * c.z;
    if (!(l2 > 1e-12)) return;
    const scale = Math.sqrt(speed2 / l2);
    c.x *= scale; c.y *= scale; c.z *= scale;
  }

  /**
   * Babylon's push on each touching dynamic body: the impulse that removes
   * PUSH_DAMPING of the approach speed u = (v_char − v_body(point)) · (−n)
   * along the plane normal n, plus PUSH_RECOVERY of a penetration per second,
   *   J = −Δv / (1/m + (r × n) · I⁻¹ (r × n)),  |J| ≤ characterStrength · dt,
   * and the weight characterMass · (g · n) dt where gravity presses into it.
   */
  private pushBodies(): void {
    const dt = this.stepDt;
    const gx = this.stepGravity.x, gy = this.stepGravity.y, gz = this.stepGravity.z;
    const ctl = this.controllerValue;
    const r = ctl.result;
    const s = ctl.settings;
    const p = ctl.position;
    const vel = this.inVel;
    const maxImpulse = this.strength * dt;
    for (let i = 0; i < r.planeCount; i++) {
      const q = r.planes[i]!;
      const body = q.body;
      if (body === null || !body.isDynamic || q.flattened) continue;
      const n = q.normal;
      const separation = n.x * p.x + n.y * p.y + n.z * p.z - q.distance;
      if (q.push <= 0 && separation > s.slop) continue;
      const pv = body.getPointVelocity(this.pointVel, q.point);
      const approach = (pv.x - vel.x) * n.x + (pv.y - vel.y) * n.y + (pv.z - vel.z) * n.z;
      let dv = -approach * PUSH_DAMPING;
      const gap = separation + s.skinWidth;
      if (gap < 0) dv += gap * PUSH_RECOVERY / dt;
      let j = 0;
      if (dv < 0) {
        // 1/m + (r × n)ᵀ I⁻¹ (r × n), with the world inverse inertia (exact for any inertia frame)
        const rx = q.point.x - body.position.x, ry = q.point.y - body.position.y, rz = q.point.z - body.position.z;
        const ax = ry * n.z - rz * n.y, ay = rz * n.x - rx * n.z, az = rx * n.y - ry * n.x;
        const I = body.inverseInertiaWorld;
        const invMass = body.inverseMass + ax * (I.m00 * ax + I.m01 * ay + I.m02 * az) + ay * (I.m10 * ax + I.m11 * ay + I.m12 * az) + az * (I.m20 * ax + I.m21 * ay + I.m22 * az);
        if (invMass > 0) j = Math.max(dv / invMass, -maxImpulse);
      }
      let weight = (gx * n.x + gy * n.y + gz * n.z) * dt;
      if (approach < 0) weight -= approach;
      if (weight < -1e-12) j += this.mass * weight;
      const e = this.event;
      e.collider = this.host?.getPhysicsBody?.(body) ?? null;
      e.colliderIndex = 0;
      e.body = body;
      e.impulse.set(n.x * j, n.y * j, n.z * j);
      e.impulsePosition.set(q.point.x, q.point.y, q.point.z);
      if (this.onTriggerCollisionObservable.hasObservers()) this.onTriggerCollisionObservable.notifyObservers(e);
      if (j !== 0) {
        const imp = this.impulse;
        imp.x = e.impulse.x; imp.y = e.impulse.y; imp.z = e.impulse.z;
        body.applyImpulseClamped(imp, q.point);
      }
    }
  }

  /** Rebuilds the footing controller when `up` was given a new direction. */
  private syncUp(): void {
    const u = this.upValue;
    requireVector('up', u);
    const l = safeLength(u.x, u.y, u.z);
    if (!(l > 0)) throw new RangeError(`FootingCharacterController: up must be a non-zero vector (got (${u.x}, ${u.y}, ${u.z}))`);
    const cu = this.controllerValue.up;
    if (Math.abs(u.x / l - cu.x) < 1e-9 && Math.abs(u.y / l - cu.y) < 1e-9 && Math.abs(u.z / l - cu.z) < 1e-9) return;
    const old = this.controllerValue;
    const p = old.position;
    this.controllerValue = this.rebuild(old.radius, old.halfHeight, p.x, p.y, p.z);
    old.dispose();
  }

  /** A new footing controller with the current settings, capsule and up, at (x, y, z); the old one is left to the caller. */
  private rebuild(radius: number, halfHeight: number, x: number, y: number, z: number): CharacterController {
    const old = this.controllerValue;
    const u = this.upValue;
    const l = safeLength(u.x, u.y, u.z);
    return new CharacterController(this.world, {
      ...old.settings, radius, halfHeight, position: { x, y, z }, collisionGroup: this.collisionGroup,
      up: { x: u.x / l, y: u.y / l, z: u.z / l },
    });
  }

  /** The controller's capsule overlaps geometry (by more than 0.1 mm) where it stands. */
  private overlaps(c: CharacterController): boolean {
    const contacts = this.world.overlap(c.capsule, c.position, c.rotation, { exclude: c.body, collisionMask: c.settings.collisionMask });
    for (let i = 0; i < contacts.length; i++) if (contacts[i]!.depth > 1e-4 && contacts[i]!.body !== this.controllerValue.body) return true;
    return false;
  }
}
