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
  useEffect(() => setBreadcrumb([{ label: 'Discoveries' }]), []);

  return (
    <section className="discoveries-page">
      <PageHeader title="Discoveries" description="Each discovery fetches every enabled connection, correlates the records and publishes a new inventory snapshot." actions={<StartDiscoveryButton running={running} />} />
      <LoadDemoOffer />
      <div className="discoveries-summary">
        <Card title="Last discovery" headingLevel={2}>
          {lists.last ? (
            <dl className="discoveries-facts">
              <div><dt>Discovery</dt><dd><Link to="/discovery/detail/$discoveryId" params={{ discoveryId: String(lists.last.id) }}>#{lists.last.id}</Link> <DiscoveryStatusBadge status={lists.last.status} /></dd></div>
              <div><dt>Started</dt><dd>{formatDate(lists.last.start_time)}</dd></div>
              <div><dt>Duration</dt><dd>{formatElapsed(lists.last.start_time, lists.last.end_time)}</dd></div>
            </dl>
          ) : (
            <EmptyState title="No discovery yet" description="Add a connection under Adapters, then start the first discovery." />
          )}
        </Card>
        <Card title="Totals" headingLevel={2}>
          <dl className="discoveries-facts">
            <div><dt>Running</dt><dd>{lists.running.length}</dd></div>
            <div><dt>Completed</dt><dd>{lists.completed.length}</dd></div>
            <div><dt>Failed</dt><dd>{lists.failed.length}</dd></div>
            <div><dt>Latest completed</dt><dd>{lists.latestCompleted ? formatDate(lists.latestCompleted.end_time) : '-'}</dd></div>
          </dl>
        </Card>
      </div>
      <Card title="Recent discoveries" actions={<Link to="/discovery/list">All discoveries</Link>}>
        <Table caption="Recent discoveries" columns={discoveryColumns} rows={(list.data?.results ?? []).slice(0, recentShown)} rowKey={(row) => row.id} loading={list.isPending} empty={<EmptyState title="No discoveries" />} />
      </Card>
    </section>
  );
}
