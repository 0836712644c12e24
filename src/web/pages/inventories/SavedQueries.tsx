import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { ApiError, apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, EmptyState, PageHeader, Pagination, Table, TextInput, orderingOf, type SortState, type TableColumn } from '../../ui';
import { inventoryOfPath, savedQueryListQuery, type SavedQueryResponse } from './savedQueriesApi';
import './inventories.css';

/** `/…-inventory/saved-queries`: the saved queries of one inventory, to run, edit or delete. */
export function SavedQueries({ route }: PageProps) {
  const { basePath, type } = inventoryOfPath(route.path);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ id: 'name', direction: 'asc' });
  const list = useQuery(savedQueryListQuery({ type, page, size: 50, search, ordering: orderingOf(sort) }));
  useEffect(() => setBreadcrumb([{ label: t('inventories.inventory'), to: basePath }, { label: t('inventories.savedQueries') }]), [basePath]);
  const remove = useMutation({
    // A query in use is refused (409, naming its users) until the user confirms deleting it anyway.
    mutationFn: async (query: SavedQueryResponse): Promise<SavedQueryResponse | null> => {
      try {
        await apiFetch(`/queries/queries/${query.id}`, { method: 'DELETE' });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        if (!window.confirm(t('inventories.deleteInUse', { detail: error.message, name: query.name }))) return null;
        await apiFetch(`/queries/queries/${query.id}?force=true`, { method: 'DELETE' });
      }
      return query;
    },
    onSuccess: (query) => {
      if (!query) return;
      notify('success', t('inventories.nameWasDeleted', { name: query.name }));
      void queryClient.invalidateQueries({ queryKey: ['saved-queries'] });
    },
  });
  const columns: TableColumn<SavedQueryResponse>[] = [
    { id: 'name', header: t('inventories.name'), sortable: true, cell: (row) => <Link to={basePath} search={{ query: row.text }}>{row.name}</Link> },
    { id: 'text', header: t('inventories.query'), sortable: true, cell: (row) => <code>{row.text}</code> },
    { id: 'is_public', header: t('inventories.visibility'), sortable: true, cell: (row) => (row.is_public ? <Badge tone="info">{t('inventories.public')}</Badge> : <Badge>{t('inventories.private')}</Badge>) },
    { id: 'tags', header: t('inventories.tags'), cell: (row) => row.tags.join(', ') || '-' },
    { id: 'user_full_name', header: t('inventories.owner'), cell: (row) => row.user_full_name || '-' },
    { id: 'updated_at', header: t('inventories.changed'), sortable: true, cell: (row) => formatDate(row.updated_at) },
    {
      id: 'actions', header: t('inventories.actions'),
      cell: (row) => (
        <span className="query-builder__actions">
          {hasPermission('queries.change_query') && <Link to={`${basePath}/saved-queries/edit/$queryId`} params={{ queryId: String(row.id) }}>{t('inventories.edit')}</Link>}
          {hasPermission('queries.delete_query') && <Button variant="link" onClick={() => remove.mutate(row)}>{t('inventories.delete')}</Button>}
        </span>
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader title={t('inventories.savedQueries')} description={t('inventories.runOneNameQueries')} />
      <TextInput label={t('inventories.searchSavedQueries')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table caption={t('inventories.savedQueries')} columns={columns} rows={list.data?.results ?? []} rowKey={(row) => row.id} sort={sort} onSortChange={setSort} loading={list.isFetching}
        empty={<EmptyState title={t('inventories.noSavedQueries')} description={t('inventories.saveQueryFromInventory')} />} />
      <Pagination page={page} pageSize={50} count={list.data?.count ?? 0} onPageChange={setPage} />
    </section>
  );
}
