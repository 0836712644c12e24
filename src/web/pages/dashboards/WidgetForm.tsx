import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Field, PageHeader, Select, Spinner, Textarea, TextInput } from '../../ui';
import { savedQueriesQuery, widgetKindLabels, widgetKinds, type SourceGrouping, type WidgetFormData, type WidgetKind } from './dashboardsApi';
import { DashboardItemFormFooter, DashboardItemPreview, useDashboardItemForm } from './useDashboardItemForm';
import { widgetKindHelp, widgetSettingsFor } from './widgetFields';
import './dashboards.css';

export const inventoryOptions = ['device', 'user', 'application', 'vulnerability', 'certificate', 'service', 'license'].map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));

const emptyWidget = (dashboard: number): WidgetFormData => ({ name: '', dashboard, kind: 'group_by', inventory: 'device', query: '', saved_queries: [], field: 'OS.Type', days: 30, limit: 10, sources: 'connection' });
const sourceOptions: { value: SourceGrouping; label: string }[] = [{ value: 'connection', get label() { return t('dashboards.eachConnection'); } }, { value: 'adapter', get label() { return t('dashboards.eachAdapter'); } }];

/** `/dashboard/add-widget/{dashboardId}` and `/dashboard/edit-widget/{dashboardId}/{id}`: a widget of the catalogue, previewed. */
export function WidgetForm() {
  const { form, change, errors, title, saving, submit, preview, showPreview } = useDashboardItemForm<WidgetFormData>('widgets', emptyWidget, (form) => ['name', 'kind', ...widgetSettingsFor(form.kind)]);
  const savedQueries = useQuery(savedQueriesQuery());
  if (!form) return <Spinner label={t('dashboards.loadingTheWidget')} />;
  const shown = new Set(widgetSettingsFor(form.kind));

  return (
    <section className="dashboard-page">
      <PageHeader title={title} />
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <TextInput label={t('dashboards.name')} value={form.name} onValueChange={(name) => change({ name })} required maxLength={200} error={errors.name} />
        <Select label={t('dashboards.kind')} value={form.kind} options={widgetKinds.map((kind) => ({ value: kind, label: widgetKindLabels[kind] }))} onValueChange={(kind) => change({ kind: kind as WidgetKind })}
          message={widgetKindHelp[form.kind]} error={errors.kind} />
        {shown.has('inventory') && <Select label={t('dashboards.inventory')} value={form.inventory} options={inventoryOptions} onValueChange={(inventory) => change({ inventory: inventory as WidgetFormData['inventory'] })} error={errors.inventory} />}
        {shown.has('field') && <TextInput label={t('dashboards.groupByField')} value={form.field} onValueChange={(field) => change({ field })} message={t('dashboards.fieldInventoryEG')} error={errors.field} />}
        {shown.has('query') && <Textarea label={t('dashboards.query')} monospace value={form.query} onValueChange={(query) => change({ query })} message={t('dashboards.narrowsRecordsCountedEmpty')} error={errors.query} />}
        {shown.has('saved_queries') && (
          <Field label={t('dashboards.savedQueries')} error={errors.saved_queries}>
            {() => (
              <div>
                {(savedQueries.data ?? []).map((saved) => (
                  <Checkbox key={saved.id} label={saved.name} checked={form.saved_queries.includes(saved.id)}
                    onCheckedChange={(checked) => change({ saved_queries: checked ? [...form.saved_queries, saved.id] : form.saved_queries.filter((chosen) => chosen !== saved.id) })} />
                ))}
                {!savedQueries.data?.length && <p>{t('dashboards.noSavedQueryYet')}</p>}
              </div>
            )}
          </Field>
        )}
        {shown.has('sources') && (
          <Select label={t('dashboards.countPerSource')} value={form.sources ?? 'adapter'} options={sourceOptions} onValueChange={(sources) => change({ sources: sources as SourceGrouping })}
            message={t('dashboards.eachConnectionTellsTwo')} error={errors.sources} />
        )}
        {shown.has('days') && <TextInput label={t('dashboards.days')} type="number" min={1} max={365} value={String(form.days)} onValueChange={(days) => change({ days: Number(days) })} error={errors.days} />}
        {shown.has('limit') && <TextInput label={t('dashboards.mostRowsBarsSlices')} type="number" min={1} max={50} value={String(form.limit)} onValueChange={(limit) => change({ limit: Number(limit) })} error={errors.limit} />}
        <DashboardItemFormFooter saving={saving} onPreview={() => void showPreview()} />
      </form>
      <DashboardItemPreview name={form.name} preview={preview} />
    </section>
  );
}
