import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorState, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { certificatePlacesQuery, type CertificatePlace } from './certificateApi';
import { ChainBadge } from './certificateBadges';
import { certificateInventory, deviceInventory } from './inventoryKinds';

const pageSize = 50;

/** The places where one certificate is served or installed (or, for a device, the certificates it serves or holds), searchable and paged by the server. */
export function CertificatePlacesTable({ filter, discoveryId }: { filter: { certificate: string } | { device: string }; discoveryId: number | null }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const list = useQuery(certificatePlacesQuery({ ...filter, search, page, size: pageSize, index_id: discoveryId }));
  const ofDevice = 'device' in filter;
  if (list.isError) return <ErrorState title="The places could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} />;
  const columns: TableColumn<CertificatePlace>[] = [
    ...(ofDevice ? [{ id: 'certificate', header: 'Certificate', cell: (row: CertificatePlace) => <AssetLink kind={certificateInventory} id={row.certificate_id} discoveryId={row.index_id} name={row.certificate_name} /> }] : []),
    { id: 'how', header: 'Seen', cell: (row) => (row.installed ? 'Installed' : 'Served') },
    { id: 'host', header: 'Host', cell: (row) => row.host },
    { id: 'port', header: 'Port', align: 'end', cell: (row) => row.port ?? '-' },
    { id: 'sni', header: 'SNI', cell: (row) => row.sni ?? '-' },
    ...(ofDevice ? [] : [{ id: 'device', header: 'Device', cell: (row: CertificatePlace) => (row.device_id ? <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.device_name} /> : '-') }]),
    { id: 'chain', header: 'Chain', cell: (row) => <ChainBadge verified={row.chain_verified} error={row.verification_error} /> },
    { id: 'tls', header: 'TLS', cell: (row) => row.tls_version ?? '-' },
    { id: 'adapter', header: 'Source', cell: (row) => row.adapter },
  ];
  return (
    <div className="inventory-links">
      <TextInput label="Search places" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={ofDevice ? 'Certificates served by or installed on this device' : 'Places where this certificate is served or installed'}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.certificate_id}-${row.host}-${row.port ?? ''}-${row.sni ?? ''}-${row.adapter}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? 'Nothing matches the search' : ofDevice ? 'No certificate seen on this device' : 'Not seen served anywhere'} description={search ? undefined : ofDevice ? 'The TLS scanner reports the certificates a device serves; sources that report certificates per device report those installed on it.' : 'Only the TLS scanner sees where certificates are served; uploaded and managed certificates name no endpoint.'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
