import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { Badge, type BadgeTone } from '../../ui';
import type { RunSummary } from './actionApi';

// A run's and a target's statuses, its triggers and its counts as people read them, never the API's values.
const statusTone: Record<string, BadgeTone> = { done: 'success', error: 'danger', running: 'info', queued: 'neutral', succeeded: 'success', failed: 'danger', skipped: 'warning', planned: 'info' };
export const runStatuses = ['queued', 'running', 'done', 'error'] as const;
export const targetResults = ['succeeded', 'failed', 'skipped', 'planned'] as const;

export const statusLabel = (status: string) => t(`actions.status.${status}`, {}, status);
export const StatusBadge = ({ status }: { status: string }) => <Badge tone={statusTone[status] ?? 'neutral'}>{statusLabel(status)}</Badge>;

export const triggerLabel = (trigger: string) => t(`actions.trigger.${trigger}`, {}, trigger);

/**
 * A run's counts. A dry run did nothing: it reads as the preview it is ("would act on 12 devices"), never as
 * "0 succeeded".
 */
export function runCounts(run: Pick<RunSummary, 'dry_run' | 'targets' | 'succeeded' | 'failed' | 'skipped'>): string {
  if (run.dry_run) return t('actions.previewCounts', { targets: formatNumber(run.targets), skipped: formatNumber(run.skipped) });
  return t('actions.runCounts', { targets: formatNumber(run.targets), succeeded: formatNumber(run.succeeded), failed: formatNumber(run.failed), skipped: formatNumber(run.skipped) });
}
