import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.js';
import { redactSecrets } from './secretRedaction.js';

/**
 * What a request changed, for its activity: the target's id (a create learns it only once it has run) and the
 * resource before and after. `before: null` is "did not exist" (a create), `after: null` "no longer exists" (a delete).
 */
export type ActivityChange = { targetId?: string | number; before?: unknown; after?: unknown };

declare module 'fastify' {
  interface FastifyRequest {
    activityChange: ActivityChange | null;
  }
}

/** Tells the request's activity what the handler changed; later notes add to earlier ones. */
export function noteChange(request: FastifyRequest, change: ActivityChange): void {
  request.activityChange = { ...request.activityChange, ...change };
}

// Beyond this a value is kept as a marker with its size and the start of its JSON: one huge document (a report
// layout, a custom adapter's mapping) must not make the activity log heavier than what it describes.
export const maxChangeBytes = 64 * 1024;

/** The marker a value too large to keep is stored as; the console shows its size and that it was cut. */
export type TruncatedValue = { $truncated: true; size_bytes: number; preview: string };

/** A change value as stored: secrets redacted, then cut to a marker when its JSON is over 64 kB. */
export function storableValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const redacted = redactSecrets(value);
  const text = JSON.stringify(redacted);
  const size = Buffer.byteLength(text, 'utf8');
  if (size <= maxChangeBytes) return redacted;
  // The preview is cut from the redacted JSON, so it holds no secret either.
  return { $truncated: true, size_bytes: size, preview: text.slice(0, maxChangeBytes / 4) } satisfies TruncatedValue;
}

type RouteShape = { method: string; url: string; body?: string };

const settingsSchemaPrefix = 'cartograph:settings/';

/**
 * Whether a route saves one settings document of the caller's company: a PUT of a `schemas/settings` document on a
 * URL without an id. Such documents are stored per company under their schema id (src/server/discovery/settings.ts).
 */
export const savesSettingsDocument = (route: RouteShape): boolean =>
  route.method === 'PUT' && Boolean(route.body?.startsWith(settingsSchemaPrefix)) && !route.url.includes(':');

async function storedSettingsDocument(db: Queryable, companyId: number, kind: string): Promise<unknown> {
  const [row] = await db.query<{ document: unknown }>('select document from resources where kind = $1 and company_id = $2 order by id limit 1', [kind, companyId]);
  return row?.document ?? null;
}

/**
 * Runs a route's handler and notes what every route of a kind changes without its handler saying so: a settings
 * document before and after its save, and the id a create answers.
 */
export async function runNotingChanges(db: Queryable, route: RouteShape, request: FastifyRequest, handle: () => Promise<unknown>): Promise<unknown> {
  const companyId = request.caller?.companyId;
  const settingsKind = companyId !== undefined && savesSettingsDocument(route) ? route.body! : null;
  const before = settingsKind ? await storedSettingsDocument(db, companyId!, settingsKind) : undefined;
  const result = await handle();
  if (settingsKind) noteChange(request, { before, after: await storedSettingsDocument(db, companyId!, settingsKind) });
  const answeredId = (result as { id?: unknown } | null)?.id;
  const isCreate = route.method === 'POST' && !route.url.includes(':');
  if (isCreate && request.activityChange?.targetId === undefined && (typeof answeredId === 'number' || typeof answeredId === 'string')) {
    noteChange(request, { targetId: answeredId });
  }
  return result;
}
