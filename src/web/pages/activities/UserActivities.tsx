import { t } from '../../app/i18n/messages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch } from '../../app/http';
import type { PageProps } from '../../app/pageModules';
import { Button, ErrorState, PageHeader, Pagination, Select, Table, TextInput, type TableColumn } from '../../ui';
import { actionOptions, actionText, codeText } from './activityActions';
import { activityQuery, emptyFilters, exportActivities, type Activity, type ActivityFilters, type PageResponse } from './activityApi';
import './activities.css';

const columns: TableColumn<Activity>[] = [
  { id: 'created_at', get header() { return t('activities.time'); }, cell: (row) => formatDate(row.created_at) },
  { id: 'username', get header() { return t('activities.user'); }, cell: (row) => row.username || '—' },
  // The action as people read it; its recorded name (what the API filters and the CSV export use) on hover.
  { id: 'action', get header() { return t('activities.action'); }, cell: (row) => <a href={`#/activities/user/${row.id}`} title={row.action}>{actionText(row.action)}</a> },
  { id: 'target', get header() { return t('activities.object'); }, cell: (row) => [row.target_type, row.target_id].filter(Boolean).join(' #') },
  { id: 'source_ip', get header() { return t('activities.sourceAddress'); }, cell: (row) => row.source_ip },
  { id: 'result', get header() { return t('activities.result'); }, cell: (row) => `${codeText(row.result)} (${row.status_code})` },
];

/** `/activities/user`: who did what in the company, filtered by user, action, object, result and time; CSV export. */
export function UserActivities(_props: PageProps) {
  const [draft, setDraft] = useState<ActivityFilters>(emptyFilters);
  const [filters, setFilters] = useState<ActivityFilters>(emptyFilters);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(50);
  const list = useQuery({
    queryKey: ['/activities/activities', filters, page, size],
    queryFn: () => apiFetch<PageResponse<Activity>>('/activities/activities', { query: { ...activityQuery(filters), page, size } }),
    placeholderData: keepPreviousData,
  });
  const set = (field: keyof ActivityFilters) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));
  return (
    <section className="activities">
      <PageHeader title={t('activities.userActivities')} description={t('activities.signInsEveryChange')} />
      <form className="activities__filters" onSubmit={(event) => { event.preventDefault(); setPage(1); setFilters(draft); }}>
        <TextInput id="activity-user" label={t('activities.user')} value={draft.user} onValueChange={set('user')} />
        <Select id="activity-action" label={t('activities.action')} placeholder={t('activities.any')} options={actionOptions()} value={draft.action} onValueChange={set('action')} />
        <TextInput id="activity-object" label={t('activities.object')} placeholder={t('activities.usersUsers')} value={draft.target_type} onValueChange={set('target_type')} />
        <Select id="activity-result" label={t('activities.result')} placeholder={t('activities.any')} options={[{ value: 'success', label: t('activities.success') }, { value: 'failure', label: t('activities.failure') }]} value={draft.result} onValueChange={set('result')} />
        <TextInput id="activity-from" type="date" label={t('activities.from')} value={draft.from} onValueChange={set('from')} />
        <TextInput id="activity-to" type="date" label={t('activities.before')} value={draft.to} onValueChange={set('to')} />
        <Button type="submit">{t('activities.filter')}</Button>
        <Button type="button" variant="secondary" onClick={() => void exportActivities(filters).catch(() => undefined)}>{t('activities.exportCsv')}</Button>
      </form>
      {list.isError ? <ErrorState title={t('activities.activitiesCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} /> : (
        <>
          <Table columns={columns} rows={list.data?.results ?? []} rowKey={(row) => String(row.id)} caption={t('activities.userActivities')} loading={list.isFetching} />
          <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[25, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
        </>
      )}
    </section>
  );
}
