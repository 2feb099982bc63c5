/**
 * The margin (speculative distance) read by the narrowphase routines reached
 * through the dispatch table.
 *
 * The table call is never inlined, so its entries take no double argument
 * (CONTRIBUTING.md, hot path): the caller writes the margin here first;
 * `collide` (dispatch.ts) takes it as an argument and stores it here.
 */
export const narrowphaseMargin = new Float64Array(1);

/**
 * Written by a routine that returns no point because the shapes are further
 * apart than the margin: a lower bound on their distance (the separation it
 * found along a separating axis, or the exact distance). Left 0, meaning
 * unknown, on every other path; `collide` clears it before each call. The
 * world skips the narrowphase of a pair until the bodies could have closed
 * that gap (World.updateContacts).
 */
export const narrowphaseGap = new Float64Array(1);
