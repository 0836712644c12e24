import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, EmptyState, PageHeader, Pagination, Select, Table, TextInput, type TableColumn } from '../../ui';
import { relationListQuery, type RelationKind, type RelationRowResponse } from './deviceActionsApi';
import './inventories.css';
import './deviceActions.css';

const pageSize = 50;
const kindOptions = [
  { value: 'all', label: 'All relations' },
  { value: 'device-user', label: 'Device – user' },
  { value: 'device-device', label: 'Device – device' },
];

function DeviceLink({ id, name, indexId }: { id: string; name: string; indexId: number }) {
  if (!hasPermission('users.view_device_detail')) return <>{name}</>;
  return <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: id, discoveryId: String(indexId) }}>{name}</Link>;
}

function RelatedCell({ row }: { row: RelationRowResponse }) {
  const { related } = row;
  const reported = related.reported_as !== related.name ? <span className="inventory-muted"> (reported as {related.reported_as})</span> : null;
  // A related name no asset of the snapshot answers to stays plain text: the source named it, nothing more is known.
  if (!related.id) return <>{related.name}<span className="inventory-muted"> (not in the inventory)</span></>;
  if (related.entity === 'device') return <><DeviceLink id={related.id} name={related.name} indexId={row.index_id} />{reported}</>;
  if (!hasPermission('users.view_user_inventory_detail')) return <>{related.name}{reported}</>;
  return <><Link to="/user-inventory/detail/$userId/$discoveryId" params={{ userId: related.id, discoveryId: String(row.index_id) }}>{related.name}</Link>{reported}</>;
}


/** The columns; a device's "Only this device" narrows the list to its relations (kept in the URL). */
function relationColumns(onlyDevice: ((id: string) => void) | null): TableColumn<RelationRowResponse>[] {
  return [
    {
      id: 'device', header: 'Device',
      cell: (row) => (
        <span className="query-builder__actions">
          <DeviceLink id={row.device.id} name={row.device.name ?? row.device.id} indexId={row.index_id} />
          {onlyDevice && <Button variant="link" aria-label={`Only the relations of ${row.device.name ?? row.device.id}`} onClick={() => onlyDevice(row.device.id)}>Only this device</Button>}
        </span>
      ),
    },
    { id: 'kind', header: 'Kind', cell: (row) => <Badge tone={row.kind === 'device-user' ? 'info' : 'neutral'}>{row.kind === 'device-user' ? 'User' : 'Device'}</Badge> },
    { id: 'relation', header: 'Relation', cell: (row) => row.relation },
    { id: 'related', header: 'Related to', cell: (row) => <RelatedCell row={row} /> },
    { id: 'adapters', header: 'Reported by', cell: (row) => row.adapters.join(', ') || '-' },
  ];
}

/** `/device-inventory/relations`: device–user and device–device relations as sources report them, filtered and paged. */
export function DeviceRelations() {
  const params = useSearch({ strict: false }) as { device?: string; kind?: string };
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<string>(params.kind === 'device-user' || params.kind === 'device-device' ? params.kind : 'all');
  const device = params.device ?? '';
  const list = useQuery(relationListQuery({ page, size: pageSize, search, kind: kind === 'all' ? undefined : (kind as RelationKind), device: device || undefined }));
  useEffect(() => setBreadcrumb([{ label: 'Devices', to: '/device-inventory' }, { label: 'Relations' }]), []);
  const deviceName = device ? (list.data?.results[0]?.device.name ?? device) : null;
  return (
    <section className="inventory-page">
      <PageHeader
        title="Device relations"
        description="Who uses each device and which devices it is tied to, as each source reports it."
        meta={list.data ? <span className="inventory-muted">{list.data.count.toLocaleString()} relation(s)</span> : null}
      />
      <div className="relations-filters">
        <Select label="Kind" value={kind} options={kindOptions} onValueChange={(next) => { setKind(next); setPage(1); }} />
        <TextInput label="Search device or related name" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
        {deviceName && (
          <p className="relations-filters__device">
            Relations of <strong>{deviceName}</strong>{' '}
            <Button variant="link" onClick={() => { setPage(1); void navigate({ to: '.', search: {}, replace: true }); }}>Show every device</Button>
          </p>
        )}
      </div>
      <Table
        caption="Device relations"
        columns={relationColumns(device ? null : (id) => { setPage(1); void navigate({ to: '.', search: { device: id }, replace: true }); })}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        empty={list.isError ? <EmptyState title="No inventory yet" description="Run a discovery to publish the first snapshot." /> : <EmptyState title="No relations" description={search || kind !== 'all' || device ? 'Change or clear the filters.' : 'No source reported a relation.'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </section>
  );
}
