import { t } from '../../app/i18n/messages';
import type { Adapter } from '../../app/session/session';
import { Badge } from '../../ui';
import { categoryLabel } from './adapterSearch';

/** Can Cartograph fetch from this adapter? Only the catalogue says no (`can_fetch: false`); custom and built-in adapters always can. */
export const canFetch = (adapter: Pick<Adapter, 'can_fetch'>): boolean => adapter.can_fetch !== false;

/**
 * What an adapter fetches and how that is verified, or that it is not available yet: the catalogue promises no data
 * an adapter cannot bring.
 */
export function AdapterCapability({ adapter }: { adapter: Adapter }) {
  if (!canFetch(adapter)) return <Badge tone="warning" className="adapter-capability">{t('adapters.notAvailableYet')}</Badge>;
  const entities = adapter.entities ?? [];
  return (
    <span className="adapter-capability">
      {entities.length ? <span className="adapter-capability__entities">{t('adapters.fetchesEntities', { entities: entities.map(categoryLabel).join(', ') })}</span> : null}
      {adapter.verified_by_replay ? <Badge tone="info" title={t('adapters.verifiedByReplayDetail')}>{t('adapters.verifiedByReplay')}</Badge> : null}
    </span>
  );
}
