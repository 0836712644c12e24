import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { notify } from '../../app/notifications/notifications';
import { getSession, hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, ButtonLink, Card, EmptyState, ErrorState, PageHeader, Select, Spinner, Table, type TableColumn } from '../../ui';
import { ReportRuns, RunResult, RunStatus } from './ReportRuns';
import { reportFormats, reportListQuery, reportsPath, startReportRun, type ReportFormat, type ReportItem } from './reportsApi';
import './reports.css';

/** The run started from this page with "Run now", followed until its file can be downloaded. */
type StartedRun = { reportId: number; runId: number; reportName: string };

/** The newest run of a report, as the list answers it (no call per report). */
function LastRun({ report }: { report: ReportItem }) {
  const last = report.last_run;
  if (!last) return <span>{t('reports.list.never')}</span>;
  return <span><RunStatus status={last.status} /> {formatDate(last.finished_at ?? last.queued_at)}</span>;
}

/** Runs a report now in a chosen format; the page then follows that run to its file (and it joins the report's history). */
function RunNow({ report, onStarted }: { report: ReportItem; onStarted: (run: StartedRun) => void }) {
  const [format, setFormat] = useState<ReportFormat>(report.format ?? 'pdf');
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: () => startReportRun(report.id, [format]),
    onSuccess: (started) => {
      void queryClient.invalidateQueries({ queryKey: ['report-runs', report.id] });
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
      onStarted({ reportId: report.id, runId: started.id, reportName: report.name });
    },
  });
  return (
    <span className="reports-page__run">
      <Select label={t('reports.list.format')} className="reports-page__format" value={format} options={reportFormats.map((value) => ({ value, label: value.toUpperCase() }))}
        onValueChange={(value) => setFormat(value as ReportFormat)} aria-label={t('reports.list.formatOf', { name: report.name })} />
      <Button size="small" loading={run.isPending} onClick={() => run.mutate()}>{t('reports.list.runNow')}</Button>
    </span>
  );
}

/** `/reports`: the report definitions, each one's last run, buttons to run, edit and delete, and its past runs. */
export function Reports() {
  useEffect(() => setBreadcrumb([{ label: t('reports.title') }]), []);
  const reports = useQuery(reportListQuery());
  const [selected, setSelected] = useState<number | null>(null);
  const [started, setStarted] = useState<StartedRun | null>(null);
  const runStarted = (run: StartedRun) => {
    setStarted(run);
    setSelected(run.reportId);
  };
  const queryClient = useQueryClient();
  const me = getSession().user?.id;
  const remove = useMutation({
    mutationFn: (report: ReportItem) => apiFetch(`${reportsPath}/${report.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t('reports.list.deleted'));
      setSelected(null);
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
    },
  });
  // Only the owner may change or delete a report (the server says so too); others may see and run public ones.
  const owns = (report: ReportItem) => report.owner_id === undefined || report.owner_id === me;
  const columns: TableColumn<ReportItem>[] = [
    { id: 'name', header: t('reports.list.name'), cell: (report) => <button type="button" className="reports-page__name" aria-pressed={report.id === selected} onClick={() => setSelected(report.id)}>{report.name}</button> },
    { id: 'owner', header: t('reports.list.owner'), cell: (report) => report.user_full_name || '–' },
    { id: 'visibility', header: t('reports.list.visibility'), cell: (report) => <Badge tone={report.is_public ? 'info' : 'neutral'}>{report.is_public ? t('reports.public') : t('reports.private')}</Badge> },
    { id: 'last', header: t('reports.list.lastRun'), cell: (report) => <LastRun report={report} /> },
    { id: 'buttons', header: '', align: 'end', cell: (report) => (
      <span className="reports-page__buttons">
        {hasPermission('reports.download_report') ? <RunNow report={report} onStarted={runStarted} /> : null}
        {/* The builder's route needs reports.add_report (routes.json) as well: without it the link would only lead to Permission denied. */}
        {hasPermission('reports.change_report') && hasPermission('reports.add_report') && owns(report) ? <ButtonLink size="small" variant="ghost" href={`#/reports/builder?reportId=${report.id}`}>{t('reports.list.edit')}</ButtonLink> : null}
        {hasPermission('reports.delete_report') && owns(report) ? (
          <Button size="small" variant="ghost" onClick={() => window.confirm(t('reports.list.confirmDelete', { name: report.name })) && remove.mutate(report)}>{t('reports.list.delete')}</Button>
        ) : null}
      </span>
    ) },
  ];
  const chosen = reports.data?.results.find((report) => report.id === selected);
  return (
    <section className="reports-page">
      <PageHeader
        title={t('reports.title')}
        description={t('reports.description')}
        actions={<>
          {hasPermission('reports.view_reportschedule') ? <ButtonLink variant="secondary" href="#/reports/schedules">{t('reports.schedules.title')}</ButtonLink> : null}
          {hasPermission('reports.add_report') ? <ButtonLink href="#/reports/builder">{t('reports.list.new')}</ButtonLink> : null}
        </>}
      />
      {reports.isError ? <ErrorState message={reports.error.message} onRetry={() => void reports.refetch()} /> : null}
      {reports.isPending ? <Spinner label={t('reports.list.loading')} /> : null}
      {reports.data && !reports.data.results.length ? (
        <EmptyState title={t('reports.list.empty')} description={t('reports.list.emptyHelp')}
          action={hasPermission('reports.add_report') ? <ButtonLink href="#/reports/builder">{t('reports.list.new')}</ButtonLink> : null} />
      ) : null}
      {started ? <RunResult key={started.runId} runId={started.runId} reportName={started.reportName} onClose={() => setStarted(null)} /> : null}
      {reports.data?.results.length ? <Table caption={t('reports.title')} columns={columns} rows={reports.data.results} rowKey={(report) => report.id} /> : null}
      {chosen ? (
        <Card title={t('reports.runs.of', { name: chosen.name })}>
          <ReportRuns key={chosen.id} reportId={chosen.id} />
        </Card>
      ) : null}
    </section>
  );
}
