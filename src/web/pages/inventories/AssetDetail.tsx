import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Card, EmptyState, ErrorState, PageHeader, Spinner, Table, Tabs, type TableColumn } from '../../ui';
import { adapterImage } from '../adapters/adapterSearch';
import { fieldLabel, FieldValues } from './fieldValues';
import { assetDetailQuery, discoveryConfigurationQuery, type AssetDetailResponse, type FieldMap, type RelationResponse, type SourceRecordResponse } from './inventoryApi';
import type { InventoryKind } from './inventoryKinds';
import { MergeReasons } from './MergeReasons';
import './inventories.css';

function Facts({ entries }: { entries: [string, unknown][] }) {
  if (!entries.length) return <EmptyState title="No values" />;
  return (
    <dl className="inventory-facts">
      {entries.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd><FieldValues values={value} /></dd>
        </div>
      ))}
    </dl>
  );
}

/** A source's own fields: its normalized values, then the vendor's raw record under Specifics.<adapter>. */
function SourcePanel({ source, fieldMap }: { source: SourceRecordResponse; fieldMap: FieldMap }) {
  const entries = Object.entries(source.fields).map(([key, value]): [string, unknown] => [key.startsWith('Specifics.') ? key.split('.').slice(2).join('.') || key : fieldLabel(key, fieldMap[key]), value]);
  return <Facts entries={entries} />;
}

const relationColumns: TableColumn<RelationResponse>[] = [
  { id: 'kind', header: 'Kind', cell: (row) => (row.kind === 'device-user' ? 'User' : 'Device') },
  { id: 'relation', header: 'Relation', cell: (row) => row.relation },
  { id: 'related', header: 'Related to', cell: (row) => row.related_name },
];

function panels(asset: AssetDetailResponse, fieldMap: FieldMap, entity: InventoryKind['entity']) {
  const own = Object.keys(fieldMap).filter((key) => !key.startsWith('Specifics.') && Array.isArray(asset[key]) && (asset[key] as unknown[]).length);
  return [
    { id: 'basic', label: 'Basic info', content: <Facts entries={own.map((key) => [fieldLabel(key, fieldMap[key]), asset[key]])} /> },
    {
      id: 'sources', label: `Data sources (${asset.sources.length})`,
      content: (
        <Table
          caption="Data sources"
          columns={[
            { id: 'adapter', header: 'Adapter', cell: (row: SourceRecordResponse) => <span className="inventory-adapters"><img src={adapterImage(row.adapter)} alt="" width={18} height={18} />{row.adapter}</span> },
            { id: 'connection', header: 'Connection', cell: (row: SourceRecordResponse) => `#${row.connection_id}` },
            { id: 'record', header: 'Record', cell: (row: SourceRecordResponse) => row.record_key },
          ]}
          rows={asset.sources}
          rowKey={(row) => row.record_key}
        />
      ),
    },
    ...asset.sources.map((source) => ({ id: `source-${source.record_key}`, label: source.adapter, content: <SourcePanel source={source} fieldMap={fieldMap} /> })),
    { id: 'tags', label: 'Tags', content: <Facts entries={[['Tags', asset.Tags ?? []]]} /> },
    { id: 'relations', label: `Relations (${asset.relations.length})`, content: <Table caption="Relations" columns={relationColumns} rows={asset.relations} rowKey={(row, index) => `${row.related_name}-${index}`} empty={<EmptyState title="No relations reported" />} /> },
    {
      id: 'merge', label: 'Why merged',
      // Each reason, and for a device of several records the unmerge dialog.
      content: <MergeReasons asset={asset} entity={entity} />,
    },
  ];
}

/** `/…-inventory/detail/{id}/{discoveryId}`: one asset of one snapshot, with a panel per source. */
export function AssetDetail({ kind }: { kind: InventoryKind }) {
  const params = useParams({ strict: false }) as { deviceId?: string; userId?: string; discoveryId: string };
  const id = params.deviceId ?? params.userId ?? '';
  const discoveryId = Number(params.discoveryId);
  const configuration = useQuery(discoveryConfigurationQuery());
  const detail = useQuery(assetDetailQuery(kind.searchPath, id, discoveryId));
  const fieldMap = (configuration.data?.[kind.fieldMapKey] ?? {}) as FieldMap;
  const name = detail.data ? String((detail.data[kind.nameField] as unknown[] | undefined)?.[0] ?? id) : id;
  useEffect(() => setBreadcrumb([{ label: kind.title, to: kind.basePath }, { label: name }]), [kind, name]);

  if (detail.isPending) return <Spinner label="Loading details" />;
  if (detail.isError) return <ErrorState title="The details could not be loaded" message={detail.error.message} onRetry={() => void detail.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={`Snapshot of discovery #${detail.data.index_id} · ${detail.data.sources.length} source record(s)`} />
      <Card>
        <Tabs label={`${name} details`} tabs={panels(detail.data, fieldMap, kind.entity)} />
      </Card>
    </section>
  );
}
