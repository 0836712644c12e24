// The declarative HTTP engine: runs an adapter's manifest.json (see README.md in this folder).
import { classifyHttpStatus, classifyNetworkError } from '../connectivity.js';
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { loadManifest, type ChildrenSpec, type Manifest, type StreamSpec } from './manifest.js';
import { pages } from './paginate.js';
import { ResponseParseError } from './response.js';
import { ConfigurationError, HttpSession, HttpStatusError, transportOptionsFor } from './session.js';
import { compileTemplate, render, TemplateError, toText, truthy, type Renderer, type Scope } from './template.js';
import { TransportError } from './transport.js';

function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function withoutEmpty(values: unknown[]): unknown[] {
  return values.some(isEmptyValue) ? values.filter((item) => !isEmptyValue(item)) : values;
}

/** A list of templates renders to their values concatenated, a list value adding its items. */
function concatenated(renderers: Renderer[]): Renderer {
  return (scope) => {
    const values: unknown[] = [];
    for (const renderer of renderers) {
      const value = renderer(scope);
      if (Array.isArray(value)) for (const item of value) values.push(item);
      else values.push(value);
    }
    return values;
  };
}

type CompiledMapping = { fields: string[]; renderers: Renderer[] };
const compiledMappings = new WeakMap<StreamSpec, CompiledMapping>();

function compiledMapping(stream: StreamSpec): CompiledMapping {
  let mapping = compiledMappings.get(stream);
  if (!mapping) {
    const entries = Object.entries(stream.mapping);
    mapping = {
      fields: entries.map(([field]) => field),
      renderers: entries.map(([, templates]) => (Array.isArray(templates) ? concatenated(templates.map(compileTemplate)) : compileTemplate(templates))),
    };
    compiledMappings.set(stream, mapping);
  }
  return mapping;
}

/**
 * The fields object of one record from its rendered values (undefined ones are left out). The first fields each
 * have their own store statement on purpose: V8 keeps an inline cache per statement, which stays monomorphic for a
 * mapping, whereas one store in a loop sees every field name and falls back to V8's generic keyed store. On the
 * 100k-record bench this cut the cost of mapping by a quarter (instructions counted with callgrind). Fields past
 * the sixteenth (rare) are stored in a loop.
 */
function fieldsOf(names: string[], values: unknown[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (values[0] !== undefined) fields[names[0]] = values[0];
  if (values[1] !== undefined) fields[names[1]] = values[1];
  if (values[2] !== undefined) fields[names[2]] = values[2];
  if (values[3] !== undefined) fields[names[3]] = values[3];
  if (values[4] !== undefined) fields[names[4]] = values[4];
  if (values[5] !== undefined) fields[names[5]] = values[5];
  if (values[6] !== undefined) fields[names[6]] = values[6];
  if (values[7] !== undefined) fields[names[7]] = values[7];
  if (values[8] !== undefined) fields[names[8]] = values[8];
  if (values[9] !== undefined) fields[names[9]] = values[9];
  if (values[10] !== undefined) fields[names[10]] = values[10];
  if (values[11] !== undefined) fields[names[11]] = values[11];
  if (values[12] !== undefined) fields[names[12]] = values[12];
  if (values[13] !== undefined) fields[names[13]] = values[13];
  if (values[14] !== undefined) fields[names[14]] = values[14];
  if (values[15] !== undefined) fields[names[15]] = values[15];
  for (let field = 16; field < values.length; field += 1) if (values[field] !== undefined) fields[names[field]] = values[field];
  return fields;
}

/**
 * Entity fields of each vendor record of a page under the stream's mapping (`parent` is the record a children chain
 * ran for); empty values are left out. This runs for every record of large fetches, hence the plain loops.
 */
export function mapRecords(stream: StreamSpec, records: unknown[], parent: unknown, config: Record<string, unknown>, extra: Scope = {}): FetchedRecord[] {
  const { fields: names, renderers } = compiledMapping(stream);
  // One scope object for the page, updated per record: rendering is synchronous and keeps no reference to it.
  const scope: Scope = { ...extra, config, record: undefined, parent };
  const mapped: FetchedRecord[] = new Array(records.length);
  const values: unknown[] = new Array(renderers.length);
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index];
    scope.record = record;
    for (let field = 0; field < renderers.length; field += 1) {
      let value = renderers[field](scope);
      if (Array.isArray(value)) value = withoutEmpty(value);
      values[field] = isEmptyValue(value) ? undefined : value;
    }
    mapped[index] = { entity: stream.entity, fields: fieldsOf(names, values), raw: record };
  }
  return mapped;
}

/** The records of one children page, and the parent record they were fetched for (none for batches). */
type ChildPage = { records: unknown[]; parent: unknown };

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
      if (children.children) yield* childPages(session, children.children, page.records, `${label} → children`, extra);
      else yield { records: page.records, parent: group.parent };
    }
  }
}

/** Every record of one stream, page by page (children fetched as each parent page arrives). */
async function* streamPages(session: HttpSession, stream: StreamSpec, extra: Scope, label: string): AsyncGenerator<FetchedRecord[]> {
  for await (const page of pages(session, stream, session.scope(extra), label)) {
    if (stream.children) {
      for await (const children of childPages(session, stream.children, page.records, label, extra)) yield mapRecords(stream, children.records, children.parent, session.config, extra);
    } else yield mapRecords(stream, page.records, undefined, session.config, extra);
  }
}

/** A stream once, or once per item of its `for_each` list (e.g. each configured ServiceNow table). */
async function* runStream(session: HttpSession, stream: StreamSpec): AsyncGenerator<FetchedRecord[]> {
  const label = `stream ${stream.name}`;
  if (stream.for_each === undefined) return yield* streamPages(session, stream, {}, label);
  const items = render(stream.for_each, { config: session.config });
  for (const item of [items ?? []].flat()) yield* streamPages(session, stream, { item }, `${label} (${toText(item).slice(0, 60)})`);
}

/** The precise failure reason for an error thrown by a check or a fetch. */
export function classifyFailure(error: unknown, target: string): ConnectivityResult {
  if (error instanceof HttpStatusError) return classifyHttpStatus(error.status, error.host, error.vendorMessage) ?? { ok: false, reason: 'http', detail: error.message };
  if (error instanceof TransportError) {
    if (error.kind === 'timeout') return { ok: false, reason: 'timeout', detail: `${target} did not answer in time (${error.message}).` };
    if (error.kind === 'network') return classifyNetworkError(error.cause, target);
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
    const options = { ...transportOptionsFor(manifest, context.config), maxAttempts: 1 };
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
  const session = new HttpSession(manifest, context.config, context.signal, context.warn);
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
