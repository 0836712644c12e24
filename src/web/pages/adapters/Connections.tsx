import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { hasPermission, useSession } from '../../app/session/session';
import { Badge, EmptyState, RelativeTime, PageHeader, Pagination, Table, TextInput, orderingOf, type SortState, type TableColumn } from '../../ui';
import { canFetch } from './AdapterCapability';
import { adapterImage } from './adapterSearch';
import { ConnectionStatusBadge } from './ConnectionStatusBadge';
import { connectionListQuery, type ConnectionResponse } from './connectionsApi';
import './adapters.css';

export const connectionColumns: TableColumn<ConnectionResponse>[] = [
  { id: 'name', get header() { return t('adapters.name'); }, sortable: true, cell: (row) => <Link to="/adapters/connections/$id" params={{ id: String(row.id) }}>{row.name}</Link> },
  {
    id: 'adapter', get header() { return t('adapters.adapter'); }, sortable: true,
    cell: (row) => <span className="connection-adapter"><img src={adapterImage(row.adapter)} alt="" width={20} height={20} />{row.adapter_name}</span>,
  },
  { id: 'status', get header() { return t('adapters.status'); }, sortable: true, cell: (row) => <ConnectionStatusBadge connection={row} /> },
  { id: 'enabled', get header() { return t('adapters.fetchedByDiscoveries'); }, cell: (row) => (row.enabled ? <Badge tone="success">{t('adapters.enabled')}</Badge> : <Badge>{t('adapters.disabled')}</Badge>) },
  { id: 'connector', get header() { return t('adapters.connector'); }, cell: (row) => row.connector_name },
  { id: 'last_checked_at', get header() { return t('adapters.lastFetched'); }, cell: (row) => <RelativeTime value={row.last_checked_at} /> },
];

/** `/adapters/connections`: every connection of the company (or of one adapter, `?adapter=slug`), paged and sorted. */
export function Connections() {
  const { adapter } = useSearch({ strict: false }) as { adapter?: string };
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(50);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>(null);
  const list = useQuery(connectionListQuery({ page, size, search, adapter, ordering: orderingOf(sort) }));
  // No connection can be added to an adapter Cartograph cannot fetch from yet.
  const shown = useSession().adapters.find((candidate) => candidate.slug === adapter);
  const mayAdd = hasPermission('adapters.add_connection') && (!shown || canFetch(shown));
  useEffect(() => setBreadcrumb([{ label: t('adapters.adapters'), to: '/adapters' }, { label: t('adapters.connections') }]), []);

  return (
    <section className="adapters-page">
      <PageHeader
        title={t('adapters.connections')}
        description={adapter ? t('adapters.connectionsOfAdapter', { adapter: shown?.name ?? adapter }) : t('adapters.everyConfiguredConnectionYour')}
        actions={mayAdd ? <Link className="ui-button ui-button--success ui-button--medium" to={adapter ? '/adapters/connection/create/$id' : '/adapters'} params={{ id: adapter ?? '' }}>{t('adapters.addConnection')}</Link> : undefined}
      />
      <TextInput label={t('adapters.searchConnections')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={t('adapters.connections')}
        columns={connectionColumns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        sort={sort}
        onSortChange={setSort}
        loading={list.isFetching}
        onRowClick={(row) => void navigate({ to: '/adapters/connections/$id', params: { id: String(row.id) } })}
        empty={<EmptyState title={t('adapters.noConnections')} description={t('adapters.pickAdapterAddConnection')} />}
      />
      <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[20, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
    </section>
  );
}
