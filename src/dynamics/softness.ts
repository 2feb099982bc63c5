/** Soft-constraint coefficients (Box2D v3 b2MakeSoft). */
export class Softness {
  biasRate = 0;
  massScale = 1;
  impulseScale = 0;
  /**
   * For a spring of `hertz` and damping ratio ζ over step h:
   *   ω = 2π hertz, a1 = 2ζ + hω, a2 = hω a1, a3 = 1 / (1 + a2)
   *   biasRate = ω / a1, massScale = a2 a3, impulseScale = a3.
   */
  set(hertz: number, zeta: number, h: number): void {
    if (hertz <= 0) {
      this.biasRate = 0;
      this.massScale = 1;
      this.impulseScale = 0;
      return;
    }
    const omega = 2 * Math.PI * hertz;
    const a1 = 2 * zeta + h * omega;
    const a2 = h * omega * a1;
    const a3 = 1 / (1 + a2);
    this.biasRate = omega / a1;
    this.massScale = a2 * a3;
    this.impulseScale = a3;
  }
}
