import { t } from '../../app/i18n/messages';
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
  { value: 'all', get label() { return t('inventories.allRelations'); } },
  { value: 'device-user', get label() { return t('inventories.deviceUser'); } },
  { value: 'device-device', get label() { return t('inventories.deviceDevice'); } },
];

function DeviceLink({ id, name, indexId }: { id: string; name: string; indexId: number }) {
  if (!hasPermission('users.view_device_detail')) return <>{name}</>;
  return <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: id, discoveryId: String(indexId) }}>{name}</Link>;
}

function RelatedCell({ row }: { row: RelationRowResponse }) {
  const { related } = row;
  const reported = related.reported_as !== related.name ? <span className="inventory-muted">{' '}{t('inventories.reportedReported', { reported_as: related.reported_as })}</span> : null;
  // A related name no asset of the snapshot answers to stays plain text: the source named it, nothing more is known.
  if (!related.id) return <>{related.name}<span className="inventory-muted">{' '}{t('inventories.notInventory')}</span></>;
  if (related.entity === 'device') return <><DeviceLink id={related.id} name={related.name} indexId={row.index_id} />{reported}</>;
  if (!hasPermission('users.view_user_inventory_detail')) return <>{related.name}{reported}</>;
  return <><Link to="/user-inventory/detail/$userId/$discoveryId" params={{ userId: related.id, discoveryId: String(row.index_id) }}>{related.name}</Link>{reported}</>;
}


/** The columns; a device's "Only this device" narrows the list to its relations (kept in the URL). */
function relationColumns(onlyDevice: ((id: string) => void) | null): TableColumn<RelationRowResponse>[] {
  return [
    {
      id: 'device', header: t('inventories.device'),
      cell: (row) => (
        <span className="query-builder__actions">
          <DeviceLink id={row.device.id} name={row.device.name ?? row.device.id} indexId={row.index_id} />
          {onlyDevice && <Button variant="link" aria-label={t('inventories.onlyRelationsName', { name: row.device.name ?? row.device.id })} onClick={() => onlyDevice(row.device.id)}>{t('inventories.onlyThisDevice')}</Button>}
        </span>
      ),
    },
    { id: 'kind', header: t('inventories.kind'), cell: (row) => <Badge tone={row.kind === 'device-user' ? 'info' : 'neutral'}>{row.kind === 'device-user' ? t('inventories.user') : t('inventories.device')}</Badge> },
    { id: 'relation', header: t('inventories.relation'), cell: (row) => row.relation },
    { id: 'related', header: t('inventories.relatedTo'), cell: (row) => <RelatedCell row={row} /> },
    { id: 'adapters', header: t('inventories.reportedBy'), cell: (row) => row.adapters.join(', ') || '-' },
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
  useEffect(() => setBreadcrumb([{ label: t('inventories.devices'), to: '/device-inventory' }, { label: t('inventories.relations') }]), []);
  const deviceName = device ? (list.data?.results[0]?.device.name ?? device) : null;
  return (
    <section className="inventory-page">
      <PageHeader
        title={t('inventories.deviceRelations')}
        description={t('inventories.whoUsesEachDevice')}
        meta={list.data ? <span className="inventory-muted">{t('inventories.countRelationS', { count: list.data.count.toLocaleString() })}</span> : null}
      />
      <div className="relations-filters">
        <Select label={t('inventories.kind')} value={kind} options={kindOptions} onValueChange={(next) => { setKind(next); setPage(1); }} />
        <TextInput label={t('inventories.searchDeviceRelatedName')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
        {deviceName && (
          <p className="relations-filters__device">
            {t('inventories.relationsOf')}{' '}<strong>{deviceName}</strong>{' '}
            <Button variant="link" onClick={() => { setPage(1); void navigate({ to: '.', search: {}, replace: true }); }}>{t('inventories.showEveryDevice')}</Button>
          </p>
        )}
      </div>
      <Table
        caption={t('inventories.deviceRelations')}
        columns={relationColumns(device ? null : (id) => { setPage(1); void navigate({ to: '.', search: { device: id }, replace: true }); })}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        empty={list.isError ? <EmptyState title={t('inventories.noInventoryYet')} description={t('inventories.runDiscoveryPublishFirst')} /> : <EmptyState title={t('inventories.noRelations')} description={search || kind !== 'all' || device ? t('inventories.changeClearFilters') : t('inventories.noSourceReportedRelation')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </section>
  );
}
