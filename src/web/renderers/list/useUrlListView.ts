import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo } from 'react';
import { namesView, searchWithView, viewOfSearch, type ListView, type SearchParams, type ViewCodec } from './listView';

export type ViewChange = (changes: Partial<ListView>, how?: { replace?: boolean }) => void;

/**
 * A list's view kept in the URL's search parameters, so a reload, back and forward, and a shared link show the same
 * page, size, text, sort and columns. A change is a new history entry unless `replace` (typing in a search box).
 * A bare URL (a menu link) shows `seed` (a list's stored configuration); a URL naming the view takes the parts it
 * leaves out from `fallback`. Pinned parts missing from the URL are written into it at once, in place.
 */
export function useUrlListView(fallback: ListView, codec: ViewCodec, seed: ListView = fallback): [ListView, ViewChange] {
  const search = useSearch({ strict: false }) as SearchParams;
  const navigate = useNavigate();
  const view = useMemo(() => viewOfSearch(search, namesView(search, codec) ? fallback : seed, codec), [search, fallback, seed, codec]);

  const change = useCallback<ViewChange>(
    (changes, how = {}) => {
      void navigate({
        to: '.',
        // From the URL of the moment, not of the last render: two changes in one event both land.
        search: ((previous: SearchParams) => {
          const current = viewOfSearch(previous, namesView(previous, codec) ? fallback : seed, codec);
          return searchWithView(previous, { ...current, ...changes }, fallback, codec);
        }) as never,
        replace: how.replace ?? false,
      });
    },
    [navigate, fallback, seed, codec],
  );

  const incomplete = (codec.pinned ?? []).some((part) => search[part] === undefined);
  useEffect(() => {
    if (incomplete) change({}, { replace: true });
  }, [incomplete, change]);

  return [view, change];
}
