/**
 * The state a CharacterController shares with the stages of its move
 * (gather.ts, sweep.ts, stairs.ts, ground.ts, push.ts, platform.ts): the
 * capsule, the live settings, the result, the query options and the scratch
 * vectors. One per controller; each stage function takes it first.
 */
import {
  type Capsule, OverlapCollector, QueryRegion, type Quat, type RigidBody, type ShapeCastHit, type RaycastHit, type Vec3, type World,
  type OverlapOptions, type ShapeCastOptions, type RaycastOptions,
} from '../src/index';
import { CharacterPlane, type SlopeLimit } from './plane-solver';
import { PlaneSet } from './plane-set';
import type { CharacterSettings } from './settings';
import type { MoveResult } from './move-result';

/**
 * The controllers that exist: a body whose userData is one of them is another
 * character (a soft plane). A registry rather than `instanceof`, so that the
 * stages do not import the controller.
 */
const characters = new WeakSet<object>();

/** Records `owner` as a character controller (see isSoft). */
export function registerCharacter(owner: object): void {
  characters.add(owner);
}

/** Dynamic bodies and other characters give way (a finite push limit); everything else is hard. */
export function isSoft(body: RigidBody): boolean {
  return body.isDynamic || characters.has(body.userData as object);
}

export class MoveContext {
  readonly world: World;
  readonly settings: CharacterSettings;
  readonly up: Readonly<Vec3>;
  readonly rotation: Readonly<Quat>;
  readonly result: MoveResult;
  radius: number;
  halfHeight: number;
  shape: Capsule;
  /** The capsule inflated by gatherInflation = skin + slop + gather distance (−1 until the settings are validated). */
  gatherShape: Capsule;
  gatherInflation = -1;
  /** Capsule centre. */
  readonly pos: Vec3 = { x: 0, y: 0, z: 0 };
  /** cos(maxSlopeDegrees), refreshed when the settings change; handed to clipVector. */
  readonly slope: SlopeLimit = { cosMaxSlope: Math.cos(Math.PI / 4) };
  /** Push limit of soft planes (dynamic bodies, other characters) and the time step, of the move in progress. */
  softLimit = 0;
  stepDt = 1 / 60;
  /**
   * The plane being added: callers fill its normal, distance, pushLimit, body
   * and point, then call addPlane (an object, not double arguments:
   * CONTRIBUTING.md, hot path). `flatPlane` is addPlane's own for the
   * flattened copy.
   */
  readonly newPlane = new CharacterPlane();
  readonly flatPlane = new CharacterPlane();
  /** The main plane set, and the one of penetration recovery and of the step-up's raised move. */
  readonly setA = new PlaneSet();
  readonly setB = new PlaneSet();
  readonly collector = new OverlapCollector();
  readonly overlapOptions: OverlapOptions;
  /** Candidate bodies of the move in progress (see World.fillQueryRegion). */
  readonly region = new QueryRegion();
  readonly regionBox = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  readonly castOptions: ShapeCastOptions;
  readonly rayOptions: RaycastOptions;
  readonly castHit: ShapeCastHit;
  readonly rayHit: RaycastHit;
  // scratch (each used by one stage at a time)
  readonly start: Vec3 = { x: 0, y: 0, z: 0 };
  readonly target: Vec3 = { x: 0, y: 0, z: 0 };
  readonly solvePoint: Vec3 = { x: 0, y: 0, z: 0 };
  readonly prevSolve: Vec3 = { x: 0, y: 0, z: 0 };
  readonly delta: Vec3 = { x: 0, y: 0, z: 0 };
  readonly safe: Vec3 = { x: 0, y: 0, z: 0 };
  readonly moved: Vec3 = { x: 0, y: 0, z: 0 };
  readonly stepPos: Vec3 = { x: 0, y: 0, z: 0 };
  readonly stepMoved: Vec3 = { x: 0, y: 0, z: 0 };
  readonly stepDisp: Vec3 = { x: 0, y: 0, z: 0 };
  readonly horizontal: Vec3 = { x: 0, y: 0, z: 0 };
  readonly castDir: Vec3 = { x: 0, y: 0, z: 0 };
  readonly probeFrom: Vec3 = { x: 0, y: 0, z: 0 };
  readonly probeTo: Vec3 = { x: 0, y: 0, z: 0 };
  readonly impulse: Vec3 = { x: 0, y: 0, z: 0 };
  readonly pointVel: Vec3 = { x: 0, y: 0, z: 0 };
  readonly carryLocal: Vec3 = { x: 0, y: 0, z: 0 };
  /** Turn of the ground body about `up` during the last followGround, radians (right-handed). */
  groundTurn = 0;
  /** The non-static body the last move ended grounded on, and its pose at that moment (see platform.ts). */
  carrier: RigidBody | null = null;
  readonly carrierPosition: Vec3 = { x: 0, y: 0, z: 0 };
  readonly carrierRotation: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly carryTurn: Quat = { x: 0, y: 0, z: 0, w: 1 };
  readonly carryOptions: ShapeCastOptions;

  constructor(
    world: World, settings: CharacterSettings, up: Readonly<Vec3>, rotation: Readonly<Quat>, result: MoveResult,
    shape: Capsule, collisionGroup: number,
  ) {
    this.world = world;
    this.settings = settings;
    this.up = up;
    this.rotation = rotation;
    this.result = result;
    this.radius = shape.radius;
    this.halfHeight = shape.halfHeight;
    this.shape = shape;
    this.gatherShape = shape;
    const mask = settings.collisionMask;
    this.overlapOptions = { collisionGroup, collisionMask: mask, exclude: null, collector: this.collector, region: this.region };
    this.castHit = { fraction: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, body: null as unknown as RigidBody, triangle: -1 };
    this.rayHit = { body: null as unknown as RigidBody, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 }, distance: 0, fraction: 0, triangle: -1 };
    this.castOptions = { collisionGroup, collisionMask: mask, exclude: null, out: this.castHit, region: this.region };
    this.rayOptions = { collisionGroup, collisionMask: mask, exclude: null, out: this.rayHit, region: this.region };
    // The carry sweep ignores the body that carries: the character starts
    // inside a lift that rose during the step (see platform.ts).
    this.carryOptions = { collisionGroup, collisionMask: mask, exclude: null, out: this.castHit, filter: (b) => b !== this.carrier };
  }

  /** The collision mask of the settings, and the character's own body excluded, in every query's options. */
  syncQueryOptions(body: RigidBody | null): void {
    const mask = this.settings.collisionMask;
    this.overlapOptions.collisionMask = mask;
    this.overlapOptions.exclude = body;
    this.castOptions.collisionMask = mask;
    this.castOptions.exclude = body;
    this.rayOptions.collisionMask = mask;
    this.rayOptions.exclude = body;
    this.carryOptions.collisionMask = mask;
    this.carryOptions.exclude = body;
  }

  /** The plane set holding the result's planes. */
  resultSet(): PlaneSet {
    return this.result.planes === this.setA.planes ? this.setA : this.setB;
  }

  countIterations(it: number): void {
    const r = this.result;
    r.iterations += it;
    if (it > r.maxSolveIterations) r.maxSolveIterations = it;
  }

  recordSolvePoint(p: Readonly<Vec3>): void {
    const r = this.result;
    if (r.solvePointCount >= r.solvePoints.length) return;
    const q = r.solvePoints[r.solvePointCount++]!;
    q.x = p.x; q.y = p.y; q.z = p.z;
  }
}
