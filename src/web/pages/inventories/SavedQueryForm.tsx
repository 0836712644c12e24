import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Checkbox, ErrorState, PageHeader, Spinner, TextInput, Textarea } from '../../ui';
import { querySyntaxError } from './queryBuilderModel';
import { inventoryOfPath, savedQueryQuery, type SavedQueryFormData, type SavedQueryResponse } from './savedQueriesApi';
import './inventories.css';

function Editor({ saved, basePath }: { saved: SavedQueryResponse; basePath: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SavedQueryFormData>({ name: saved.name, text: saved.text, type: saved.type, tags: saved.tags, is_public: saved.is_public });
  const syntax = querySyntaxError(form.text);
  const save = useMutation({
    mutationFn: () => apiFetch<SavedQueryResponse>(`/queries/queries/${saved.id}`, { method: 'PUT', body: form, silent: true }),
    onSuccess: () => {
      notify('success', t('inventories.nameWasSaved', { name: form.name }));
      void queryClient.invalidateQueries({ queryKey: ['saved-queries'] });
      void navigate({ to: `${basePath}/saved-queries` });
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!syntax && form.name.trim()) save.mutate();
  };
  return (
    <form className="inventory-page" onSubmit={submit} noValidate>
      <TextInput label={t('inventories.name')} required value={form.name} onValueChange={(name) => setForm({ ...form, name })} error={errors.name ?? (form.name.trim() ? undefined : t('inventories.nameFieldRequired'))} />
      <Textarea label={t('inventories.query')} value={form.text} onValueChange={(text) => setForm({ ...form, text })} error={syntax?.message ?? errors.text} rows={4} />
      <TextInput label={t('inventories.tagsCommaSeparated')} value={form.tags.join(', ')} onValueChange={(tags) => setForm({ ...form, tags: tags.split(',').map((tag) => tag.trim()).filter(Boolean) })} error={errors.tags} />
      <Checkbox label={t('inventories.publicEveryoneCompanyCan')} checked={form.is_public} onCheckedChange={(is_public) => setForm({ ...form, is_public })} />
      {save.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{save.error.message}</p>}
      <div className="query-builder__actions">
        <Button variant="secondary" onClick={() => void navigate({ to: `${basePath}/saved-queries` })}>{t('inventories.cancel')}</Button>
        <Button type="submit" loading={save.isPending} disabled={Boolean(syntax)}>{t('inventories.save')}</Button>
      </div>
    </form>
  );
}

/** `/…-inventory/saved-queries/edit/{queryId}`: rename, rewrite, tag or publish a saved query. */
export function SavedQueryForm({ route }: PageProps) {
  const { basePath } = inventoryOfPath(route.path);
  const id = Number((useParams({ strict: false }) as { queryId: string }).queryId);
  const saved = useQuery(savedQueryQuery(id));
  useEffect(() => setBreadcrumb([{ label: t('inventories.inventory'), to: basePath }, { label: t('inventories.savedQueries'), to: `${basePath}/saved-queries` }, { label: saved.data?.name ?? String(id) }]), [basePath, id, saved.data?.name]);
  if (saved.isPending) return <Spinner label={t('inventories.loadingSavedQuery')} />;
  if (saved.isError) return <ErrorState message={saved.error.message} onRetry={() => void saved.refetch()} />;
  return (
    <section className="inventory-page">
      <PageHeader title={t('inventories.editName', { name: saved.data.name })} />
      <Editor saved={saved.data} basePath={basePath} />
    </section>
  );
}
