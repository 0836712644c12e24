/**
 * Runs `work` over `items` with at most `concurrency` in flight and at most `perSecond` starts per second,
 * streaming results in completion order. Items are pulled lazily, so a /16 of addresses is never materialised;
 * at most `concurrency` finished results wait for the consumer, which keeps memory bounded.
 */
export async function* boundedPool<Item, Result>(
  items: Iterable<Item>,
  work: (item: Item) => Promise<Result>,
  options: { concurrency: number; perSecond?: number; signal: AbortSignal },
): AsyncGenerator<Result> {
  const iterator = items[Symbol.iterator]();
  const interval = options.perSecond ? 1000 / options.perSecond : 0;
  let nextStart = Date.now();
  let exhausted = false;
  type Settled = { id: number; result: Result; error?: undefined } | { id: number; error: { cause: unknown } };
  const running = new Map<number, Promise<Settled>>();
  let nextId = 0;

  // Spacing the starts (not just counting them per second) avoids bursts that trip IDS thresholds.
  const waitForSlot = async () => {
    if (!interval) return;
    const now = Date.now();
    const delay = nextStart - now;
    nextStart = Math.max(now, nextStart) + interval;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  };

  const startNext = async () => {
    const next = iterator.next();
    if (next.done) {
      exhausted = true;
      return;
    }
    await waitForSlot();
    const id = nextId++;
    running.set(id, work(next.value).then((result): Settled => ({ id, result }), (cause: unknown): Settled => ({ id, error: { cause } })));
  };

  try {
    while (!options.signal.aborted) {
      while (!exhausted && running.size < options.concurrency && !options.signal.aborted) await startNext();
      if (!running.size) return;
      const settled = await Promise.race(running.values());
      running.delete(settled.id);
      if (settled.error) throw settled.error.cause;
      yield settled.result;
    }
  } finally {
    // Cancelled, failed or abandoned by the consumer: let the work in flight settle (each probe has its own
    // timeout) so no socket outlives the fetch.
    await Promise.allSettled(running.values());
  }
}
