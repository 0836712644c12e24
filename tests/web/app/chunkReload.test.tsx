import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadAfterChunkError } from '../../../src/web/app/chunkReload';

describe('reload after a chunk-load failure', () => {
  it('recognises the browsers’ chunk-load errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/Login-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Something else'))).toBe(false);
  });

  it('reloads at most once per path within 10 s', () => {
    sessionStorage.clear();
    const reload = vi.fn();
    const start = 1_000_000;
    expect(reloadAfterChunkError('/devices', { now: start, reload })).toBe(true);
    expect(reloadAfterChunkError('/devices', { now: start + 9_999, reload })).toBe(false);
    expect(reloadAfterChunkError('/users', { now: start + 9_999, reload })).toBe(true);
    expect(reloadAfterChunkError('/devices', { now: start + 10_000, reload })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(3);
  });
});
