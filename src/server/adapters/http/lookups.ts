// Reference records a stream's records name but do not carry (Qualys detections name a QID, whose CVEs live in the
// KnowledgeBase; Rapid7 findings name a check, whose CVEs live in its vulnerability definition). Before a page is
// mapped, the keys its records name that were not fetched yet are fetched in batches, and the mapping reads the
// records as `lookup.<name>[key]`. Each key is fetched once per fetch, and a key the vendor does not answer is
// remembered as absent so it is not asked again.
import type { LookupSpec, StreamSpec } from './manifest.js';
import { pages } from './paginate.js';
import type { HttpSession } from './session.js';
import { compileTemplate, toText, type Renderer, type Scope } from './template.js';

const defaultBatchSize = 100;

type Table = Record<string, unknown>;

/** What a reference record is held as: the properties `keep` names, or the whole record. */
function kept(record: unknown, keep: string[] | undefined): unknown {
  if (!keep || record === null || typeof record !== 'object') return record;
  const held: Record<string, unknown> = {};
  for (const name of keep) if (Object.hasOwn(record, name)) held[name] = (record as Record<string, unknown>)[name];
  return held;
}

class Lookup {
  // Null prototype: keys are vendor data, and `lookup.kb['__proto__']` must be an absent key, not Object.prototype.
  readonly table: Table = Object.create(null) as Table;
  private readonly keysOf: Renderer;
  private readonly keyOf: Renderer;
  private failed = false;

  constructor(readonly spec: LookupSpec) {
    this.keysOf = compileTemplate(spec.keys);
    this.keyOf = compileTemplate(spec.key);
  }

  /** The keys the page's records name that are not in the table yet. */
  private missing(records: unknown[], scope: Scope): string[] {
    const wanted = new Set<string>();
    for (const record of records) {
      scope.record = record;
      for (const key of [this.keysOf(scope)].flat()) {
        if (key === undefined || key === null || key === '') continue;
        const text = toText(key);
        if (!(text in this.table)) wanted.add(text);
      }
    }
    return [...wanted];
  }

  /**
   * Fetches what the page's records need. A lookup that fails (the account may not read the reference data) warns
   * once and is not tried again in this fetch: the records go on without it rather than the stream failing.
   */
  async fill(session: HttpSession, records: unknown[], parent: unknown, extra: Scope, label: string): Promise<void> {
    if (this.failed) return;
    const keys = this.missing(records, { ...extra, config: session.config, parent });
    const batchSize = this.spec.batch_size ?? defaultBatchSize;
    const lookupLabel = `${label} → lookup ${this.spec.name}`;
    try {
      for (let start = 0; start < keys.length; start += batchSize) {
        const batch = keys.slice(start, start + batchSize);
        for (const key of batch) this.table[key] = null;
        for await (const page of pages(session, this.spec, session.scope({ ...extra, keys: batch, key: batch[0] }), lookupLabel)) {
          for (const record of page.records) {
            const key = this.keyOf({ record });
            if (key !== undefined && key !== null && key !== '') this.table[toText(key)] = kept(record, this.spec.keep);
          }
        }
      }
    } catch (error) {
      if (session.signal.aborted) throw error;
      this.failed = true;
      session.warn(`${lookupLabel} failed, so its records lack what it adds: ${(error as Error).message}`);
    }
  }
}

/** The lookups of one stream during one fetch. */
export class StreamLookups {
  private readonly lookups: Lookup[];

  constructor(stream: StreamSpec) {
    this.lookups = (stream.lookups ?? []).map((spec) => new Lookup(spec));
  }

  get empty(): boolean {
    return this.lookups.length === 0;
  }

  /** Fetches the reference records a page needs; answers the scope the mapping reads them from (`lookup`). */
  async forPage(session: HttpSession, records: unknown[], parent: unknown, extra: Scope, label: string): Promise<Scope> {
    const lookup: Table = {};
    for (const each of this.lookups) {
      await each.fill(session, records, parent, extra, label);
      lookup[each.spec.name] = each.table;
    }
    return { ...extra, lookup };
  }
}
