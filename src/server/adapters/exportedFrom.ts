import { schemaRegistry } from '../../generated/schemaRegistry.js';
import type { CatalogueAdapter } from './catalogue.js';

// A file or SQL connection is often an export of a system that has an adapter (a CrowdStrike host list saved as CSV).
// Its `exported_from` option says which: a catalogue adapter's slug (`crowdstrike`), or only the kind of system, as
// one of the adapter groups (`category:edr`). Its records then count as that system's: under its slug in Adapters,
// in Specifics and in source precedence, and under its groups in the devices' source categories (`Groups`), which
// the starter policies test.

const categoryPrefix = 'category:';

/** The kinds of system (adapter groups, schemas/adapters/adapter.meta.json): the source categories a device can have. */
export const sourceCategories: readonly string[] = (
  schemaRegistry['cartograph:adapters/adapter-meta'].schema as unknown as { properties: { groups: { items: { enum: string[] } } } }
).properties.groups.items.enum;

// Engines whose connections are exports themselves: an export is never "exported from" another export.
const exportEngines = new Set(['csv', 'json', 'xlsx', 'sbom', 'sql']);

/** The system a connection's records count as: the adapter slug they are recorded under and its source categories. */
export type RecordSource = { adapter: string; categories: string[] };

/**
 * What a connection's `exported_from` option names, or why it names nothing usable (a field error's message).
 * Before: `category:edr` → `{ category: 'edr' }`; `crowdstrike` → `{ adapter: <CrowdStrike's catalogue entry> }`.
 */
export function exportedFromOf(catalogue: ReadonlyMap<string, CatalogueAdapter>, value: unknown): { adapter?: CatalogueAdapter; category?: string; error?: string } | null {
  if (typeof value !== 'string' || value === '') return null;
  if (value.startsWith(categoryPrefix)) {
    const category = value.slice(categoryPrefix.length);
    return sourceCategories.includes(category) ? { category } : { error: `"${category}" is not a kind of system Cartograph knows.` };
  }
  const adapter = catalogue.get(value);
  if (!adapter) return { error: `No adapter "${value}" is in the catalogue.` };
  if (adapter.engine && exportEngines.has(adapter.engine)) return { error: `${adapter.name} is itself a file or database connection: name the system the export comes from.` };
  return { adapter };
}

/**
 * The source a connection's records count as: the adapter it names in `exported_from` (or the connection's own),
 * and that adapter's groups, or the one category named.
 */
export function recordSourceOf(catalogue: ReadonlyMap<string, CatalogueAdapter>, own: CatalogueAdapter, config: Record<string, unknown>): RecordSource {
  const named = exportedFromOf(catalogue, config.exported_from);
  if (named?.adapter) return { adapter: named.adapter.slug, categories: named.adapter.groups };
  if (named?.category) return { adapter: own.slug, categories: [named.category] };
  return { adapter: own.slug, categories: own.groups ?? [] };
}
