import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PageProps } from '../../app/pageModules';
import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import { Button, ButtonLink, Dialog, ErrorState, PageHeader, Table, type TableColumn } from '../../ui';
import {
  customAdapterListPath, customAdaptersKey, deleteCustomAdapter, listCustomAdapters, refreshSessionAdapters, type CustomAdapterResponse,
} from './customAdapter/customAdaptersApi';
import './customAdapter/customAdapters.css';

/** `/settings/custom-adapter`: the company's custom adapters, with their entity, fields and connections. */
export function CustomAdapters(_props: PageProps) {
  const queryClient = useQueryClient();
  const adapters = useQuery({ queryKey: customAdaptersKey, queryFn: listCustomAdapters });
  const [deleting, setDeleting] = useState<CustomAdapterResponse | null>(null);
  const remove = useMutation({
    mutationFn: (adapter: CustomAdapterResponse) => deleteCustomAdapter(adapter.id),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: customAdaptersKey });
      await refreshSessionAdapters();
    },
  });
  const [mayAdd, mayChange, mayDelete, mayUpload, maySample] = ['customs.add_data', 'customs.change_data', 'customs.delete_data', 'customs.upload_custom_data_file', 'customs.upload_custom_fields_file'].map((permission) => hasPermission(permission));
  const columns: TableColumn<CustomAdapterResponse>[] = [
    { id: 'name', header: t('customAdapters.list.name'), cell: (adapter) => (mayChange ? <Link to={`${customAdapterListPath}/${adapter.id}/edit`}>{adapter.name}</Link> : adapter.name) },
    { id: 'slug', header: t('customAdapters.list.slug'), cell: (adapter) => adapter.slug },
    { id: 'entity', header: t('customAdapters.list.entity'), cell: (adapter) => t(`customAdapters.entity.${adapter.entity}`) },
    { id: 'fields', header: t('customAdapters.list.fields'), align: 'end', cell: (adapter) => adapter.fields.length },
    { id: 'connections', header: t('customAdapters.list.connections'), align: 'end', cell: (adapter) => adapter.connection_count },
    {
      id: 'actions', header: <span className="ui-visually-hidden">{t('customAdapters.list.actions')}</span>,
      cell: (adapter) => (
        <span className="custom-adapter-actions">
          {mayUpload && <Link to={`${customAdapterListPath}/upload/initial-data`} search={{ adapter: adapter.id }}>{t('customAdapters.list.uploadData', { name: adapter.name })}</Link>}
          {mayDelete && <Button variant="ghost" size="small" onClick={() => setDeleting(adapter)}>{t('customAdapters.list.delete', { name: adapter.name })}</Button>}
        </span>
      ),
    },
  ];
  return (
    <section className="custom-adapters-page">
      <PageHeader
        title={t('customAdapters.list.title')} description={t('customAdapters.list.description')}
        actions={(
          <>
            {maySample && mayAdd && <ButtonLink href={`#${customAdapterListPath}/upload/import-fields`} variant="secondary">{t('customAdapters.list.fromSample')}</ButtonLink>}
            {mayAdd && <ButtonLink href={`#${customAdapterListPath}/create`}>{t('customAdapters.list.create')}</ButtonLink>}
          </>
        )}
      />
      {adapters.isError ? <ErrorState title={t('customAdapters.error.page')} message={adapters.error.message} /> : (
        <Table
          columns={columns} rows={adapters.data?.results ?? []} rowKey={(adapter) => adapter.id} loading={adapters.isPending}
          caption={t('customAdapters.list.title')} empty={<p>{t('customAdapters.list.empty')}</p>}
        />
      )}
      <Dialog
        open={deleting !== null} onClose={() => setDeleting(null)} alert title={t('customAdapters.delete.title', { name: deleting?.name ?? '' })}
        description={t('customAdapters.delete.description', { connections: deleting?.connection_count ?? 0 })}
        footer={(
          <>
            <Button variant="secondary" onClick={() => setDeleting(null)}>{t('customAdapters.delete.cancel')}</Button>
            <Button variant="danger" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>{t('customAdapters.delete.confirm')}</Button>
          </>
        )}
      >
        {remove.isError && <p role="alert" className="custom-adapter-error">{remove.error.message}</p>}
      </Dialog>
    </section>
  );
}
