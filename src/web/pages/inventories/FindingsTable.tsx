import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates';
import { hasPermission } from '../../app/session/session';
import { Badge, Button, EmptyState, RelativeTime, ErrorState, Pagination, Select, Table, TextInput, type BadgeTone, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { FindingStatusDialog } from './FindingStatusDialog';
import { deviceInventory, vulnerabilityInventory } from './inventoryKinds';
import { useAdapterName } from './sources';
import { findingsQuery, findingStatuses, findingStatusLabels, type FindingResponse, type FindingStatus } from './softwareLinksApi';

const pageSize = 50;

const severityTones: Record<string, BadgeTone> = { critical: 'danger', high: 'danger', medium: 'warning', low: 'info' };

/** A severity as a badge coloured by how bad it is. */
export function SeverityBadge({ severity }: { severity: unknown }) {
  if (severity === null || severity === undefined || severity === '') return <span className="inventory-empty">-</span>;
  return <Badge tone={severityTones[String(severity).toLowerCase()] ?? 'neutral'}>{String(severity)}</Badge>;
}

const statusTones: Record<FindingStatus, BadgeTone> = { open: 'warning', fixed: 'success', false_positive: 'neutral', risk_accepted: 'info' };

function StatusCell({ finding }: { finding: FindingResponse }) {
  const changed = finding.status_changed_by ? `${finding.status_changed_by}, ${formatDate(finding.status_changed_at)}: ${finding.status_reason ?? ''}` : undefined;
  return <span title={changed}><Badge tone={statusTones[finding.status]}>{findingStatusLabels[finding.status]}</Badge></span>;
}

/** The CVE with a KEV badge when CISA lists it as exploited in the wild. */
function VulnerabilityCell({ finding }: { finding: FindingResponse }) {
  return (
    <span className="inventory-finding-vulnerability">
      <AssetLink kind={vulnerabilityInventory} id={finding.vulnerability_id} discoveryId={finding.index_id} name={finding.cve_id ?? finding.title} />
      {finding.kev && <span title={t('inventories.kevBadgeHint')}> <Badge tone="danger">{t('inventories.kevBadge')}</Badge></span>}
    </span>
  );
}

/**
 * Why the finding is there: the matcher's reason (installation, version, criterion, mapping), else the evidence a
 * scanner gave, else which sources report it.
 */
function MatchReason({ finding }: { finding: FindingResponse }) {
  const adapterName = useAdapterName();
  const sources = finding.sources ?? [];
  const evidence = sources.find((source) => source.adapter === 'cartograph-avm')?.evidence ?? sources.find((source) => source.evidence)?.evidence;
  return <span className="inventory-match-reason">{evidence ?? t('inventories.reportedBySources', { sources: finding.adapters.map(adapterName).join(', ') })}</span>;
}

/** The adapters reporting a finding, by their catalogue names. */
function FindingSources({ finding }: { finding: FindingResponse }) {
  const adapterName = useAdapterName();
  return <>{finding.adapters.map(adapterName).join(', ')}</>;
}

const deviceColumns: TableColumn<FindingResponse>[] = [
  { id: 'device', get header() { return t('inventories.device'); }, cell: (row) => <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.hostname} /> },
  { id: 'os_type', get header() { return t('inventories.os'); }, cell: (row) => row.os_type ?? '-' },
];
const vulnerabilityColumns: TableColumn<FindingResponse>[] = [
  { id: 'cve_id', get header() { return t('inventories.vulnerability'); }, cell: (row) => <VulnerabilityCell finding={row} /> },
  { id: 'title', get header() { return t('inventories.title'); }, cell: (row) => row.title ?? '-' },
  { id: 'severity', get header() { return t('inventories.severity'); }, cell: (row) => <SeverityBadge severity={row.severity} /> },
  { id: 'score', get header() { return t('inventories.score'); }, cell: (row) => row.score ?? '-' },
];
const shared: TableColumn<FindingResponse>[] = [
  { id: 'status', get header() { return t('inventories.status'); }, cell: (row) => <StatusCell finding={row} /> },
  { id: 'software', get header() { return t('inventories.software'); }, cell: (row) => row.software.join(', ') || '-' },
  { id: 'first_seen', get header() { return t('inventories.firstSeen'); }, cell: (row) => formatDate(row.first_seen) },
  { id: 'last_seen', get header() { return t('inventories.lastSeen'); }, cell: (row) => <RelativeTime value={row.last_seen} /> },
  { id: 'adapters', get header() { return t('inventories.sources'); }, cell: (row) => <FindingSources finding={row} /> },
  { id: 'match', get header() { return t('inventories.whyItMatched'); }, cell: (row) => <MatchReason finding={row} /> },
];

type FindingsTableProps = { filter: { device: string } | { vulnerability: string }; discoveryId: number | null };

/**
 * The findings of one device (its vulnerabilities) or of one vulnerability (the devices it affects), filtered by
 * status and text, with the status change for users who may set it.
 */
export function FindingsTable({ filter, discoveryId }: FindingsTableProps) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<FindingStatus | ''>('');
  const [changing, setChanging] = useState<FindingResponse | null>(null);
  const list = useQuery(findingsQuery({ ...filter, search, status: status || undefined, page, size: pageSize, index_id: discoveryId }));
  const ofDevice = 'device' in filter;
  const canChange = hasPermission('avm.add_vulnerabilityfalsepositive');
  const action: TableColumn<FindingResponse> = { id: 'actions', header: t('inventories.actions'), cell: (row) => <Button variant="link" onClick={() => setChanging(row)}>{t('inventories.changeStatus')}</Button> };
  const columns = [...(ofDevice ? vulnerabilityColumns : deviceColumns), ...shared, ...(canChange ? [action] : [])];
  if (list.isError) return <ErrorState title={t('inventories.findingsCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <div className="inventory-links__filters">
        <TextInput label={ofDevice ? t('inventories.searchVulnerabilities') : t('inventories.searchDevices')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
        <Select label={t('inventories.status')} placeholder={t('inventories.anyStatus')} options={findingStatuses.map((value) => ({ value, label: findingStatusLabels[value] }))} value={status} onValueChange={(value) => { setStatus(value as FindingStatus | ''); setPage(1); }} />
      </div>
      <Table
        caption={ofDevice ? t('inventories.vulnerabilitiesDevice') : t('inventories.affectedDevices')}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        empty={<EmptyState title={search || status ? t('inventories.noFindingMatches') : ofDevice ? t('inventories.noVulnerabilityReportedDevice') : t('inventories.noDeviceAffected')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
      {changing && <FindingStatusDialog finding={changing} onClose={() => setChanging(null)} />}
    </div>
  );
}
