import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export type SchemaDocument = { $id: string; title?: string; [keyword: string]: unknown };
export type LoadedSchema = { file: string; schema: SchemaDocument };

const schemaIdPrefix = 'cartograph:';

function listJsonFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return listJsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** Every JSON Schema under schemas/ (a document whose `$id` starts with `cartograph:`), sorted by id. */
export function loadSchemas(schemasFolder: string): LoadedSchema[] {
  return listJsonFiles(schemasFolder)
    .map((path) => ({ file: relative(schemasFolder, path), schema: JSON.parse(readFileSync(path, 'utf8')) as SchemaDocument }))
    .filter(({ schema }) => typeof schema.$id === 'string' && schema.$id.startsWith(schemaIdPrefix))
    .sort((left, right) => left.schema.$id.localeCompare(right.schema.$id));
}

/** `cartograph:api/token-request` → `api_token_request`: a JavaScript identifier for generated exports. */
export function exportNameForSchemaId(schemaId: string): string {
  return schemaId.slice(schemaIdPrefix.length).replace(/[^A-Za-z0-9]+/g, '_');
}
