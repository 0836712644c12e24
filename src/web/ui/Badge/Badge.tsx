import { t } from '../../app/i18n/messages';
import type { ReactNode } from 'react';
import './Badge.css';

export type BadgeTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';
export type BadgeProps = { tone?: BadgeTone; children: ReactNode; className?: string; title?: string };

/** A small coloured label for a status or a count. The colour is never the only signal: the text says it too. */
export function Badge({ tone = 'neutral', children, className, title }: BadgeProps) {
  return (
    <span className={`ui-badge ui-badge--${tone}${className ? ` ${className}` : ''}`} title={title}>
      <span className="ui-badge__dot" aria-hidden="true" />
      {children}
    </span>
  );
}

export type StatusLook = { tone: BadgeTone; label: string };

/** The status of the built-in pseudo-adapters (spec §3): they fetch nothing of their own, so no badge says how it went. */
const builtInAdapterStatus = 6;

/** Spec §4 adapter status: 1 done, 2 warning, 3 error, 4 none (not configured); 6 (the built-in pseudo-adapters) is not shown. */
export const adapterStatusLooks: Readonly<Record<number, StatusLook>> = {
  1: { tone: 'success', get label() { return t('ui.done'); } },
  2: { tone: 'warning', get label() { return t('ui.warning'); } },
  3: { tone: 'danger', get label() { return t('ui.error'); } },
  4: { tone: 'neutral', get label() { return t('ui.notConfigured'); } },
};

/** Spec §4 task and run status: 1 running, 2 done, 3 error. */
export const taskStatusLooks: Readonly<Record<number, StatusLook>> = {
  1: { tone: 'info', get label() { return t('ui.running'); } },
  2: { tone: 'success', get label() { return t('ui.done'); } },
  3: { tone: 'danger', get label() { return t('ui.error'); } },
};

/** Spec §4 discovery status. */
export const discoveryStatusLooks: Readonly<Record<string, StatusLook>> = {
  running: { tone: 'info', get label() { return t('ui.running'); } },
  done: { tone: 'success', get label() { return t('ui.done'); } },
  error: { tone: 'danger', get label() { return t('ui.error'); } },
};

const unknownLook = (status: number | string): StatusLook => ({ tone: 'neutral', label: t('ui.unknownStatus', { status }) });

/** The badge look of an adapter status; an unknown number is shown as neutral with the number. */
export const adapterStatusLook = (status: number): StatusLook => adapterStatusLooks[status] ?? unknownLook(status);
export const taskStatusLook = (status: number): StatusLook => taskStatusLooks[status] ?? unknownLook(status);
export const discoveryStatusLook = (status: string): StatusLook => discoveryStatusLooks[status] ?? unknownLook(status);

/** The badge of an adapter's status (spec §4). */
export function AdapterStatusBadge({ status }: { status: number }) {
  if (status === builtInAdapterStatus) return null;
  const look = adapterStatusLook(status);
  return <Badge tone={look.tone}>{look.label}</Badge>;
}

/** The badge of a task or run status (spec §4). */
export function TaskStatusBadge({ status }: { status: number }) {
  const look = taskStatusLook(status);
  return <Badge tone={look.tone}>{look.label}</Badge>;
}
