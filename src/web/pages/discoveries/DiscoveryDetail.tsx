import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { formatDate, formatElapsed } from '../../../core/dates';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Card, EmptyState, ErrorState, PageHeader, Spinner, Table, type TableColumn } from '../../ui';
import { discoveryQuery, systemInformationQuery, type ConnectionProgressResponse, type DiscoveryResponse } from './discoveriesApi';
import { DiscoveryStatusBadge, durationText, RunStateBadge } from './DiscoveryStatus';
import { SystemInformationPanel } from './SystemInformationPanel';
import './discoveries.css';

const stageLabels: Record<string, string> = { get fetch() { return t('discoveries.fetchEveryConnection'); }, get correlate() { return t('discoveries.normalizeAndCorrelate'); }, get publish() { return t('discoveries.publishTheSnapshot'); } };

const connectionColumns: TableColumn<ConnectionProgressResponse>[] = [
  { id: 'name', get header() { return t('discoveries.connection'); }, cell: (row) => <span>{row.name} <span className="discoveries-muted">({row.adapter})</span></span> },
  { id: 'state', get header() { return t('discoveries.state'); }, cell: (row) => <RunStateBadge state={row.state} /> },
  { id: 'records', get header() { return t('discoveries.records'); }, align: 'end', cell: (row) => formatNumber(row.records) },
  { id: 'by_entity', get header() { return t('discoveries.byKind'); }, cell: (row) => Object.entries(row.by_entity).map(([kind, count]) => `${kind} ${formatNumber(count)}`).join(', ') || '-' },
  { id: 'duration', get header() { return t('discoveries.duration'); }, align: 'end', cell: (row) => durationText(row.duration_ms) },
  {
    id: 'problems', get header() { return t('discoveries.problems'); },
    cell: (row) =>
      row.error ? <span className="discoveries-error">{row.error}</span> : row.warning_count ? (
        <details>
          <summary>{t('discoveries.warningCountWarning', { warning_count: row.warning_count })}{row.warning_count === 1 ? '' : t('discoveries.s')}</summary>
          <ul>{row.warnings.map((warning, index) => <li key={index}>{warning}</li>)}</ul>
          {row.warning_count > row.warnings.length && <p>{t('discoveries.warningCountMore', { warning_count: row.warning_count - row.warnings.length })}</p>}
        </details>
      ) : '-',
  },
];

function OperationProgress({ discovery }: { discovery: DiscoveryResponse }) {
  const recorded = discovery.progress?.stages ?? {};
  // jsonb does not keep key order: list the stages in the order they run, unknown ones after.
  const order = [...Object.keys(stageLabels), ...Object.keys(recorded).filter((name) => !(name in stageLabels))];
  const stages = order.filter((name) => name in recorded).map((name) => [name, recorded[name]] as const);
  const assets = Object.entries(discovery.progress?.assets ?? {});
  return (
    <Card title={t('discoveries.operationProgress')}>
      <ol className="discovery-stages">
        {stages.map(([name, stage]) => (
          <li key={name}>
            <span>{stageLabels[name] ?? name}</span>
            <RunStateBadge state={stage.state} />
            <span className="discoveries-muted">{durationText(stage.duration_ms)}{stage.detail ? ` · ${stage.detail}` : ''}</span>
          </li>
        ))}
      </ol>
      {assets.length > 0 && <p>{t('discoveries.publishedAssets', { assets: assets.map(([kind, count]) => `${formatNumber(count)} ${assetNoun(kind, count)}`).join(', ') })}</p>}
      {discovery.error && <p className="discoveries-error">{discovery.error}</p>}
    </Card>
  );
}

/** `/discovery/detail/{discoveryId}`: connections, operation progress and system information, live while it runs. */
// Asset kinds as a count reads them: "2 devices", "1 software", "16 vulnerabilities".
const pluralOf: Record<string, string> = { software: 'software', vulnerability: 'vulnerabilities' };
const assetNoun = (kind: string, count: number) => (count === 1 ? kind : (pluralOf[kind] ?? `${kind}s`));

export function DiscoveryDetail() {
  const id = Number((useParams({ strict: false }) as { discoveryId: string }).discoveryId);
  const discovery = useQuery(discoveryQuery(id));
  const running = discovery.data?.status === 'running';
  const showSystem = hasPermission('users.view_system_information');
  const system = useQuery({ ...systemInformationQuery(running), enabled: showSystem });
  useEffect(() => setBreadcrumb([{ label: t('discoveries.discoveries'), to: '/discoveries' }, { label: `#${id}` }]), [id]);

  if (discovery.isPending) return <Spinner label={t('discoveries.loadingDiscovery')} />;
  if (discovery.isError) return <ErrorState title={t('discoveries.discoveryCouldNotLoaded')} message={discovery.error.message} onRetry={() => void discovery.refetch()} />;
  const current = discovery.data;
  return (
    <section className="discoveries-page">
      <PageHeader
        title={t('discoveries.discoveryId', { id: current.id })}
        meta={<DiscoveryStatusBadge status={current.status} />}
        description={t(running ? 'discoveries.startedRunningFor' : 'discoveries.startedTook', { start: formatDate(current.start_time), elapsed: formatElapsed(current.start_time, current.end_time) })}
      />
      <Card title={t('discoveries.connections')}>
        <Table caption={t('discoveries.connectionsDiscovery')} columns={connectionColumns} rows={current.progress?.connections ?? []} rowKey={(row) => row.id} empty={<EmptyState title={t('discoveries.noEnabledConnection')} description={t('discoveries.discoveryHadNothingFetch')} />} />
      </Card>
      <OperationProgress discovery={current} />
      {showSystem && <SystemInformationPanel system={system.data ?? null} loading={system.isPending} />}
    </section>
  );
}
