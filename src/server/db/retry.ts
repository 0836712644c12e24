/**
 * Runs `work` until it succeeds, at most `attempts` times, waiting a little longer after each failure. For the few
 * writes that must land even when the database just dropped every connection (a restart, a failover): the pool
 * opens fresh ones on the next try.
 */
export async function withRetries<T>(work: () => Promise<T>, attempts = 5, firstDelayMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, firstDelayMs * 2 ** (attempt - 1)));
    }
  }
}
