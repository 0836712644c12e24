// Spec §8: a chunk-load failure (a deploy replaced the files) reloads the page, at most once per path within 10 s.
export const reloadGuardMs = 10_000;
const storageKey = 'cartograph.chunk-reload';

const chunkErrorPatterns = [/Failed to fetch dynamically imported module/i, /Importing a module script failed/i, /error loading dynamically imported module/i, /Unable to preload CSS/i];

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return chunkErrorPatterns.some((pattern) => pattern.test(message));
}

type ReloadRecord = Record<string, number>;

/**
 * Reloads unless this path was already reloaded within the guard window; answers whether it reloaded.
 * Storage and clock are parameters so the rule can be checked without a browser.
 */
export function reloadAfterChunkError(path: string, options: { now?: number; storage?: Storage; reload?: () => void } = {}): boolean {
  const { now = Date.now(), storage = sessionStorage, reload = () => window.location.reload() } = options;
  let record: ReloadRecord = {};
  try {
    record = JSON.parse(storage.getItem(storageKey) ?? '{}') as ReloadRecord;
  } catch {
    record = {};
  }
  const last = record[path];
  if (typeof last === 'number' && now - last < reloadGuardMs) return false;
  storage.setItem(storageKey, JSON.stringify({ ...record, [path]: now }));
  reload();
  return true;
}
