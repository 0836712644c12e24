import { t } from '../../app/i18n/messages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch } from '../../app/http';
import type { PageProps } from '../../app/pageModules';
import { Button, ErrorState, PageHeader, Pagination, Select, Table, TextInput, type TableColumn } from '../../ui';
import { codeText } from './activityActions';
import type { PageResponse, SystemEvent } from './activityApi';
import './activities.css';

const columns: TableColumn<SystemEvent>[] = [
  { id: 'created_at', get header() { return t('activities.time'); }, cell: (row) => formatDate(row.created_at) },
  { id: 'level', get header() { return t('activities.level'); }, cell: (row) => codeText(row.level) },
  { id: 'event', get header() { return t('activities.event'); }, cell: (row) => row.event },
  { id: 'message', get header() { return t('activities.message'); }, cell: (row) => row.message },
];

/** `/activities/system`: start-ups, discoveries, jobs, lockouts and errors of the installation. */
export function SystemActivities(_props: PageProps) {
  const [draft, setDraft] = useState({ level: '', search: '' });
  const [filters, setFilters] = useState({ level: '', search: '' });
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(50);
  const list = useQuery({
    queryKey: ['/activities/system', filters, page, size],
    queryFn: () => apiFetch<PageResponse<SystemEvent>>('/activities/system', { query: { ...(filters.level && { level: filters.level }), ...(filters.search && { search: filters.search }), page, size } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="activities">
      <PageHeader title={t('activities.systemLog')} description={t('activities.startUpsDiscoveriesJobs')} />
      <form className="activities__filters" onSubmit={(event) => { event.preventDefault(); setPage(1); setFilters(draft); }}>
        <Select id="system-level" label={t('activities.level')} placeholder={t('activities.any')} options={[{ value: 'info', label: t('activities.info') }, { value: 'warning', label: t('activities.warning') }, { value: 'error', label: t('activities.error') }]} value={draft.level} onValueChange={(level) => setDraft({ ...draft, level })} />
        <TextInput id="system-search" label={t('activities.search')} value={draft.search} onValueChange={(search) => setDraft({ ...draft, search })} />
        <Button type="submit">{t('activities.filter')}</Button>
      </form>
      {list.isError ? <ErrorState title={t('activities.systemLogCouldNot')} message={list.error.message} onRetry={() => void list.refetch()} /> : (
        <>
          <Table columns={columns} rows={list.data?.results ?? []} rowKey={(row) => String(row.id)} caption={t('activities.systemLog')} loading={list.isFetching} />
          <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[25, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
        </>
      )}
    </section>
  );
}
