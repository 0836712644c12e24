import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../core/dates';
import { t } from '../../app/i18n/messages';
import { hasPermission } from '../../app/session/session';
import { Badge, Button, Card, EmptyState, Spinner, type BadgeTone } from '../../ui';
import { countText, downloadRunFile, runListQuery, runQuery, type ReportRun, type RunFile } from './reportsApi';

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

/** A run's file: in the history a small button (format and size), once a run started here ends the main one (its name). */
function DownloadButton({ file, prominent = false }: { file: RunFile; prominent?: boolean }) {
  const download = useMutation({ mutationFn: () => downloadRunFile(file) });
  return (
    <Button size={prominent ? 'medium' : 'small'} variant={prominent ? 'success' : 'secondary'} loading={download.isPending} onClick={() => download.mutate()} aria-label={t('reports.runs.downloadLabel', { filename: file.filename })}>
      {prominent ? `${file.filename} · ${sizeText(file.size)}` : `${file.format.toUpperCase()} · ${sizeText(file.size)}`}
    </Button>
  );
}

/** The tables of a run its limit cut: "Devices: 1,000 of 2,266 rows" (a CSV file has no room to say so itself). */
function CutTables({ run }: { run: ReportRun }) {
  const cut = (run.progress.tables ?? []).filter((table) => table.shown < table.matching);
  if (!cut.length) return null;
  return (
    <ul className="report-runs__cut">
      {cut.map((table) => <li key={table.title}>{t('reports.runs.cut', { title: table.title, shown: countText(table.shown), matching: countText(table.matching) })}</li>)}
    </ul>
  );
}

/**
 * The run a user just started with "Run now": its progress while it runs, then the file it asked for to download
 * (issue 36: the click ends in the file, not in a search through the history), or why it failed.
 */
export function RunResult({ runId, reportName, onClose }: { runId: number; reportName: string; onClose: () => void }) {
  const run = useQuery(runQuery(runId));
  const data = run.data;
  return (
    <Card title={t('reports.result.title', { name: reportName })} className="report-result" actions={<Button size="small" variant="ghost" onClick={onClose}>{t('reports.result.close')}</Button>}>
      <div role="status" className="report-result__body">
        {!data || data.status === 'queued' || data.status === 'running' ? <p className="report-runs__progress"><Spinner size="small" label={t('reports.result.running')} /> {data ? progressText(data) : t('reports.runs.waiting')}</p> : null}
        {data?.status === 'done' ? <p>{t('reports.result.ready')}</p> : null}
        {data?.status === 'done' && hasPermission('reports.download_report') ? <div className="report-runs__files">{data.files.map((file) => <DownloadButton key={file.format} file={file} prominent />)}</div> : null}
        {data ? <CutTables run={data} /> : null}
      </div>
      {data?.status === 'error' ? <p className="report-runs__error" role="alert">{data.error}</p> : null}
      {run.isError ? <p className="report-runs__error" role="alert">{run.error.message}</p> : null}
    </Card>
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
      <CutTables run={run} />
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
