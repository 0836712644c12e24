// The declarative HTTP engine: runs an adapter's manifest.json (see README.md in this folder).
import { classifyHttpStatus, classifyNetworkError } from '../connectivity.js';
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { exportChunks } from './exportJob.js';
import { StreamLookups } from './lookups.js';
import { loadManifest, type ChildrenSpec, type Manifest, type StreamSpec } from './manifest.js';
import { pages } from './paginate.js';
import { mapRecords } from './recordMapping.js';
import { boundRecordSizes, defaultMaxRecordBytes } from './recordSize.js';
import { ResponseParseError } from './response.js';
import { ConfigurationError, HttpSession, HttpStatusError, transportOptionsFor } from './session.js';
import { render, TemplateError, toText, truthy, type Scope } from './template.js';
import { TransportError } from './transport.js';

/**
 * The records of one children page, the parent record they were fetched for (none for batches), the records above
 * that parent (nested chains, outermost first) and the page's size.
 */
type ChildPage = { records: unknown[]; parent: unknown; ancestors: unknown[]; bytes: number };

function ancestorsOf(scope: Scope): unknown[] {
  return Array.isArray(scope.ancestors) ? scope.ancestors : [];
}

/** Records of a children chain for one page of parents: per parent, or per batch of `batch_size` parents. */
async function* childPages(session: HttpSession, children: ChildrenSpec, parents: unknown[], label: string, extra: Scope): AsyncGenerator<ChildPage> {
  const groups: { scope: Scope; parent: unknown }[] = [];
  if (children.batch_size) {
    for (let start = 0; start < parents.length; start += children.batch_size) {
      const batch = parents.slice(start, start + children.batch_size);
      groups.push({ scope: { ...extra, batch, parent: batch[0] }, parent: undefined });
    }
  } else for (const parent of parents) groups.push({ scope: { ...extra, parent }, parent });
  for (const group of groups) {
    for await (const page of pages(session, children, session.scope(group.scope), `${label} → children`)) {
      // A nested chain's templates see the records above its parent as `ancestors` (outermost first): Nessus' host
      // detail needs the scan id of the scan its host came from.
      if (children.children) yield* childPages(session, children.children, page.records, `${label} → children`, { ...extra, ancestors: [...ancestorsOf(extra), group.parent ?? group.scope.batch] });
      else yield { records: page.records, parent: group.parent, ancestors: ancestorsOf(extra), bytes: page.response.bytes };
    }
  }
}

/** The mapped records of one page, with oversized records cut (and the connection warned). */
function mappedPage(session: HttpSession, stream: StreamSpec, records: unknown[], parent: unknown, bytes: number, extra: Scope, label: string): FetchedRecord[] {
  const mapped = mapRecords(stream, records, parent, session.config, extra);
  const warning = boundRecordSizes(mapped, bytes, session.manifest.max_record_bytes ?? defaultMaxRecordBytes, label);
  if (warning) session.warn(warning);
  return mapped;
}

/** The mapped records of one page, after fetching the reference records its lookups need. */
async function joinedPage(session: HttpSession, stream: StreamSpec, lookups: StreamLookups, records: unknown[], parent: unknown, bytes: number, extra: Scope, label: string) {
  const scope = lookups.empty ? extra : await lookups.forPage(session, records, parent, extra, label);
  return mappedPage(session, stream, records, parent, bytes, scope, label);
}

/** Every record of one stream, page by page (children fetched as each parent page arrives). */
async function* streamPages(session: HttpSession, stream: StreamSpec, lookups: StreamLookups, extra: Scope, label: string): AsyncGenerator<FetchedRecord[]> {
  for await (const page of pages(session, stream, session.scope(extra), label)) {
    if (stream.children) {
      // The mapping of a nested chain sees `ancestors` too (phpIPAM's section name above a subnet's addresses).
      for await (const children of childPages(session, stream.children, page.records, label, extra)) yield await joinedPage(session, stream, lookups, children.records, children.parent, children.bytes, children.ancestors.length ? { ...extra, ancestors: children.ancestors } : extra, label);
    } else yield await joinedPage(session, stream, lookups, page.records, undefined, page.response.bytes, extra, label);
  }
}

/** A stream's pages, once or per chunk of its export job (templates then see `job` and `chunk`). */
async function* streamOrExportPages(session: HttpSession, stream: StreamSpec, lookups: StreamLookups, extra: Scope, label: string): AsyncGenerator<FetchedRecord[]> {
  if (!stream.export) return yield* streamPages(session, stream, lookups, extra, label);
  for await (const { job, chunk } of exportChunks(session, stream.export, session.scope(extra), label)) yield* streamPages(session, stream, lookups, { ...extra, job, chunk }, `${label} (export chunk ${toText(chunk).slice(0, 40)})`);
}

/** A stream once, or once per item of its `for_each` list (e.g. each configured ServiceNow table); its lookups' records are shared by all. */
async function* runStream(session: HttpSession, stream: StreamSpec): AsyncGenerator<FetchedRecord[]> {
  const label = `stream ${stream.name}`;
  const lookups = new StreamLookups(stream);
  if (stream.for_each === undefined) return yield* streamOrExportPages(session, stream, lookups, {}, label);
  const items = render(stream.for_each, { config: session.config });
  for (const item of [items ?? []].flat()) yield* streamOrExportPages(session, stream, lookups, { item }, `${label} (${toText(item).slice(0, 60)})`);
}

/** The precise failure reason for an error thrown by a check or a fetch. */
export function classifyFailure(error: unknown, target: string): ConnectivityResult {
  if (error instanceof HttpStatusError) return classifyHttpStatus(error.status, error.host, error.vendorMessage) ?? { ok: false, reason: 'http', detail: error.message };
  if (error instanceof TransportError) {
    if (error.kind === 'timeout') return { ok: false, reason: 'timeout', detail: `${target} did not answer in time (${error.message}).` };
    if (error.kind === 'network') return classifyNetworkError(error.cause, target);
    if (error.kind === 'refused') return { ok: false, reason: 'refused', detail: error.message };
    return { ok: false, reason: 'protocol', detail: error.message };
  }
  if (error instanceof ConfigurationError || error instanceof TemplateError) return { ok: false, reason: 'invalid_config', detail: error.message };
  if (error instanceof ResponseParseError) return { ok: false, reason: 'protocol', detail: error.message };
  return { ok: false, reason: 'protocol', detail: (error as Error)?.message ?? String(error) };
}

function targetOf(manifest: Manifest, config: Record<string, unknown>): string {
  try {
    return new URL(toText(render(manifest.base_url ?? '', { config }))).host || 'the server';
  } catch {
    return 'the server';
  }
}

/** Runs a manifest's check: sign in and one request, answering success or a precise reason; never throws. */
export async function testManifest(manifest: Manifest, context: Omit<FetchContext, 'warn'>): Promise<ConnectivityResult> {
  let session: HttpSession | null = null;
  try {
    // One attempt: an administrator testing a connection wants the precise failure now, not after back-offs.
    const options = { ...transportOptionsFor(manifest, context.config, context.outbound), maxAttempts: 1 };
    session = new HttpSession(manifest, context.config, context.signal, () => undefined, options);
    const response = await session.call(manifest.check.request, session.scope(), 'connectivity check');
    const detail = manifest.check.detail ? toText(render(manifest.check.detail, session.scope({ response }))) : '';
    return { ok: true, detail: detail || `Connected to ${new URL(response.url).host}.` };
  } catch (error) {
    return classifyFailure(error, targetOf(manifest, context.config));
  } finally {
    await session?.close();
  }
}

/** Every enabled stream of a manifest in order, page by page; the session ends when the pages do (or are abandoned). */
async function* manifestPages(manifest: Manifest, context: FetchContext): AsyncGenerator<FetchedRecord[]> {
  const session = new HttpSession(manifest, context.config, context.signal, context.warn, transportOptionsFor(manifest, context.config, context.outbound));
  try {
    for (const stream of manifest.streams) {
      if (stream.when !== undefined && !truthy(render(stream.when, { config: context.config }))) continue;
      yield* runStream(session, stream);
    }
  } finally {
    await session.close();
  }
}

/**
 * The records of `pages` one at a time. Written by hand rather than as an async generator: handing over a record
 * of a page already held is then one settled promise, where a generator's yield costs several promise jobs, which
 * showed in fetches of 100k records. Calls to `next` that overlap wait for the same page.
 */
function eachRecord<T>(pages: AsyncGenerator<T[]>): AsyncIterableIterator<T> {
  let page: T[] = [];
  let index = 0;
  let refilling: Promise<boolean> | null = null;
  const refill = async (): Promise<boolean> => {
    const next = await pages.next();
    if (next.done) return false;
    page = next.value;
    index = 0;
    return true;
  };
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      while (index >= page.length) {
        refilling ??= refill().finally(() => {
          refilling = null;
        });
        if (!(await refilling)) return { done: true, value: undefined };
      }
      const value = page[index];
      index += 1;
      return { done: false, value };
    },
    // A consumer that stops early (break, an error in its loop) ends the pages, which closes the session.
    async return(value?: unknown) {
      page = [];
      await pages.return(undefined);
      return { done: true, value };
    },
  };
  return iterator;
}

/** Streams every enabled stream of a manifest in order; throws when the fetch as a whole fails. */
export function fetchManifest(manifest: Manifest, context: FetchContext): AsyncIterableIterator<FetchedRecord> {
  return eachRecord(manifestPages(manifest, context));
}

/** The `http` engine: finds the adapter's manifest by slug (cached) and runs it. */
export function createHttpEngine(load: (slug: string) => Manifest | null = loadManifest): AdapterEngine {
  const manifests = new Map<string, Manifest | null>();
  const manifestFor = (slug: string): Manifest => {
    if (!manifests.has(slug)) manifests.set(slug, load(slug));
    const manifest = manifests.get(slug);
    if (!manifest) throw new ConfigurationError(`adapter ${slug} has no manifest.json`);
    return manifest;
  };
  return {
    name: 'http',
    test: async (context) => {
      try {
        return await testManifest(manifestFor(context.adapter), context);
      } catch (error) {
        return classifyFailure(error, context.adapter);
      }
    },
    fetch: (context) => fetchManifest(manifestFor(context.adapter), context),
  };
}
