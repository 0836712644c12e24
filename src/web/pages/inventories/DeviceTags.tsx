import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { ApiError, apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, Dialog, EmptyState, PageHeader, Pagination, Table, TextInput, orderingOf, type SortState, type TableColumn } from '../../ui';
import { tagListQuery, tagQuery, type TagFormData, type TagResponse } from './deviceActionsApi';
import { defaultTagColor, TagChip, TagFields, tagFormProblems } from './TagFields';
import './inventories.css';

const pageSize = 50;

/** The "New tag" dialog: the server's field errors (a taken name) show under their fields. */
function CreateTagDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TagFormData>({ name: '', description: '', color: defaultTagColor });
  const [tried, setTried] = useState(false);
  const create = useMutation({
    mutationFn: () => apiFetch<TagResponse>('/devices/tags', { method: 'POST', body: { ...form, name: form.name.trim() }, silent: true }),
    onSuccess: (tag) => {
      notify('success', t('inventories.tagNameWasCreated', { name: tag.name }));
      void queryClient.invalidateQueries({ queryKey: ['device-tags'] });
      onClose();
    },
  });
  // The server's messages hold until the form changes; the browser's own checks then take over.
  const errors = create.error instanceof ApiError ? create.error.fieldErrors : {};
  const submit = () => {
    setTried(true);
    if (!Object.keys(tagFormProblems(form)).length) create.mutate();
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.newTag')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button loading={create.isPending} onClick={submit}>{t('inventories.create')}</Button>
        </>
      }
    >
      <TagFields form={form} onChange={(next) => { setForm(next); create.reset(); }} errors={errors} showProblems={tried} />
      {create.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{create.error.message}</p>}
    </Dialog>
  );
}

/** Asks before deleting: a deleted tag comes off every device at once. */
function DeleteTagDialog({ tag, onClose }: { tag: TagResponse; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => apiFetch(`/devices/tags/${tag.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t('inventories.tagNameWasDeleted', { name: tag.name }));
      void queryClient.invalidateQueries({ queryKey: ['device-tags'] });
      onClose();
    },
  });
  return (
    <Dialog
      open
      alert
      onClose={onClose}
      title={t('inventories.deleteTagName', { name: tag.name })}
      description={t('inventories.comesOffDeviceCount', { device_count: tag.device_count.toLocaleString() })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>{t('inventories.delete')}</Button>
        </>
      }
    />
  );
}

/** `/device-inventory/tags`: every device tag with how many devices carry it; a tag's name opens those devices. */
export function DeviceTags() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ id: 'name', direction: 'asc' });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TagResponse | null>(null);
  const list = useQuery(tagListQuery({ page, size: pageSize, search, ordering: orderingOf(sort) }));
  useEffect(() => setBreadcrumb([{ label: t('inventories.devices'), to: '/device-inventory' }, { label: t('inventories.tags') }]), []);
  const canChange = hasPermission('devices.change_tag');
  const canDelete = hasPermission('devices.delete_tag');
  const columns: TableColumn<TagResponse>[] = [
    { id: 'name', header: t('inventories.name'), sortable: true, cell: (row) => <Link to="/device-inventory" search={{ query: tagQuery(row.name) }} aria-label={t('inventories.devicesTaggedName', { name: row.name })}><TagChip name={row.name} color={row.color} /></Link> },
    { id: 'description', header: t('inventories.description'), cell: (row) => row.description || '-' },
    { id: 'device_count', header: t('inventories.devices'), sortable: true, align: 'end', cell: (row) => row.device_count.toLocaleString() },
    { id: 'created_at', header: t('inventories.created'), sortable: true, cell: (row) => formatDate(row.created_at) },
    {
      id: 'actions', header: t('inventories.actions'),
      cell: (row) => (
        <span className="query-builder__actions">
          {canChange && <Link to="/device-inventory/tags/edit/$tagId" params={{ tagId: String(row.id) }} aria-label={t('inventories.editName', { name: row.name })}>{t('inventories.edit')}</Link>}
          {canDelete && <Button variant="link" aria-label={t('inventories.deleteName', { name: row.name })} onClick={() => setDeleting(row)}>{t('inventories.delete')}</Button>}
        </span>
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader
        title={t('inventories.deviceTags')}
        description={t('inventories.labelsDevicesTaggedDevice')}
        meta={list.data ? <span className="inventory-muted">{t('inventories.countTagS', { count: list.data.count.toLocaleString() })}</span> : null}
        actions={hasPermission('devices.add_tag') && <Button onClick={() => setCreating(true)}>{t('inventories.newTag')}</Button>}
      />
      <TextInput label={t('inventories.searchTags')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={t('inventories.deviceTags')}
        columns={columns}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        sort={sort}
        onSortChange={(next) => { setSort(next); setPage(1); }}
        loading={list.isFetching}
        empty={<EmptyState title={search ? t('inventories.noTagsMatch') : t('inventories.noTagsYet')} description={search ? t('inventories.changeClearSearch') : t('inventories.createOneHereTag')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
      {creating && <CreateTagDialog onClose={() => setCreating(false)} />}
      {deleting && <DeleteTagDialog tag={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}
