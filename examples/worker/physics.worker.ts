// The whole worker: a physics host on the worker's own scope. The client
// in main.ts sends the world, the bodies and the character input.
import { hostPhysics } from 'footing/worker';

hostPhysics();
