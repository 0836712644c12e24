import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Card, EmptyState, ErrorState, PageHeader, Spinner, Table, Tabs, type TableColumn } from '../../ui';
import { Facts, type Fact } from './facts';
import { fieldLabel, ownFieldKeys } from './fieldValues';
import { useInventoryDetail } from './inventoryDetail';
import { type AssetDetailResponse, type FieldMap, type RelationResponse, type SourceRecordResponse } from './inventoryApi';
import type { AssetKind } from './inventoryKinds';
import { devicePanels } from './devicePanels';
import { MergeReasons } from './MergeReasons';
import { detailValue, SourceName, sourceTabLabels } from './sources';
import './inventories.css';

/** A source's own fields: its normalized values, then the vendor's raw record under Specifics.<adapter>. */
function SourcePanel({ source, fieldMap }: { source: SourceRecordResponse; fieldMap: FieldMap }) {
  const entries = Object.entries(source.fields).map(([key, value]): Fact => [key.startsWith('Specifics.') ? key.split('.').slice(2).join('.') || key : fieldLabel(key, fieldMap[key]), value, fieldMap[key]?.value_type]);
  return <Facts entries={entries} />;
}

const relationColumns: TableColumn<RelationResponse>[] = [
  { id: 'kind', header: 'Kind', cell: (row) => (row.kind === 'device-user' ? 'User' : 'Device') },
  { id: 'relation', header: 'Relation', cell: (row) => row.relation },
  { id: 'related', header: 'Related to', cell: (row) => row.related_name },
];

function panels(asset: AssetDetailResponse, fieldMap: FieldMap, entity: AssetKind['entity']) {
  const own = ownFieldKeys(asset, fieldMap);
  const labels = sourceTabLabels(asset.sources);
  return [
    { id: 'basic', label: 'Basic info', content: <Facts entries={own.map((key): Fact => [fieldLabel(key, fieldMap[key]), detailValue(asset, key), fieldMap[key]?.value_type])} /> },
    {
      id: 'sources', label: `Data sources (${asset.sources.length})`,
      content: (
        <Table
          caption="Data sources"
          columns={[
            { id: 'connection', header: 'Source', cell: (row: SourceRecordResponse) => <SourceName name={row.connection_name} adapter={row.adapter} /> },
            { id: 'adapter', header: 'Adapter', cell: (row: SourceRecordResponse) => row.adapter },
            { id: 'record', header: 'Record', cell: (row: SourceRecordResponse) => row.record_key },
          ]}
          rows={asset.sources}
          rowKey={(row) => row.record_key}
        />
      ),
    },
    // A panel per source record, named after its connection: four exports through one adapter are four sources.
    ...asset.sources.map((source, index) => ({ id: `source-${source.record_key}`, label: <SourceName name={labels[index]} adapter={source.adapter} />, content: <SourcePanel source={source} fieldMap={fieldMap} /> })),
    { id: 'tags', label: 'Tags', content: <Facts entries={[['Tags', asset.Tags ?? []]]} /> },
    { id: 'relations', label: `Relations (${asset.relations.length})`, content: <Table caption="Relations" columns={relationColumns} rows={asset.relations} rowKey={(row, index) => `${row.related_name}-${index}`} empty={<EmptyState title="No relations reported" />} /> },
    {
      id: 'merge', label: 'Why merged',
      // Each reason, and for a device of several records the unmerge dialog.
      content: <MergeReasons asset={asset} entity={entity} />,
    },
    ...(entity === 'device' ? devicePanels(asset.PrimaryKey[0], asset.index_id) : []),
  ];
}

/** `/…-inventory/detail/{id}/{discoveryId}`: one asset of one snapshot, with a panel per source. */
export function AssetDetail({ kind }: { kind: AssetKind }) {
  const { detail, fieldMap, name } = useInventoryDetail<AssetDetailResponse>(kind);

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
