import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Card, Checkbox, Field, PageHeader, Select, Spinner, Textarea, TextInput } from '../../ui';
import { savedQueriesQuery, saveItem, widgetKindLabels, widgetKinds, widgetQuery, type WidgetDataResponse, type WidgetFormData, type WidgetKind, type WidgetResponse } from './dashboardsApi';
import { widgetKindHelp, widgetSettingsFor } from './widgetFields';
import { WidgetView } from './WidgetView';
import './dashboards.css';

export const inventoryOptions = ['device', 'user', 'application', 'vulnerability', 'certificate', 'service', 'license'].map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));

const emptyWidget = (dashboard: number): WidgetFormData => ({ name: '', dashboard, kind: 'group_by', inventory: 'device', query: '', saved_queries: [], field: 'OS.Type', days: 30, limit: 10 });

/** `/dashboard/add-widget/{dashboardId}` and `/dashboard/edit-widget/{dashboardId}/{id}`: a widget of the catalogue, previewed. */
export function WidgetForm() {
  const params = useParams({ strict: false }) as { dashboardId: string; id?: string };
  const dashboard = Number(params.dashboardId);
  const id = params.id ? Number(params.id) : null;
  const client = useQueryClient();
  const existing = useQuery({ ...widgetQuery(id ?? 0), enabled: id !== null });
  const savedQueries = useQuery(savedQueriesQuery());
  const [form, setForm] = useState<WidgetFormData | null>(id === null ? emptyWidget(dashboard) : null);
  const [preview, setPreview] = useState<WidgetDataResponse | null>(null);
  const [saving, setSaving] = useState(false);
  const errors = useFieldErrors(id === null ? '/dashboards/widgets' : `/dashboards/widgets/${id}`);
  useEffect(() => {
    if (existing.data && form === null) {
      const { id: _id, ...rest } = existing.data as WidgetResponse & { created_at?: string; updated_at?: string };
      const { created_at: _created, updated_at: _updated, ...fields } = rest as typeof rest & { created_at?: string; updated_at?: string };
      setForm(fields);
    }
  }, [existing.data, form]);
  useEffect(() => setBreadcrumb([{ label: 'Dashboard', to: '/dashboard' }, { label: id === null ? 'Add widget' : 'Edit widget' }]), [id]);
  if (!form) return <Spinner label="Loading the widget" />;
  const change = (changes: Partial<WidgetFormData>) => setForm({ ...form, ...changes });
  const shown = new Set(widgetSettingsFor(form.kind));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const saved = await saveItem<WidgetResponse>('widgets', id, form);
    setSaving(false);
    if (saved === false) return;
    await client.invalidateQueries({ queryKey: ['dashboards'] });
    window.location.hash = '/dashboard';
  };
  const showPreview = async () => setPreview(await apiFetch<WidgetDataResponse>('/dashboards/widgets/preview', { method: 'POST', body: form }).catch(() => null));

  return (
    <section className="dashboard-page">
      <PageHeader title={id === null ? 'Add widget' : 'Edit widget'} />
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <TextInput label="Name" value={form.name} onValueChange={(name) => change({ name })} required maxLength={200} error={errors.name} />
        <Select label="Kind" value={form.kind} options={widgetKinds.map((kind) => ({ value: kind, label: widgetKindLabels[kind] }))} onValueChange={(kind) => change({ kind: kind as WidgetKind })}
          message={widgetKindHelp[form.kind]} error={errors.kind} />
        {shown.has('inventory') && <Select label="Inventory" value={form.inventory} options={inventoryOptions} onValueChange={(inventory) => change({ inventory: inventory as WidgetFormData['inventory'] })} error={errors.inventory} />}
        {shown.has('field') && <TextInput label="Group by field" value={form.field} onValueChange={(field) => change({ field })} message="A field of the inventory, e.g. OS.Type, Adapters, Category." error={errors.field} />}
        {shown.has('query') && <Textarea label="Query" monospace value={form.query} onValueChange={(query) => change({ query })} message="Narrows the records counted; empty counts everything." error={errors.query} />}
        {shown.has('saved_queries') && (
          <Field label="Saved queries" error={errors.saved_queries}>
            {() => (
              <div>
                {(savedQueries.data ?? []).map((saved) => (
                  <Checkbox key={saved.id} label={saved.name} checked={form.saved_queries.includes(saved.id)}
                    onCheckedChange={(checked) => change({ saved_queries: checked ? [...form.saved_queries, saved.id] : form.saved_queries.filter((chosen) => chosen !== saved.id) })} />
                ))}
                {!savedQueries.data?.length && <p>No saved query yet.</p>}
              </div>
            )}
          </Field>
        )}
        {shown.has('days') && <TextInput label="Days" type="number" min={1} max={365} value={String(form.days)} onValueChange={(days) => change({ days: Number(days) })} error={errors.days} />}
        {shown.has('limit') && <TextInput label="At most (rows, bars or slices)" type="number" min={1} max={50} value={String(form.limit)} onValueChange={(limit) => change({ limit: Number(limit) })} error={errors.limit} />}
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
