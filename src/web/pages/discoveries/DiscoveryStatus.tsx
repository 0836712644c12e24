import { formatDate } from '../../../core/dates';
import { t } from '../../app/i18n/messages';
import { Badge, discoveryStatusLook, type BadgeTone } from '../../ui';
import type { RunState } from './discoveriesApi';

/** A discovery's status; one whose snapshot was pruned says so beside it (its data can no longer be opened). */
export function DiscoveryStatusBadge({ status, prunedAt }: { status: string; prunedAt?: string | null }) {
  const look = discoveryStatusLook(status);
  const badge = <Badge tone={look.tone}>{look.label}</Badge>;
  if (!prunedAt) return badge;
  return (
    <>
      {badge} <Badge tone="neutral" title={t('discoveries.prunedAt', { date: formatDate(prunedAt) })}>{t('discoveries.pruned')}</Badge>
    </>
  );
}

const runLooks: Record<RunState, { tone: BadgeTone; label: string }> = {
  pending: { tone: 'neutral', get label() { return t('discoveries.waiting'); } },
  running: { tone: 'info', get label() { return t('discoveries.running'); } },
  done: { tone: 'success', get label() { return t('discoveries.done'); } },
  warning: { tone: 'warning', get label() { return t('discoveries.warning'); } },
  error: { tone: 'danger', get label() { return t('discoveries.error'); } },
};

/** The state of one connection or stage of a discovery. */
export function RunStateBadge({ state }: { state: RunState }) {
  const look = runLooks[state] ?? runLooks.pending;
  return <Badge tone={look.tone}>{look.label}</Badge>;
}

/** `1234` → `1.2 s`; null while unknown. */
export const durationText = (milliseconds: number | null): string => (milliseconds === null ? '-' : milliseconds < 1000 ? `${milliseconds} ms` : `${(milliseconds / 1000).toFixed(1)} s`);
