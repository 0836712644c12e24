import { t } from '../../app/i18n/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Card } from '../../ui';
import { saveItem, type WidgetDataResponse } from './dashboardsApi';
import { WidgetView } from './WidgetView';

// Answer fields the server computes: never sent back when editing.
const readOnlyKeys = new Set(['id', 'dashboard_name', 'group_by_query_name', 'created_at', 'updated_at']);

type ItemType = 'charts' | 'widgets';

/**
 * The state of the chart and widget forms (`/dashboard/add-…/{dashboardId}`, `/dashboard/edit-…/{dashboardId}/{id}`):
 * the item loaded for editing or a new one, saving (spec §8: a failed save answers false and stays), the preview.
 * `shownOf` names the fields the form shows for its values, whose server messages it lists under them.
 */
export function useDashboardItemForm<Form extends object>(type: ItemType, empty: (dashboard: number) => Form, shownOf: (form: Form) => string[]) {
  const params = useParams({ strict: false }) as { dashboardId: string; id?: string };
  const id = params.id ? Number(params.id) : null;
  const client = useQueryClient();
  const existing = useQuery({ queryKey: ['dashboards', type, id], queryFn: () => apiFetch<Record<string, unknown>>(`/dashboards/${type}/${id}`), enabled: id !== null });
  const [form, setForm] = useState<Form | null>(id === null ? empty(Number(params.dashboardId)) : null);
  const [preview, setPreview] = useState<WidgetDataResponse | null>(null);
  const [saving, setSaving] = useState(false);
  const errors = useFieldErrors(id === null ? `/dashboards/${type}` : `/dashboards/${type}/${id}`, form ? shownOf(form) : undefined);
  const title = type === 'charts' ? t(id === null ? 'dashboards.addChart' : 'dashboards.editChart') : t(id === null ? 'dashboards.addWidget' : 'dashboards.editWidget');
  useEffect(() => {
    if (existing.data && form === null) setForm(Object.fromEntries(Object.entries(existing.data).filter(([key]) => !readOnlyKeys.has(key))) as Form);
  }, [existing.data, form]);
  useEffect(() => setBreadcrumb([{ label: t('dashboards.dashboard'), to: '/dashboard' }, { label: title }]), [title]);

  const change = (changes: Partial<Form>) => setForm((current) => (current ? { ...current, ...changes } : current));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const saved = await saveItem(type, id, form);
    setSaving(false);
    if (saved === false) return;
    await client.invalidateQueries({ queryKey: ['dashboards'] });
    window.location.hash = '/dashboard';
  };
  const showPreview = async () => setPreview(await apiFetch<WidgetDataResponse>(`/dashboards/${type}/preview`, { method: 'POST', body: form }).catch(() => null));
  return { form, change, errors, title, saving, submit, preview, showPreview };
}

/** Save, preview and cancel under a chart or widget form, and the preview once asked for. */
export function DashboardItemFormFooter({ saving, onPreview }: { saving: boolean; onPreview: () => void }) {
  return (
    <div className="dashboard-form__buttons">
      <Button type="submit" loading={saving}>{t('dashboards.save')}</Button>
      <Button variant="secondary" onClick={onPreview}>{t('dashboards.preview')}</Button>
      <a className="ui-button ui-button--ghost ui-button--medium" href="#/dashboard">{t('dashboards.cancel')}</a>
    </div>
  );
}

export function DashboardItemPreview({ name, preview }: { name: string; preview: WidgetDataResponse | null }) {
  return preview ? <Card title={t('dashboards.preview')} className="dashboard-preview"><WidgetView title={name || t('dashboards.preview')} data={preview} /></Card> : null;
}
