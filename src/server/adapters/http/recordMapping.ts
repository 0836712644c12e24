// Vendor records → Cartograph fields under a stream's mapping: one record per vendor record, or one per entry of
// the list `expand` names (a host's detections, a computer's applications), and a bound on the size of each.
import type { FetchedRecord } from '../engine.js';
import type { StreamSpec } from './manifest.js';
import { compileTemplate, renderDeep, type Renderer, type Scope } from './template.js';

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

/** The renderer of a stream's `raw`: a template, or an object of templates (a few named fields of the record). */
function rawRenderer(raw: StreamSpec['raw']): Renderer | null {
  if (raw === undefined) return null;
  if (typeof raw === 'string') return compileTemplate(raw);
  return (scope) => renderDeep(raw, scope);
}

type CompiledMapping = { fields: string[]; renderers: Renderer[]; expand: Renderer | null; raw: Renderer | null };
const compiledMappings = new WeakMap<StreamSpec, CompiledMapping>();

function compiledMapping(stream: StreamSpec): CompiledMapping {
  let mapping = compiledMappings.get(stream);
  if (!mapping) {
    const entries = Object.entries(stream.mapping);
    mapping = {
      fields: entries.map(([field]) => field),
      renderers: entries.map(([, templates]) => (Array.isArray(templates) ? concatenated(templates.map(compileTemplate)) : compileTemplate(templates))),
      expand: stream.expand ? compileTemplate(stream.expand) : null,
      raw: rawRenderer(stream.raw),
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

/** The entries `expand` gives for one record: a list, one object (XML's single element), or none. */
function entriesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value !== null && typeof value === 'object' ? [value] : [];
}

/**
 * Entity fields of each vendor record of a page under the stream's mapping (`parent` is the record a children chain
 * ran for); empty values are left out. With `expand`, each entry of the record's list becomes one record: templates
 * see it as `entry` beside the `record` it belongs to, and the entry is the raw record kept (the stream's `raw`, when
 * set, names what is kept instead). This runs for every record of large fetches, hence the plain loops.
 */
export function mapRecords(stream: StreamSpec, records: unknown[], parent: unknown, config: Record<string, unknown>, extra: Scope = {}): FetchedRecord[] {
  const { fields: names, renderers, expand, raw: keptPart } = compiledMapping(stream);
  // One scope object for the page, updated per record: rendering is synchronous and keeps no reference to it.
  const scope: Scope = { ...extra, config, record: undefined, entry: undefined, parent };
  const mapped: FetchedRecord[] = [];
  const values: unknown[] = new Array(renderers.length);
  const mapOne = (raw: unknown) => {
    for (let field = 0; field < renderers.length; field += 1) {
      let value = renderers[field](scope);
      if (Array.isArray(value)) value = withoutEmpty(value);
      values[field] = isEmptyValue(value) ? undefined : value;
    }
    // `raw` keeps only part of a vendor record (a Kubernetes secret's metadata, never its key material).
    mapped.push({ entity: stream.entity, fields: fieldsOf(names, values), raw: keptPart ? (keptPart(scope) ?? null) : raw });
  };
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index];
    scope.record = record;
    if (!expand) {
      mapOne(record);
      continue;
    }
    for (const entry of entriesOf(expand(scope))) {
      scope.entry = entry;
      mapOne(entry);
    }
  }
  return mapped;
}
