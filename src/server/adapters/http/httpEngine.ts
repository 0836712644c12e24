// The declarative HTTP engine: runs an adapter's manifest.json (see README.md in this folder).
import { classifyHttpStatus, classifyNetworkError } from '../connectivity.js';
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { loadManifest, type ChildrenSpec, type Manifest, type StreamSpec } from './manifest.js';
import { pages } from './paginate.js';
import { ResponseParseError } from './response.js';
import { ConfigurationError, HttpSession, HttpStatusError, transportOptionsFor } from './session.js';
import { compileTemplate, render, renderCompiled, TemplateError, toText, truthy, type Compiled, type Scope } from './template.js';
import { TransportError } from './transport.js';

type MappedSource = { record: unknown; parent?: unknown };

function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

type CompiledMapping = [field: string, templates: Compiled | Compiled[]][];
const compiledMappings = new WeakMap<StreamSpec, CompiledMapping>();

function withoutEmpty(values: unknown[]): unknown[] {
  return values.some(isEmptyValue) ? values.filter((item) => !isEmptyValue(item)) : values;
}

function compiledMapping(stream: StreamSpec): CompiledMapping {
  let mapping = compiledMappings.get(stream);
  if (!mapping) {
    mapping = Object.entries(stream.mapping).map(([field, templates]) => [field, Array.isArray(templates) ? templates.map(compileTemplate) : compileTemplate(templates)]);
    compiledMappings.set(stream, mapping);
  }
  return mapping;
}

/** Entity fields of each vendor record of a page under the stream's mapping; empty values are left out. */
export function mapRecords(stream: StreamSpec, sources: MappedSource[], config: Record<string, unknown>, extra: Scope = {}): FetchedRecord[] {
  const mapping = compiledMapping(stream);
  // One scope object for the page, updated per record: rendering is synchronous and keeps no reference to it.
  const scope: Scope = { ...extra, config, record: undefined, parent: undefined };
  return sources.map((source) => {
    scope.record = source.record;
    scope.parent = source.parent;
    const fields: Record<string, unknown> = {};
    for (const [field, template] of mapping) {
      let value = Array.isArray(template) ? template.flatMap((item) => [renderCompiled(item, scope)].flat()) : renderCompiled(template, scope);
      if (Array.isArray(value)) value = withoutEmpty(value);
      if (!isEmptyValue(value)) fields[field] = value;
    }
    return { entity: stream.entity, fields, raw: source.record };
  });
}

/** Records of a children chain for one page of parents: per parent, or per batch of `batch_size` parents. */
async function* childPages(session: HttpSession, children: ChildrenSpec, parents: unknown[], label: string, extra: Scope): AsyncGenerator<MappedSource[]> {
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
      else yield page.records.map((record) => ({ record, parent: group.parent }));
    }
  }
}

/** Every record of one stream, page by page (children fetched as each parent page arrives). */
async function* streamPages(session: HttpSession, stream: StreamSpec, extra: Scope, label: string): AsyncGenerator<FetchedRecord[]> {
  for await (const page of pages(session, stream, session.scope(extra), label)) {
    if (stream.children) {
      for await (const sources of childPages(session, stream.children, page.records, label, extra)) yield mapRecords(stream, sources, session.config, extra);
    } else yield mapRecords(stream, page.records.map((record) => ({ record })), session.config, extra);
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

/** Streams every enabled stream of a manifest in order; throws when the fetch as a whole fails. */
export async function* fetchManifest(manifest: Manifest, context: FetchContext): AsyncGenerator<FetchedRecord> {
  const session = new HttpSession(manifest, context.config, context.signal, context.warn);
  try {
    for (const stream of manifest.streams) {
      if (stream.when !== undefined && !truthy(render(stream.when, { config: context.config }))) continue;
      for await (const records of runStream(session, stream)) for (const record of records) yield record;
    }
  } finally {
    await session.close();
  }
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
