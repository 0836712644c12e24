import { t } from '../../app/i18n/messages';
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
  if (list.isError) return <ErrorState title={t('inventories.placesCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} />;
  const columns: TableColumn<CertificatePlace>[] = [
    ...(ofDevice ? [{ id: 'certificate', header: t('inventories.certificate'), cell: (row: CertificatePlace) => <AssetLink kind={certificateInventory} id={row.certificate_id} discoveryId={row.index_id} name={row.certificate_name} /> }] : []),
    { id: 'how', header: t('inventories.seen'), cell: (row) => (row.installed ? t('inventories.installed') : t('inventories.served')) },
    { id: 'host', header: t('inventories.host'), cell: (row) => row.host },
    { id: 'port', header: t('inventories.port'), align: 'end', cell: (row) => row.port ?? '-' },
    { id: 'sni', header: t('inventories.sni'), cell: (row) => row.sni ?? '-' },
    ...(ofDevice ? [] : [{ id: 'device', header: t('inventories.device'), cell: (row: CertificatePlace) => (row.device_id ? <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.device_name} /> : '-') }]),
    { id: 'chain', header: t('inventories.chain'), cell: (row) => <ChainBadge verified={row.chain_verified} error={row.verification_error} /> },
    { id: 'tls', header: t('inventories.tls'), cell: (row) => row.tls_version ?? '-' },
    { id: 'adapter', header: t('inventories.source'), cell: (row) => row.adapter },
  ];
  return (
    <div className="inventory-links">
      <TextInput label={t('inventories.searchPlaces')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={ofDevice ? t('inventories.certificatesServedInstalledDevice') : t('inventories.placesWhereCertificateServed')}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => `${row.certificate_id}-${row.host}-${row.port ?? ''}-${row.sni ?? ''}-${row.adapter}`}
        loading={list.isFetching}
        empty={<EmptyState title={search ? t('inventories.nothingMatchesSearch') : ofDevice ? t('inventories.noCertificateSeenDevice') : t('inventories.notSeenServedAnywhere')} description={search ? undefined : ofDevice ? t('inventories.tlsScannerReportsCertificates') : t('inventories.onlyTlsScannerSees')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </div>
  );
}
