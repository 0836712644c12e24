import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { apiFetch } from '../../app/http';
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
  useEffect(() => setBreadcrumb([{ label: 'Inventory', to: basePath }, { label: 'Saved queries' }]), [basePath]);
  const remove = useMutation({
    mutationFn: (query: SavedQueryResponse) => apiFetch(`/queries/queries/${query.id}`, { method: 'DELETE' }).then(() => query),
    onSuccess: (query) => {
      notify('success', `"${query.name}" was deleted.`);
      void queryClient.invalidateQueries({ queryKey: ['saved-queries'] });
    },
  });
  const columns: TableColumn<SavedQueryResponse>[] = [
    { id: 'name', header: 'Name', sortable: true, cell: (row) => <Link to={basePath} search={{ query: row.text }}>{row.name}</Link> },
    { id: 'text', header: 'Query', sortable: true, cell: (row) => <code>{row.text}</code> },
    { id: 'is_public', header: 'Visibility', sortable: true, cell: (row) => (row.is_public ? <Badge tone="info">Public</Badge> : <Badge>Private</Badge>) },
    { id: 'tags', header: 'Tags', cell: (row) => row.tags.join(', ') || '-' },
    { id: 'user_full_name', header: 'Owner', cell: (row) => row.user_full_name || '-' },
    { id: 'updated_at', header: 'Changed', sortable: true, cell: (row) => formatDate(row.updated_at) },
    {
      id: 'actions', header: 'Actions',
      cell: (row) => (
        <span className="query-builder__actions">
          {hasPermission('queries.change_query') && <Link to={`${basePath}/saved-queries/edit/$queryId`} params={{ queryId: String(row.id) }}>Edit</Link>}
          {hasPermission('queries.delete_query') && <Button variant="link" onClick={() => remove.mutate(row)}>Delete</Button>}
        </span>
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader title="Saved queries" description="Run one by its name; queries can reuse each other with Query is <id>." />
      <TextInput label="Search saved queries" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table caption="Saved queries" columns={columns} rows={list.data?.results ?? []} rowKey={(row) => row.id} sort={sort} onSortChange={setSort} loading={list.isFetching}
        empty={<EmptyState title="No saved queries" description="Save a query from the inventory list to find it here." />} />
      <Pagination page={page} pageSize={50} count={list.data?.count ?? 0} onPageChange={setPage} />
    </section>
  );
}
