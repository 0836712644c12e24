import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { formatDate, formatElapsed } from '../../../core/dates';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Card, EmptyState, PageHeader, Table } from '../../ui';
import { discoveryListQuery, lastDiscoveryPollMs, lastDiscoveryQuery } from './discoveriesApi';
import { discoveryColumns } from './discoveryColumns';
import { discoveryLists } from './discoveryLists';
import { DiscoveryStatusBadge } from './DiscoveryStatus';
import { LoadDemoOffer } from './LoadDemoOffer';
import { StartDiscoveryButton } from './StartDiscoveryButton';
import './discoveries.css';

// Spec §9: the discoveries list is read with size 10000.
const allDiscoveries = 10_000;
const recentShown = 10;

/** `/discoveries`: the last discovery (followed live while it runs), counts, and the most recent ones. */
export function Discoveries() {
  const last = useQuery(lastDiscoveryQuery());
  const running = last.data?.status === 1;
  // While a discovery runs the list is polled with it, so counts and durations move live.
  const list = useQuery({ ...discoveryListQuery(1, allDiscoveries), refetchInterval: running ? lastDiscoveryPollMs : false });
  const lists = discoveryLists(list.data?.results ?? []);
  useEffect(() => setBreadcrumb([{ label: t('discoveries.discoveries') }]), []);

  return (
    <section className="discoveries-page">
      <PageHeader title={t('discoveries.discoveries')} description={t('discoveries.eachDiscoveryFetchesEvery')} actions={<StartDiscoveryButton running={running} />} />
      <LoadDemoOffer />
      <div className="discoveries-summary">
        <Card title={t('discoveries.lastDiscovery')} headingLevel={2}>
          {lists.last ? (
            <dl className="discoveries-facts">
              <div><dt>{t('discoveries.discovery')}</dt><dd><Link to="/discovery/detail/$discoveryId" params={{ discoveryId: String(lists.last.id) }}>#{lists.last.id}</Link> <DiscoveryStatusBadge status={lists.last.status} /></dd></div>
              <div><dt>{t('discoveries.started')}</dt><dd>{formatDate(lists.last.start_time)}</dd></div>
              <div><dt>{t('discoveries.duration')}</dt><dd>{formatElapsed(lists.last.start_time, lists.last.end_time)}</dd></div>
            </dl>
          ) : (
            <EmptyState title={t('discoveries.noDiscoveryYet')} description={t('discoveries.addConnectionUnderAdapters')} />
          )}
        </Card>
        <Card title={t('discoveries.totals')} headingLevel={2}>
          <dl className="discoveries-facts">
            <div><dt>{t('discoveries.running')}</dt><dd>{lists.running.length}</dd></div>
            <div><dt>{t('discoveries.completed')}</dt><dd>{lists.completed.length}</dd></div>
            <div><dt>{t('discoveries.failed')}</dt><dd>{lists.failed.length}</dd></div>
            <div><dt>{t('discoveries.latestCompleted')}</dt><dd>{lists.latestCompleted ? formatDate(lists.latestCompleted.end_time) : '-'}</dd></div>
          </dl>
        </Card>
      </div>
      <Card title={t('discoveries.recentDiscoveries')} actions={<Link to="/discovery/list">{t('discoveries.allDiscoveries')}</Link>}>
        <Table caption={t('discoveries.recentDiscoveries')} columns={discoveryColumns} rows={(list.data?.results ?? []).slice(0, recentShown)} rowKey={(row) => row.id} loading={list.isPending} empty={<EmptyState title={t('discoveries.noDiscoveries')} />} />
      </Card>
    </section>
  );
}
