/**
 * Wakes the lease calls of a connector held open (long poll) when a job is queued for it in this process. Other
 * processes on the same PostgreSQL (API-only servers, workers) are not told: a held lease also looks at the
 * table every few seconds, so their jobs wait that long at most.
 */
const waiting = new Map<number, Set<() => void>>();

export function jobQueuedFor(connectorId: number): void {
  for (const wake of waiting.get(connectorId) ?? []) wake();
}

/** Resolves when a job is queued for the connector here, `milliseconds` pass, or `signal` aborts, whichever first. */
export function untilJobQueued(connectorId: number, milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const set = waiting.get(connectorId) ?? new Set<() => void>();
    waiting.set(connectorId, set);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      set.delete(done);
      if (!set.size) waiting.delete(connectorId);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    set.add(done);
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}
