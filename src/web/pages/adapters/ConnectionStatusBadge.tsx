import { t } from '../../app/i18n/messages';
import { adapterStatusLook, Badge, type StatusLook } from '../../ui';
import type { ConnectionResponse } from './connectionsApi';

type StatusFacts = Pick<ConnectionResponse, 'status' | 'last_checked_at' | 'tested_at' | 'test_ok'>;

/**
 * What a connection's badge says: the latest of its test and its fetch. A test says only whether the system answers
 * ("Reachable" or "Unreachable"), never "Done"; a fetch says how it went (spec §4: done, warning, error); a connection
 * neither fetched nor tested is "Not fetched yet".
 */
export function connectionStatusLook(connection: StatusFacts): StatusLook {
  const tested = connection.tested_at ? Date.parse(connection.tested_at) : null;
  const fetched = connection.last_checked_at ? Date.parse(connection.last_checked_at) : null;
  if (tested !== null && (fetched === null || tested > fetched)) {
    return connection.test_ok ? { tone: 'info', label: t('adapters.statusReachable') } : { tone: 'danger', label: t('adapters.statusUnreachable') };
  }
  if (connection.status === 4 || fetched === null) return { tone: 'neutral', label: t('adapters.statusNotFetchedYet') };
  return adapterStatusLook(connection.status);
}

export function ConnectionStatusBadge({ connection }: { connection: StatusFacts }) {
  const look = connectionStatusLook(connection);
  return <Badge tone={look.tone}>{look.label}</Badge>;
}
