import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates';
import { EmptyState, ErrorState, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { deviceInventory, serviceInventory } from './inventoryKinds';
import { serviceInstancesQuery, type ServiceInstanceResponse } from './serviceLicenseApi';

const pageSize = 50;

const portText = (row: ServiceInstanceResponse) => (row.port === null ? '-' : `${row.port}${row.protocol ? `/${row.protocol}` : ''}`);
const productText = (row: ServiceInstanceResponse) => [row.product, row.version].filter(Boolean).join(' ') || '-';

const shared: TableColumn<ServiceInstanceResponse>[] = [
  { id: 'port', header: 'Port', cell: portText },
  { id: 'state', header: 'State', cell: (row) => row.state ?? '-' },
  { id: 'start_type', header: 'Start type', cell: (row) => row.start_type ?? '-' },
  { id: 'account', header: 'Account', cell: (row) => row.account ?? '-' },
  { id: 'product', header: 'Product', cell: productText },
  { id: 'last_seen', header: 'Last seen', cell: (row) => formatDate(row.last_seen) },
  { id: 'adapters', header: 'Sources', cell: (row) => row.adapters.join(', ') },
];

const placeColumns: TableColumn<ServiceInstanceResponse>[] = [
  {
    id: 'device', header: 'Device or host',
    cell: (row) => (row.device_id ? <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.hostname} /> : row.host ?? '-'),
  },
  { id: 'os_type', header: 'OS', cell: (row) => row.os_type ?? '-' },
];
const serviceColumns: TableColumn<ServiceInstanceResponse>[] = [
  { id: 'service', header: 'Service', cell: (row) => <AssetLink kind={serviceInventory} id={row.service_id} discoveryId={row.index_id} name={row.service_name} /> },
  { id: 'display_name', header: 'Display name', cell: (row) => row.display_name ?? '-' },
];

type ServiceInstancesTableProps = { filter: { device: string } | { service: string }; discoveryId: number | null };

/**
 * The services of one device (its services and open ports) or the places one service runs (devices, or hosts for a
 * cloud service), searchable and paged by the server.
 */
export function ServiceInstancesTable({ filter, discoveryId }: ServiceInstancesTableProps) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const list = useQuery(serviceInstancesQuery({ ...filter, search, page, size: pageSize, index_id: discoveryId }));
  const ofDevice = 'device' in filter;
  if (list.isError) return <ErrorState title="The services could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <TextInput label={ofDevice ? 'Search services' : 'Search devices'} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={ofDevice ? 'Services and open ports' : 'Where this service runs'}
        columns={[...(ofDevice ? serviceColumns : placeColumns), ...shared]}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.service_id}-${row.device_id ?? row.host ?? ''}-${row.port ?? ''}-${row.protocol ?? ''}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? 'Nothing matches the search' : ofDevice ? 'No service or open port reported on this device' : 'No device reports this service'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
