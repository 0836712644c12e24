import type { CatalogueAdapter } from '../catalogue.js';
import type { SecretRule } from '../../auth/secretRule.js';
import type { AdapterEngine, EntityKind, FetchContext, FetchedRecord } from '../engine.js';
import type { CustomAdapterDefinition, CustomFieldDefinition } from './customAdapterDefinition.js';
import { convertValue } from './fieldTypes.js';

export type { CustomAdapterDefinition, CustomFieldDefinition } from './customAdapterDefinition.js';

/** The connection schema custom adapters' connections are validated by: the CSV file connection's (source, delimiter, encoding). */
export const customConnectionSchemaId = 'cartograph:adapters/csvfile/connection';

/** A custom adapter in the catalogue's shape, so connections, uploads and discoveries treat it like any file adapter. */
export function catalogueEntryOf(definition: CustomAdapterDefinition, rule: SecretRule): CatalogueAdapter {
  return {
    name: definition.name, slug: definition.slug, description: definition.description, groups: ['file', 'custom'],
    categories: definition.categories as EntityKind[], engine: 'custom-file', connectionSchemaId: customConnectionSchemaId,
    secretFields: rule.secretFields, destinationFields: rule.destinationFields, secretTitles: rule.secretTitles, hasManifest: false, custom: definition,
  };
}

/** Which file engine reads a source: the upload's own kind (checked by content when it was stored), else the sample's. */
function fileKindOf(config: Record<string, unknown>, definition: CustomAdapterDefinition): 'csv' | 'xlsx' {
  const source = (config.source ?? {}) as { source_type?: string; file?: string; file_url?: string; file_path?: string };
  const named = source.file ?? source.file_path ?? source.file_url ?? '';
  if (/\.xlsx$/i.test(named)) return 'xlsx';
  if (/\.csv$/i.test(named)) return 'csv';
  return definition.fileType;
}

/**
 * The engine of one custom adapter: the CSV or XLSX engine reads the rows with the adapter's mapping only (an
 * unmapped column stays in the raw record), then each mapped field is read as its column's type.
 * Before: row `{"Asset Name": "ws-1", "Ports": "22"}`, Ports → `OpenPorts.PortNumber` integer; after: `{Hostname: "ws-1", "OpenPorts.PortNumber": [22]}`.
 */
export function createCustomFileEngine(fileEngines: Record<string, AdapterEngine>, definition: CustomAdapterDefinition): AdapterEngine | null {
  const csv = fileEngines.csv;
  const xlsx = fileEngines.xlsx;
  if (!csv || !xlsx) return null;
  const mapped = definition.fields.filter((field): field is CustomFieldDefinition & { field: string } => Boolean(field.field));
  const columnMap = Object.fromEntries(mapped.map((field) => [field.column, field.field]));
  const typeByField = new Map(mapped.map((field) => [field.field, field.type]));
  const configFor = (config: Record<string, unknown>) => ({
    ...config, entity: definition.entity, column_map: columnMap, column_map_only: true, delimiter: config.delimiter ?? definition.delimiter, has_header: true,
  });
  const engineFor = (config: Record<string, unknown>) => (fileKindOf(config, definition) === 'xlsx' ? xlsx : csv);
  async function* fetch(context: FetchContext): AsyncGenerator<FetchedRecord> {
    const config = configFor(context.config);
    for await (const record of engineFor(config).fetch({ ...context, config })) {
      const fields: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(record.fields)) fields[field] = convertValue(typeByField.get(field) ?? 'string', value);
      yield { ...record, fields };
    }
  }
  return {
    name: 'custom-file',
    test: (context) => {
      const config = configFor(context.config);
      return engineFor(config).test({ ...context, config });
    },
    fetch,
  };
}
