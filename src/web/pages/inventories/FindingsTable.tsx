import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates';
import { hasPermission } from '../../app/session/session';
import { Badge, Button, EmptyState, ErrorState, Pagination, Select, Table, TextInput, type BadgeTone, type TableColumn } from '../../ui';
import { AssetLink } from './assetLinks';
import { FindingStatusDialog } from './FindingStatusDialog';
import { deviceInventory, vulnerabilityInventory } from './inventoryKinds';
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

const deviceColumns: TableColumn<FindingResponse>[] = [
  { id: 'device', header: 'Device', cell: (row) => <AssetLink kind={deviceInventory} id={row.device_id} discoveryId={row.index_id} name={row.hostname} /> },
  { id: 'os_type', header: 'OS', cell: (row) => row.os_type ?? '-' },
];
const vulnerabilityColumns: TableColumn<FindingResponse>[] = [
  { id: 'cve_id', header: 'Vulnerability', cell: (row) => <AssetLink kind={vulnerabilityInventory} id={row.vulnerability_id} discoveryId={row.index_id} name={row.cve_id ?? row.title} /> },
  { id: 'title', header: 'Title', cell: (row) => row.title ?? '-' },
  { id: 'severity', header: 'Severity', cell: (row) => <SeverityBadge severity={row.severity} /> },
  { id: 'score', header: 'Score', cell: (row) => row.score ?? '-' },
];
const shared: TableColumn<FindingResponse>[] = [
  { id: 'status', header: 'Status', cell: (row) => <StatusCell finding={row} /> },
  { id: 'software', header: 'Software', cell: (row) => row.software.join(', ') || '-' },
  { id: 'first_seen', header: 'First seen', cell: (row) => formatDate(row.first_seen) },
  { id: 'last_seen', header: 'Last seen', cell: (row) => formatDate(row.last_seen) },
  { id: 'adapters', header: 'Sources', cell: (row) => row.adapters.join(', ') },
  { id: 'match', header: 'Why it matched', cell: (row) => <span className="inventory-match-reason">{row.sources?.find((source) => source.adapter === 'cartograph-avm')?.evidence ?? '-'}</span> },
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
  const action: TableColumn<FindingResponse> = { id: 'actions', header: 'Actions', cell: (row) => <Button variant="link" onClick={() => setChanging(row)}>Change status</Button> };
  const columns = [...(ofDevice ? vulnerabilityColumns : deviceColumns), ...shared, ...(canChange ? [action] : [])];
  if (list.isError) return <ErrorState title="The findings could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <div className="inventory-links">
      <div className="inventory-links__filters">
        <TextInput label={ofDevice ? 'Search vulnerabilities' : 'Search devices'} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
        <Select label="Status" placeholder="Any status" options={findingStatuses.map((value) => ({ value, label: findingStatusLabels[value] }))} value={status} onValueChange={(value) => { setStatus(value as FindingStatus | ''); setPage(1); }} />
      </div>
      <Table
        caption={ofDevice ? 'Vulnerabilities of this device' : 'Affected devices'}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        empty={<EmptyState title={search || status ? 'No finding matches' : ofDevice ? 'No vulnerability reported on this device' : 'No device is affected'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
      {changing && <FindingStatusDialog finding={changing} onClose={() => setChanging(null)} />}
    </div>
  );
}
