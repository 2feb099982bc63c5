// The client's requests that wait for an answer (queries, settings, snapshots, …), matched to the worker's answers by id.
import type { ClientMessage } from './protocol';

/** A request waiting for the worker's answer. */
interface PendingRequest {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

export class ClientRequests {
  private nextRequest = 1;
  private readonly requests = new Map<number, PendingRequest>();

  constructor(private readonly post: (message: ClientMessage, transfer?: Transferable[]) => void) {}

  /** Sends the message `make(id)` builds and waits for the answer with that id. */
  send<T>(make: (id: number) => ClientMessage, transfer?: Transferable[]): Promise<T> {
    const id = this.nextRequest++;
    let request!: PendingRequest;
    const answer = new Promise<T>((resolve, reject) => { request = { resolve: resolve as (value: never) => void, reject }; });
    // Posted before it waits (no answer comes before this returns): a message that cannot be sent throws here and leaves no request waiting.
    this.post(make(id), transfer);
    this.requests.set(id, request);
    return answer;
  }

  /** Resolves the request `id` with `value` (an answer to a request no longer waiting is ignored). */
  answer(id: number, value: unknown): void {
    const request = this.requests.get(id);
    if (!request) return;
    this.requests.delete(id);
    (request.resolve as (value: unknown) => void)(value);
  }

  /** Rejects the request `id` with `error`; false when no request has that id. */
  fail(id: number, error: Error): boolean {
    const request = id >= 0 ? this.requests.get(id) : undefined;
    if (!request) return false;
    this.requests.delete(id);
    request.reject(error);
    return true;
  }

  /** Rejects every waiting request. */
  rejectAll(error: Error): void {
    for (const request of this.requests.values()) request.reject(error);
    this.requests.clear();
  }
}
