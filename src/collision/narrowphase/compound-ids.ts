/**
 * The child indices a Compound writes into its contact points' feature ids
 * (collide-compound.ts): above bit 32, the child index of each side, 10 bits
 * each, +1 so that 0 means "not a compound". A double holds the 52 bits
 * exactly, and the contacts store ids as doubles. Apart from the compound
 * routines, so that the events and queries that read them back do not bring
 * the routines in.
 */
import type { ManifoldPoint } from './manifold';

export const TWO_32 = 4294967296;
export const CHILD_SLOTS = 1024;

/** Child index of shape A in a contact point's feature id (−1 when A is not a compound). */
export function contactChildA(id: number): number {
  const high = Math.floor(id / TWO_32);
  return (high % CHILD_SLOTS) - 1;
}

/** Child index of shape B at a manifold point (−1 when B is not a compound); reads the id itself, so no double crosses the call. */
export function pointChildB(p: ManifoldPoint): number {
  const high = Math.floor(p.id / TWO_32);
  return Math.floor(high / CHILD_SLOTS) - 1;
}

/** Child index of shape B in a contact point's feature id (−1 when B is not a compound). */
export function contactChildB(id: number): number {
  const high = Math.floor(id / TWO_32);
  return Math.floor(high / CHILD_SLOTS) - 1;
}
