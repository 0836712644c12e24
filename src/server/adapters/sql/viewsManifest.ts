// A vendor database read through the views the vendor documents (WSUS's PUBLIC_VIEWS): the adapter declares each
// stream's SELECT, the key its pages follow and the Cartograph field of each column in schemas/adapters/<slug>/views.json
// (schemas/adapters/views.meta.json is the authority); the sql-views engine runs it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validatorsById } from '../../../generated/validators.js';
import type { EntityKind, FetchedRecord } from '../engine.js';
import { listFields } from '../files/fieldMapping.js';

export const viewsSchemaId = 'cartograph:adapters/views-meta';

export type ViewsMapping = Record<string, string | { column: string; split: string }>;

export type ViewsStream = {
  name: string;
  entity: EntityKind;
  query: string;
  key: string[];
  mapping: ViewsMapping;
  enabled_by?: string;
};

export type ViewsManifest = { dialect: 'sqlserver'; database: string; streams: ViewsStream[] };

const adaptersFolder = fileURLToPath(new URL('../../../../schemas/adapters', import.meta.url));

/** Validation errors of a views manifest as readable lines (empty when valid). */
export function viewsManifestErrors(candidate: unknown): string[] {
  const validate = validatorsById[viewsSchemaId];
  if (!validate) throw new Error(`No precompiled validator for ${viewsSchemaId}: run npm run codegen`);
  if (validate(candidate)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

const loaded = new Map<string, ViewsManifest | null>();

/** Reads and validates schemas/adapters/<slug>/views.json (once per process); an invalid one is a programming error. */
export function loadViewsManifest(slug: string, folder = adaptersFolder): ViewsManifest | null {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw new Error(`Invalid adapter slug ${slug}`);
  const cacheKey = `${folder}/${slug}`;
  if (loaded.has(cacheKey)) return loaded.get(cacheKey)!;
  const file = `${folder}/${slug}/views.json`;
  const manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : null;
  if (manifest) {
    const errors = viewsManifestErrors(manifest);
    if (errors.length) throw new Error(`Invalid views manifest for ${slug}: ${errors.slice(0, 5).join('; ')}`);
  }
  loaded.set(cacheKey, manifest as ViewsManifest | null);
  return manifest as ViewsManifest | null;
}

/** A key value as a T-SQL literal: numbers as written, text as N'…' with its quotes doubled. */
export function sqlLiteral(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return `N'${value.replaceAll("'", "''")}'`;
  throw new Error(`A key column holds ${value === null ? 'NULL' : typeof value}: keys must be non-NULL text or numbers.`);
}

const bracketed = (column: string) => `[${column.replaceAll(']', ']]')}]`;

/**
 * The query of one page: the stream's SELECT as a derived table, the rows after the previous page's last key, in key
 * order. Before: key (A, B), last row A='x', B=7, 500 rows; after:
 * `SELECT TOP (500) * FROM (<query>) AS page WHERE [A] > N'x' OR ([A] = N'x' AND [B] > 7) ORDER BY [A], [B]`.
 */
export function pageQuery(stream: ViewsStream, after: unknown[] | null, pageSize: number): string {
  const conditions = after
    ? stream.key.map((column, index) => [...stream.key.slice(0, index).map((earlier, at) => `${bracketed(earlier)} = ${sqlLiteral(after[at])}`), `${bracketed(column)} > ${sqlLiteral(after[index])}`].join(' AND '))
    : [];
  const where = conditions.length ? ` WHERE ${conditions.map((condition) => (conditions.length > 1 && condition.includes(' AND ') ? `(${condition})` : condition)).join(' OR ')}` : '';
  return `SELECT TOP (${Math.trunc(pageSize)}) * FROM (${stream.query}) AS page${where} ORDER BY ${stream.key.map(bracketed).join(', ')}`;
}

/** One value of a mapped column as a field value: text trimmed (empty is nothing), dates as ISO text, lists split. */
function fieldValue(field: string, value: unknown, split: string | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  let result: unknown = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value.trim() : value;
  if (result === '') return undefined;
  if (split && typeof result === 'string') result = result.split(split).map((item) => item.trim()).filter(Boolean);
  if (listFields.has(field) && !Array.isArray(result)) result = [result];
  return Array.isArray(result) && !result.length ? undefined : result;
}

/** One row as a record of the stream's entity: mapped columns become fields, the whole row is the raw record. */
export function recordFromView(row: Record<string, unknown>, stream: ViewsStream): FetchedRecord {
  const fields: Record<string, unknown> = {};
  for (const [field, source] of Object.entries(stream.mapping)) {
    const value = fieldValue(field, row[typeof source === 'string' ? source : source.column], typeof source === 'string' ? undefined : source.split);
    if (value !== undefined) fields[field] = value;
  }
  return { entity: stream.entity, fields, raw: row };
}
