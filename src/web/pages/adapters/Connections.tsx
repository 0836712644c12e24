import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { AdapterStatusBadge, Badge, EmptyState, PageHeader, Pagination, Table, TextInput, orderingOf, type SortState, type TableColumn } from '../../ui';
import { adapterImage } from './adapterSearch';
import { connectionListQuery, type ConnectionResponse } from './connectionsApi';
import './adapters.css';

export const connectionColumns: TableColumn<ConnectionResponse>[] = [
  { id: 'name', header: 'Name', sortable: true, cell: (row) => <Link to="/adapters/connections/$id" params={{ id: String(row.id) }}>{row.name}</Link> },
  {
    id: 'adapter', header: 'Adapter', sortable: true,
    cell: (row) => <span className="connection-adapter"><img src={adapterImage(row.adapter)} alt="" width={20} height={20} />{row.adapter_name}</span>,
  },
  { id: 'status', header: 'Status', sortable: true, cell: (row) => <AdapterStatusBadge status={row.status} /> },
  { id: 'enabled', header: 'Fetched by discoveries', cell: (row) => (row.enabled ? <Badge tone="success">Enabled</Badge> : <Badge>Disabled</Badge>) },
  { id: 'connector', header: 'Connector', cell: (row) => row.connector_name },
  { id: 'last_checked_at', header: 'Last checked', cell: (row) => formatDate(row.last_checked_at) },
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
  useEffect(() => setBreadcrumb([{ label: 'Adapters', to: '/adapters' }, { label: 'Connections' }]), []);

  return (
    <section className="adapters-page">
      <PageHeader
        title="Connections"
        description={adapter ? `Connections of ${adapter}.` : 'Every configured connection of your company.'}
        actions={<Link className="ui-button ui-button--success ui-button--medium" to={adapter ? '/adapters/connection/create/$id' : '/adapters'} params={{ id: adapter ?? '' }}>Add connection</Link>}
      />
      <TextInput label="Search connections" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption="Connections"
        columns={connectionColumns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        sort={sort}
        onSortChange={setSort}
        loading={list.isFetching}
        onRowClick={(row) => void navigate({ to: '/adapters/connections/$id', params: { id: String(row.id) } })}
        empty={<EmptyState title="No connections" description="Pick an adapter and add a connection: discoveries fetch every enabled one." />}
      />
      <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[20, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
    </section>
  );
}
