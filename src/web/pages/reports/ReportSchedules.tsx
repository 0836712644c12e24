import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { formatDate } from '../../../core/dates';
import { apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, ButtonLink, EmptyState, ErrorState, PageHeader, Spinner, Table, type TableColumn } from '../../ui';
import { RunStatus } from './ReportRuns';
import { reportListQuery, scheduleListQuery, schedulesPath, type ScheduleItem } from './reportsApi';
import { timingText } from './scheduleText';
import './reports.css';

/** The last run's outcome, and why it failed (with the failures in a row) when it did. */
function LastDelivery({ schedule }: { schedule: ScheduleItem }) {
  if (!schedule.last_status) return <span>{t('reports.schedules.notYet')}</span>;
  return (
    <span className="report-schedules__last">
      <RunStatus status={schedule.last_status} /> {schedule.last_run_at ? formatDate(schedule.last_run_at) : ''}
      {schedule.last_error ? <span className="report-section__error" role="note">{schedule.last_error}{schedule.failures > 1 ? ` ${t('reports.schedules.failures', { count: schedule.failures })}` : ''}</span> : null}
    </span>
  );
}

/** `/reports/schedules`: when each schedule runs, to whom, its next run and how its last delivery went. */
export function ReportSchedules() {
  useEffect(() => setBreadcrumb([{ label: t('reports.title'), to: '/reports' }, { label: t('reports.schedules.title') }]), []);
  const schedules = useQuery(scheduleListQuery());
  const reports = useQuery({ ...reportListQuery(), enabled: hasPermission('reports.view_report') });
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (schedule: ScheduleItem) => apiFetch(`${schedulesPath}/${schedule.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t('reports.schedules.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['report-schedules'] });
    },
  });
  const reportName = (id: number) => reports.data?.results.find((report) => report.id === id)?.name ?? t('reports.schedules.reportNumber', { id });
  const columns: TableColumn<ScheduleItem>[] = [
    { id: 'name', header: t('reports.schedules.name'), cell: (schedule) => schedule.name },
    { id: 'report', header: t('reports.schedules.report'), cell: (schedule) => reportName(schedule.report) },
    { id: 'when', header: t('reports.schedules.when'), cell: (schedule) => (schedule.enabled ? timingText(schedule) : <Badge tone="neutral">{t('reports.schedules.off')}</Badge>) },
    { id: 'recipients', header: t('reports.schedules.recipients'), cell: (schedule) => t('reports.schedules.recipientCount', { count: schedule.recipients.length + schedule.recipient_users.length }) },
    { id: 'next', header: t('reports.schedules.next'), cell: (schedule) => (schedule.next_run_at ? formatDate(schedule.next_run_at) : '–') },
    { id: 'last', header: t('reports.schedules.last'), cell: (schedule) => <LastDelivery schedule={schedule} /> },
    { id: 'buttons', header: '', align: 'end', cell: (schedule) => (
      <span className="reports-page__buttons">
        {hasPermission('reports.change_reportschedule') ? <ButtonLink size="small" variant="ghost" href={`#/reports/schedules/edit/${schedule.id}`}>{t('reports.list.edit')}</ButtonLink> : null}
        {hasPermission('reports.delete_reportschedule') ? (
          <Button size="small" variant="ghost" onClick={() => window.confirm(t('reports.schedules.confirmDelete', { name: schedule.name })) && remove.mutate(schedule)}>{t('reports.list.delete')}</Button>
        ) : null}
      </span>
    ) },
  ];
  // Creating opens the form at `edit/new` (the route takes any id); its permission guard asks for change, the save for add.
  const canCreate = hasPermission('reports.add_reportschedule') && hasPermission('reports.change_reportschedule');
  return (
    <section className="reports-page">
      <PageHeader title={t('reports.schedules.title')} description={t('reports.schedules.description')}
        actions={canCreate ? <ButtonLink href="#/reports/schedules/edit/new">{t('reports.schedules.new')}</ButtonLink> : null} />
      {schedules.isError ? <ErrorState message={schedules.error.message} onRetry={() => void schedules.refetch()} /> : null}
      {schedules.isPending ? <Spinner label={t('reports.schedules.loading')} /> : null}
      {schedules.data && !schedules.data.results.length ? <EmptyState title={t('reports.schedules.empty')} description={t('reports.schedules.emptyHelp')} /> : null}
      {schedules.data?.results.length ? <Table caption={t('reports.schedules.title')} columns={columns} rows={schedules.data.results} rowKey={(schedule) => schedule.id} /> : null}
    </section>
  );
}
