import { t } from '../../app/i18n/messages';
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
  { id: 'kind', get header() { return t('inventories.kind'); }, cell: (row) => (row.kind === 'device-user' ? t('inventories.user') : t('inventories.device')) },
  { id: 'relation', get header() { return t('inventories.relation'); }, cell: (row) => row.relation },
  { id: 'related', get header() { return t('inventories.relatedTo'); }, cell: (row) => row.related_name },
];

function panels(asset: AssetDetailResponse, fieldMap: FieldMap, entity: AssetKind['entity']) {
  const own = ownFieldKeys(asset, fieldMap);
  const labels = sourceTabLabels(asset.sources);
  return [
    { id: 'basic', label: t('inventories.basicInfo'), content: <Facts entries={own.map((key): Fact => [fieldLabel(key, fieldMap[key]), detailValue(asset, key), fieldMap[key]?.value_type])} /> },
    {
      id: 'sources', label: t('inventories.dataSourcesLength', { length: asset.sources.length }),
      content: (
        <Table
          caption={t('inventories.dataSources')}
          columns={[
            { id: 'connection', header: t('inventories.source'), cell: (row: SourceRecordResponse) => <SourceName name={row.connection_name} adapter={row.adapter} /> },
            { id: 'adapter', header: t('inventories.adapter'), cell: (row: SourceRecordResponse) => row.adapter },
            { id: 'record', header: t('inventories.record'), cell: (row: SourceRecordResponse) => row.record_key },
          ]}
          rows={asset.sources}
          rowKey={(row) => row.record_key}
        />
      ),
    },
    // A panel per source record, named after its connection: four exports through one adapter are four sources.
    ...asset.sources.map((source, index) => ({ id: `source-${source.record_key}`, label: <SourceName name={labels[index]} adapter={source.adapter} />, content: <SourcePanel source={source} fieldMap={fieldMap} /> })),
    { id: 'tags', label: t('inventories.tags'), content: <Facts entries={[[t('inventories.tags'), asset.Tags ?? []]]} /> },
    { id: 'relations', label: t('inventories.relationsLength', { length: asset.relations.length }), content: <Table caption={t('inventories.relations')} columns={relationColumns} rows={asset.relations} rowKey={(row, index) => `${row.related_name}-${index}`} empty={<EmptyState title={t('inventories.noRelationsReported')} />} /> },
    {
      id: 'merge', label: t('inventories.whyMerged'),
      // Each reason, and for a device of several records the unmerge dialog.
      content: <MergeReasons asset={asset} entity={entity} />,
    },
    ...(entity === 'device' ? devicePanels(asset.PrimaryKey[0], asset.index_id) : []),
  ];
}

/** `/…-inventory/detail/{id}/{discoveryId}`: one asset of one snapshot, with a panel per source. */
export function AssetDetail({ kind }: { kind: AssetKind }) {
  const { detail, fieldMap, name } = useInventoryDetail<AssetDetailResponse>(kind);

  if (detail.isPending) return <Spinner label={t('inventories.loadingDetails')} />;
  if (detail.isError) return <ErrorState title={t('inventories.detailsCouldNotLoaded')} message={detail.error.message} onRetry={() => void detail.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={t('inventories.snapshotDiscoveryIndexId', { index_id: detail.data.index_id, length: detail.data.sources.length })} />
      <Card>
        <Tabs label={t('inventories.nameDetails', { name })} tabs={panels(detail.data, fieldMap, kind.entity)} />
      </Card>
    </section>
  );
}
