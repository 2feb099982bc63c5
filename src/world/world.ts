/**
 * The World: the public facade. It owns the bodies, joints and steppers,
 * the settings and the event subscriptions, and runs the step as a list of
 * stages, each in its own module:
 *
 *   prepareKinematicTargets           dynamics/integrate.ts (kinematic targets → velocities)
 *   refitStaleProxies                 dynamics/integrate.ts (fat boxes of bodies moved between steps)
 *   contacts.findNewContacts          dynamics/contact-manager.ts (new pairs, sorted by body ids)
 *   per step part (dynamics/step-split.ts):
 *     contacts.update                 narrowphase, warm-start matching (dynamics/warm-start.ts), events
 *     solver.solve                    dynamics/solver.ts: integrate, contact and joint sweeps,
 *                                     shock propagation, NGS, write-back
 *     islands.update                  world/islands.ts: islands and sleep
 *     steppers                        e.g. Verlet particle systems
 *   events.dispatch                   world/event-queue.ts: events, deferred removals
 *
 * Queries are in world/queries.ts, snapshot/restore in world/world-snapshot.ts,
 * settings validation in world/settings.ts, the public view of the internals
 * in world/counters.ts and world/debug-draw.ts (docs/world.md). The layers below (dynamics/,
 * collision/, joints/) never import world/.
 */
import { aabb, type Aabb } from '../collision/aabb';
import { BroadPhase } from '../collision/broadphase/broadphase';
import { RigidBody, validate, type BodyDesc, type BodyOwner } from '../dynamics/body';
import type { Contact } from '../dynamics/contact';
import { ContactManager, PAIR_KEY_SCALE } from '../dynamics/contact-manager';
import { FAT_MARGIN, motionBound, prepareKinematicTargets, refitStaleProxies } from '../dynamics/integrate';
import { StepSolver } from '../dynamics/solver';
import { StepContext } from '../dynamics/step-context';
import { MAX_STEP_PARTS, stepParts } from '../dynamics/step-split';
import { attachJoint, detachJoint, isJoint, type Joint } from '../joints/joint';
import { defaultJointSolverSettings, type JointSolver, type JointSolverSettings } from '../joints/joint-solver';
import * as quat from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { MAX_TIME_STEP, requireInteger, requireKnownKeys } from '../math/validate';
import type { ConvexShape } from '../shapes/shape';
import { STAGE_BROADPHASE, STAGE_EVENTS, STAGE_ISLANDS, STAGE_NARROWPHASE, STAGE_SOLVER, STAGE_STEPPERS, StageTimer, WorldCounters } from './counters';
import { DebugDrawer, type DebugDrawSink } from './debug-draw';
import { EventQueue } from './event-queue';
import type { WorldEventMap, WorldEventName, WorldListener } from './events';
import { Islands, wakeIsland } from './islands';
import {
  OverlapCollector, QueryRegion, SceneQueries, type OverlapContact, type OverlapOptions, type QueryOptions, type RaycastHit, type RaycastOptions,
  type ShapeCastHit, type ShapeCastOptions,
} from './queries';
import { applyFilterChanges, removeBodyNow, removeJointedContacts } from './removals';
import { checkBodyStates, checkSnapshotState } from './body-state-check';
import { checkTimeStep, checkWorldSettings, defaultSleepSettings, defaultSolverSettings, type SleepSettings, type SolverSettings } from './settings';
import type { StepperSnapshot, WorldSnapshot } from './snapshot';
import { restoreSnapshot, takeSnapshot, type SnapshotHost } from './world-snapshot';

export interface WorldOptions {
  /** m/s². Default (0, −9.81, 0). */
  gravity?: Readonly<Vec3>;
  /** Initial solver settings (see {@link SolverSettings} for the defaults). */
  solverSettings?: Partial<SolverSettings>;
  /** @deprecated The old name of `solverSettings` (applied first when both are given). */
  solver?: Partial<SolverSettings>;
  /** Initial sleep settings (see {@link SleepSettings}). */
  sleeping?: Partial<SleepSettings>;
  /** Step used by `advance`, seconds, in (0, MAX_TIME_STEP = 0.05]. Default 1/60. */
  fixedTimeStep?: number;
  /** Most fixed steps one `advance` call takes, integer in [1, 1000]; the rest of the time is dropped. Default 4. */
  maxStepsPerAdvance?: number;
  /** @deprecated The old name of `maxStepsPerAdvance` (not the solver's `subSteps`); used when that is not given. */
  maxSubSteps?: number;
}

/** Every option of WorldOptions (the constructor refuses others by name). */
const WORLD_OPTION_KEYS: readonly string[] = ['gravity', 'solverSettings', 'solver', 'sleeping', 'fixedTimeStep', 'maxStepsPerAdvance', 'maxSubSteps'];

/**
 * How many moves ahead the fat box of a body moved by setPosition reaches
 * (Box2D v2's AABB multiplier is 4 for the same reason).
 */
const POSE_PREDICTION = 4;

// Structurally a BodyOwner and a SnapshotHost, checked below (not declared: the published types leave out their internal members).
export class World {
  private readonly solverSettingsValue: SolverSettings;
  private readonly sleepingValue: SleepSettings;
  private readonly gravityValue: Vec3;
  /** Live solver settings, checked and read at the start of every step. Assigning an object copies its fields in (checked at once; unknown names refused). */
  get solverSettings(): SolverSettings { return this.solverSettingsValue; }
  set solverSettings(v: Partial<SolverSettings>) { this.assignSettings('solverSettings', this.solverSettingsValue, v); }
  /** Live sleep settings, checked at the start of every step. Assigning an object copies its fields in (checked at once; unknown names refused). */
  get sleeping(): SleepSettings { return this.sleepingValue; }
  set sleeping(v: Partial<SleepSettings>) { this.assignSettings('sleeping', this.sleepingValue, v); }
  /** m/s², live; checked at the start of every step (a non-finite component throws there, before anything moves). Assigning a vector copies it in, checked at once. */
  get gravity(): Vec3 { return this.gravityValue; }
  set gravity(g: Readonly<Vec3>) {
    if (typeof g !== 'object' || g === null) throw new TypeError(`world.gravity must be a vector {x, y, z} (got ${String(g)})`);
    checkWorldSettings(g, this.sleepingValue, this.jointSolverSettings, this.solverSettingsValue, []);
    this.gravityValue.x = g.x; this.gravityValue.y = g.y; this.gravityValue.z = g.z;
  }
  // null until the constructor sets it, so that V8 keeps the field tagged and
  // advance hands one heap number to every step(h) (a double field is boxed
  // anew on each read passed to a call; CONTRIBUTING.md, hot path).
  private fixedTimeStepValue: number | null = null;
  private maxStepsValue = 4;
  /** @internal */ droppedTimeValue = 0;
  /** @internal */ stepCountValue = 0;

  /** @internal */ readonly bodyList: RigidBody[] = [];
  /** @internal */ readonly bodyById = new Map<number, RigidBody>();
  /** @internal */ nextBodyId = 0;
  /** @internal fat boxes reach FAT_MARGIN beyond the shapes */ readonly broadphase = new BroadPhase(FAT_MARGIN);
  /** @internal */ readonly jointList: Joint[] = [];
  /** @internal Replaced, never mutated in place, so that a step running over it is not disturbed by add/removeStepper. */
  steppers: WorldStepper[] = [];
  /** @internal */ accumulator = 0;
  private stepping = false;
  private readonly ctx: StepContext;
  private readonly events: EventQueue;
  /** @internal */ readonly contactManager: ContactManager;
  /** @internal */ readonly queries: SceneQueries;
  /** Made from the first joint added (Joint.newSolver): a world without joints carries no joint solver. */
  private jointSolver: JointSolver | null = null;
  private readonly jointSolverSettings: JointSolverSettings = defaultJointSolverSettings();
  private readonly stepSolver: StepSolver<Joint>;
  private readonly islands = new Islands();
  private readonly counterValues = new WorldCounters();
  private readonly timer = new StageTimer();
  private readonly drawer = new DebugDrawer();
  private lastStepParts = 0;
  private readonly box = aabb();
  private readonly displacement: Vec3 = { x: 0, y: 0, z: 0 };

  constructor(options: WorldOptions = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`World: options must be an object (got ${String(options)})`);
    requireKnownKeys(options, WORLD_OPTION_KEYS, 'World');
    const solverDefaults = defaultSolverSettings(), sleepDefaults = defaultSleepSettings();
    for (const [name, given, defaults] of [['solverSettings', options.solverSettings, solverDefaults], ['solver', options.solver, solverDefaults], ['sleeping', options.sleeping, sleepDefaults]] as const) {
      if (given === undefined) continue;
      if (given === null || typeof given !== 'object') throw new TypeError(`World: ${name} must be an object (got ${String(given)})`);
      requireKnownKeys(given, Object.keys(defaults), `World ${name}`);
    }
    const g = options.gravity ?? { x: 0, y: -9.81, z: 0 };
    validate.requireFiniteVec(g, 'gravity');
    this.gravityValue = { x: g.x, y: g.y, z: g.z };
    this.solverSettingsValue = { ...solverDefaults, ...(options.solver ?? {}), ...(options.solverSettings ?? {}) };
    this.sleepingValue = { ...sleepDefaults, ...(options.sleeping ?? {}) };
    this.fixedTimeStep = options.fixedTimeStep ?? 1 / 60;
    if (options.maxStepsPerAdvance !== undefined && options.maxSubSteps !== undefined && options.maxStepsPerAdvance !== options.maxSubSteps) {
      throw new RangeError(`World: maxStepsPerAdvance (${String(options.maxStepsPerAdvance)}) and its old name maxSubSteps (${String(options.maxSubSteps)}) disagree; give one`);
    }
    if (options.maxStepsPerAdvance !== undefined) this.maxStepsPerAdvance = options.maxStepsPerAdvance;
    else this.maxSubSteps = options.maxSubSteps ?? 4;
    this.ctx = new StepContext(this.solverSettings, this.gravity);
    this.events = new EventQueue(this.jointList, this);
    this.contactManager = new ContactManager(this.broadphase, this.bodyList, this.bodyById, this, this.events);
    this.queries = new SceneQueries(this.broadphase, this.bodyById);
    this.stepSolver = new StepSolver(this.ctx, this.bodyList, this.contactManager, this.jointList, this.broadphase, this.events, this.bodyById);
    this.checkSettings();
  }

  /** Time `advance` dropped on its last call because of maxStepsPerAdvance (s). */
  get droppedTime(): number { return this.droppedTimeValue; }

  /** Steps taken so far, back to 0 after Number.MAX_SAFE_INTEGER. Writable (an integer ≥ 0), e.g. to number a replay from zero. */
  get stepCount(): number { return this.stepCountValue; }
  set stepCount(v: number) {
    requireInteger(v, 0, Number.MAX_SAFE_INTEGER, 'world.stepCount');
    this.stepCountValue = v;
  }

  /** Step used by `advance`, seconds, in (0, MAX_TIME_STEP]. */
  get fixedTimeStep(): number { return this.fixedTimeStepValue!; }
  set fixedTimeStep(h: number) {
    checkTimeStep(h, 'fixedTimeStep');
    this.fixedTimeStepValue = h;
  }

  /** @deprecated The old name of `solverSettings`, kept so that existing code runs. */
  get solver(): SolverSettings { return this.solverSettings; }

  /** Most fixed steps per `advance` call, integer in [1, 1000] (the solver's sub-steps are `solverSettings.subSteps`). */
  get maxStepsPerAdvance(): number { return this.maxStepsValue; }
  set maxStepsPerAdvance(n: number) {
    requireInteger(n, 1, 1000, 'maxStepsPerAdvance');
    this.maxStepsValue = n;
  }

  /** @deprecated The old name of `maxStepsPerAdvance`; errors name the field as written. */
  get maxSubSteps(): number { return this.maxStepsValue; }
  set maxSubSteps(n: number) {
    requireInteger(n, 1, 1000, 'maxSubSteps');
    this.maxStepsValue = n;
  }

  /** All bodies, in creation order modulo removals. Do not modify. */
  get bodies(): readonly RigidBody[] {
    return this.bodyList;
  }

  /** Number of live contacts (pairs whose fat boxes overlap). */
  get contactCount(): number {
    return this.contactManager.list.length;
  }

  /** @internal The live contacts (pairs whose fat boxes overlap); use `debugDraw` or `counters` instead. */
  get contacts(): readonly Contact[] {
    return this.contactManager.list;
  }

  /**
   * What the last step did: pairs, touching contacts, manifolds reused,
   * narrowphase runs and skips, islands, awake bodies, solver rows, step
   * parts, and per-stage times when `measureStages` is on. One object,
   * refreshed when read: copy what you keep.
   */
  get counters(): Readonly<WorldCounters> {
    const c = this.counterValues, m = this.contactManager;
    const list = m.list;
    let touching = 0;
    for (let i = 0; i < list.length; i++) if (list[i]!.touching) touching++;
    let awake = 0;
    for (let i = 0; i < this.bodyList.length; i++) {
      const b = this.bodyList[i]!;
      if (b.isDynamic && b.awake) awake++;
    }
    c.pairs = list.length;
    c.touchingContacts = touching;
    c.manifoldsReused = m.manifoldsReused;
    c.narrowphaseRuns = m.narrowphaseRuns;
    c.narrowphaseSkipped = m.pairsExamined - m.manifoldsReused - m.narrowphaseRuns;
    c.islands = this.islands.count;
    c.awakeBodies = awake;
    c.solverRows = this.stepSolver.contacts.count;
    c.solverJoints = this.jointSolver === null ? 0 : this.jointSolver.activeCount;
    c.stepParts = this.lastStepParts;
    this.timer.copyTo(c.stageMs);
    return c;
  }

  /**
   * Whether each step times its stages into `counters.stageMs` (a boolean,
   * default false; two clock reads per stage when on).
   */
  get measureStages(): boolean { return this.timer.on; }
  set measureStages(on: boolean) {
    if (typeof on !== 'boolean') throw new TypeError(`measureStages must be a boolean (got ${String(on)})`);
    this.timer.on = on;
    this.timer.ms.fill(0);
  }

  /**
   * Reports the contacts, their points and the joints' anchors to `sink`
   * (see DebugDrawSink), for debug views. The view objects are reused from
   * call to call; the sink must not change the world.
   */
  debugDraw(sink: DebugDrawSink): void {
    this.drawer.draw(this.contactManager.list, this.jointList, sink);
  }

  getBodyById(id: number): RigidBody | undefined {
    return this.bodyById.get(id);
  }

  /** Creates a body; throws a TypeError/RangeError naming the bad field. */
  createBody(desc: BodyDesc): RigidBody {
    this.refuseInQuery('createBody');
    if (this.nextBodyId >= PAIR_KEY_SCALE) throw new RangeError('createBody: too many bodies created in this world');
    // Everything that can throw runs before the body is inserted anywhere.
    const body = new RigidBody(this.nextBodyId, desc);
    const box = body.shape.computeAabb(this.box, body.position, body.rotation);
    if (!(box.min.x - box.min.x === 0 && box.min.y - box.min.y === 0 && box.min.z - box.min.z === 0 && box.max.x - box.max.x === 0 && box.max.y - box.max.y === 0 && box.max.z - box.max.z === 0)) {
      throw new RangeError('createBody: the shape at this position has non-finite bounds (position too far from the origin for the shape)');
    }
    this.nextBodyId++;
    this.queries.version++;
    body.owner = this;
    body.index = this.bodyList.length;
    this.bodyList.push(body);
    this.bodyById.set(body.id, body);
    body.proxy = this.broadphase.createProxy(this.box, body.id, body.typeCode);
    return body;
  }

  /**
   * Removes a body, its joints and its contacts, and wakes what it touched.
   * Inside a step (a stepper) or an event listener the removal is deferred
   * to the end of the step's event delivery.
   *
   * Each contact the body was touching ends with a `contactEnd` (or
   * `sensorExit`) event. Events are never delivered from inside this call:
   * they are queued, and delivered with the next step's events (before
   * them); a removal deferred from a listener or a stepper delivers them
   * in the same delivery, after the events already queued.
   */
  removeBody(body: RigidBody): void {
    this.refuseInQuery('removeBody');
    if (!(body instanceof RigidBody)) throw new TypeError('removeBody: body must be a RigidBody');
    if (body.owner !== this) {
      throw new Error(body.owner === null ? `removeBody: body ${body.id} was already removed` : `removeBody: body ${body.id} belongs to another world`);
    }
    this.queries.version++;
    if (this.events.dispatching || this.stepping) {
      if (this.events.pendingRemovals.indexOf(body) < 0) this.events.pendingRemovals.push(body);
      return;
    }
    this.removeNow(body);
  }

  /** @internal BodyRemover: removes at once (the event queue calls it for deferred removals). */
  removeNow(body: RigidBody): void {
    removeBodyNow(this, body);
  }

  /** Live joint solver settings (jointHertz, jointDampingRatio, jointIterations). Assigning an object copies its fields in (checked at once; unknown names refused). */
  get jointSettings(): JointSolverSettings {
    return this.jointSolverSettings;
  }
  set jointSettings(v: Partial<JointSolverSettings>) { this.assignSettings('jointSettings', this.jointSolverSettings, v); }

  /**
   * Copies the fields of `v` into the live settings object `live`, after
   * checking the result as the next step would: a plain-JavaScript
   * assignment to the property would otherwise replace an object the
   * solver no longer reads, silently.
   */
  private assignSettings<T extends object>(name: string, live: T, v: Partial<T>): void {
    if (typeof v !== 'object' || v === null) throw new TypeError(`world.${name} must be an object of settings (got ${String(v)})`);
    for (const key of Object.keys(v)) {
      if (!Object.prototype.hasOwnProperty.call(live, key)) throw new TypeError(`world.${name}.${key} is not a setting (known: ${Object.keys(live).join(', ')})`);
    }
    const merged = { ...live, ...v };
    checkWorldSettings(
      this.gravityValue,
      (live === (this.sleepingValue as object) ? merged : this.sleepingValue) as SleepSettings,
      (live === (this.jointSolverSettings as object) ? merged : this.jointSolverSettings) as JointSolverSettings,
      (live === (this.solverSettingsValue as object) ? merged : this.solverSettingsValue) as SolverSettings,
      [],
    );
    Object.assign(live, v);
  }

  /**
   * Registers something stepped after the rigid bodies in every `step` (a
   * Verlet ParticleSystem), in the order added. Added from inside a
   * stepper, it runs from the next step on.
   */
  addStepper(stepper: WorldStepper): void {
    if (!stepper || typeof stepper.postStep !== 'function') throw new TypeError('addStepper: stepper must have a postStep(world, dt) method');
    // Every hook now, by name: a wrong one would otherwise throw "is not a
    // function" at every step, or from the middle of snapshot or restore.
    for (const hook of OPTIONAL_STEPPER_HOOKS) {
      const f: unknown = stepper[hook];
      if (f !== undefined && typeof f !== 'function') throw new TypeError(`addStepper: stepper.${hook} must be a function when given (got ${String(f)})`);
    }
    if ((stepper.snapshotState === undefined) !== (stepper.restoreState === undefined)) {
      const missing = stepper.snapshotState === undefined ? 'snapshotState' : 'restoreState';
      throw new TypeError(`addStepper: stepper.snapshotState and stepper.restoreState come together (${missing} is missing): restore could not put back what snapshot took`);
    }
    if (this.steppers.indexOf(stepper) < 0) this.steppers = this.steppers.concat(stepper);
  }

  /** Unregisters a stepper. Removed from inside a stepper, it is not run again, not even later in the same step. */
  removeStepper(stepper: WorldStepper): void {
    const i = this.steppers.indexOf(stepper);
    if (i >= 0) {
      const next = this.steppers.slice();
      next.splice(i, 1);
      this.steppers = next;
    }
  }

  /** All joints in the world. Do not modify. */
  get joints(): readonly Joint[] {
    return this.jointList;
  }

  /**
   * Adds a joint between two bodies of this world. Unless the joint says
   * `collideConnected`, the two bodies stop colliding (an existing contact
   * between them is dropped). Wakes both bodies.
   */
  addJoint<J extends Joint>(joint: J): J {
    this.refuseInQuery('addJoint');
    if (!isJoint(joint)) throw new TypeError('addJoint: joint must be a footing Joint');
    if (joint.owner !== null) throw new Error('addJoint: joint is already in a world');
    if (joint.bodyA.owner !== this || joint.bodyB.owner !== this) {
      const [field, body] = joint.bodyA.owner !== this ? ['bodyA', joint.bodyA] : ['bodyB', joint.bodyB];
      throw new Error(`addJoint: the joint's ${field} (body ${body.id}) is not in this world`);
    }
    if (this.jointSolver === null) {
      this.jointSolver = joint.newSolver(this.jointSolverSettings);
      this.stepSolver.jointStage = this.jointSolver;
    }
    joint.owner = this;
    this.jointList.push(joint);
    attachJoint(joint);
    if (!joint.collideConnected) removeJointedContacts(this, joint);
    return joint;
  }

  /** Removes a joint; wakes both bodies. */
  removeJoint(joint: Joint): void {
    this.refuseInQuery('removeJoint');
    if (!isJoint(joint)) throw new TypeError('removeJoint: joint must be a footing Joint');
    if (joint.owner !== this) throw new Error('removeJoint: joint is not in this world');
    const i = this.jointList.indexOf(joint);
    this.jointList.splice(i, 1);
    joint.owner = null;
    detachJoint(joint);
  }

  /**
   * Subscribes to an event; returns a function that unsubscribes.
   *
   * Every listener subscribed when an event's delivery starts gets it
   * exactly once, whatever the others do: one added during a delivery gets
   * the events after it; one removed during a delivery is not called again.
   * A listener that throws does not stop the delivery: all events reach all
   * listeners, then the error is rethrown from `step` (an AggregateError
   * when several threw). The step itself has completed by then and the
   * world can be stepped again.
   */
  on<K extends WorldEventName>(name: K, listener: WorldListener<K>): () => void {
    this.events.on(name, listener);
    return () => this.off(name, listener);
  }

  /** Unsubscribes a listener (one subscription of it); unknown listeners are ignored. */
  off<K extends WorldEventName>(name: K, listener: WorldListener<K>): void {
    this.events.off(name, listener);
  }

  /** @internal BodyOwner */
  assertNotStepping(field: string): void {
    if (this.stepping) throw new Error(`${field}: cannot be changed during a step`);
  }

  /** @internal BodyOwner: the pose was set by the user. */
  bodyPoseChanged(body: RigidBody): void {
    this.queries.version++;
    body.shape.computeAabb(this.box, body.position, body.rotation);
    // Predict the next moves from this one (a body driven by setPosition every
    // frame, such as a character's, tends to keep going): the fat box reaches
    // POSE_PREDICTION moves ahead, so it is re-inserted in the tree every few
    // frames instead of every frame. A jump of a metre or more is a teleport,
    // not a motion.
    const d = this.displacement;
    const pp = body.previousPosition as Vec3;
    d.x = body.position.x - pp.x; d.y = body.position.y - pp.y; d.z = body.position.z - pp.z;
    if (d.x * d.x + d.y * d.y + d.z * d.z >= 1) { d.x = 0; d.y = 0; d.z = 0; }
    this.broadphase.moveProxy(body.proxy, this.box, d, POSE_PREDICTION);
    body.odometer += motionBound(body, pp, body.previousRotation);
    pp.x = body.position.x; pp.y = body.position.y; pp.z = body.position.z;
    quat.copy(body.previousRotation as Quat, body.rotation);
    if (body.isStatic) {
      // A moved static body may leave bodies resting on it unsupported.
      for (let i = 0; i < this.contactManager.list.length; i++) {
        const c = this.contactManager.list[i]!;
        if (c.bodyA === body) c.bodyB!.wakeUp();
        else if (c.bodyB === body) c.bodyA!.wakeUp();
      }
    }
  }

  /** @internal BodyOwner: wakes the sleeping island of `body`. */
  wakeBody(body: RigidBody): void {
    wakeIsland(body, this.contactManager);
  }

  /** Bodies whose collision group or mask changed since the last step (see refilter). */
  private readonly filterChangedBodies: RigidBody[] = [];

  /** @internal BodyOwner: `body`'s collision group or mask changed; refilter runs before the next step's pairs. */
  filterChanged(body: RigidBody): void {
    this.queries.version++;
    if (this.filterChangedBodies.indexOf(body) < 0) this.filterChangedBodies.push(body);
  }

  /** Applies changed collision filters (see applyFilterChanges). */
  private refilter(): void {
    applyFilterChanges(this, this.filterChangedBodies);
  }

  // ------------------------------------------------------------------ stepping

  /**
   * Advances by a fixed-step accumulator: takes as many `fixedTimeStep` steps
   * as fit (at most `maxStepsPerAdvance`; the excess is dropped and reported in
   * `droppedTime`, so a slow frame cannot spiral). Returns the interpolation
   * alpha in [0, 1) for rendering between the last two steps.
   */
  advance(frameSeconds: number): number {
    if (typeof frameSeconds !== 'number' || !Number.isFinite(frameSeconds) || frameSeconds < 0) {
      throw new RangeError(`frameSeconds must be a finite number ≥ 0 (got ${String(frameSeconds)})`);
    }
    const h = this.fixedTimeStep;
    // The frame's time is kept only once a step has completed or none was
    // due: a step refused at its start leaves the world, the accumulator
    // included, as it was; a step whose listeners threw has used its time.
    let acc = this.accumulator + frameSeconds;
    let steps = 0, done = false;
    try {
      while (acc >= h && steps < this.maxStepsValue) {
        const before = this.stepCountValue;
        try {
          this.step(h);
        } finally {
          if (this.stepCountValue !== before) { acc -= h; steps++; }
        }
      }
      done = true;
    } finally {
      if (done || steps > 0) {
        this.droppedTimeValue = 0;
        if (acc >= h) {
          const keep = acc % h;
          this.droppedTimeValue = acc - keep;
          acc = keep;
        }
        this.accumulator = acc;
      }
    }
    return this.accumulator / h;
  }

  /** Advances the simulation by `dt` seconds (> 0). */
  step(dt: number): void {
    if (typeof dt !== 'number' || !(dt > 0 && dt <= MAX_TIME_STEP)) checkTimeStep(dt, 'dt');
    if (this.stepping || this.events.dispatching) throw new Error('step: cannot step from inside a step or an event listener');
    this.refuseInQuery('step');
    this.checkSettings();
    // Counted once the step is sure to run: a refused call leaves a filled QueryRegion current.
    this.queries.version++;
    this.stepping = true;
    const ctx = this.ctx, timer = this.timer;
    let stepperErrors: unknown[] | null = null;
    timer.start();
    this.contactManager.resetCounters();
    try {
      // (Events queued between steps by removeBody or addJoint stay queued: they are delivered below.)
      const before = this.steppers;
      for (let i = 0; i < before.length; i++) {
        const s = before[i]!;
        if (s.preStep === undefined || (this.steppers !== before && this.steppers.indexOf(s) < 0)) continue;
        s.preStep(this, dt);
      }
      prepareKinematicTargets(this.bodyList, dt, ctx);
      refitStaleProxies(this.bodyList, dt, ctx, this.broadphase);
      if (this.filterChangedBodies.length > 0) this.refilter();
      this.contactManager.findNewContacts();
      timer.lap(STAGE_BROADPHASE);
      // A body turning fast near others splits the step (see maxTurnPerStep);
      // every part runs the whole pipeline, the narrowphase included, and
      // the split of what is left is chosen anew after each part: an impact
      // can start the spin.
      ctx.stepDt = dt;
      ctx.stepCount = this.stepCountValue;
      let remaining = dt, budget = MAX_STEP_PARTS;
      for (let k = 0; ; k++) {
        if (k > 0) {
          refitStaleProxies(this.bodyList, remaining, ctx, this.broadphase);
          this.contactManager.findNewContacts();
          timer.lap(STAGE_BROADPHASE);
        }
        // The speculative margins cover the whole step's motion in every part.
        this.contactManager.update(dt, ctx);
        timer.lap(STAGE_NARROWPHASE);
        ctx.stepLeft = remaining;
        const parts = Math.min(stepParts(ctx, this.contactManager.list, this.contactManager.solveList, this.contactManager.solveCount, this.jointList), budget);
        const h = parts === 1 ? remaining : remaining / parts;
        ctx.finalPart = parts === 1;
        ctx.firstPart = k === 0;
        this.stepSolver.solve(h);
        this.contactManager.reportImpacts();
        timer.lap(STAGE_SOLVER);
        this.islands.update(h, this.stepSolver.bodies, this.sleeping, this.contactManager.list, this.jointList);
        timer.lap(STAGE_ISLANDS);
        const steppers = this.steppers;
        for (let i = 0; i < steppers.length; i++) {
          const s = steppers[i]!;
          // removeStepper replaces the list: skip a stepper removed by an earlier one.
          if (this.steppers !== steppers && this.steppers.indexOf(s) < 0) continue;
          // The bodies have moved: a stepper that throws must not leave the
          // step half done, so the step completes and the errors follow it.
          try {
            s.postStep(this, h);
          } catch (e) {
            (stepperErrors ??= []).push(e);
          }
        }
        timer.lap(STAGE_STEPPERS);
        this.lastStepParts = k + 1;
        if (parts === 1) break;
        remaining -= h;
        budget--;
      }
      // Past 2^53 − 1 an increment would no longer change the count (and
      // advance, which sees a completed step by it, would step forever).
      this.stepCountValue = this.stepCountValue < Number.MAX_SAFE_INTEGER ? this.stepCountValue + 1 : 0;
    } finally {
      this.stepping = false;
    }
    try {
      this.events.dispatch();
    } catch (e) {
      if (stepperErrors === null) throw e;
      stepperErrors.push(e);
    } finally {
      timer.lap(STAGE_EVENTS);
    }
    if (stepperErrors !== null) {
      throw stepperErrors.length === 1 ? stepperErrors[0] : new AggregateError(stepperErrors, `step: ${stepperErrors.length} steppers or listeners threw; the step is complete`);
    }
  }

  private checkSettings(): void {
    checkWorldSettings(this.gravity, this.sleeping, this.jointSolverSettings, this.solverSettings, this.jointList);
    checkBodyStates(this.bodyList);
    const steppers = this.steppers;
    for (let i = 0; i < steppers.length; i++) {
      const s = steppers[i]!;
      // The hooks the step calls, checked again: plain JavaScript may have replaced them since addStepper.
      if (typeof s.postStep !== 'function' || (s.preStep !== undefined && typeof s.preStep !== 'function') || (s.checkState !== undefined && typeof s.checkState !== 'function')) {
        const hook = typeof s.postStep !== 'function' ? 'postStep' : s.preStep !== undefined && typeof s.preStep !== 'function' ? 'preStep' : 'checkState';
        throw new TypeError(`step: steppers[${i}].${hook} must be a function (got ${String(s[hook])})`);
      }
      if (s.checkState !== undefined) s.checkState(this);
    }
  }

  // ------------------------------------------------------------------ queries

  /**
   * Queries running (a query's filter or collector may run another). While
   * one runs, the calls that change the bodies or the broadphase (step,
   * createBody, removeBody, addJoint, removeJoint, restore) are refused: the
   * query is walking the broadphase tree they would change.
   */
  private querying = 0;

  private refuseInQuery(call: string): void {
    if (this.querying > 0) throw new Error(`${call}: cannot change the world from inside a query's filter or collector`);
  }

  /** Closest body hit by the segment from → to, or null. */
  raycast(from: Readonly<Vec3>, to: Readonly<Vec3>, options?: RaycastOptions): RaycastHit | null {
    this.querying++;
    try {
      return this.queries.raycast(from, to, options);
    } finally {
      this.querying--;
    }
  }

  /**
   * Sweeps a convex shape from `position` along `translation` and returns the
   * first impact (never later than the true one), or null.
   */
  shapeCast(shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, translation: Readonly<Vec3>, options?: ShapeCastOptions): ShapeCastHit | null {
    this.querying++;
    try {
      return this.queries.shapeCast(shape, position, rotation, translation, options);
    } finally {
      this.querying--;
    }
  }

  /**
   * Fills `region` with the bodies whose fat boxes overlap `box`, for the
   * `region` option of overlap and shapeCast (see QueryRegion).
   */
  fillQueryRegion(box: Readonly<Aabb>, region: QueryRegion): QueryRegion {
    this.querying++;
    try {
      return this.queries.fillQueryRegion(box, region);
    } finally {
      this.querying--;
    }
  }

  /**
   * Every body overlapping the query shape, with the normal that pushes the
   * query shape out and the depth (one entry per contact point: a mesh may
   * give several).
   */
  overlap(shape: ConvexShape, position: Readonly<Vec3>, rotation: Readonly<Quat>, options?: OverlapOptions): readonly OverlapContact[] {
    this.querying++;
    try {
      return this.queries.overlap(shape, position, rotation, options);
    } finally {
      this.querying--;
    }
  }

  // ------------------------------------------------------------------ snapshots

  /**
   * The whole simulation state as typed arrays (layout: WorldSnapshot;
   * `snapshotTransferList` gives its buffers, to post it to a worker without
   * a copy): bodies with their sleep, kinematic-target and broadphase state,
   * contacts with their warm-start impulses and caches, joints with their
   * accumulated impulses, motor and limit settings and broken flags, the
   * state of every stepper with `snapshotState` (cloth, rope, particles),
   * the step count and `advance`'s accumulator. `restore` continues bit for
   * bit, in this world or in one built the same way. Not included: the
   * settings objects (solverSettings, sleeping, jointSettings), fixedTimeStep,
   * maxStepsPerAdvance and event listeners; character controllers and walkers
   * snapshot themselves.
   */
  snapshot(): WorldSnapshot {
    if (this.stepping || this.events.dispatching) throw new Error('snapshot: cannot snapshot during a step or an event listener');
    // The live state plain JavaScript can write past the setters: refused
    // here by name, not by restore later (a stepper checks its own).
    checkSnapshotState(this.gravity, this.bodyList);
    return takeSnapshot(this);
  }

  /**
   * Restores a snapshot taken from this world or from one built the same
   * way: the same bodies (ids, types, shapes, masses), the same joints in
   * the same order (kind and bodies) and the same steppers. The whole
   * snapshot is checked first; anything wrong (another version, unknown or
   * missing body ids, NaN, truncated arrays, other types, shapes or joint
   * kinds, a broken broadphase) throws a SnapshotError and leaves the world
   * as it was.
   */
  restore(snapshot: WorldSnapshot): void {
    if (this.stepping || this.events.dispatching) throw new Error('restore: cannot restore during a step or an event listener');
    this.refuseInQuery('restore');
    restoreSnapshot(this, snapshot, this);
  }
}

export { OverlapCollector, QueryRegion };
export type { OverlapContact, OverlapOptions, QueryOptions, RaycastHit, RaycastOptions, ShapeCastHit, ShapeCastOptions, WorldEventMap, WorldSnapshot, StepperSnapshot };

/**
 * Something the World steps after the rigid bodies each step (e.g. a Verlet
 * ParticleSystem). `postStep` may run queries on the world and apply impulses
 * to bodies (they take effect next step); it must not add bodies, and a body
 * it removes is removed at the end of the step (see `removeBody`).
 */
export interface WorldStepper {
  /**
   * Optional: runs once at the start of every step, before anything moves,
   * with the whole step's dt — the place to set kinematic targets or read
   * input for the step about to run.
   */
  preStep?(world: World, dt: number): void;
  /**
   * Optional: throws an error naming the field when state the stepper hands
   * out live (arrays, plain objects) was written invalid. Runs at the start
   * of every step before any preStep, so a throw leaves the world as it was.
   */
  checkState?(world: World): void;
  /** Runs after the rigid bodies moved, once per part of a split step (dt is the part's). */
  postStep(world: World, dt: number): void;
  /**
   * Optional, for `World.snapshot`: the stepper's state as typed arrays (its
   * own layout). A stepper without it is left as it is by `restore`.
   */
  snapshotState?(): StepperSnapshot;
  /** Throws (a SnapshotError naming the problem) when `state` cannot be restored; changes nothing. */
  validateState?(state: StepperSnapshot, world: World): void;
  /** Restores a state `validateState` accepted. */
  restoreState?(state: StepperSnapshot, world: World): void;
}

/** WorldStepper's optional hooks: each a function or absent (addStepper). */
const OPTIONAL_STEPPER_HOOKS = ['preStep', 'checkState', 'snapshotState', 'validateState', 'restoreState'] as const;

/** Compile-time check that a World is what bodies and snapshots call back into. */
type IsHost<T extends true> = T;
type WorldIsHost = IsHost<World extends BodyOwner & SnapshotHost<World> ? true : false>;
