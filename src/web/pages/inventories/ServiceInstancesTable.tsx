import { t } from '../../app/i18n/messages';
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
  { id: 'port', get header() { return t('inventories.port'); }, cell: portText },
  { id: 'state', get header() { return t('inventories.state'); }, cell: (row) => row.state ?? '-' },
  { id: 'start_type', get header() { return t('inventories.startType'); }, cell: (row) => row.start_type ?? '-' },
  { id: 'account', get header() { return t('inventories.account'); }, cell: (row) => row.account ?? '-' },
  { id: 'product', get header() { return t('inventories.product'); }, cell: productText },
  { id: 'last_seen', get header() { return t('inventories.lastSeen'); }, cell: (row) => formatDate(row.last_seen) },
  { id: 'adapters', get header() { return t('inventories.sources'); }, cell: (row) => row.adapters.join(', ') },
];

const placeColumns: TableColumn<ServiceInstanceResponse>[] = [
  {
    id: 'device', get header() { return t('inventories.deviceOrHost'); },
    cell: (row) => (row.device_id ? <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.hostname} /> : row.host ?? '-'),
  },
  { id: 'os_type', get header() { return t('inventories.os'); }, cell: (row) => row.os_type ?? '-' },
];
const serviceColumns: TableColumn<ServiceInstanceResponse>[] = [
  { id: 'service', get header() { return t('inventories.service'); }, cell: (row) => <AssetLink kind={serviceInventory} id={row.service_id} discoveryId={row.index_id} name={row.service_name} /> },
  { id: 'display_name', get header() { return t('inventories.displayName'); }, cell: (row) => row.display_name ?? '-' },
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
  if (list.isError) return <ErrorState title={t('inventories.servicesCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <TextInput label={ofDevice ? t('inventories.searchServices') : t('inventories.searchDevices')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={ofDevice ? t('inventories.servicesOpenPorts') : t('inventories.whereServiceRuns')}
        columns={[...(ofDevice ? serviceColumns : placeColumns), ...shared]}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.service_id}-${row.device_id ?? row.host ?? ''}-${row.port ?? ''}-${row.protocol ?? ''}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? t('inventories.nothingMatchesSearch') : ofDevice ? t('inventories.noServiceOpenPort') : t('inventories.noDeviceReportsService')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
