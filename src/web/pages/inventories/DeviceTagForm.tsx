import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Card, ErrorState, PageHeader, Spinner } from '../../ui';
import { tagQuery, tagQueryById, type TagFormData, type TagResponse } from './deviceActionsApi';
import { TagFields, tagFormProblems } from './TagFields';
import './inventories.css';

function Editor({ tag }: { tag: TagResponse }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TagFormData>({ name: tag.name, description: tag.description, color: tag.color });
  const [tried, setTried] = useState(false);
  const save = useMutation({
    mutationFn: () => apiFetch<TagResponse>(`/devices/tags/${tag.id}`, { method: 'PUT', body: { ...form, name: form.name.trim() }, silent: true }),
    onSuccess: (saved) => {
      notify('success', t('inventories.tagNameWasSaved', { name: saved.name }));
      void queryClient.invalidateQueries({ queryKey: ['device-tags'] });
      void navigate({ to: '/device-inventory/tags' });
    },
  });
  // The server's messages hold until the form changes; the browser's own checks then take over.
  const errors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!Object.keys(tagFormProblems(form)).length) save.mutate();
  };
  return (
    <form className="inventory-page" onSubmit={submit} noValidate>
      <TagFields form={form} onChange={(next) => { setForm(next); save.reset(); }} errors={errors} showProblems={tried} />
      {save.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{save.error.message}</p>}
      <div className="query-builder__actions">
        <Button variant="secondary" onClick={() => void navigate({ to: '/device-inventory/tags' })}>{t('inventories.cancel')}</Button>
        <Button type="submit" loading={save.isPending}>{t('inventories.save')}</Button>
      </div>
    </form>
  );
}

/** `/device-inventory/tags/edit/{tagId}`: rename a tag (devices show the new name at once), describe it, colour it. */
export function DeviceTagForm() {
  const id = Number((useParams({ strict: false }) as { tagId: string }).tagId);
  const tag = useQuery(tagQueryById(id));
  useEffect(() => setBreadcrumb([{ label: t('inventories.devices'), to: '/device-inventory' }, { label: t('inventories.tags'), to: '/device-inventory/tags' }, { label: tag.data?.name ?? String(id) }]), [id, tag.data?.name]);
  if (tag.isPending) return <Spinner label={t('inventories.loadingTag')} />;
  if (tag.isError) return <ErrorState message={tag.error.message} onRetry={() => void tag.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader
        title={t('inventories.editName', { name: tag.data.name })}
        meta={<Link to="/device-inventory" search={{ query: tagQuery(tag.data.name) }}>{t('inventories.deviceCountDeviceS', { device_count: tag.data.device_count.toLocaleString() })}</Link>}
      />
      <Card>
        <Editor key={tag.data.updated_at} tag={tag.data} />
      </Card>
    </section>
  );
}
