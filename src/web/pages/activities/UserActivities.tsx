import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch } from '../../app/http';
import type { PageProps } from '../../app/pageModules';
import { Button, ErrorState, PageHeader, Pagination, Select, Table, TextInput, type TableColumn } from '../../ui';
import { activityQuery, emptyFilters, exportActivities, type Activity, type ActivityFilters, type PageResponse } from './activityApi';
import './activities.css';

const columns: TableColumn<Activity>[] = [
  { id: 'created_at', header: 'Time', cell: (row) => formatDate(row.created_at) },
  { id: 'username', header: 'User', cell: (row) => row.username || '—' },
  { id: 'action', header: 'Action', cell: (row) => <a href={`#/activities/user/${row.id}`}>{row.action}</a> },
  { id: 'target', header: 'Object', cell: (row) => [row.target_type, row.target_id].filter(Boolean).join(' #') },
  { id: 'source_ip', header: 'Source address', cell: (row) => row.source_ip },
  { id: 'result', header: 'Result', cell: (row) => `${row.result} (${row.status_code})` },
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
      <PageHeader title="User activities" description="Sign-ins and every change, newest first." />
      <form className="activities__filters" onSubmit={(event) => { event.preventDefault(); setPage(1); setFilters(draft); }}>
        <TextInput id="activity-user" label="User" value={draft.user} onValueChange={set('user')} />
        <TextInput id="activity-action" label="Action" placeholder="users.create" value={draft.action} onValueChange={set('action')} />
        <TextInput id="activity-object" label="Object" placeholder="users/users" value={draft.target_type} onValueChange={set('target_type')} />
        <Select id="activity-result" label="Result" placeholder="Any" options={[{ value: 'success', label: 'Success' }, { value: 'failure', label: 'Failure' }]} value={draft.result} onValueChange={set('result')} />
        <TextInput id="activity-from" label="From" placeholder="yyyy-MM-dd" value={draft.from} onValueChange={set('from')} />
        <TextInput id="activity-to" label="Before" placeholder="yyyy-MM-dd" value={draft.to} onValueChange={set('to')} />
        <Button type="submit">Filter</Button>
        <Button type="button" variant="secondary" onClick={() => void exportActivities(filters).catch(() => undefined)}>Export CSV</Button>
      </form>
      {list.isError ? <ErrorState title="The activities could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} /> : (
        <>
          <Table columns={columns} rows={list.data?.results ?? []} rowKey={(row) => String(row.id)} caption="User activities" loading={list.isFetching} />
          <Pagination page={page} pageSize={size} count={list.data?.count ?? 0} onPageChange={setPage} pageSizes={[25, 50, 100]} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />
        </>
      )}
    </section>
  );
}
