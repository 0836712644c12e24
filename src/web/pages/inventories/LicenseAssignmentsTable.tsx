import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorState, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { userInventory } from './inventoryKinds';
import { licenseAssignmentsQuery, type LicenseAssignmentResponse } from './serviceLicenseApi';

const pageSize = 50;

const columns: TableColumn<LicenseAssignmentResponse>[] = [
  {
    id: 'user', header: 'User',
    cell: (row) => (row.user_id ? <AssetLink kind={userInventory} id={row.user_id} discoveryId={row.index_id} name={row.display_name ?? row.username ?? row.reported_name} /> : row.reported_name),
  },
  { id: 'username', header: 'User name', cell: (row) => row.username ?? '-' },
  { id: 'email', header: 'E-mail', cell: (row) => row.email ?? '-' },
  { id: 'reported_name', header: 'As the source names them', cell: (row) => row.reported_name },
  { id: 'adapter', header: 'Source', cell: (row) => row.adapter },
];

/** The users one license is assigned to (a name no user of the inventory matched is shown as the source gave it). */
export function LicenseAssignmentsTable({ licenseId, discoveryId }: { licenseId: string; discoveryId: number | null }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const list = useQuery(licenseAssignmentsQuery({ license: licenseId, search, page, size: pageSize, index_id: discoveryId }));
  if (list.isError) return <ErrorState title="The assignments could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <TextInput label="Search users" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption="Users this license is assigned to"
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.user_id ?? row.reported_name}-${row.adapter}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? 'Nothing matches the search' : 'No user assignment reported'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
