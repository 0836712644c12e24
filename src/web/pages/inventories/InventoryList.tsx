import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import type { ListView, ViewCodec } from '../../renderers/list/listView';
import { useUrlListView } from '../../renderers/list/useUrlListView';
import { Button, EmptyState, PageHeader, Pagination, Select, VirtualTable, type TableColumn } from '../../ui';
import { AssetPreview } from './AssetPreview';
import { ColumnPicker } from './ColumnPicker';
import { fieldLabel } from './fieldValues';
import { discoveryConfigurationQuery, exportInventory, inventorySearchQuery, type AssetRow, type FieldMap } from './inventoryApi';
import { inventoryColumns, requestedFields } from './inventoryColumns';
import type { InventoryKind } from './inventoryKinds';
import { listActionsOf, selectionColumn } from './listActions';
import { LoadQueryDialog } from './LoadQueryDialog';
import { pageSizes, readPageConfig, writePageConfig } from './pageConfig';
import { refusedQueryMessage, usePreviousAnswer } from './previousAnswer';
import { QueryBar } from './QueryBar';
import { queryExample } from './queryExample';
import { SaveQueryDialog } from './SaveQueryDialog';
import './inventories.css';

// The view in the URL: `?query=OS.Type+%3D+Linux&sort=-Hostname&page=2&size=50&columns=Hostname,OS.Type`. Columns and
// page size are always written, so a copied link shows the same columns whatever the recipient chose before.
const inventoryCodec: ViewCodec = { text: 'query', sizes: pageSizes, pinned: ['size', 'columns'] };

/**
 * An inventory list (devices, users, software, vulnerabilities): query bar with builder, chosen columns, sort, page size, preview and export. The
 * view lives in the URL; the list's local configuration (`pconfig-`) remembers columns, size and query for the next
 * visit through a bare link (the menu), and the columns and size a link leaves out.
 */
/** A page of the inventory's own the list's header links to, for users holding its permission. */
export type InventoryLink = { to: string; label: string; permission: string };

export function InventoryList({ kind, links = [] }: { kind: InventoryKind; links?: InventoryLink[] }) {
  const stored = useMemo(() => readPageConfig(kind.configKey, kind.defaultColumns), [kind]);
  const fallback = useMemo<ListView>(() => ({ page: 1, size: stored.size, text: '', sort: null, columns: stored.columns }), [stored]);
  const seed = useMemo<ListView>(() => ({ ...fallback, text: stored.query ?? '' }), [fallback, stored]);
  const [view, changeView] = useUrlListView(fallback, inventoryCodec, seed);
  const { page, size, text: query, sort } = view;
  const columnKeys = view.columns ?? kind.defaultColumns;
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);
  const [loading, setLoading] = useState(false);
  const [previewed, setPreviewed] = useState<AssetRow | null>(null);
  const [exporting, setExporting] = useState(false);
  // Rows chosen for the list's own actions (add tag, merge, add to group); a new query starts a new choice.
  const [chosen, setChosen] = useState<AssetRow[]>([]);
  const actions = listActionsOf[kind.entity];
  const choosing = Boolean(actions?.canChoose());
  useEffect(() => setBreadcrumb([{ label: kind.title }]), [kind]);
  useEffect(() => writePageConfig(kind.configKey, { columns: columnKeys, size, query }), [kind, columnKeys, size, query]);

  const configuration = useQuery(discoveryConfigurationQuery());
  const fieldMap = (configuration.data?.[kind.fieldMapKey] ?? {}) as FieldMap;
  const fieldChoices = useMemo(() => Object.entries(fieldMap).map(([value, entry]) => ({ value, label: fieldLabel(value, entry), adapter: entry.adapter, type: entry.value_type })), [fieldMap]);
  const ordering = sort ? [{ field: sort.id, order: sort.direction }] : [];
  const list = useQuery(inventorySearchQuery(kind.searchPath, { query, fields: requestedFields(columnKeys), page, size, ordering }));
  const queryError = refusedQueryMessage(list.error);
  const previous = usePreviousAnswer(list, query);
  // The typed text does not parse yet: the table still answers the applied query, not what the bar shows.
  const [draftBroken, setDraftBroken] = useState(false);
  const markDraft = useCallback((parses: boolean) => setDraftBroken(!parses), []);
  // A refused query keeps the previous answer on screen, dimmed and named as such, never an empty "no match".
  const shown = queryError ? previous?.data : list.data;
  const staleFor = queryError ? (previous ? previous.query : null) : draftBroken && list.data ? query : null;
  const connections = shown?.connections;
  const columns = useMemo(() => inventoryColumns(columnKeys, fieldMap, connections), [columnKeys, fieldMap, connections]);

  const applyQuery = (next: string) => {
    changeView({ text: next, page: 1 });
    setChosen([]);
  };
  const download = async (format: 'csv' | 'xlsx') => {
    setExporting(true);
    try {
      const labels = columnKeys.map((key) => fieldLabel(key, fieldMap[key]));
      await exportInventory(kind.exportPath, format, { query, fields: columnKeys, labels, ordering, index_id: list.data?.index_id });
      notify('success', t('inventories.titleListWasExported', { title: kind.title.toLowerCase(), format: format.toUpperCase() }));
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="inventory-page">
      <PageHeader
        title={kind.title}
        meta={shown ? <span className="inventory-muted">{t('inventories.countTitleSnapshotIndex', { count: formatNumber(shown.count), title: kind.title.toLowerCase(), index_id: shown.index_id })}</span> : null}
        actions={
          <>
            {actions && <actions.Actions chosen={chosen} onChosenChange={setChosen} query={query} count={list.data?.count} indexId={list.data?.index_id ?? null} />}
            {hasPermission('queries.add_query') && <Button variant="secondary" disabled={!query} onClick={() => setSaving(true)}>{t('inventories.saveQuery')}</Button>}
            {links.filter((link) => hasPermission(link.permission)).map((link) => (
              <Link key={link.to} className="ui-button ui-button--secondary ui-button--medium" to={link.to}>{link.label}</Link>
            ))}
            {hasPermission('queries.view_query') && (
              <>
                <Button variant="secondary" onClick={() => setLoading(true)}>{t('inventories.load')}</Button>
                <Link className="ui-button ui-button--secondary ui-button--medium" to={`${kind.basePath}/saved-queries`}>{t('inventories.savedQueries')}</Link>
              </>
            )}
            <Button variant="secondary" onClick={() => setPicking(true)}>{t('inventories.columns')}</Button>
            <Button variant="secondary" loading={exporting} disabled={!list.data?.count || Boolean(queryError)} onClick={() => void download('csv')}>{t('inventories.exportCsv')}</Button>
            <Button variant="secondary" loading={exporting} disabled={!list.data?.count || Boolean(queryError)} onClick={() => void download('xlsx')}>{t('inventories.exportXlsx')}</Button>
          </>
        }
      />
      <QueryBar
        query={query} onQueryChange={applyQuery} example={queryExample(fieldMap, kind.defaultColumns)} fields={fieldChoices} serverError={queryError} onDraftParsesChange={markDraft}
        valuesPath={kind.valuesPath} countPath={kind.searchPath} countTitle={kind.title.toLowerCase()} entity={kind.entity}
      />
      {staleFor !== null && (
        <p className="inventory-stale-notice" role="status" id="inventory-stale-notice">
          {staleFor ? t('inventories.tableShowsPreviousQuery', { query: staleFor }) : t('inventories.tableShowsPreviousAll', { title: kind.title.toLowerCase() })}
        </p>
      )}
      <div className={`inventory-body${previewed ? ' inventory-body--previewing' : ''}${staleFor !== null ? ' inventory-body--stale' : ''}`} aria-describedby={staleFor !== null ? 'inventory-stale-notice' : undefined}>
        <VirtualTable
          caption={t('inventories.titleInventory', { title: kind.title })}
          columns={choosing ? [selectionColumn(kind, shown?.results ?? [], chosen, setChosen), ...columns] : columns}
          rows={shown?.results ?? []}
          rowKey={(row) => row.PrimaryKey[0]}
          sort={sort}
          onSortChange={(next) => changeView({ sort: next, page: 1 })}
          height={560}
          empty={
            queryError ? <EmptyState title={t('inventories.queryWasNotRun')} description={t('inventories.fixQueryToSeeTitle', { title: kind.title.toLowerCase() })} /> :
            list.isPending ? <EmptyState title={t('inventories.loading')} /> :
            list.error ? <EmptyState title={t('inventories.noInventoryYet')} description={t('inventories.runDiscoveryPublishFirst')} /> :
            <EmptyState title={t('inventories.noTitleMatch', { title: kind.title.toLowerCase() })} description={query ? t('inventories.changeClearQuery') : undefined} />
          }
          onRowClick={(row) => setPreviewed(row)}
        />
        {previewed && (
          <AssetPreview
            kind={kind}
            id={previewed.PrimaryKey[0]}
            discoveryId={shown?.index_id ?? null}
            fieldMap={fieldMap}
            onClose={() => setPreviewed(null)}
            canOpenDetail={hasPermission(kind.detailPermission)}
          />
        )}
      </div>
      <div className="inventory-footer">
        <Select label={t('inventories.pageSize')} value={String(size)} options={pageSizes.map((choice) => ({ value: String(choice), label: String(choice) }))} onValueChange={(choice) => changeView({ size: Number(choice), page: 1 })} />
        <Pagination page={page} pageSize={size} count={shown?.count ?? 0} onPageChange={(next) => changeView({ page: next })} />
      </div>
      {loading && <LoadQueryDialog kind={kind} onClose={() => setLoading(false)} onLoad={(next) => { setLoading(false); applyQuery(next); }} />}
      {saving && <SaveQueryDialog open onClose={() => setSaving(false)} query={query} type={kind.queryType} />}
      {picking && <ColumnPicker open onClose={() => setPicking(false)} fields={fieldChoices} columns={columnKeys} defaultColumns={kind.defaultColumns} onColumnsChange={(next) => changeView({ columns: next })} />}
    </section>
  );
}
