import { chromium, type Browser } from 'playwright-core';

/**
 * Flags for headless Chromium with software WebGL2 (ANGLE on SwiftShader), from
 * /work/shared/notes/babylon-e2e-recipe.md. playwright-core already passes most
 * of them; they are listed so that the setup is explicit.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The system Chromium (Debian package `chromium`), or CHROMIUM_PATH. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  });
}
