import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../core/dates';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button, Card, EmptyState, Select, Spinner, Table, type TableColumn } from '../../ui';
import { AssetLink } from '../inventories/assetLinks';
import { inventoryKindOfEntity } from '../inventories/inventoryKinds';
import { runListQuery, runResultsQuery, startRun, type RunSummary, type TargetResultRow } from './actionApi';
import { runCounts, statusLabel, StatusBadge, targetResults, triggerLabel } from './runLabels';

/** A run's results: each asset's name links to its detail in the snapshot the run targeted. */
const resultColumns = (entity: string, discoveryId: number | null): TableColumn<TargetResultRow>[] => [
  { id: 'name', get header() { return t('actions.asset'); }, cell: (row) => {
    const kind = inventoryKindOfEntity(entity);
    return kind && discoveryId !== null ? <AssetLink kind={kind} id={row.asset_id} discoveryId={discoveryId} name={row.name} /> : row.name;
  }, width: '18%' },
  { id: 'status', get header() { return t('actions.result'); }, cell: (row) => <StatusBadge status={row.status} />, width: '10%' },
  { id: 'detail', get header() { return t('actions.detail'); }, cell: (row) => row.detail },
  { id: 'exit', get header() { return t('actions.exitStatus'); }, cell: (row) => (row.exit_code ?? '–'), width: '8%' },
  { id: 'output', get header() { return t('actions.output'); }, cell: (row) => (row.output ? <pre className="action-output">{row.output}</pre> : '–'), width: '34%' },
];

/** One run's per-target results, filterable by result, with a button to run the failed targets again. */
function RunResults({ run, actionId, entity }: { run: RunSummary; actionId: number; entity: string }) {
  const [status, setStatus] = useState('');
  const results = useQuery({ ...runResultsQuery(run.id, status), enabled: run.status === 'done' });
  const queryClient = useQueryClient();
  const rerun = useMutation({
    mutationFn: () => startRun(actionId, { rerun_of: run.id }),
    onSuccess: () => {
      notify('success', t('actions.failedTargetsRunAgain'));
      void queryClient.invalidateQueries({ queryKey: ['action-runs', actionId] });
    },
  });
  if (run.status === 'error') return <p role="alert" className="inventory-error">{run.error}</p>;
  if (run.status !== 'done') return <Spinner label={t('actions.running')} />;
  return (
    <div className="action-results">
      <div className="action-results__bar">
        <Select label={t('actions.show')} value={status} onValueChange={setStatus} options={[{ value: '', label: t('actions.everyTarget') }, ...targetResults.map((value) => ({ value, label: statusLabel(value) }))]} />
        {run.failed > 0 && !run.dry_run && hasPermission('workflows.run_workflow') ? <Button variant="warning" loading={rerun.isPending} onClick={() => rerun.mutate()}>{t('actions.reRunFailedFailed', { failed: run.failed })}</Button> : null}
      </div>
      <Table caption={t('actions.resultsRunId', { id: run.id })} columns={resultColumns(entity, run.discovery_id)} rows={results.data?.results ?? []} rowKey={(row) => row.asset_id} loading={results.isPending} empty={t('actions.noTargets')} />
    </div>
  );
}

/** The run history of one action: each run's trigger, who started it, counts, and its results when opened. */
export function ActionRuns({ actionId, entity }: { actionId: number; entity: string }) {
  const runs = useQuery(runListQuery(actionId));
  const [opened, setOpened] = useState<number | null>(null);
  if (runs.isPending) return <Spinner label={t('actions.loadingRuns')} />;
  if (!runs.data?.results.length) return <EmptyState title={t('actions.noRunsYet')} description={t('actions.dryRunActionSee')} />;
  const current = opened ?? runs.data.results[0].id;
  return (
    <div className="action-runs">
      <ul className="action-runs__list">
        {runs.data.results.map((run) => (
          <li key={run.id}>
            <button type="button" className={`action-runs__item${run.id === current ? ' action-runs__item--open' : ''}`} onClick={() => setOpened(run.id)} aria-pressed={run.id === current}>
              <StatusBadge status={run.status} />{' '}{t('actions.runId', { id: run.id })}{run.dry_run ? t('actions.dryRunSuffix') : ''} · {triggerLabel(run.trigger)}{run.started_by_name ? t('actions.startedBy', { started_by_name: run.started_by_name }) : ''} · {formatDate(run.created_at)}
              <span className="action-runs__counts">{runCounts(run)}</span>
            </button>
          </li>
        ))}
      </ul>
      <Card>{runs.data.results.filter((run) => run.id === current).map((run) => <RunResults key={run.id} run={run} actionId={actionId} entity={entity} />)}</Card>
    </div>
  );
}
