import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../app/http';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, ButtonLink, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, type TableColumn } from '../../ui';
import { actionListQuery, startRun, type ActionItem } from './actionApi';
import { ActionRuns, StatusBadge } from './ActionRuns';
import { actionCenterPath, typeLabel } from './actionPages';
import './actions.css';

const triggerLabel = { manual: 'By hand', discovery: 'After every discovery', schedule: 'On a schedule' } as const;

function RunButtons({ action, onStarted }: { action: ActionItem; onStarted: (id: number) => void }) {
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: (dryRun: boolean) => startRun(action.id, { dry_run: dryRun }),
    onSuccess: (started) => {
      notify('success', started.dry_run ? `Dry run of "${action.name}" started: its targets are listed, nothing is done.` : `"${action.name}" is running.`);
      void queryClient.invalidateQueries({ queryKey: ['actions'] });
      void queryClient.invalidateQueries({ queryKey: ['action-runs', action.id] });
      onStarted(action.id);
    },
  });
  if (!hasPermission('workflows.run_workflow')) return null;
  const sshDenied = action.type === 'ssh_command' && !hasPermission('workflows.run_sshcommand');
  return (
    <span className="actions-page__buttons">
      <Button size="small" variant="secondary" loading={run.isPending && run.variables} onClick={() => run.mutate(true)}>Dry run</Button>
      <Button size="small" loading={run.isPending && !run.variables} disabled={sshDenied} onClick={() => run.mutate(false)}>Run</Button>
    </span>
  );
}

/** `/action-center`: the actions, their last run, buttons to dry-run, run, edit and delete, and each one's history. */
export function Actions(_props: PageProps) {
  useEffect(() => setBreadcrumb([{ label: 'Action center' }]), []);
  const actions = useQuery(actionListQuery());
  const [selected, setSelected] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (action: ActionItem) => apiFetch(`/actions/actions/${action.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', 'Action deleted.');
      setSelected(null);
      void queryClient.invalidateQueries({ queryKey: ['actions'] });
    },
  });
  const columns: TableColumn<ActionItem>[] = [
    { id: 'name', header: 'Name', cell: (action) => <button type="button" className="actions-page__name" onClick={() => setSelected(action.id)}>{action.name}</button> },
    { id: 'type', header: 'Type', cell: (action) => typeLabel(action.type) },
    { id: 'trigger', header: 'Runs', cell: (action) => (action.enabled === false ? <Badge tone="neutral">Off</Badge> : triggerLabel[action.trigger]) },
    { id: 'last', header: 'Last run', cell: (action) => (action.last_run ? <span><StatusBadge status={action.last_run.status} /> {action.last_run.succeeded}/{action.last_run.targets} succeeded{action.last_run.dry_run ? ' (dry run)' : ''}</span> : '–') },
    { id: 'buttons', header: '', align: 'end', cell: (action) => (
      <span className="actions-page__buttons">
        <RunButtons action={action} onStarted={setSelected} />
        {hasPermission('workflows.change_workflow') ? <ButtonLink size="small" variant="ghost" href={`#${actionCenterPath}/edit/${action.id}`}>Edit</ButtonLink> : null}
        {hasPermission('workflows.delete_workflow') ? <Button size="small" variant="ghost" onClick={() => window.confirm(`Delete "${action.name}" and its run history?`) && remove.mutate(action)}>Delete</Button> : null}
      </span>
    ) },
  ];
  const chosen = actions.data?.results.find((action) => action.id === selected);
  return (
    <section className="actions-page">
      <PageHeader
        title="Action center"
        description="Act on what a query finds: tag devices, call a webhook, mail a list, send syslog, open tickets, message a channel or run an SSH command — by hand, on a schedule or after every discovery."
        actions={<>
          {hasPermission('workflows.view_sshsettings') ? <ButtonLink variant="secondary" href={`#${actionCenterPath}/ssh`}>SSH credentials</ButtonLink> : null}
          {hasPermission('workflows.view_jobsettings') ? <ButtonLink variant="secondary" href={`#${actionCenterPath}/settings`}>Settings</ButtonLink> : null}
          {hasPermission('workflows.add_workflow') ? <ButtonLink href={`#${actionCenterPath}/create`}>Create action</ButtonLink> : null}
        </>}
      />
      {actions.isError ? <ErrorState message={actions.error.message} onRetry={() => void actions.refetch()} /> : null}
      {actions.isPending ? <Spinner label="Loading actions" /> : null}
      {actions.data && !actions.data.results.length ? (
        <EmptyState title="No actions yet" description='For example "Devices without EDR → webhook": a query, and what to do with what it finds.'
          action={hasPermission('workflows.add_workflow') ? <Button onClick={() => navigateTo(`${actionCenterPath}/create`)}>Create action</Button> : null} />
      ) : null}
      {actions.data?.results.length ? <Table caption="Actions" columns={columns} rows={actions.data.results} rowKey={(action) => action.id} /> : null}
      {chosen ? (
        <Card>
          <h2 className="actions-page__history-title">Runs of {chosen.name}</h2>
          <ActionRuns key={chosen.id} actionId={chosen.id} />
        </Card>
      ) : null}
    </section>
  );
}
