import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { Link } from '@tanstack/react-router';
import { formatDate, formatElapsed } from '../../../core/dates';
import type { TableColumn } from '../../ui';
import type { DiscoveryResponse } from './discoveriesApi';
import { DiscoveryStatusBadge } from './DiscoveryStatus';

const total = (discovery: DiscoveryResponse) => Object.values(discovery.progress?.assets ?? {}).reduce((sum, count) => sum + count, 0);

/** Columns of every discovery table. */
export const discoveryColumns: TableColumn<DiscoveryResponse>[] = [
  { id: 'id', get header() { return t('discoveries.discovery'); }, cell: (row) => <Link to="/discovery/detail/$discoveryId" params={{ discoveryId: String(row.id) }}>#{row.id}</Link> },
  { id: 'status', get header() { return t('discoveries.status'); }, cell: (row) => <DiscoveryStatusBadge status={row.status} prunedAt={row.pruned_at} /> },
  { id: 'trigger', get header() { return t('discoveries.startedBy'); }, cell: (row) => (row.trigger === 'manual' ? t('discoveries.hand') : row.trigger === 'schedule' ? t('discoveries.schedule') : row.trigger) },
  { id: 'start_time', get header() { return t('discoveries.started'); }, cell: (row) => formatDate(row.start_time) },
  { id: 'elapsed', get header() { return t('discoveries.duration'); }, cell: (row) => formatElapsed(row.start_time, row.end_time) },
  { id: 'connections', get header() { return t('discoveries.connections'); }, align: 'end', cell: (row) => row.progress?.connections?.length ?? 0 },
  { id: 'assets', get header() { return t('discoveries.assets'); }, align: 'end', cell: (row) => formatNumber(total(row)) },
];
