import { orderingOf, sortOfOrdering, type SortState } from '../../ui/Table/columns';

/** Search parameters as the router parses them (a value that reads as JSON comes back typed: `page=2` → 2). */
export type SearchParams = Record<string, unknown>;

/** What a list shows: the page, its size, the search or query text, the sort and (inventories) the columns. */
export type ListView = { page: number; size: number; text: string; sort: SortState; columns?: string[] };

/**
 * How a list's view is written in the URL. `text` names the text's parameter: `search` on generic lists (as the API
 * calls it), `query` on inventories (the links saved queries already make). `pinned` parts are always written, so
 * a copied link carries them even when they are the defaults; other parts only when they differ from the defaults.
 */
export type ViewCodec = { text: 'search' | 'query'; sizes: readonly number[]; pinned?: readonly ('size' | 'columns')[] };

const textOf = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

function positiveInteger(value: unknown): number | null {
  const number = typeof value === 'number' ? value : Number(textOf(value));
  return Number.isInteger(number) && number >= 1 ? number : null;
}

/** Column keys from `Hostname,OS.Type`; field keys never hold a comma. */
const columnsOf = (value: unknown): string[] => textOf(value).split(',').map((key) => key.trim()).filter(Boolean);

/** The URL parameters a view is written to. */
export const viewParamNames = (codec: ViewCodec): string[] => ['page', 'size', codec.text, 'sort', 'columns'];

/** Does the URL name any part of the view? A bare URL (a menu link) shows the defaults. */
export const namesView = (search: SearchParams, codec: ViewCodec): boolean => viewParamNames(codec).some((name) => search[name] !== undefined);

/**
 * The view a URL names; a missing or unreadable part is the default's.
 * Before: `{ page: 2, size: 20, search: 'ops', sort: '-username' }`; after: page 2, size 20, text "ops", username descending.
 */
export function viewOfSearch(search: SearchParams, defaults: ListView, codec: ViewCodec): ListView {
  const size = positiveInteger(search.size);
  const columns = columnsOf(search.columns);
  return {
    page: positiveInteger(search.page) ?? defaults.page,
    size: size !== null && codec.sizes.includes(size) ? size : defaults.size,
    text: search[codec.text] === undefined ? defaults.text : textOf(search[codec.text]),
    sort: search.sort === undefined ? defaults.sort : sortOfOrdering(textOf(search.sort)),
    ...((columns.length || defaults.columns) && { columns: columns.length ? columns : defaults.columns }),
  };
}

/**
 * The search parameters of a view, other parameters of the URL kept (`adapter=csvfile`). Parts equal to the defaults
 * are left out unless pinned. Before: page 1, size 20, text "ops", no sort; after: `{ size: 20, search: 'ops' }`.
 */
export function searchWithView(previous: SearchParams, view: ListView, defaults: ListView, codec: ViewCodec): SearchParams {
  const next: SearchParams = Object.fromEntries(Object.entries(previous).filter(([name]) => !viewParamNames(codec).includes(name)));
  const pinned = new Set(codec.pinned ?? []);
  const columns = view.columns?.join(',');
  // In the order people read them: what is searched, how it is sorted, which page, then the layout.
  if (view.text !== '') next[codec.text] = view.text;
  if (view.sort) next.sort = orderingOf(view.sort);
  if (view.page !== 1) next.page = view.page;
  if (pinned.has('size') || view.size !== defaults.size) next.size = view.size;
  if (columns && (pinned.has('columns') || columns !== defaults.columns?.join(','))) next.columns = columns;
  return next;
}
