import type { Queryable } from '../../db/database.js';
import type { CatalogueAdapter } from '../catalogue.js';
import type { SecretRule } from '../../auth/secretRule.js';
import type { EntityKind } from '../engine.js';
import type { AdapterRuntime } from '../runtime.js';
import { catalogueEntryOf, customConnectionSchemaId, type CustomAdapterDefinition, type CustomFieldDefinition } from './customEngine.js';

export type CustomAdapterRow = {
  id: number; company_id: number; slug: string; name: string; description: string; categories: string[]; entity: string; file_type: string;
  delimiter: string; fields: CustomFieldDefinition[]; created_at: Date; updated_at: Date;
};

export const customAdapterColumns = 'id, company_id, slug, name, description, categories, entity, file_type, delimiter, fields, created_at, updated_at';

export function definitionOf(row: CustomAdapterRow): CustomAdapterDefinition {
  return {
    id: row.id, companyId: row.company_id, slug: row.slug, name: row.name, description: row.description, categories: row.categories,
    entity: row.entity as EntityKind, fileType: row.file_type === 'xlsx' ? 'xlsx' : 'csv', delimiter: row.delimiter, fields: row.fields,
  };
}

/** The secret rule of the CSV connection schema custom connections share (a URL source's authorization header, its file URL and proxy). */
function sharedSecretRule(runtime: AdapterRuntime): SecretRule {
  const csv = [...runtime.catalogue.values()].find((adapter) => adapter.connectionSchemaId === customConnectionSchemaId);
  if (!csv) return { secretFields: new Set(['authorization_header']) };
  return { secretFields: csv.secretFields, destinationFields: csv.destinationFields, secretTitles: csv.secretTitles };
}

/**
 * The adapter a company's connection names: the catalogue's, else one of the company's own custom adapters (a
 * custom slug never shadows a catalogue slug, and another company's custom adapter is never found).
 */
export async function adapterForCompany(db: Queryable, runtime: AdapterRuntime, companyId: number, slug: string): Promise<CatalogueAdapter | undefined> {
  const catalogued = runtime.catalogue.get(slug);
  if (catalogued) return catalogued;
  const [row] = await db.query<CustomAdapterRow>(`select ${customAdapterColumns} from custom_adapters where company_id = $1 and slug = $2`, [companyId, slug]);
  return row ? catalogueEntryOf(definitionOf(row), sharedSecretRule(runtime)) : undefined;
}

/** Every custom adapter of a company in the catalogue's shape, by slug (for lists of connections). */
export async function customAdaptersOf(db: Queryable, runtime: AdapterRuntime, companyId: number): Promise<Map<string, CatalogueAdapter>> {
  const rows = await db.query<CustomAdapterRow>(`select ${customAdapterColumns} from custom_adapters where company_id = $1`, [companyId]);
  const secrets = sharedSecretRule(runtime);
  return new Map(rows.map((row) => [row.slug, catalogueEntryOf(definitionOf(row), secrets)]));
}
