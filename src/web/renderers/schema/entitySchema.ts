import { queryOptions } from '@tanstack/react-query';
import { localizedSchema } from './localizedSchema';

/** The part of a property schema the renderers read (see schemas/README.md for the x- vocabulary). */
export type PropertySchema = {
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  enum?: unknown[];
  items?: PropertySchema;
  properties?: Record<string, PropertySchema>;
  readOnly?: boolean;
  writeOnly?: boolean;
  'x-secret'?: boolean;
  'x-order'?: number;
  'x-group'?: string;
  'x-widget'?: string;
  'x-list'?: boolean;
  /** English display names of enum values, as the schema file writes them (the console shows x-enum-labels). */
  'x-enum-titles'?: Record<string, string>;
  /** Option labels by value, from the message files (added by localizedSchema, never written in a schema file). */
  'x-enum-labels'?: Record<string, string>;
};

export type ResourceSchema = {
  path: string;
  scope?: 'tenant' | 'global';
  custom?: boolean;
  permissions?: Partial<Record<'view' | 'add' | 'change' | 'delete', string>>;
  search?: string[];
};

/** An entity schema of schemas/entities (or a settings schema): an object with properties and maybe a resource. */
export type EntitySchema = {
  $id: string;
  title?: string;
  description?: string;
  properties: Record<string, PropertySchema>;
  required?: string[];
  'x-resource'?: ResourceSchema;
  /** The list heading, from the message files (added by localizedSchema to schemas with `x-resource`). */
  'x-plural-title'?: string;
};

type SchemaModule = { default: EntitySchema } | EntitySchema;
// Lazy: each schema is its own small chunk, fetched by the page that renders it (the registry in src/generated holds
// every adapter form too and is far too large for a list page).
const schemaLoaders = import.meta.glob<SchemaModule>(['../../../../schemas/entities/*.json', '../../../../schemas/settings/*.json', '../../../../schemas/actions/*.json']);

/** `cartograph:entities/user` → the loader key of schemas/entities/user.json; null for other folders. */
export function schemaFileKey(schemaId: string): string | null {
  const match = /^cartograph:(entities|settings|actions)\/([a-z0-9_-]+)$/.exec(schemaId);
  return match ? `../../../../schemas/${match[1]}/${match[2]}.json` : null;
}

/**
 * Loads an entity schema by its $id, its texts in the console's language (localizedSchema); fails with a clear message
 * for an id that names no schema file.
 */
export async function loadEntitySchema(schemaId: string, loaders: Record<string, () => Promise<SchemaModule>> = schemaLoaders): Promise<EntitySchema> {
  const key = schemaFileKey(schemaId);
  const load = key ? loaders[key] : undefined;
  if (!load) throw new Error(`Unknown schema: ${schemaId}`);
  const module = await load();
  return localizedSchema('default' in module ? module.default : module);
}

/** Schemas are part of the build: loaded once, never stale. */
export const entitySchemaQuery = (schemaId: string) =>
  queryOptions({ queryKey: ['entity-schema', schemaId], queryFn: () => loadEntitySchema(schemaId), staleTime: Infinity, gcTime: Infinity });
