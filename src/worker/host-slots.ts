/**
 * The host's handles: one slot per body or character (the client's handles
 * have even slots, the host's `track` odd ones), a generation per slot so
 * that a stale handle is refused, and the handles of bodies removed since
 * the last step, which the World's next events may still name.
 */
import type { RigidBody } from '../dynamics/body';
import type { Walker } from '../../character/walker';
import { generationOf, SLOT_COUNT, slotOf } from './protocol';

export class HostSlots {
  readonly bodies: (RigidBody | null)[] = [];
  readonly walkers: (Walker | null)[] = [];
  readonly generations: number[] = [];
  readonly handleOf = new Map<RigidBody, number>();
  /** Bodies removed since the last step, with their handles: the World reports their contacts' end in the next step. */
  readonly retired = new Map<RigidBody, number>();
  /** Odd slots (the host's) free for reuse, and the generation each slot's next body gets. */
  private readonly freeHostSlots: number[] = [];
  private nextHostSlot = 1;
  /** The client's next new slot (it hands out even slots in order, reusing freed ones). */
  private nextClientSlot = 0;
  private readonly nextGeneration: number[] = [];
  slotCount = 0;

  /** The body behind a handle, for code running in the worker (null for characters and removed bodies). */
  getBody(handle: number): RigidBody | null {
    const slot = slotOf(handle);
    return this.generations[slot] === generationOf(handle) ? this.bodies[slot] ?? null : null;
  }

  /** The walker behind a character handle. */
  getWalker(handle: number): Walker | null {
    const slot = slotOf(handle);
    return this.generations[slot] === generationOf(handle) ? this.walkers[slot] ?? null : null;
  }

  /** Gives a body of the world a handle on one of the host's (odd) slots and its row in the frames. */
  register(body: RigidBody): number {
    const slot = this.freeHostSlots.pop() ?? this.takeHostSlot();
    const generation = this.nextGeneration[slot] ?? 0;
    const handle = slot + generation * SLOT_COUNT;
    for (let i = this.slotCount; i <= slot; i++) {
      this.bodies[i] = null; this.walkers[i] = null; this.generations[i] = -1;
    }
    this.slotCount = Math.max(this.slotCount, slot + 1);
    this.bodies[slot] = body;
    this.generations[slot] = generation;
    this.handleOf.set(body, handle);
    return handle;
  }

  private takeHostSlot(): number {
    const slot = this.nextHostSlot;
    if (slot >= SLOT_COUNT) throw new RangeError(`track: more than ${SLOT_COUNT / 2} tracked bodies`);
    this.nextHostSlot += 2;
    return slot;
  }

  /** Empties a slot; a host slot goes back to the free list with its next generation. */
  release(slot: number): void {
    this.bodies[slot] = null;
    this.walkers[slot] = null;
    if (slot % 2 === 1) {
      this.nextGeneration[slot] = this.generations[slot]! + 1;
      this.generations[slot] = -1;
      this.freeHostSlots.push(slot);
    }
  }

  retire(body: RigidBody): void {
    const handle = this.handleOf.get(body);
    if (handle === undefined) return;
    this.handleOf.delete(body);
    this.retired.set(body, handle);
  }

  /** The handle events name a body by: its own, for a body removed since the last step too. */
  eventHandle(body: RigidBody): number {
    return this.handleOf.get(body) ?? this.retired.get(body) ?? -1;
  }

  /**
   * The slot of a handle the client sends with a new body or character,
   * changing nothing: refuses a handle that is not a whole number, an odd
   * slot, a slot in use, and a slot beyond the next one the client would
   * hand out (it hands them out in order: a far slot would make every
   * frame that long).
   */
  newSlot(handle: number): number {
    const slot = slotOfHandle(handle, 'handle');
    if (slot % 2 !== 0) throw new RangeError(`handle ${handle}: the client's handles have even slots (odd ones are the host's)`);
    if (slot > this.nextClientSlot) throw new RangeError(`handle ${handle}: slot ${slot} is beyond the next new slot (${this.nextClientSlot}); the client hands out its slots in order`);
    if (this.bodies[slot] || this.walkers[slot]) throw new Error(`slot ${slot} is in use (handle ${handle})`);
    // Counted before the body is built: the client has claimed the slot even when the worker refuses the description.
    if (slot === this.nextClientSlot) this.nextClientSlot += 2;
    return slot;
  }

  /** Gives `slot` (from `newSlot`) its row in the frames and the handle's generation, once the body or character exists. */
  claimSlot(slot: number, handle: number): void {
    for (let i = this.slotCount; i <= slot; i++) {
      this.bodies[i] = null; this.walkers[i] = null; this.generations[i] = -1;
    }
    this.slotCount = Math.max(this.slotCount, slot + 1);
    this.generations[slot] = generationOf(handle);
  }

  requireSlot(handle: number, command: string): number {
    const slot = slotOfHandle(handle, `${command}: handle`);
    if (!(slot < this.slotCount) || this.generations[slot] !== generationOf(handle) || !(this.bodies[slot] || this.walkers[slot])) {
      throw new Error(`${command}: no body or character with handle ${String(handle)}`);
    }
    return slot;
  }

  requireWalker(handle: number, command: string): Walker {
    const walker = this.walkers[this.requireSlot(handle, command)];
    if (!walker) throw new Error(`${command}: handle ${handle} is a body, not a character`);
    return walker;
  }

  requireBody(handle: number, command: string): RigidBody {
    const body = this.bodies[this.requireSlot(handle, command)];
    if (!body) throw new Error(`${command}: handle ${handle} is a character, not a body`);
    return body;
  }
}

/** The slot of a handle sent by the client, refused unless it is a safe integer ≥ 0. */
function slotOfHandle(handle: number, field: string): number {
  // A string, null or an array would pass slotOf's arithmetic as a number: '0' and null as handle 0.
  if (typeof handle !== 'number' || !Number.isSafeInteger(handle) || handle < 0) throw new RangeError(`${field} must be an integer ≥ 0 (got ${describeValue(handle)})`);
  return slotOf(handle);
}

/** A value for an error message, its type named when it is not a number (the string '0' and 0 print alike). */
export function describeValue(value: unknown): string {
  return typeof value === 'number' || value === null || value === undefined ? String(value) : `${typeof value} ${String(value)}`;
}
