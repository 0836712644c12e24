import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { PageHeader, Select, Spinner, Textarea, TextInput } from '../../ui';
import { savedQueriesQuery, type ChartFormData, type ChartKind } from './dashboardsApi';
import { DashboardItemFormFooter, DashboardItemPreview, useDashboardItemForm } from './useDashboardItemForm';
import { inventoryOptions } from './WidgetForm';
import './dashboards.css';

const chartKinds = [
  { value: 'score', get label() { return t('dashboards.scoreShareInventoryQuery'); } },
  { value: 'number', get label() { return t('dashboards.numberRecordsQueryMatches'); } },
  { value: 'table', get label() { return t('dashboards.tableRecordsCountsPer'); } },
];
const emptyChart = (dashboard: number): ChartFormData => ({ name: '', description: '', dashboard, kind: 'score', inventory: 'device', query: '', group_by_query: null, group_by_data: '', fields: ['Hostname', 'OS.Type', 'Adapters', 'LastSeen'], limit: 10 });

const shownFields = (form: ChartFormData) => [
  'name', 'description', 'kind', 'inventory', 'group_by_query', 'query', ...(form.kind === 'table' ? ['group_by_data', ...(form.group_by_data ? [] : ['fields']), 'limit'] : []),
];

/** `/dashboard/add-chart/{dashboardId}` and `/dashboard/edit-chart/{dashboardId}/{id}`: score, number or table over a query. */
export function ChartForm() {
  const { form, change, errors, title, saving, submit, preview, showPreview } = useDashboardItemForm<ChartFormData>('charts', emptyChart, shownFields);
  const savedQueries = useQuery(savedQueriesQuery());
  if (!form) return <Spinner label={t('dashboards.loadingTheChart')} />;

  return (
    <section className="dashboard-page">
      <PageHeader title={title} />
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <TextInput label={t('dashboards.name')} value={form.name} onValueChange={(name) => change({ name })} required maxLength={200} error={errors.name} />
        <Textarea label={t('dashboards.description')} value={form.description} onValueChange={(description) => change({ description })} error={errors.description} />
        <Select label={t('dashboards.kind')} value={form.kind} options={chartKinds} onValueChange={(kind) => change({ kind: kind as ChartKind })} error={errors.kind} />
        <Select label={t('dashboards.inventory')} value={form.inventory} options={inventoryOptions} onValueChange={(inventory) => change({ inventory: inventory as ChartFormData['inventory'] })} error={errors.inventory} />
        <Select label={t('dashboards.savedQuery')} placeholder={t('dashboards.none')} value={form.group_by_query === null ? '' : String(form.group_by_query)}
          options={(savedQueries.data ?? []).map((saved) => ({ value: String(saved.id), label: saved.name }))}
          onValueChange={(value) => change({ group_by_query: value ? Number(value) : null })} error={errors.group_by_query} />
        <Textarea label={t('dashboards.query')} monospace value={form.query} onValueChange={(query) => change({ query })} message={t('dashboards.joinedSavedQueryEmpty')} error={errors.query} />
        {form.kind === 'table' && (
          <>
            <TextInput label={t('dashboards.groupRowsField')} value={form.group_by_data} onValueChange={(group_by_data) => change({ group_by_data })} message={t('dashboards.emptyListsRecordsThemselves')} error={errors.group_by_data} />
            {!form.group_by_data && <TextInput label={t('dashboards.columns')} value={form.fields.join(', ')} onValueChange={(fields) => change({ fields: fields.split(',').map((field) => field.trim()).filter(Boolean) })} message={t('dashboards.fieldsSeparatedCommas')} error={errors.fields} />}
            <TextInput label={t('dashboards.rows')} type="number" min={1} max={100} value={String(form.limit)} onValueChange={(limit) => change({ limit: Number(limit) })} error={errors.limit} />
          </>
        )}
        <DashboardItemFormFooter saving={saving} onPreview={() => void showPreview()} />
      </form>
      <DashboardItemPreview name={form.name} preview={preview} />
    </section>
  );
}
