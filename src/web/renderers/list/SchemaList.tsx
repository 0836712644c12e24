import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../app/http';
import { Button } from '../../ui/Button/Button';
import { ButtonLink } from '../../ui/Button/ButtonLink';
import { EmptyState } from '../../ui/EmptyState/EmptyState';
import { ErrorState } from '../../ui/ErrorState/ErrorState';
import { PageHeader } from '../../ui/PageHeader/PageHeader';
import { Pagination } from '../../ui/Pagination/Pagination';
import { Table } from '../../ui/Table/Table';
import { orderingOf, type SortState } from '../../ui/Table/columns';
import { TextInput } from '../../ui/TextInput/TextInput';
import type { EntitySchema } from '../schema/entitySchema';
import { pluralTitle } from '../schema/fields';
import { hrefOf, type EntityLinks } from './entityRoutes';
import { listColumns, rowKeyOf, type Row } from './listColumns';
import { defaultPageSize, pageSizes, resourceListQuery } from './listQuery';
import type { ListView } from './listView';
import type { ViewChange } from './useUrlListView';
import '../renderers.css';

export type SchemaListProps = {
  schema: EntitySchema;
  links: EntityLinks;
  /** Pause after typing before the search is sent (ms). */
  searchDebounce?: number;
  initialPageSize?: number;
  /** The view shown, when the page keeps it (in the URL); otherwise the list keeps its own. */
  view?: ListView;
  onViewChange?: ViewChange;
};

/** Why the list could not be loaded, in the words of spec §8 (the HTTP client already notified the user). */
const failureText = (error: unknown) => (error instanceof ApiError || error instanceof Error ? error.message : t('error.unknown'));

/**
 * A server-paged, sortable, searchable list of an entity, driven by its schema: columns from `x-list`, the API path
 * from `x-resource`, page/size/search/ordering sent as the query string (all of them in the query key).
 */
export function SchemaList({ schema, links, searchDebounce = 300, initialPageSize = defaultPageSize, view: shownView, onViewChange }: SchemaListProps) {
  const resource = schema['x-resource'];
  const title = schema['x-plural-title'] ?? pluralTitle(schema.title ?? t('renderers.item'));
  const [ownView, setOwnView] = useState<ListView>({ page: 1, size: initialPageSize, text: '', sort: null });
  const { page, size, text: search, sort } = shownView ?? ownView;
  const changeView: ViewChange = onViewChange ?? ((changes) => setOwnView((current) => ({ ...current, ...changes })));
  const list = useQuery({ ...resourceListQuery<Row>(resource?.path ?? '', { page, size, search, ordering: orderingOf(sort) }), enabled: Boolean(resource) });

  if (!resource) return <ErrorState title={t('renderers.listCannotShown')} message={t('renderers.titleHasNoApi', { title: schema.title ?? schema.$id })} />;

  const rowLink = links.edit ?? links.detail;
  const columns = listColumns(schema, rowLink ? (row) => (row.id === undefined || row.id === null ? null : rowLink(row.id as string | number)) : null);
  const rows = list.data?.results ?? [];
  const count = list.data?.count ?? 0;
  const searchable = (resource.search ?? []).length > 0;
  // A new search, sort or page size starts again on page 1; typing replaces the history entry instead of adding one.
  const setSearch = (text: string) => changeView({ text, page: 1 }, { replace: true });
  const setSort = (next: SortState) => changeView({ sort: next, page: 1 });
  const setSize = (next: number) => changeView({ size: next, page: 1 });
  const setPage = (next: number) => changeView({ page: next });

  return (
    <div className="generic-list">
      <PageHeader
        title={title}
        description={schema.description}
        actions={links.create ? <ButtonLink href={hrefOf(links.create)}>{t('renderers.createTitle', { title: (schema.title ?? t('renderers.item')).toLowerCase() })}</ButtonLink> : undefined}
      />
      <div className="generic-list__toolbar">
        {searchable ? (
          <TextInput className="generic-list__search" type="search" label={t('renderers.search')} value={search} onValueChange={setSearch} debounce={searchDebounce} placeholder={t('renderers.searchTitle', { title: title.toLowerCase() })} />
        ) : null}
      </div>
      {list.isError && !list.data ? (
        <ErrorState message={failureText(list.error)} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : (
        <>
          <Table
            caption={title}
            columns={columns}
            rows={rows}
            rowKey={rowKeyOf}
            sort={sort}
            onSortChange={setSort}
            loading={list.isFetching}
            empty={
              search.trim() ? (
                <EmptyState title={t('renderers.noDataFound')} description={t('renderers.nothingMatchesSearch', { search: search.trim() })} action={<Button variant="secondary" onClick={() => setSearch('')}>{t('renderers.clearSearch')}</Button>} />
              ) : (
                <EmptyState title={t('renderers.noDataFound')} />
              )
            }
          />
          <Pagination page={page} pageSize={size} count={count} onPageChange={setPage} pageSizes={pageSizes} onPageSizeChange={setSize} disabled={list.isFetching && !list.data} />
        </>
      )}
    </div>
  );
}
