import { t } from '../../app/i18n/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Checkbox, Field, PageHeader, Spinner, Textarea, TextInput } from '../../ui';
import { dashboardQuery, saveDashboard, type DashboardFormData } from './dashboardsApi';
import './dashboards.css';

const empty: DashboardFormData = { name: '', description: '', is_public: true, groups: [], is_default: false };

/** `/dashboard/add-dashboard` and `/dashboard/edit-dashboard/{dashboardId}`: name, description, who may see it. */
export function DashboardForm() {
  const { dashboardId } = useParams({ strict: false }) as { dashboardId?: string };
  const id = dashboardId ? Number(dashboardId) : null;
  const client = useQueryClient();
  const existing = useQuery({ ...dashboardQuery(id ?? 0), enabled: id !== null });
  const groups = useQuery({
    queryKey: ['groups', 'all'],
    queryFn: async () => (await apiFetch<{ results: { id: number; name: string }[] }>('/users/groups', { query: { size: 1000 }, silent: true })).results,
    enabled: hasPermission('auth.view_group'),
  });
  const [form, setForm] = useState<DashboardFormData | null>(id === null ? empty : null);
  const errors = useFieldErrors(id === null ? '/dashboards/dashboards' : `/dashboards/dashboards/${id}`, form ? ['name', 'description', ...(form.is_public ? [] : ['groups'])] : undefined);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (existing.data && form === null) {
      const { name, description, is_public, groups: chosen, is_default } = existing.data;
      setForm({ name, description, is_public, groups: chosen, is_default });
    }
  }, [existing.data, form]);
  useEffect(() => setBreadcrumb([{ label: t('dashboards.dashboard'), to: '/dashboard' }, { label: id === null ? t('dashboards.addDashboard') : t('dashboards.editDashboard') }]), [id]);
  if (!form) return <Spinner label={t('dashboards.loadingTheDashboard')} />;
  const change = (changes: Partial<DashboardFormData>) => setForm({ ...form, ...changes });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    // Spec §8: a failed create or update answers false; the form stays, with the server's field errors.
    const saved = await saveDashboard(id, form);
    setSaving(false);
    if (saved === false) return;
    await client.invalidateQueries({ queryKey: ['dashboards'] });
    sessionStorage.setItem('cartograph.dashboard', String(saved.id));
    window.location.hash = '/dashboard';
  };

  return (
    <section className="dashboard-page">
      <PageHeader title={id === null ? t('dashboards.addDashboard') : t('dashboards.editDashboard')} />
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <TextInput label={t('dashboards.name')} value={form.name} onValueChange={(name) => change({ name })} required maxLength={200} error={errors.name} />
        <Textarea label={t('dashboards.description')} value={form.description} onValueChange={(description) => change({ description })} maxLength={2000} error={errors.description} />
        <Checkbox label={t('dashboards.everyoneCompanyMaySee')} checked={form.is_public} onCheckedChange={(is_public) => change({ is_public })} />
        {!form.is_public && groups.data && (
          <Field label={t('dashboards.groupsMaySee')} error={errors.groups}>
            {() => (
              <div>
                {groups.data.map((group) => (
                  <Checkbox key={group.id} label={group.name} checked={form.groups.includes(group.id)}
                    onCheckedChange={(checked) => change({ groups: checked ? [...form.groups, group.id] : form.groups.filter((chosen) => chosen !== group.id) })} />
                ))}
              </div>
            )}
          </Field>
        )}
        <Checkbox label={t('dashboards.openDashboardFirstCompany')} checked={form.is_default ?? false} onCheckedChange={(is_default) => change({ is_default })} />
        <div className="dashboard-form__buttons">
          <Button type="submit" loading={saving}>{t('dashboards.save')}</Button>
          <a className="ui-button ui-button--secondary ui-button--medium" href="#/dashboard">{t('dashboards.cancel')}</a>
        </div>
      </form>
    </section>
  );
}
