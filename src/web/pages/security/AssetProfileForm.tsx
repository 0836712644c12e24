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
      <Card title={`Devices in the latest scored snapshot${data ? ` (${data.count.toLocaleString()})` : ''}`}>
        <Table
          caption="Profile devices" rows={data?.results ?? []} rowKey={(row) => row.asset_id} loading={members.isFetching}
          columns={[
            { id: 'hostname', header: 'Device', cell: (row) => <DeviceLink assetId={row.asset_id} indexId={data!.index_id!} name={row.hostname} /> },
            { id: 'os', header: 'OS', cell: (row) => row.os ?? '-' },
            { id: 'score', header: 'Score', cell: (row) => <ScoreBadge score={row.score} /> },
          ]}
        />
        <Pagination page={page} pageSize={20} count={data?.count ?? 0} onPageChange={setPage} />
      </Card>
      <Card title="Across snapshots">
        <Table
          caption="Profile history" rows={[...(data?.history ?? [])].reverse()} rowKey={(row) => row.index_id}
          columns={[
            { id: 'start_time', header: 'Snapshot', cell: (row) => new Date(row.start_time).toLocaleString() },
            { id: 'devices', header: 'Devices', align: 'end', cell: (row) => row.devices.toLocaleString() },
            { id: 'added', header: 'Joined', align: 'end', cell: (row) => row.added ?? '-' },
            { id: 'removed', header: 'Left', align: 'end', cell: (row) => row.removed ?? '-' },
            { id: 'score', header: 'Score', cell: (row) => <ScoreBadge score={row.score === null ? null : Math.round(row.score)} /> },
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
    <SecurityDocumentForm kind="profile" schema={profileSchema} path={profilesPath} listPath="/security-manager/asset-profile" listLabel="Asset profiles" id={id}>
      {id !== null && <ProfileMembers id={id} />}
    </SecurityDocumentForm>
  );
}
