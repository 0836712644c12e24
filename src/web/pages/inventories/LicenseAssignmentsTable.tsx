import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorState, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { userInventory } from './inventoryKinds';
import { licenseAssignmentsQuery, type LicenseAssignmentResponse } from './serviceLicenseApi';

const pageSize = 50;

const columns: TableColumn<LicenseAssignmentResponse>[] = [
  {
    id: 'user', get header() { return t('inventories.user'); },
    cell: (row) => (row.user_id ? <AssetLink kind={userInventory} id={row.user_id} discoveryId={row.index_id} name={row.display_name ?? row.username ?? row.reported_name} /> : row.reported_name),
  },
  { id: 'username', get header() { return t('inventories.userName'); }, cell: (row) => row.username ?? '-' },
  { id: 'email', get header() { return t('inventories.eMail'); }, cell: (row) => row.email ?? '-' },
  { id: 'reported_name', get header() { return t('inventories.sourceNamesThem'); }, cell: (row) => row.reported_name },
  { id: 'adapter', get header() { return t('inventories.source'); }, cell: (row) => row.adapter },
];

/** The users one license is assigned to (a name no user of the inventory matched is shown as the source gave it). */
export function LicenseAssignmentsTable({ licenseId, discoveryId }: { licenseId: string; discoveryId: number | null }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const list = useQuery(licenseAssignmentsQuery({ license: licenseId, search, page, size: pageSize, index_id: discoveryId }));
  if (list.isError) return <ErrorState title={t('inventories.assignmentsCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <TextInput label={t('inventories.searchUsers')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={t('inventories.usersLicenseAssigned')}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.user_id ?? row.reported_name}-${row.adapter}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? t('inventories.nothingMatchesSearch') : t('inventories.noUserAssignmentReported')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
