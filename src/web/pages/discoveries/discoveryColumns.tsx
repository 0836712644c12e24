import { Link } from '@tanstack/react-router';
import { formatDate, formatElapsed } from '../../../core/dates';
import type { TableColumn } from '../../ui';
import type { DiscoveryResponse } from './discoveriesApi';
import { DiscoveryStatusBadge } from './DiscoveryStatus';

const total = (discovery: DiscoveryResponse) => Object.values(discovery.progress?.assets ?? {}).reduce((sum, count) => sum + count, 0);

/** Columns of every discovery table. */
export const discoveryColumns: TableColumn<DiscoveryResponse>[] = [
  { id: 'id', header: 'Discovery', cell: (row) => <Link to="/discovery/detail/$discoveryId" params={{ discoveryId: String(row.id) }}>#{row.id}</Link> },
  { id: 'status', header: 'Status', cell: (row) => <DiscoveryStatusBadge status={row.status} /> },
  { id: 'trigger', header: 'Started by', cell: (row) => (row.trigger === 'manual' ? 'Hand' : row.trigger === 'schedule' ? 'Schedule' : row.trigger) },
  { id: 'start_time', header: 'Started', cell: (row) => formatDate(row.start_time) },
  { id: 'elapsed', header: 'Duration', cell: (row) => formatElapsed(row.start_time, row.end_time) },
  { id: 'connections', header: 'Connections', align: 'end', cell: (row) => row.progress?.connections?.length ?? 0 },
  { id: 'assets', header: 'Assets', align: 'end', cell: (row) => total(row).toLocaleString() },
];
