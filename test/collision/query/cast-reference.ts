// Bisection reference for shape casts, shared by the shape-cast tests.
// d(t) (the signed distance with the cast shape at t) is convex in t for a
// pure translation, so a golden-section search finds its minimum and a
// bisection the first root before it (60 halvings: exact to ~1e-18).

export interface Reference {
  /** First t in [0, 1] with distance ≤ 0, or null. */
  fraction: number | null;
  /** Minimum distance over the sweep. */
  minDistance: number;
}

/** Bisection reference (see the header). */
export function referenceCast(f: (t: number) => number): Reference {
  const f0 = f(0);
  if (f0 <= 0) return { fraction: 0, minDistance: f0 };
  // Golden-section search for the minimum of the convex d(t) on [0, 1].
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = 0, hi = 1;
  let x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  let f1 = f(x1), f2 = f(x2);
  for (let i = 0; i < 60 && f1 > 0 && f2 > 0; i++) {
    if (f1 < f2) {
      hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = f(x1);
    } else {
      lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = f(x2);
    }
  }
  let tMin = f1 < f2 ? x1 : x2;
  let fMin = Math.min(f1, f2);
  const f1End = f(1);
  if (f1End < fMin) {
    fMin = f1End;
    tMin = 1;
  }
  if (fMin > 0) return { fraction: null, minDistance: fMin };
  let a = 0, b = tMin;
  for (let i = 0; i < 60; i++) {
    const m = 0.5 * (a + b);
    if (f(m) <= 0) b = m;
    else a = m;
  }
  return { fraction: b, minDistance: fMin };
}

