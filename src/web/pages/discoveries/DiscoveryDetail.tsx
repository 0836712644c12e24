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

const stageLabels: Record<string, string> = { fetch: 'Fetch every connection', correlate: 'Normalize and correlate', publish: 'Publish the snapshot' };

const connectionColumns: TableColumn<ConnectionProgressResponse>[] = [
  { id: 'name', header: 'Connection', cell: (row) => <span>{row.name} <span className="discoveries-muted">({row.adapter})</span></span> },
  { id: 'state', header: 'State', cell: (row) => <RunStateBadge state={row.state} /> },
  { id: 'records', header: 'Records', align: 'end', cell: (row) => row.records.toLocaleString() },
  { id: 'by_entity', header: 'By kind', cell: (row) => Object.entries(row.by_entity).map(([kind, count]) => `${kind} ${count.toLocaleString()}`).join(', ') || '-' },
  { id: 'duration', header: 'Duration', align: 'end', cell: (row) => durationText(row.duration_ms) },
  {
    id: 'problems', header: 'Problems',
    cell: (row) =>
      row.error ? <span className="discoveries-error">{row.error}</span> : row.warning_count ? (
        <details>
          <summary>{row.warning_count} warning{row.warning_count === 1 ? '' : 's'}</summary>
          <ul>{row.warnings.map((warning, index) => <li key={index}>{warning}</li>)}</ul>
          {row.warning_count > row.warnings.length && <p>… and {row.warning_count - row.warnings.length} more.</p>}
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
    <Card title="Operation progress">
      <ol className="discovery-stages">
        {stages.map(([name, stage]) => (
          <li key={name}>
            <span>{stageLabels[name] ?? name}</span>
            <RunStateBadge state={stage.state} />
            <span className="discoveries-muted">{durationText(stage.duration_ms)}{stage.detail ? ` · ${stage.detail}` : ''}</span>
          </li>
        ))}
      </ol>
      {assets.length > 0 && <p>Published: {assets.map(([kind, count]) => `${count.toLocaleString()} ${assetNoun(kind, count)}`).join(', ')}.</p>}
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
  useEffect(() => setBreadcrumb([{ label: 'Discoveries', to: '/discoveries' }, { label: `#${id}` }]), [id]);

  if (discovery.isPending) return <Spinner label="Loading discovery" />;
  if (discovery.isError) return <ErrorState title="The discovery could not be loaded" message={discovery.error.message} onRetry={() => void discovery.refetch()} />;
  const current = discovery.data;
  return (
    <section className="discoveries-page">
      <PageHeader
        title={`Discovery #${current.id}`}
        meta={<DiscoveryStatusBadge status={current.status} />}
        description={`Started ${formatDate(current.start_time)} · ${running ? 'running for' : 'took'} ${formatElapsed(current.start_time, current.end_time)}`}
      />
      <Card title="Connections">
        <Table caption="Connections of this discovery" columns={connectionColumns} rows={current.progress?.connections ?? []} rowKey={(row) => row.id} empty={<EmptyState title="No enabled connection" description="This discovery had nothing to fetch." />} />
      </Card>
      <OperationProgress discovery={current} />
      {showSystem && <SystemInformationPanel system={system.data ?? null} loading={system.isPending} />}
    </section>
  );
}
