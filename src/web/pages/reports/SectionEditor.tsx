import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { t } from '../../app/i18n/messages';
import { Button, Card, Checkbox, Field, Select, Textarea, TextInput } from '../../ui';
import { savedQueriesQuery, widgetKindLabels, widgetKinds, type WidgetKind } from '../dashboards/dashboardsApi';
import { widgetKindHelp, widgetSettingsFor } from '../dashboards/widgetFields';
import { ColumnPicker } from '../inventories/ColumnPicker';
import { fieldLabel } from '../inventories/fieldValues';
import { discoveryConfigurationQuery, type FieldMap } from '../inventories/inventoryApi';
import { certificateInventory, deviceInventory, licenseInventory, serviceInventory, softwareInventory, userInventory, vulnerabilityInventory, type InventoryKind } from '../inventories/inventoryKinds';
import { QueryBar } from '../inventories/QueryBar';
import { countText, maximumReportRows, type ReportSection, type ReportWidget, type SectionInventory, type SortKey } from './reportsApi';
import { SnapshotPicker } from './SnapshotPicker';

const kindOf: Record<SectionInventory, InventoryKind> = {
  device: deviceInventory, user: userInventory, software: softwareInventory, vulnerability: vulnerabilityInventory, certificate: certificateInventory, service: serviceInventory, license: licenseInventory,
};
const sectionInventories = Object.keys(kindOf) as SectionInventory[];
// Widgets name software "application", as on dashboards.
const widgetInventories = ['device', 'user', 'application', 'vulnerability', 'certificate', 'service', 'license'];
const inventoryOptions = widgetInventories.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));

type Errors = Record<string, string[]>;
type Change = (changes: Partial<ReportSection>) => void;
/** What the preview counted for a table: the records that match and the rows the report's table will hold. */
export type TableCounts = { count: number; report_rows: number };

/** "Rows at most": empty holds every matching row (up to the stated maximum); the help says how many match now. */
function RowLimit({ limit, counts, change, error }: { limit: number | null | undefined; counts?: TableCounts; change: Change; error?: string[] }) {
  const matching = !counts ? '' : counts.report_rows < counts.count
    ? ` ${t('reports.section.limitCut', { count: countText(counts.count), shown: countText(counts.report_rows) })}`
    : ` ${t('reports.section.limitAll', { count: countText(counts.count) })}`;
  return (
    <TextInput label={t('reports.section.limit')} type="number" min={1} max={maximumReportRows} value={limit ? String(limit) : ''} placeholder={t('reports.section.allRows')}
      onValueChange={(value) => change({ limit: value.trim() === '' ? null : Math.min(maximumReportRows, Math.max(1, Math.floor(Number(value)) || 1)) })}
      message={`${t('reports.section.limitHelp', { max: countText(maximumReportRows) })}${matching}`} error={error} />
  );
}

/** The fields an inventory offers, from the discovery configuration's field map (as the inventory lists use). */
function useFieldChoices(inventory: SectionInventory) {
  const configuration = useQuery(discoveryConfigurationQuery());
  const fieldMap = (configuration.data?.[kindOf[inventory].fieldMapKey] ?? {}) as FieldMap;
  return useMemo(() => Object.entries(fieldMap).map(([value, entry]) => ({ value, label: fieldLabel(value, entry), adapter: entry.adapter })), [fieldMap]);
}

function SortKeys({ sort, fields, onChange }: { sort: SortKey[]; fields: { value: string; label: string }[]; onChange: (sort: SortKey[]) => void }) {
  const replace = (index: number, key: SortKey) => onChange(sort.map((old, at) => (at === index ? key : old)));
  return (
    <Field label={t('reports.section.sort')}>
      {() => (
        <div className="report-section__sort">
          {sort.map((key, index) => (
            <div key={index} className="report-section__sort-key">
              <Select label={t('reports.section.sortField', { n: index + 1 })} value={key.field} options={fields} placeholder={t('reports.section.chooseField')} onValueChange={(field) => replace(index, { ...key, field })} />
              <Select label={t('reports.section.sortOrder')} value={key.order ?? 'asc'} options={[{ value: 'asc', label: t('reports.section.ascending') }, { value: 'desc', label: t('reports.section.descending') }]}
                onValueChange={(order) => replace(index, { ...key, order: order as SortKey['order'] })} />
              <Button size="small" variant="ghost" onClick={() => onChange(sort.filter((_, at) => at !== index))}>{t('reports.section.remove')}</Button>
            </div>
          ))}
          {sort.length < 5 ? <Button size="small" variant="secondary" onClick={() => onChange([...sort, { field: fields[0]?.value ?? 'Hostname', order: 'asc' }])}>{t('reports.section.addSort')}</Button> : null}
        </div>
      )}
    </Field>
  );
}

/** A table or a comparison: inventory, saved query and/or query text, columns, sort and row limit. */
function TableFields({ section, change, errors, counts }: { section: ReportSection; change: Change; errors: Errors; counts?: TableCounts }) {
  const inventory = section.inventory ?? 'device';
  const fields = useFieldChoices(inventory);
  const savedQueries = useQuery(savedQueriesQuery());
  const [picking, setPicking] = useState(false);
  const columns = section.columns ?? [];
  const ofInventory = (savedQueries.data ?? []).filter((saved) => saved.type === kindOf[inventory].queryType);
  const labelOf = (field: string) => fields.find((choice) => choice.value === field)?.label ?? fieldLabel(field);
  return (
    <>
      <Select label={t('reports.section.inventory')} value={inventory} options={sectionInventories.map((value) => ({ value, label: kindOf[value].title }))}
        onValueChange={(next) => change({ inventory: next as SectionInventory, saved_query: null })} error={errors.inventory} />
      <Select label={t('reports.section.savedQuery')} value={section.saved_query ? String(section.saved_query) : ''} options={[{ value: '', label: t('reports.section.noSavedQuery') }, ...ofInventory.map((saved) => ({ value: String(saved.id), label: saved.name }))]}
        onValueChange={(value) => change({ saved_query: value ? Number(value) : null })} error={errors.saved_query} />
      <QueryBar live query={section.query ?? ''} onQueryChange={(query) => change({ query })} fields={fields} serverError={errors.query?.join(' ') ?? null} />
      <Field label={t('reports.section.columns')} error={errors.columns}>
        {() => (
          <div className="report-section__columns">
            <ol className="report-section__column-list">{columns.map((column) => <li key={column}>{labelOf(column)}</li>)}</ol>
            <Button size="small" variant="secondary" onClick={() => setPicking(true)}>{t('reports.section.chooseColumns')}</Button>
          </div>
        )}
      </Field>
      {picking ? <ColumnPicker open onClose={() => setPicking(false)} fields={fields} columns={columns} defaultColumns={kindOf[inventory].defaultColumns} onColumnsChange={(next) => change({ columns: next })} /> : null}
      {section.type === 'table' ? <SortKeys sort={section.sort ?? []} fields={fields} onChange={(sort) => change({ sort })} /> : null}
      <RowLimit limit={section.limit} counts={counts} change={change} error={errors.limit} />
      {section.type === 'comparison' ? (
        <SnapshotPicker label={t('reports.section.compareTo')} value={section.compare_to ?? null} defaultLabel={t('reports.snapshotPicker.previous')} message={t('reports.section.compareToHelp')}
          onChange={(compare_to) => change({ compare_to })} error={errors.compare_to} />
      ) : null}
    </>
  );
}

/** A chart or widget with the settings its kind reads, as on dashboards. */
function ChartFields({ section, change, errors }: { section: ReportSection; change: Change; errors: Errors }) {
  const widget: ReportWidget = section.widget ?? { kind: 'group_by' };
  const savedQueries = useQuery(savedQueriesQuery());
  const shown = new Set(widgetSettingsFor(widget.kind));
  const set = (changes: Partial<ReportWidget>) => change({ widget: { ...widget, ...changes } });
  const error = (field: string) => errors[`widget.${field}`] ?? (field === 'kind' ? errors.widget : undefined);
  return (
    <>
      <Select label={t('reports.section.widgetKind')} value={widget.kind} options={widgetKinds.map((kind) => ({ value: kind, label: widgetKindLabels[kind] }))}
        onValueChange={(kind) => set({ kind: kind as WidgetKind })} message={widgetKindHelp[widget.kind]} error={error('kind')} />
      {shown.has('inventory') && <Select label={t('reports.section.inventory')} value={widget.inventory ?? 'device'} options={inventoryOptions} onValueChange={(inventory) => set({ inventory: inventory as ReportWidget['inventory'] })} error={error('inventory')} />}
      {shown.has('field') && <TextInput label={t('reports.section.groupBy')} value={widget.field ?? ''} onValueChange={(field) => set({ field })} message={t('reports.section.groupByHelp')} error={error('field')} />}
      {shown.has('query') && <Textarea label={t('reports.section.widgetQuery')} monospace value={widget.query ?? ''} onValueChange={(query) => set({ query })} error={error('query')} />}
      {shown.has('saved_queries') && (
        <Field label={t('reports.section.savedQueries')} error={error('saved_queries')}>
          {() => (
            <div>
              {(savedQueries.data ?? []).map((saved) => (
                <Checkbox key={saved.id} label={saved.name} checked={(widget.saved_queries ?? []).includes(saved.id)}
                  onCheckedChange={(on) => set({ saved_queries: on ? [...(widget.saved_queries ?? []), saved.id] : (widget.saved_queries ?? []).filter((id) => id !== saved.id) })} />
              ))}
            </div>
          )}
        </Field>
      )}
      {shown.has('sources') && <Select label={t('reports.section.sources')} value={widget.sources ?? 'connection'} options={[{ value: 'connection', label: t('reports.section.perConnection') }, { value: 'adapter', label: t('reports.section.perAdapter') }]} onValueChange={(sources) => set({ sources: sources as ReportWidget['sources'] })} error={error('sources')} />}
      {shown.has('days') && <TextInput label={t('reports.section.days')} type="number" min={1} max={365} value={String(widget.days ?? 30)} onValueChange={(days) => set({ days: Number(days) || 1 })} error={error('days')} />}
      {shown.has('limit') && <TextInput label={t('reports.section.widgetLimit')} type="number" min={1} max={50} value={String(widget.limit ?? 10)} onValueChange={(limit) => set({ limit: Number(limit) || 1 })} error={error('limit')} />}
    </>
  );
}

export type SectionEditorProps = {
  section: ReportSection; index: number; count: number; errors: Errors; previewError?: string; previewCounts?: TableCounts;
  onChange: (section: ReportSection) => void; onMove: (by: -1 | 1) => void; onRemove: () => void;
};

/** One section of the builder: its title, its type's settings, buttons to move or remove it, and what is wrong with it. */
export function SectionEditor({ section, index, count, errors, previewError, previewCounts, onChange, onMove, onRemove }: SectionEditorProps) {
  const change: Change = (changes) => onChange({ ...section, ...changes });
  const heading = t('reports.section.heading', { n: index + 1, type: t(`reports.sectionType.${section.type}`) });
  const problems = [...new Set([previewError, ...Object.entries(errors).filter(([field]) => !['query', 'limit', 'columns', 'saved_query', 'inventory', 'title', 'markdown', 'compare_to'].includes(field) && !field.startsWith('widget.')).flatMap(([, messages]) => messages)].filter(Boolean))];
  return (
    <Card className="report-section" title={heading} headingLevel={3} actions={
      <span className="report-section__buttons">
        <Button size="small" variant="ghost" disabled={index === 0} onClick={() => onMove(-1)} aria-label={t('reports.section.moveUp', { n: index + 1 })}>↑</Button>
        <Button size="small" variant="ghost" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={t('reports.section.moveDown', { n: index + 1 })}>↓</Button>
        <Button size="small" variant="ghost" onClick={onRemove} aria-label={t('reports.section.removeSection', { n: index + 1 })}>{t('reports.section.remove')}</Button>
      </span>
    }>
      <div className="report-section__fields" data-section={index}>
        {problems.map((problem) => <p key={problem} className="report-section__error" role="alert">{problem}</p>)}
        <TextInput label={t('reports.section.title')} value={section.title ?? ''} maxLength={200} onValueChange={(title) => change({ title })} error={errors.title} />
        {section.type === 'table' || section.type === 'comparison' ? <TableFields section={section} change={change} errors={errors} counts={previewCounts} /> : null}
        {section.type === 'chart' ? <ChartFields section={section} change={change} errors={errors} /> : null}
        {section.type === 'text' ? <Textarea label={t('reports.section.markdown')} value={section.markdown ?? ''} maxLength={20000} rows={6} onValueChange={(markdown) => change({ markdown })} message={t('reports.section.markdownHelp')} error={errors.markdown} /> : null}
      </div>
    </Card>
  );
}
