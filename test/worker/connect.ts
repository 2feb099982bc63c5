/**
 * A PhysicsHost and a PhysicsClient on the two ends of a node:worker_threads
 * MessageChannel (structured cloning and transfer as in a browser worker),
 * sharing a fake clock. The host is ticked by hand at 60 Hz (autoStart
 * false) so that each test is deterministic. A round trip (`barrier`) makes
 * sure every message sent before it has been handled on both sides.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach } from 'vitest';
import {
  PhysicsClient, PhysicsHost, type PhysicsClientOptions, type PhysicsHostOptions, type PhysicsWorkerError, type MessagePortLike, type WorldDescData,
} from '../../src/worker/index';

export const H = 1 / 60;
const open: MessagePort[] = [];

afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

export function connect(world: WorldDescData = {}, options: PhysicsClientOptions = {}, realClock = false, hostOptions: PhysicsHostOptions = {}) {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const clock = { ms: 0 };
  const now = realClock ? undefined : () => clock.ms;
  const host = new PhysicsHost(port2 as unknown as MessagePortLike, { now, ...hostOptions });
  const client = new PhysicsClient(port1 as unknown as MessagePortLike, world, { autoStart: false, shared: false, now, ...options });
  const errors: PhysicsWorkerError[] = [];
  client.onError = (e) => { errors.push(e); };
  // A raycast far from everything: its answer comes after every earlier message in both directions.
  const barrier = () => client.raycast({ x: 0, y: 1e5, z: 0 }, { x: 0, y: 1e5 + 1, z: 0 });
  /** Ticks the host `steps` fixed steps, one tick each, rendering each frame at its arrival and a step later. */
  const run = async (steps: number): Promise<void> => {
    for (let i = 0; i < steps; i++) {
      await barrier();
      host.tick(H);
      await barrier();
      client.update(); // takes the new frame: alpha 0, the previous pose
      clock.ms += H * 1000;
      client.update(); // one step later: alpha 1, the newest pose
    }
  };
  /** The client's end of the channel, to send raw messages as another page might. */
  const port = port1;
  return { host, client, clock, errors, run, barrier, port };
}
