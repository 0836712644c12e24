import { t } from '../../app/i18n/messages';
import { formatDate } from '../../../core/dates';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import profileSchema from '../../../../schemas/entities/asset-profile.json';
import { Card, Pagination, Table } from '../../ui';
import { membersQuery, profilesPath } from './securityApi';
import { DeviceLink, ScoreBadge } from './scoreParts';
import { SecurityDocumentForm } from './SecurityDocumentForm';

/** The profile's devices in the latest scored snapshot, and how the set changed from one snapshot to the next. */
function ProfileMembers({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const members = useQuery(membersQuery(id, page));
  const data = members.data;
  return (
    <div className="security-grid">
      <Card title={data ? t('security.devicesLatestScoredSnapshotCount', { count: data.count.toLocaleString() }) : t('security.devicesLatestScoredSnapshot')}>
        <Table
          caption={t('security.profileDevices')} rows={data?.results ?? []} rowKey={(row) => row.asset_id} loading={members.isFetching}
          columns={[
            { id: 'hostname', header: t('security.device'), cell: (row) => <DeviceLink assetId={row.asset_id} indexId={data!.index_id!} name={row.hostname} /> },
            { id: 'os', header: t('security.os'), cell: (row) => row.os ?? '-' },
            { id: 'score', header: t('security.score'), cell: (row) => <ScoreBadge score={row.score} /> },
          ]}
        />
        <Pagination page={page} pageSize={20} count={data?.count ?? 0} onPageChange={setPage} />
      </Card>
      <Card title={t('security.acrossSnapshots')}>
        <Table
          caption={t('security.profileHistory')} rows={[...(data?.history ?? [])].reverse()} rowKey={(row) => row.index_id}
          columns={[
            { id: 'start_time', header: t('security.snapshot'), cell: (row) => formatDate(row.start_time) },
            { id: 'devices', header: t('security.devices'), align: 'end', cell: (row) => row.devices.toLocaleString() },
            { id: 'added', header: t('security.joined'), align: 'end', cell: (row) => row.added ?? '-' },
            { id: 'removed', header: t('security.left'), align: 'end', cell: (row) => row.removed ?? '-' },
            { id: 'score', header: t('security.score'), cell: (row) => <ScoreBadge score={row.score === null ? null : Math.round(row.score)} /> },
          ]}
        />
      </Card>
    </div>
  );
}

/** `/security-manager/asset-profile/create` and `/edit/{id}`. */
export function AssetProfileForm() {
  const params = useParams({ strict: false }) as { id?: string };
  const id = params.id ? Number(params.id) : null;
  return (
    <SecurityDocumentForm kind="profile" schema={profileSchema} path={profilesPath} listPath="/security-manager/asset-profile" listLabel={t('security.assetProfiles')} id={id}>
      {id !== null && <ProfileMembers id={id} />}
    </SecurityDocumentForm>
  );
}
