import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Card, EmptyState, ErrorState, PageHeader, Spinner, Table } from '../../ui';
import { overviewQuery, type Overview } from './securityApi';
import { DeviceLink, ScoreBadge, ScoreTrend, UserLink } from './scoreParts';

/**
 * `/security-manager`: the company score and its trend, the worst profiles and devices, the most failed policies, and
 * the users that fail policies on users (which count in no score).
 */
export function SecurityManager() {
  const overview = useQuery(overviewQuery());
  useEffect(() => setBreadcrumb([{ label: t('security.securityManager') }]), []);
  const links = (
    <span className="security-actions">
      <Link to="/security-manager/asset-profile">{t('security.assetProfiles')}</Link>
      {hasPermission('securitymanager.view_securitypolicy') && <Link to="/security-manager/security-policy">{t('security.securityPolicies')}</Link>}
    </span>
  );
  if (overview.isPending) return <Spinner label={t('security.loadingSecurityOverview')} />;
  if (overview.isError) return <ErrorState message={overview.error.message} onRetry={() => void overview.refetch()} />;
  const data: Overview = overview.data;
  return (
    <section className="security-page">
      <PageHeader title={t('security.securityManager')} description={t('security.scoresComputedFromEnabled')} actions={links} />
      {data.index_id === null ? (
        <EmptyState title={t('security.noScoresYet')} description={t('security.enableSecurityPoliciesStarter')} />
      ) : (
        <>
          <div className="security-grid">
            <Card title={t('security.companyScore')}>
              <p className="security-score" aria-label={t('security.companyScore')}>{data.score ?? '-'}</p>
              <p className="security-muted">{t('security.devicesDevicesScoredLatest', { devices: data.devices.toLocaleString() })}</p>
              <ScoreTrend points={data.trend} label={t('security.companyScorePerSnapshot')} />
            </Card>
            <Card title={t('security.howScoresComputed')}>
              <p>{data.formula}</p>
            </Card>
          </div>
          <div className="security-grid">
            <Card title={t('security.worstProfiles')}>
              <Table
                caption={t('security.worstProfiles')} rowKey={(row) => row.id} rows={data.worst_profiles}
                columns={[
                  { id: 'name', header: t('security.profile'), cell: (row) => <Link to="/security-manager/asset-profile/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> },
                  { id: 'score', header: t('security.score'), cell: (row) => (row.error ? <span className="security-error">{row.error}</span> : <ScoreBadge score={row.score === null ? null : Math.round(row.score)} />) },
                  { id: 'devices', header: t('security.devices'), align: 'end', cell: (row) => row.devices.toLocaleString() },
                ]}
                empty={<EmptyState title={t('security.noProfiles')} description={t('security.profilesGroupDevicesProduction')} />}
              />
            </Card>
            <Card title={t('security.mostFailedPolicies')}>
              <Table
                caption={t('security.mostFailedPolicies')} rowKey={(row) => row.id} rows={data.most_failed_policies}
                columns={[
                  { id: 'name', header: t('security.policy'), cell: (row) => <Link to="/security-manager/security-policy/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> },
                  {
                    id: 'failed', header: t('security.failed'), align: 'end',
                    cell: (row) => (row.error ? <span className="security-error">{row.error}</span> : t(row.inventory === 'user' ? 'security.failedOfApplicableUsers' : 'security.failedOfApplicable', { failed: row.failed.toLocaleString(), applicable: row.applicable.toLocaleString() })),
                  },
                ]}
              />
            </Card>
            <Card title={t('security.lowestScoringDevices')}>
              <Table
                caption={t('security.lowestScoringDevices')} rowKey={(row) => row.asset_id} rows={data.worst_devices}
                columns={[
                  { id: 'hostname', header: t('security.device'), cell: (row) => <DeviceLink assetId={row.asset_id} indexId={data.index_id!} name={row.hostname} /> },
                  { id: 'score', header: t('security.score'), cell: (row) => <ScoreBadge score={row.score} /> },
                  { id: 'failed', header: t('security.policiesFailed'), align: 'end', cell: (row) => row.failed },
                ]}
              />
              <p><Link to="/device-inventory" search={{ query: 'SecurityScore < 50' }}>{t('security.everyDeviceScoringBelow')}</Link></p>
            </Card>
            {data.failing_users.length > 0 && (
              <Card title={t('security.usersFailingPolicies')}>
                <Table
                  caption={t('security.usersFailingPolicies')} rowKey={(row) => row.asset_id} rows={data.failing_users}
                  columns={[
                    { id: 'user', header: t('security.user'), cell: (row) => <UserLink assetId={row.asset_id} indexId={data.index_id!} names={row} /> },
                    { id: 'policies', header: t('security.policiesFailed'), cell: (row) => row.policies.join(', ') },
                  ]}
                />
                <p><Link to="/user-inventory" search={{ query: 'FailedPolicies = *' }}>{t('security.everyUserFailingPolicy')}</Link></p>
              </Card>
            )}
          </div>
        </>
      )}
    </section>
  );
}
