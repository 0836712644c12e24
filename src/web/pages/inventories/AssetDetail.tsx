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
import { NormalizedValues, normalizationField } from './NormalizedValues';
import { detailValue, SourceName, sourceTabLabels, useAdapterName } from './sources';
import { UserSecurityPolicies } from '../security/UserSecurityPolicies';
import './inventories.css';

/**
 * A source's own fields in two parts, so what Cartograph made of the record is never mistaken for what the vendor
 * wrote: its mapped fields (labelled by their titles), then the vendor's raw record under Specifics.<adapter>, by the
 * vendor's own column names; below them, what normalization changed (the source's value → the normalized one, and
 * the rule).
 */
function SourcePanel({ source, fieldMap }: { source: SourceRecordResponse; fieldMap: FieldMap }) {
  const fields = Object.entries(source.fields).filter(([key]) => key !== normalizationField);
  const mapped = fields.filter(([key]) => !key.startsWith('Specifics.')).map(([key, value]): Fact => [fieldLabel(key, fieldMap[key]), value, fieldMap[key]?.value_type, fieldMap[key]?.value_titles]);
  const asSent = fields.filter(([key]) => key.startsWith('Specifics.')).map(([key, value]): Fact => [key.split('.').slice(2).join('.') || key, value]);
  return (
    <>
      <h3 className="inventory-source__heading">{t('inventories.mappedFields')}</h3>
      <Facts entries={mapped} />
      <h3 className="inventory-source__heading">{t('inventories.asTheSourceSentIt')}</h3>
      <Facts entries={asSent} />
      <NormalizedValues entries={source.fields[normalizationField]} fieldMap={fieldMap} />
    </>
  );
}

const relationColumns: TableColumn<RelationResponse>[] = [
  { id: 'kind', get header() { return t('inventories.kind'); }, cell: (row) => (row.kind === 'device-user' ? t('inventories.user') : t('inventories.device')) },
  { id: 'relation', get header() { return t('inventories.relation'); }, cell: (row) => row.relation },
  { id: 'related', get header() { return t('inventories.relatedTo'); }, cell: (row) => row.related_name },
];

function panels(asset: AssetDetailResponse, fieldMap: FieldMap, entity: AssetKind['entity'], adapterName: (slug: string) => string) {
  const own = ownFieldKeys(asset, fieldMap);
  const labels = sourceTabLabels(asset.sources);
  return [
    { id: 'basic', label: t('inventories.basicInfo'), content: <Facts entries={own.map((key): Fact => [fieldLabel(key, fieldMap[key]), detailValue(asset, key, adapterName), fieldMap[key]?.value_type, fieldMap[key]?.value_titles])} /> },
    {
      id: 'sources', label: t('inventories.dataSourcesLength', { length: asset.sources.length }),
      content: (
        <Table
          caption={t('inventories.dataSources')}
          columns={[
            { id: 'connection', header: t('inventories.source'), cell: (row: SourceRecordResponse) => <SourceName name={row.connection_name} adapter={row.adapter} /> },
            // The adapter by its catalogue name; the record's key (`2:device:cb2bd678…`) is an internal id, not shown.
            { id: 'adapter', header: t('inventories.adapter'), cell: (row: SourceRecordResponse) => adapterName(row.adapter) },
            { id: 'fields', header: t('inventories.fieldsSent'), cell: (row: SourceRecordResponse) => Object.keys(row.fields).filter((key) => key !== normalizationField).length },
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
    ...(entity === 'device' ? devicePanels(asset, fieldMap, adapterName) : []),
    // A user's policies (a leaver whose account still signs in): those it fails, with what to do.
    ...(entity === 'user' ? [{ id: 'security-policies', label: t('inventories.securityPolicies'), content: <UserSecurityPolicies userId={asset.PrimaryKey[0]} discoveryId={asset.index_id} /> }] : []),
  ];
}

/**
 * A detail's panels under three headings of a side navigation (a device has fourteen, more than a row of tabs holds):
 * what the asset is, where its data comes from, and what was found on it.
 */
function groupedPanels<Panel extends { id: string }>(list: Panel[]): (Panel & { group: string })[] {
  const groupOf = (id: string) => {
    if (id === 'sources' || id.startsWith('source-')) return t('inventories.panelGroupSources');
    if (['software', 'vulnerabilities', 'services', 'certificates'].includes(id)) return t('inventories.panelGroupFound');
    return t('inventories.panelGroupAsset');
  };
  return list.map((panel) => ({ ...panel, group: groupOf(panel.id) }));
}

/** `/…-inventory/detail/{id}/{discoveryId}`: one asset of one snapshot, with a panel per source. */
export function AssetDetail({ kind }: { kind: AssetKind }) {
  const { detail, fieldMap, name } = useInventoryDetail<AssetDetailResponse>(kind);
  const adapterName = useAdapterName();

  if (detail.isPending) return <Spinner label={t('inventories.loadingDetails')} />;
  if (detail.isError) return <ErrorState title={t('inventories.detailsCouldNotLoaded')} message={detail.error.message} onRetry={() => void detail.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={t('inventories.snapshotDiscoveryIndexId', { index_id: detail.data.index_id, length: detail.data.sources.length })} />
      <Card>
        <Tabs label={t('inventories.nameDetails', { name })} tabs={groupedPanels(panels(detail.data, fieldMap, kind.entity, adapterName))} orientation="vertical" />
      </Card>
    </section>
  );
}
