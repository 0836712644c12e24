import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../core/dates';
import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import { Select } from '../../ui';
import type { DiscoveryResponse } from '../discoveries/discoveriesApi';
import { finishedDiscoveriesQuery } from './reportsApi';

// Asset kinds as a count reads them: "2 devices", "1 software", "16 vulnerabilities".
const pluralOf: Record<string, string> = { software: 'software', vulnerability: 'vulnerabilities' };
const assetCount = ([kind, count]: [string, number]) => `${count.toLocaleString()} ${count === 1 ? kind : (pluralOf[kind] ?? `${kind}s`)}`;

/** One finished discovery as a choice: its number, when it ran and what it published. */
export function snapshotLabel(discovery: DiscoveryResponse): string {
  const assets = Object.entries(discovery.progress?.assets ?? {}).filter(([, count]) => count > 0);
  return t('reports.snapshotPicker.option', {
    id: discovery.id, date: formatDate(discovery.start_time), assets: assets.length ? assets.map(assetCount).join(', ') : t('reports.snapshotPicker.noAssets'),
  });
}

type Props = { label: string; value: number | null; onChange: (id: number | null) => void; defaultLabel: string; message?: string; error?: string[] | string };

/**
 * A choice among the company's finished discoveries (newest first), the empty choice meaning the default the report
 * resolves when it runs. A discovery chosen before and since pruned stays listed by its number, so it is not lost.
 */
export function SnapshotPicker({ label, value, onChange, defaultLabel, message, error }: Props) {
  const canList = hasPermission('discoveries.view_discovery');
  const discoveries = useQuery({ ...finishedDiscoveriesQuery(), enabled: canList });
  // A pruned snapshot has no rows left to report on: it is not offered (a report that chose it shows it by number).
  const listed = (discoveries.data?.results ?? []).filter((discovery) => !discovery.pruned_at);
  const options = [
    { value: '', label: defaultLabel },
    ...listed.map((discovery) => ({ value: String(discovery.id), label: snapshotLabel(discovery) })),
    ...(value !== null && !listed.some((discovery) => discovery.id === value) ? [{ value: String(value), label: t('reports.snapshotPicker.unlisted', { id: value }) }] : []),
  ];
  const problem = !canList ? t('reports.snapshotPicker.noPermission') : discoveries.isError ? t('reports.snapshotPicker.unavailable', { message: discoveries.error.message }) : null;
  return (
    <Select label={label} value={value === null ? '' : String(value)} options={options} onValueChange={(next) => onChange(next ? Number(next) : null)}
      message={[message, problem].filter(Boolean).join(' ') || undefined} error={error} disabled={discoveries.isPending && canList} />
  );
}
