import { savedQueryField } from '../../app/session/tokenStore';

/** A list's local configuration under its `pconfig-` key; logout clears only its `query` (spec §4). */
export type PageConfig = { columns: string[]; size: number; [savedQueryField]?: string };

export const pageSizes = [20, 50, 100, 200, 500] as const;

/** The stored configuration, or the defaults where it is missing or unreadable. */
export function readPageConfig(key: string, defaultColumns: string[]): PageConfig {
  const defaults: PageConfig = { columns: defaultColumns, size: 50 };
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<PageConfig> | null;
    if (!stored || typeof stored !== 'object') return defaults;
    return {
      columns: Array.isArray(stored.columns) && stored.columns.every((column) => typeof column === 'string') && stored.columns.length ? stored.columns : defaults.columns,
      size: pageSizes.includes(stored.size as (typeof pageSizes)[number]) ? (stored.size as number) : defaults.size,
      ...(typeof stored.query === 'string' && { query: stored.query }),
    };
  } catch {
    return defaults;
  }
}

export function writePageConfig(key: string, config: PageConfig): void {
  localStorage.setItem(key, JSON.stringify(config));
}
