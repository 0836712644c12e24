import { FeedError } from '../avm/feedText.js';

// The OS lifecycle feed as endoflife.date publishes it, in either of its API's shapes:
// - API v1 (https://endoflife.date/api/v1/products/full, or one product at /api/v1/products/<name>): an object whose
//   `result` lists products (or is one), each with its `releases` (`name`, `releaseDate`, `isLts`, `isEol` and
//   `eolFrom`, `isEoas` and `eoasFrom`, `isEoes` and `eoesFrom`, `latest`);
// - API v0 (https://endoflife.date/api/<product>.json): the list of one product's cycles (`cycle`, `releaseDate`,
//   `eol`, `support`, `extendedSupport`, `latest`, `lts`), each phase a date or a boolean. Its product is not in the
//   file: it is the file's or address's name (ubuntu.json), as the API names it.
// The whole catalogue is a few megabytes, so a file is read whole, up to a bound, rather than streamed.

/** One release cycle as stored (`lifecycle_cycles`): a phase is its last day, or only whether it had ended; null when the product has no such phase. */
export type LifecycleRow = {
  product: string; cycle: string; label: string | null; codename: string | null; release_date: string | null; lts: boolean;
  eol_date: string | null; eol_ended: boolean; eoas_date: string | null; eoas_ended: boolean | null; eoes_date: string | null; eoes_ended: boolean | null;
  latest: string | null; latest_date: string | null;
};

const maximumChars = 64 * 1024 * 1024;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const productPattern = /^[a-z0-9][a-z0-9._+-]*$/;

type Entry = Record<string, unknown>;
type Phase = { date: string | null; ended: boolean };

const isObject = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null);

/** Where a cycle sits in the file, for errors: `Cycle 3 (22.04) of ubuntu`. */
const place = (product: string, position: number, cycle?: string | null) => `Cycle ${position}${cycle ? ` (${cycle})` : ''} of ${product}`;

function dateOrNull(value: unknown, field: string, where: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && datePattern.test(value)) return value;
  throw new FeedError(`${where} has an unreadable ${field} (${JSON.stringify(value)}): a YYYY-MM-DD date or null is expected.`);
}

/** A v0 phase: a date, or a boolean (`endedWhenTrue` says which way: `eol: true` has ended, `support: true` has not). */
function v0Phase(value: unknown, field: string, where: string, endedWhenTrue: boolean): Phase | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return { date: null, ended: value === endedWhenTrue };
  if (typeof value === 'string' && datePattern.test(value)) return { date: value, ended: false };
  throw new FeedError(`${where} has an unreadable ${field} (${JSON.stringify(value)}): a YYYY-MM-DD date or true/false is expected.`);
}

/** A v1 phase from its pair (`isEol` and `eolFrom`); null when the product has no such phase. */
function v1Phase(entry: Entry, flag: string, from: string, where: string): Phase | null {
  const ended = entry[flag];
  const date = dateOrNull(entry[from], from, where);
  if (ended === undefined || ended === null) return date ? { date, ended: false } : null;
  if (typeof ended !== 'boolean') throw new FeedError(`${where} has an unreadable ${flag} (${JSON.stringify(ended)}): true or false is expected.`);
  return { date, ended };
}

function row(product: string, cycle: string, fields: Omit<LifecycleRow, 'product' | 'cycle' | 'eol_date' | 'eol_ended' | 'eoas_date' | 'eoas_ended' | 'eoes_date' | 'eoes_ended'>, eol: Phase, eoas: Phase | null, eoes: Phase | null): LifecycleRow {
  return {
    product, cycle, ...fields, eol_date: eol.date, eol_ended: eol.ended,
    eoas_date: eoas?.date ?? null, eoas_ended: eoas ? eoas.ended : null, eoes_date: eoes?.date ?? null, eoes_ended: eoes ? eoes.ended : null,
  };
}

/** One cycle of the API v0 list. */
function v0Row(product: string, value: unknown, position: number): LifecycleRow {
  if (!isObject(value)) throw new FeedError(`${place(product, position)} is not an object.`);
  const cycle = text(value.cycle);
  const where = place(product, position, cycle);
  if (!cycle) throw new FeedError(`${where} has no cycle.`);
  const eol = v0Phase(value.eol, 'eol', where, true);
  if (!eol) throw new FeedError(`${where} has no eol: a YYYY-MM-DD date or true/false is expected.`);
  const lts = value.lts === true || (typeof value.lts === 'string' && datePattern.test(value.lts));
  return row(product, cycle, {
    label: null, codename: text(value.codename), release_date: dateOrNull(value.releaseDate, 'releaseDate', where), lts,
    latest: text(value.latest), latest_date: dateOrNull(value.latestReleaseDate, 'latestReleaseDate', where),
  }, eol, v0Phase(value.support, 'support', where, false), v0Phase(value.extendedSupport, 'extendedSupport', where, false));
}

/** One release of an API v1 product. */
function v1Row(product: string, value: unknown, position: number): LifecycleRow {
  if (!isObject(value)) throw new FeedError(`${place(product, position)} is not an object.`);
  const cycle = text(value.name);
  const where = place(product, position, cycle);
  if (!cycle) throw new FeedError(`${where} has no name.`);
  const eol = v1Phase(value, 'isEol', 'eolFrom', where);
  if (!eol) throw new FeedError(`${where} has neither isEol nor eolFrom.`);
  const latest = isObject(value.latest) ? value.latest : {};
  return row(product, cycle, {
    label: text(value.label), codename: text(value.codename), release_date: dateOrNull(value.releaseDate, 'releaseDate', where), lts: value.isLts === true,
    latest: text(latest.name), latest_date: dateOrNull(latest.date, 'latest.date', where),
  }, eol, v1Phase(value, 'isEoas', 'eoasFrom', where), v1Phase(value, 'isEoes', 'eoesFrom', where));
}

function v1Product(value: unknown, position: number): LifecycleRow[] {
  if (!isObject(value)) throw new FeedError(`Product ${position} of the lifecycle feed is not an object.`);
  const product = text(value.name)?.toLowerCase();
  if (!product || !productPattern.test(product)) throw new FeedError(`Product ${position} of the lifecycle feed has no valid name (${JSON.stringify(value.name ?? null)}).`);
  if (!Array.isArray(value.releases)) throw new FeedError(`Product ${position} (${product}) of the lifecycle feed has no releases list.`);
  return value.releases.map((release, index) => v1Row(product, release, index + 1));
}

/** The product an API v0 file is about, from its name or address: `https://endoflife.date/api/ubuntu.json` → ubuntu. */
export function productOfSource(source: string): string | null {
  const name = (source.trim().split(/[\s/\\]/).pop() ?? '').replace(/[?#].*$/, '').replace(/\.gz$/i, '').replace(/\.json$/i, '').toLowerCase();
  return productPattern.test(name) ? name : null;
}

/** The rows of a whole lifecycle document; `source` names an API v0 file's product. */
function documentRows(document: unknown, source: string): LifecycleRow[] {
  if (Array.isArray(document)) {
    const product = productOfSource(source);
    if (!product) throw new FeedError('The file is an endoflife.date API v0 list of release cycles, which does not name its product: name the file after the product, as the API does (ubuntu.json).');
    return document.map((cycle, index) => v0Row(product, cycle, index + 1));
  }
  if (isObject(document) && Array.isArray(document.result)) return document.result.flatMap((product, index) => v1Product(product, index + 1));
  if (isObject(document) && isObject(document.result) && 'releases' in document.result) return v1Product(document.result, 1);
  throw new FeedError('The file is not an endoflife.date feed: an API v1 answer (an object whose result lists products with their releases) or an API v0 list of release cycles is expected.');
}

/**
 * Reads an endoflife.date feed's text: one row per release cycle. A file that is not JSON, not one of the API's
 * shapes, or holds a cycle without a readable end of life fails the import, naming the product and cycle.
 */
export async function* lifecycleRows(chunks: AsyncIterable<string>, source: string): AsyncGenerator<LifecycleRow> {
  const parts: string[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    length += chunk.length;
    if (length > maximumChars) throw new FeedError(`The lifecycle file is larger than ${maximumChars / 1024 / 1024} MB, which no endoflife.date feed is (its whole catalogue is a few MB).`);
    parts.push(chunk);
  }
  let document: unknown;
  try {
    document = JSON.parse(parts.join(''));
  } catch (error) {
    throw new FeedError(`The lifecycle file is not JSON: ${(error as Error).message}.`);
  }
  const rows = documentRows(document, source);
  if (!rows.length) throw new FeedError('The lifecycle file holds no release cycles.');
  yield* rows;
}
