import { parseCpe } from '../../core/software/cpe.js';
import { FeedError, jsonFeedRows } from './feedText.js';

/** One product of NVD's CPE dictionary, as stored: its CPE vendor and product and the title people know it by. */
export type CpeRow = { vendor: string; product: string; title: string | null };

const anyVersion = (version: string) => version === '*' || version === '-' || version === '';

/**
 * A CPE name's title without its version, lower case: "Mozilla Firefox 115.0.2 ESR" of version 115.0.2 →
 * "mozilla firefox". Null when the title does not show the version it names (it cannot be cut reliably).
 */
export function baseTitle(title: string, version: string): string | null {
  let text = title.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!anyVersion(version)) {
    const at = text.indexOf(version.toLowerCase().replace(/\\/g, ''));
    if (at <= 0) return null;
    text = text.slice(0, at);
  }
  text = text.replace(/[\s\-_,:;(/]+$/, '').replace(/^the /, '').trim();
  return text.length >= 2 ? text.slice(0, 300) : null;
}

/** One `products[]` element of the CPE API 2.0 (`{cpe: {cpeName, deprecated, titles}}`); deprecated names are left out. */
function productRows(value: unknown, position: number): CpeRow[] {
  const cpe = ((value ?? {}) as { cpe?: { cpeName?: unknown; deprecated?: unknown; titles?: { title?: unknown; lang?: unknown }[] } }).cpe;
  const name = parseCpe(cpe?.cpeName);
  if (!cpe || !name) throw new FeedError(`Product ${position} of the CPE dictionary has no CPE 2.3 cpeName (${JSON.stringify(cpe?.cpeName ?? null)}).`);
  if (cpe.deprecated === true) return [];
  const titles = Array.isArray(cpe.titles) ? cpe.titles : [];
  const title = (titles.find((item) => item.lang === 'en') ?? titles[0])?.title;
  return [{ vendor: name.vendor, product: name.product, title: typeof title === 'string' ? baseTitle(title, name.version) : null }];
}

/** One `matchStrings[]` element of the CPE match criteria API 2.0: its criterion's product and those of the names it matches. */
function matchStringRows(value: unknown, position: number): CpeRow[] {
  const match = ((value ?? {}) as { matchString?: { criteria?: unknown; matches?: { cpeName?: unknown }[] } }).matchString;
  const criteria = parseCpe(match?.criteria);
  if (!match || !criteria) throw new FeedError(`Match string ${position} of the CPE match data has no CPE 2.3 criteria (${JSON.stringify(match?.criteria ?? null)}).`);
  const names = [criteria, ...(Array.isArray(match.matches) ? match.matches : []).map((item) => parseCpe(item?.cpeName))];
  const seen = new Map<string, CpeRow>();
  for (const name of names) if (name) seen.set(`${name.vendor}:${name.product}`, { vendor: name.vendor, product: name.product, title: null });
  return [...seen.values()];
}

/** Reads ahead until the document shows which list it holds: the CPE API's `products` or the match API's `matchStrings`. */
async function listKeyOf(chunks: AsyncIterator<string>, head: string[]): Promise<'products' | 'matchStrings'> {
  let text = '';
  for (;;) {
    const found = /"(products|matchStrings)"\s*:/.exec(text);
    if (found) return found[1] as 'products' | 'matchStrings';
    if (text.length > 1024 * 1024) break;
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    text += next.value;
  }
  throw new FeedError('The file is neither a CPE API 2.0 answer (a "products" list) nor CPE match data ("matchStrings"): it is not NVD CPE data.');
}

/**
 * Streams NVD's CPE dictionary: pages saved from the CPE API 2.0 (`{"format": "NVD_CPE", "products": [{"cpe": …}]}`)
 * or from the CPE match criteria API 2.0 / its feed files (`{"format": "NVD_CPEMatchString", "matchStrings":
 * [{"matchString": …}]}`), one row per CPE product named. An entry that cannot be read fails the import naming it.
 */
export async function* cpeRows(chunks: AsyncIterable<string>): AsyncGenerator<CpeRow> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: string[] = [];
  const listKey = await listKeyOf(iterator, head);
  async function* all(): AsyncGenerator<string> {
    yield* head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const names = listKey === 'products'
    ? { feed: 'The CPE dictionary', entry: 'product', entries: 'products' }
    : { feed: 'The CPE match data', entry: 'match string', entries: 'match strings' };
  for await (const rows of jsonFeedRows(all(), 4 * 1024 * 1024, names, listKey === 'products' ? productRows : matchStringRows, listKey)) yield* rows;
}
