/** Command-line entry of `npm run fuzz` (loaded by test/fuzz/fuzz.mjs): the runner with the peer engines registered. */
import { buildJolt, buildRapier } from './peers';
import { main, registerPeers } from './run';

registerPeers(buildRapier, buildJolt);
export { main };
