import type { Adapter } from './session';

type Page<T> = { results: T[] };
// Adapter status 1 is done (spec §4); custom adapters are always marked custom with status done (spec §3).
const doneStatus = 1;

/** Merges the catalogue and the custom adapters; custom ones are marked custom with status done. */
export function mergeAdapters(catalogue: Page<Adapter> | null, customs: Page<Adapter> | null): Adapter[] {
  return [...(catalogue?.results ?? []), ...(customs?.results ?? []).map((adapter) => ({ ...adapter, custom: true, status: doneStatus }))];
}

/** The adapters the user may use: their slug is in the token's adapters list, or the list holds `*` (spec §6). */
export function permittedAdapters(adapters: Adapter[], allowed: readonly string[] | undefined): Adapter[] {
  if (!allowed) return [];
  if (allowed.includes('*')) return adapters;
  return adapters.filter((adapter) => allowed.includes(adapter.slug));
}
