import { t } from '../../app/i18n/messages';
import { formatDate } from '../../../core/dates';
import { Link } from '@tanstack/react-router';
import { Badge, type BadgeTone } from '../../ui';
import { AssetLink } from '../inventories/assetLinks';
import { userInventory } from '../inventories/inventoryKinds';
import type { TrendPoint, UserNames } from './securityApi';
import './security.css';

/** A score's tone: the colour follows the text, never replaces it. */
export const scoreTone = (score: number | null): BadgeTone => (score === null ? 'neutral' : score >= 80 ? 'success' : score >= 50 ? 'warning' : 'danger');

export function ScoreBadge({ score }: { score: number | null }) {
  return <Badge tone={scoreTone(score)}>{score === null ? t('security.noScore') : `${score} / 100`}</Badge>;
}

/** A score's trend across snapshots: one bar per snapshot, newest last, each labelled for screen readers. */
export function ScoreTrend({ points, label }: { points: TrendPoint[]; label: string }) {
  if (!points.length) return <p className="security-muted">{t('security.noScoredSnapshotYet')}</p>;
  return (
    <ol className="security-trend" aria-label={label}>
      {points.map((point) => (
        <li key={point.index_id} title={t('security.trendPointDevices', { date: formatDate(point.start_time), score: point.score ?? t('security.noScoreInline'), devices: point.devices })}>
          <span className={`security-trend__bar security-trend__bar--${scoreTone(point.score)}`} style={{ height: `${Math.max(4, point.score ?? 0)}%` }} />
          <span className="security-visually-hidden">{t('security.trendPoint', { date: formatDate(point.start_time), score: point.score ?? t('security.noScoreInline') })}</span>
        </li>
      ))}
    </ol>
  );
}

export function DeviceLink({ assetId, indexId, name }: { assetId: string; indexId: number; name: string | null }) {
  return <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: assetId, discoveryId: String(indexId) }}>{name ?? assetId}</Link>;
}

/** A user as the security pages name one: display name and user name, linking to the user's detail when permitted. */
export function UserLink({ assetId, indexId, names }: { assetId: string; indexId: number; names: UserNames }) {
  const { username, display_name: displayName } = names;
  const name = displayName && username && displayName !== username ? `${displayName} (${username})` : (displayName || username || null);
  return <AssetLink kind={userInventory} id={assetId} discoveryId={indexId} name={name} />;
}
