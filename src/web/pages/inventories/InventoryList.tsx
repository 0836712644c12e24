import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, EmptyState, PageHeader, Pagination, Select, VirtualTable, type SortState, type TableColumn } from '../../ui';
import { AssetPreview } from './AssetPreview';
import { ColumnPicker } from './ColumnPicker';
import { canActOnChosenDevices, DeviceListActions, selectionColumn } from './DeviceListActions';
import { fieldLabel } from './fieldValues';
import { discoveryConfigurationQuery, exportInventory, inventorySearchQuery, type AssetRow, type FieldMap } from './inventoryApi';
import { inventoryColumns, requestedFields } from './inventoryColumns';
import type { InventoryKind } from './inventoryKinds';
import { pageSizes, readPageConfig, writePageConfig, type PageConfig } from './pageConfig';
import { QueryBar } from './QueryBar';
import { SaveQueryDialog } from './SaveQueryDialog';
import './inventories.css';

/** A device or user inventory list: query bar with builder, chosen columns, sort, page size, preview and export. */
export function InventoryList({ kind }: { kind: InventoryKind }) {
  const search = useSearch({ strict: false }) as { query?: string };
  const navigate = useNavigate();
  const [config, setConfig] = useState<PageConfig>(() => readPageConfig(kind.configKey, kind.defaultColumns));
  const [query, setQuery] = useState(search.query ?? config.query ?? '');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<SortState>(null);
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);
  const [previewed, setPreviewed] = useState<AssetRow | null>(null);
  const [exporting, setExporting] = useState(false);
  // Rows chosen for the device actions (add tag, merge); a new query starts a new choice.
  const [chosen, setChosen] = useState<AssetRow[]>([]);
  const choosing = kind.entity === 'device' && canActOnChosenDevices();
  useEffect(() => setBreadcrumb([{ label: kind.title }]), [kind]);
  useEffect(() => writePageConfig(kind.configKey, { ...config, query }), [kind, config, query]);
  useEffect(() => { if (search.query !== undefined) setQuery(search.query); }, [search.query]);

  const configuration = useQuery(discoveryConfigurationQuery());
  const fieldMap = (configuration.data?.[kind.fieldMapKey] ?? {}) as FieldMap;
  const fieldChoices = useMemo(() => Object.entries(fieldMap).map(([value, entry]) => ({ value, label: fieldLabel(value, entry), adapter: entry.adapter })), [fieldMap]);
  const ordering = sort ? [{ field: sort.id, order: sort.direction }] : [];
  const list = useQuery(inventorySearchQuery(kind.searchPath, { query, fields: requestedFields(config.columns), page, size: config.size, ordering }));
  const queryError = list.error instanceof ApiError && list.error.status === 400 ? list.error.message : null;
  const connections = list.data?.connections;
  const columns = useMemo(() => inventoryColumns(config.columns, fieldMap, connections), [config.columns, fieldMap, connections]);

  const applyQuery = (next: string) => {
    setQuery(next);
    setPage(1);
    setChosen([]);
    void navigate({ to: '.', search: next ? { query: next } : {}, replace: true });
  };
  const download = async (format: 'csv' | 'xlsx') => {
    setExporting(true);
    try {
      const labels = config.columns.map((key) => fieldLabel(key, fieldMap[key]));
      await exportInventory(kind.exportPath, format, { query, fields: config.columns, labels, ordering, index_id: list.data?.index_id });
      notify('success', `The ${kind.title.toLowerCase()} list was exported as ${format.toUpperCase()}.`);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="inventory-page">
      <PageHeader
        title={kind.title}
        meta={list.data ? <span className="inventory-muted">{list.data.count.toLocaleString()} {kind.title.toLowerCase()} · snapshot #{list.data.index_id}</span> : null}
        actions={
          <>
            {kind.entity === 'device' && <DeviceListActions chosen={chosen} onChosenChange={setChosen} query={query} count={list.data?.count} indexId={list.data?.index_id ?? null} />}
            {hasPermission('queries.add_query') && <Button variant="secondary" disabled={!query} onClick={() => setSaving(true)}>Save query</Button>}
            <Button variant="secondary" onClick={() => setPicking(true)}>Columns</Button>
            <Button variant="secondary" loading={exporting} disabled={!list.data?.count} onClick={() => void download('csv')}>Export CSV</Button>
            <Button variant="secondary" loading={exporting} disabled={!list.data?.count} onClick={() => void download('xlsx')}>Export XLSX</Button>
          </>
        }
      />
      <QueryBar query={query} onQueryChange={applyQuery} fields={fieldChoices} serverError={queryError} />
      <div className={`inventory-body${previewed ? ' inventory-body--previewing' : ''}`}>
        <VirtualTable
          caption={`${kind.title} inventory`}
          columns={choosing ? [selectionColumn(list.data?.results ?? [], chosen, setChosen), ...columns] : columns}
          rows={list.data?.results ?? []}
          rowKey={(row) => row.PrimaryKey[0]}
          sort={sort}
          onSortChange={(next) => { setSort(next); setPage(1); }}
          height={560}
          empty={
            list.isPending ? <EmptyState title="Loading…" /> :
            list.error && !queryError ? <EmptyState title="No inventory yet" description="Run a discovery to publish the first snapshot." /> :
            <EmptyState title={`No ${kind.title.toLowerCase()} match`} description={query ? 'Change or clear the query.' : undefined} />
          }
          onRowClick={(row) => setPreviewed(row)}
        />
        {previewed && (
          <AssetPreview
            kind={kind}
            id={previewed.PrimaryKey[0]}
            discoveryId={list.data?.index_id ?? null}
            fieldMap={fieldMap}
            onClose={() => setPreviewed(null)}
            canOpenDetail={hasPermission(kind.detailPermission)}
          />
        )}
      </div>
      <div className="inventory-footer">
        <Select label="Page size" value={String(config.size)} options={pageSizes.map((size) => ({ value: String(size), label: String(size) }))} onValueChange={(size) => { setConfig({ ...config, size: Number(size) }); setPage(1); }} />
        <Pagination page={page} pageSize={config.size} count={list.data?.count ?? 0} onPageChange={setPage} />
      </div>
      {saving && <SaveQueryDialog open onClose={() => setSaving(false)} query={query} type={kind.entity} />}
      {picking && <ColumnPicker open onClose={() => setPicking(false)} fields={fieldChoices} columns={config.columns} defaultColumns={kind.defaultColumns} onColumnsChange={(next) => setConfig({ ...config, columns: next })} />}
    </section>
  );
}
