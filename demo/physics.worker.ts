// The demo's worker mode (?worker): the whole physics world lives here,
// built by worker-world.ts from level-data.ts (the same numbers the page's
// meshes come from). The page creates only the character and thrown balls,
// through the client; dynamic and kinematic bodies are tracked so that their
// poses stream to the page, tagged with what the page needs to draw them.
import { hostPhysics } from '../src/worker/index';
import { buildWorkerWorld } from './worker-world';

hostPhysics({
  onWorld(world, host) {
    buildWorkerWorld(world, (body, tag) => { host.track(body, tag); });
  },
});
