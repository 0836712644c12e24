import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates';
import { EmptyState, ErrorState, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { deviceInventory, softwareInventory } from './inventoryKinds';
import { installationsQuery, type InstallationResponse } from './softwareLinksApi';

const pageSize = 50;

const shared: TableColumn<InstallationResponse>[] = [
  { id: 'version', get header() { return t('inventories.version'); }, cell: (row) => row.version ?? '-' },
  { id: 'install_date', get header() { return t('inventories.installed'); }, cell: (row) => formatDate(row.install_date) },
  { id: 'install_path', get header() { return t('inventories.path'); }, cell: (row) => row.install_path ?? '-' },
  { id: 'adapters', get header() { return t('inventories.sources'); }, cell: (row) => row.adapters.join(', ') },
];

const deviceColumns: TableColumn<InstallationResponse>[] = [
  { id: 'device', get header() { return t('inventories.device'); }, cell: (row) => <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.hostname} /> },
  { id: 'os_type', get header() { return t('inventories.os'); }, cell: (row) => row.os_type ?? '-' },
];
const softwareColumns: TableColumn<InstallationResponse>[] = [
  { id: 'software', get header() { return t('inventories.software'); }, cell: (row) => <AssetLink kind={softwareInventory} id={row.software_id} discoveryId={row.index_id} name={row.software_name} /> },
  { id: 'vendor', get header() { return t('inventories.vendor'); }, cell: (row) => row.vendor ?? '-' },
];

type InstallationsTableProps = { filter: { device: string } | { software: string }; discoveryId: number | null };

/**
 * The installations of one device (its software) or of one software (the devices that have it), searchable and
 * paged by the server.
 */
export function InstallationsTable({ filter, discoveryId }: InstallationsTableProps) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const list = useQuery(installationsQuery({ ...filter, search, page, size: pageSize, index_id: discoveryId }));
  const ofDevice = 'device' in filter;
  if (list.isError) return <ErrorState title={t('inventories.installationsCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <TextInput label={ofDevice ? t('inventories.searchSoftware') : t('inventories.searchDevices')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={ofDevice ? t('inventories.installedSoftware') : t('inventories.devicesSoftware')}
        columns={[...(ofDevice ? softwareColumns : deviceColumns), ...shared]}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.device_id}-${row.software_id}-${row.version ?? ''}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? t('inventories.nothingMatchesSearch') : ofDevice ? t('inventories.noSoftwareReportedDevice') : t('inventories.noDeviceReportsSoftware')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
