// Spec §9: up to about 4 route preloads at once; link prefetch is skipped on slow connections or with data-saver.
export const maxConcurrentPreloads = 4;

type NetworkInformation = { saveData?: boolean; effectiveType?: string };

/** False when the browser says the user saves data or the connection is 2G-slow. */
export function prefetchAllowed(connection: NetworkInformation | undefined = (navigator as { connection?: NetworkInformation }).connection): boolean {
  if (!connection) return true;
  return !connection.saveData && !/(^|-)2g$/.test(connection.effectiveType ?? '');
}

let running = 0;
const waiting: (() => void)[] = [];

/** Runs a preload when fewer than the maximum are in flight; the others wait their turn. */
export async function limitPreload<T>(work: () => Promise<T>): Promise<T> {
  if (running >= maxConcurrentPreloads) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}
