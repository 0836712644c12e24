import { useQuery } from '@tanstack/react-query';
import { PageHeader, Select, Spinner, Textarea, TextInput } from '../../ui';
import { savedQueriesQuery, type ChartFormData, type ChartKind } from './dashboardsApi';
import { DashboardItemFormFooter, DashboardItemPreview, useDashboardItemForm } from './useDashboardItemForm';
import { inventoryOptions } from './WidgetForm';
import './dashboards.css';

const chartKinds = [
  { value: 'score', label: 'Score (share of the inventory the query matches)' },
  { value: 'number', label: 'Number (records the query matches)' },
  { value: 'table', label: 'Table (records, or counts per value of a field)' },
];
const emptyChart = (dashboard: number): ChartFormData => ({ name: '', description: '', dashboard, kind: 'score', inventory: 'device', query: '', group_by_query: null, group_by_data: '', fields: ['Hostname', 'OS.Type', 'Adapters', 'LastSeen'], limit: 10 });

/** `/dashboard/add-chart/{dashboardId}` and `/dashboard/edit-chart/{dashboardId}/{id}`: score, number or table over a query. */
export function ChartForm() {
  const { form, change, errors, title, saving, submit, preview, showPreview } = useDashboardItemForm<ChartFormData>('charts', emptyChart);
  const savedQueries = useQuery(savedQueriesQuery());
  if (!form) return <Spinner label="Loading the chart" />;

  return (
    <section className="dashboard-page">
      <PageHeader title={title} />
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <TextInput label="Name" value={form.name} onValueChange={(name) => change({ name })} required maxLength={200} error={errors.name} />
        <Textarea label="Description" value={form.description} onValueChange={(description) => change({ description })} error={errors.description} />
        <Select label="Kind" value={form.kind} options={chartKinds} onValueChange={(kind) => change({ kind: kind as ChartKind })} error={errors.kind} />
        <Select label="Inventory" value={form.inventory} options={inventoryOptions} onValueChange={(inventory) => change({ inventory: inventory as ChartFormData['inventory'] })} error={errors.inventory} />
        <Select label="Saved query" placeholder="None" value={form.group_by_query === null ? '' : String(form.group_by_query)}
          options={(savedQueries.data ?? []).map((saved) => ({ value: String(saved.id), label: saved.name }))}
          onValueChange={(value) => change({ group_by_query: value ? Number(value) : null })} error={errors.group_by_query} />
        <Textarea label="Query" monospace value={form.query} onValueChange={(query) => change({ query })} message="Joined with the saved query by AND; empty matches everything." error={errors.query} />
        {form.kind === 'table' && (
          <>
            <TextInput label="Group rows by field" value={form.group_by_data} onValueChange={(group_by_data) => change({ group_by_data })} message="Empty lists the records themselves." error={errors.group_by_data} />
            {!form.group_by_data && <TextInput label="Columns" value={form.fields.join(', ')} onValueChange={(fields) => change({ fields: fields.split(',').map((field) => field.trim()).filter(Boolean) })} message="Fields separated by commas." error={errors.fields} />}
            <TextInput label="Rows" type="number" min={1} max={100} value={String(form.limit)} onValueChange={(limit) => change({ limit: Number(limit) })} error={errors.limit} />
          </>
        )}
        <DashboardItemFormFooter saving={saving} onPreview={() => void showPreview()} />
      </form>
      <DashboardItemPreview name={form.name} preview={preview} />
    </section>
  );
}
