import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../core/dates';
import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import { Badge, Button, EmptyState, Spinner, type BadgeTone } from '../../ui';
import { downloadRunFile, runListQuery, type ReportRun, type RunFile } from './reportsApi';

const statusTone: Record<string, BadgeTone> = { done: 'success', error: 'danger', running: 'info', queued: 'neutral', sent: 'success', failed: 'danger' };
export const RunStatus = ({ status }: { status: string }) => <Badge tone={statusTone[status] ?? 'neutral'}>{t(`reports.status.${status}`, {}, status)}</Badge>;

const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? t('reports.sizeKb', { size: Math.max(1, Math.round(bytes / 1024)) }) : t('reports.sizeMb', { size: (bytes / 1024 / 1024).toFixed(1) }));

/** What a run under way has done so far: the format being written, sections and rows. */
function progressText(run: ReportRun): string {
  const { progress } = run;
  if (run.status === 'queued') return t('reports.runs.waiting');
  if (progress.sections === undefined) return t('reports.runs.starting');
  return t('reports.runs.progress', { format: String(progress.format ?? '').toUpperCase(), done: progress.sections_done ?? 0, sections: progress.sections, rows: progress.rows ?? 0 });
}

function DownloadButton({ file }: { file: RunFile }) {
  const download = useMutation({ mutationFn: () => downloadRunFile(file) });
  return (
    <Button size="small" variant="secondary" loading={download.isPending} onClick={() => download.mutate()} aria-label={t('reports.runs.downloadLabel', { filename: file.filename })}>
      {file.format.toUpperCase()} · {sizeText(file.size)}
    </Button>
  );
}

function RunItem({ run }: { run: ReportRun }) {
  const downloads = hasPermission('reports.download_report');
  return (
    <li className="report-runs__item" data-run={run.id}>
      <div className="report-runs__head">
        <RunStatus status={run.status} /> <strong>{t('reports.runs.title', { id: run.id })}</strong>
        <span>{t('reports.runs.by', { who: run.requested_by || '–', when: formatDate(run.queued_at) })}</span>
        {run.duration_seconds !== null ? <span>{t('reports.runs.took', { seconds: run.duration_seconds.toFixed(1) })}</span> : null}
        {run.delivery_status ? <span>{t('reports.runs.delivery')} <RunStatus status={run.delivery_status} /></span> : null}
      </div>
      {run.status === 'queued' || run.status === 'running' ? <p className="report-runs__progress" role="status">{progressText(run)}</p> : null}
      {run.error ? <p className="report-runs__error" role="alert">{run.error}</p> : null}
      {run.delivery_error ? <p className="report-runs__error" role="alert">{run.delivery_error}</p> : null}
      {run.files.length ? (
        <div className="report-runs__files">
          {downloads ? run.files.map((file) => <DownloadButton key={file.format} file={file} />) : <span>{run.files.map((file) => file.filename).join(', ')}</span>}
        </div>
      ) : null}
    </li>
  );
}

/** Past runs of one report, newest first: who ran it, how long it took, its progress or error, and its files. */
export function ReportRuns({ reportId }: { reportId: number }) {
  const runs = useQuery(runListQuery(reportId));
  if (runs.isPending) return <Spinner label={t('reports.runs.loading')} />;
  if (runs.isError) return <p role="alert" className="report-runs__error">{runs.error.message}</p>;
  if (!runs.data.results.length) return <EmptyState title={t('reports.runs.none')} description={t('reports.runs.noneHelp')} />;
  return <ul className="report-runs" aria-label={t('reports.runs.label')}>{runs.data.results.map((run) => <RunItem key={run.id} run={run} />)}</ul>;
}
