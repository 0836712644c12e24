import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { EmptyState, PageHeader, Pagination, Table } from '../../ui';
import { discoveryListQuery, lastDiscoveryQuery } from './discoveriesApi';
import { discoveryColumns } from './discoveryColumns';
import { StartDiscoveryButton } from './StartDiscoveryButton';
import './discoveries.css';

/** `/discovery/list`: every discovery, newest first, paged. */
export function DiscoveryList() {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(50);
  const navigate = useNavigate();
  const last = useQuery(lastDiscoveryQuery());
  const list = useQuery(discoveryListQuery(page, size));
  useEffect(() => setBreadcrumb([{ label: t('discoveries.discoveries'), to: '/discoveries' }, { label: t('discoveries.allDiscoveries') }]), []);
  return (
    <section className="discoveries-page">
      <PageHeader title={t('discoveries.allDiscoveries')} actions={<StartDiscoveryButton running={last.data?.status === 1} />} />
      <Table
        caption={t('discoveries.discoveries')}
        columns={discoveryColumns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        onRowClick={(row) => void navigate({ to: '/discovery/detail/$discoveryId', params: { discoveryId: String(row.id) } })}
        empty={<EmptyState title={t('discoveries.noDiscoveries')} />}
      />
      <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[20, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
    </section>
  );
}
