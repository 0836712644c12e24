import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Card, PageHeader, Select, Spinner, Textarea, TextInput } from '../../ui';
import { chartQuery, savedQueriesQuery, saveItem, type ChartFormData, type ChartKind, type ChartResponse, type WidgetDataResponse } from './dashboardsApi';
import { inventoryOptions } from './WidgetForm';
import { WidgetView } from './WidgetView';
import './dashboards.css';

const chartKinds = [
  { value: 'score', label: 'Score (share of the inventory the query matches)' },
  { value: 'number', label: 'Number (records the query matches)' },
  { value: 'table', label: 'Table (records, or counts per value of a field)' },
];
const emptyChart = (dashboard: number): ChartFormData => ({ name: '', description: '', dashboard, kind: 'score', inventory: 'device', query: '', group_by_query: null, group_by_data: '', fields: ['Hostname', 'OS.Type', 'Adapters', 'LastSeen'], limit: 10 });
const readOnlyKeys = ['id', 'dashboard_name', 'group_by_query_name', 'created_at', 'updated_at'];

/** `/dashboard/add-chart/{dashboardId}` and `/dashboard/edit-chart/{dashboardId}/{id}`: score, number or table over a query. */
export function ChartForm() {
  const params = useParams({ strict: false }) as { dashboardId: string; id?: string };
  const dashboard = Number(params.dashboardId);
  const id = params.id ? Number(params.id) : null;
  const client = useQueryClient();
  const existing = useQuery({ ...chartQuery(id ?? 0), enabled: id !== null });
  const savedQueries = useQuery(savedQueriesQuery());
  const [form, setForm] = useState<ChartFormData | null>(id === null ? emptyChart(dashboard) : null);
  const [preview, setPreview] = useState<WidgetDataResponse | null>(null);
  const [saving, setSaving] = useState(false);
  const errors = useFieldErrors(id === null ? '/dashboards/charts' : `/dashboards/charts/${id}`);
  useEffect(() => {
    if (existing.data && form === null) setForm(Object.fromEntries(Object.entries(existing.data).filter(([key]) => !readOnlyKeys.includes(key))) as ChartFormData);
  }, [existing.data, form]);
  useEffect(() => setBreadcrumb([{ label: 'Dashboard', to: '/dashboard' }, { label: id === null ? 'Add chart' : 'Edit chart' }]), [id]);
  if (!form) return <Spinner label="Loading the chart" />;
  const change = (changes: Partial<ChartFormData>) => setForm({ ...form, ...changes });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const saved = await saveItem<ChartResponse>('charts', id, form);
    setSaving(false);
    if (saved === false) return;
    await client.invalidateQueries({ queryKey: ['dashboards'] });
    window.location.hash = '/dashboard';
  };
  const showPreview = async () => setPreview(await apiFetch<WidgetDataResponse>('/dashboards/charts/preview', { method: 'POST', body: form }).catch(() => null));

  return (
    <section className="dashboard-page">
      <PageHeader title={id === null ? 'Add chart' : 'Edit chart'} />
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
        <div className="dashboard-form__buttons">
          <Button type="submit" loading={saving}>Save</Button>
          <Button variant="secondary" onClick={() => void showPreview()}>Preview</Button>
          <a className="ui-button ui-button--ghost ui-button--medium" href="#/dashboard">Cancel</a>
        </div>
      </form>
      {preview && <Card title="Preview" className="dashboard-preview"><WidgetView title={form.name || 'Preview'} data={preview} /></Card>}
    </section>
  );
}
