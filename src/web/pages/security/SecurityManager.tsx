import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Card, EmptyState, ErrorState, PageHeader, Spinner, Table } from '../../ui';
import { overviewQuery, type Overview } from './securityApi';
import { DeviceLink, ScoreBadge, ScoreTrend } from './scoreParts';

/** `/security-manager`: the company score and its trend, the worst profiles and devices, the most failed policies. */
export function SecurityManager() {
  const overview = useQuery(overviewQuery());
  useEffect(() => setBreadcrumb([{ label: 'Security manager' }]), []);
  const links = (
    <span className="security-actions">
      <Link to="/security-manager/asset-profile">Asset profiles</Link>
      {hasPermission('securitymanager.view_securitypolicy') && <Link to="/security-manager/security-policy">Security policies</Link>}
    </span>
  );
  if (overview.isPending) return <Spinner label="Loading the security overview" />;
  if (overview.isError) return <ErrorState message={overview.error.message} onRetry={() => void overview.refetch()} />;
  const data: Overview = overview.data;
  return (
    <section className="security-page">
      <PageHeader title="Security manager" description="Scores computed from the enabled security policies each time a discovery publishes its snapshot." actions={links} />
      {data.index_id === null ? (
        <EmptyState title="No scores yet" description="Enable security policies (the starter library is on the policy page), then run a discovery: every device is scored when its snapshot is published." />
      ) : (
        <>
          <div className="security-grid">
            <Card title="Company score">
              <p className="security-score" aria-label="Company score">{data.score ?? '-'}</p>
              <p className="security-muted">{data.devices.toLocaleString()} devices scored in the latest snapshot</p>
              <ScoreTrend points={data.trend} label="Company score per snapshot" />
            </Card>
            <Card title="How scores are computed">
              <p>{data.formula}</p>
            </Card>
          </div>
          <div className="security-grid">
            <Card title="Worst profiles">
              <Table
                caption="Worst profiles" rowKey={(row) => row.id} rows={data.worst_profiles}
                columns={[
                  { id: 'name', header: 'Profile', cell: (row) => <Link to="/security-manager/asset-profile/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> },
                  { id: 'score', header: 'Score', cell: (row) => (row.error ? <span className="security-error">{row.error}</span> : <ScoreBadge score={row.score === null ? null : Math.round(row.score)} />) },
                  { id: 'devices', header: 'Devices', align: 'end', cell: (row) => row.devices.toLocaleString() },
                ]}
                empty={<EmptyState title="No profiles" description="Profiles group devices (Production servers, Laptops) to weigh and scope policies." />}
              />
            </Card>
            <Card title="Most failed policies">
              <Table
                caption="Most failed policies" rowKey={(row) => row.id} rows={data.most_failed_policies}
                columns={[
                  { id: 'name', header: 'Policy', cell: (row) => <Link to="/security-manager/security-policy/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> },
                  { id: 'failed', header: 'Failed', align: 'end', cell: (row) => (row.error ? <span className="security-error">{row.error}</span> : `${row.failed.toLocaleString()} of ${row.applicable.toLocaleString()}`) },
                ]}
              />
            </Card>
            <Card title="Lowest scoring devices">
              <Table
                caption="Lowest scoring devices" rowKey={(row) => row.asset_id} rows={data.worst_devices}
                columns={[
                  { id: 'hostname', header: 'Device', cell: (row) => <DeviceLink assetId={row.asset_id} indexId={data.index_id!} name={row.hostname} /> },
                  { id: 'score', header: 'Score', cell: (row) => <ScoreBadge score={row.score} /> },
                  { id: 'failed', header: 'Policies failed', align: 'end', cell: (row) => row.failed },
                ]}
              />
              <p><Link to="/device-inventory" search={{ query: 'SecurityScore < 50' }}>Every device scoring below 50</Link></p>
            </Card>
          </div>
        </>
      )}
    </section>
  );
}
