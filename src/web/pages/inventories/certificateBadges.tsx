import { t } from '../../app/i18n/messages';
import { Badge, type BadgeTone } from '../../ui';

const expiryTones: Record<string, BadgeTone> = { Expired: 'danger', 'Expires within 30 days': 'warning', 'Expires within 90 days': 'info', Valid: 'success' };

/** Expired, within 30 or 90 days, valid: coloured by urgency. */
export function ExpiryBadge({ status }: { status: unknown }) {
  if (!status) return <>-</>;
  return <Badge tone={expiryTones[String(status)] ?? 'neutral'}>{String(status)}</Badge>;
}

/** Whether the chain served verified, with the reason as a tooltip when it did not. */
export function ChainBadge({ verified, error }: { verified: boolean | null; error: string | null }) {
  if (verified === null) return <>-</>;
  return verified ? <Badge tone="success">{t('inventories.verified')}</Badge> : <Badge tone="danger" title={error ?? undefined}>{error ? t('inventories.notVerifiedError', { error }) : t('inventories.notVerified')}</Badge>;
}
