import type { PropMaterial } from './level-data';

/** The tag physics.worker.ts gives each body it tracks: how the page draws it. */
export type WorkerBodyTag =
  | { kind: 'platform'; name: string }
  | { kind: 'prop'; material: PropMaterial };
