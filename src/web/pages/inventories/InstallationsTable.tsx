import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates';
import { EmptyState, ErrorState, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { deviceInventory, softwareInventory } from './inventoryKinds';
import { installationsQuery, type InstallationResponse } from './softwareLinksApi';

const pageSize = 50;

const shared: TableColumn<InstallationResponse>[] = [
  { id: 'version', header: 'Version', cell: (row) => row.version ?? '-' },
  { id: 'install_date', header: 'Installed', cell: (row) => formatDate(row.install_date) },
  { id: 'install_path', header: 'Path', cell: (row) => row.install_path ?? '-' },
  { id: 'adapters', header: 'Sources', cell: (row) => row.adapters.join(', ') },
];

const deviceColumns: TableColumn<InstallationResponse>[] = [
  { id: 'device', header: 'Device', cell: (row) => <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.hostname} /> },
  { id: 'os_type', header: 'OS', cell: (row) => row.os_type ?? '-' },
];
const softwareColumns: TableColumn<InstallationResponse>[] = [
  { id: 'software', header: 'Software', cell: (row) => <AssetLink kind={softwareInventory} id={row.software_id} discoveryId={row.index_id} name={row.software_name} /> },
  { id: 'vendor', header: 'Vendor', cell: (row) => row.vendor ?? '-' },
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
  if (list.isError) return <ErrorState title="The installations could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <TextInput label={ofDevice ? 'Search software' : 'Search devices'} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={ofDevice ? 'Installed software' : 'Devices with this software'}
        columns={[...(ofDevice ? softwareColumns : deviceColumns), ...shared]}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.device_id}-${row.software_id}-${row.version ?? ''}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? 'Nothing matches the search' : ofDevice ? 'No software reported on this device' : 'No device reports this software'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
