import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { t } from '../../app/i18n/messages';
import { navigateTo } from '../../app/navigation';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, EmptyState, ErrorState, PageHeader, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { connectorListPath, connectorListQuery, type ConnectorRecord } from './connector/connectorsApi';
import './connector/connectors.css';

function TokenBadge({ connector }: { connector: ConnectorRecord }) {
  if (connector.kind === 'local') return <Badge>{t('connectors.builtIn')}</Badge>;
  if (connector.token_state === 'revoked') return <Badge tone="danger">{t('connectors.tokenRevoked')}</Badge>;
  if (!connector.last_seen_at) return <Badge tone="warning">{t('connectors.neverSeen')}</Badge>;
  return <Badge tone="success">{t('connectors.tokenActive')}</Badge>;
}

// Built at render: the message file is installed before any page renders, not before modules load.
const columnsOf = (): TableColumn<ConnectorRecord>[] => [
  { id: 'name', header: t('connectors.name'), cell: (row) => row.name },
  { id: 'kind', header: t('connectors.kind'), cell: (row) => (row.kind === 'local' ? t('connectors.kindLocal') : t('connectors.kindRemote')) },
  { id: 'state', header: t('connectors.state'), cell: (row) => <TokenBadge connector={row} /> },
  { id: 'version', header: t('connectors.version'), cell: (row) => (row.kind === 'local' ? t('connectors.serverVersion') : row.version || '—') },
  { id: 'last_seen_at', header: t('connectors.lastSeen'), cell: (row) => (row.kind === 'local' ? '—' : formatDate(row.last_seen_at)) },
  { id: 'connection_count', header: t('connectors.connections'), align: 'end', cell: (row) => row.connection_count },
  {
    id: 'errors', header: t('connectors.errors'),
    cell: (row) => (row.error_count ? <span className="connector-error" title={row.last_error}>{t('connectors.errorSummary', { count: row.error_count, when: formatDate(row.last_error_at) })}</span> : '—'),
  },
];

/** `/settings/connector`: where the company's fetches run, the built-in Default connector and the remote ones. */
export function Connectors(_props: PageProps) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [search, setSearch] = useState('');
  // Polled, so "last seen" and errors move while the page is open.
  const list = useQuery({ ...connectorListQuery(page, size, search), refetchInterval: 15_000 });
  const mayChange = hasPermission('connectors.change_connector');
  useEffect(() => setBreadcrumb([{ label: t('connectors.settings'), to: '/settings' }, { label: t('connectors.title') }]), []);
  if (list.isError) return <ErrorState title={t('connectors.loadFailed')} message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <section className="connectors-page">
      <PageHeader
        title={t('connectors.title')}
        description={t('connectors.description')}
        actions={hasPermission('connectors.add_connector') ? <Button onClick={() => navigateTo(`${connectorListPath}/create`)}>{t('connectors.add')}</Button> : undefined}
      />
      <TextInput label={t('connectors.search')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={t('connectors.title')}
        columns={columnsOf()}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        onRowClick={mayChange ? (row) => {
          if (row.kind === 'remote') navigateTo(`${connectorListPath}/${row.id}/edit`);
        } : undefined}
        empty={<EmptyState title={t('connectors.none')} description={t('connectors.noneText')} />}
      />
      <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[20, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
    </section>
  );
}
