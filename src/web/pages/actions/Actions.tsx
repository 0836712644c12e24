import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../app/http';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, ButtonLink, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, type TableColumn } from '../../ui';
import { actionListQuery, type ActionItem } from './actionApi';
import { ActionRuns } from './ActionRuns';
import { RunButtons } from './RunButtons';
import { runCounts, StatusBadge } from './runLabels';
import { actionCenterPath, typeLabel } from './actionPages';
import './actions.css';

const triggerLabel = {
  get manual() { return t('actions.byHand'); },
  get discovery() { return t('actions.afterEveryDiscovery'); },
  get schedule() { return t('actions.onASchedule'); },
};

/** `/action-center`: the actions, their last run, buttons to dry-run, run, edit and delete, and each one's history. */
export function Actions(_props: PageProps) {
  useEffect(() => setBreadcrumb([{ label: t('actions.actionCenter') }]), []);
  const actions = useQuery(actionListQuery());
  const [selected, setSelected] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (action: ActionItem) => apiFetch(`/actions/actions/${action.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t('actions.actionDeleted'));
      setSelected(null);
      void queryClient.invalidateQueries({ queryKey: ['actions'] });
    },
  });
  const columns: TableColumn<ActionItem>[] = [
    { id: 'name', header: t('actions.name'), cell: (action) => <button type="button" className="actions-page__name" onClick={() => setSelected(action.id)}>{action.name}</button> },
    { id: 'type', header: t('actions.type'), cell: (action) => typeLabel(action.type) },
    { id: 'trigger', header: t('actions.runs'), cell: (action) => (action.enabled === false ? <Badge tone="neutral">{t('actions.off')}</Badge> : triggerLabel[action.trigger]) },
    { id: 'last', header: t('actions.lastRun'), cell: (action) => (action.last_run ? <span><StatusBadge status={action.last_run.status} />{' '}{runCounts(action.last_run)}</span> : '–') },
    { id: 'buttons', header: '', align: 'end', cell: (action) => (
      <span className="actions-page__buttons">
        <RunButtons action={action} onStarted={setSelected} />
        {hasPermission('workflows.change_workflow') ? <ButtonLink size="small" variant="ghost" href={`#${actionCenterPath}/edit/${action.id}`}>{t('actions.edit')}</ButtonLink> : null}
        {hasPermission('workflows.delete_workflow') ? <Button size="small" variant="ghost" onClick={() => window.confirm(t('actions.deleteNameRunHistory', { name: action.name })) && remove.mutate(action)}>{t('actions.delete')}</Button> : null}
      </span>
    ) },
  ];
  const chosen = actions.data?.results.find((action) => action.id === selected);
  return (
    <section className="actions-page">
      <PageHeader
        title={t('actions.actionCenter')}
        description={t('actions.actWhatQueryFinds')}
        actions={<>
          {hasPermission('workflows.view_sshsettings') ? <ButtonLink variant="secondary" href={`#${actionCenterPath}/ssh`}>{t('actions.sshCredentials')}</ButtonLink> : null}
          {hasPermission('workflows.view_jobsettings') ? <ButtonLink variant="secondary" href={`#${actionCenterPath}/settings`}>{t('actions.settings')}</ButtonLink> : null}
          {hasPermission('workflows.add_workflow') ? <ButtonLink href={`#${actionCenterPath}/create`}>{t('actions.createAction')}</ButtonLink> : null}
        </>}
      />
      {actions.isError ? <ErrorState message={actions.error.message} onRetry={() => void actions.refetch()} /> : null}
      {actions.isPending ? <Spinner label={t('actions.loadingActions')} /> : null}
      {actions.data && !actions.data.results.length ? (
        <EmptyState title={t('actions.noActionsYet')} description={t('actions.exampleDevicesWithoutEdr')}
          action={hasPermission('workflows.add_workflow') ? <Button onClick={() => navigateTo(`${actionCenterPath}/create`)}>{t('actions.createAction')}</Button> : null} />
      ) : null}
      {actions.data?.results.length ? <Table caption={t('actions.actions')} columns={columns} rows={actions.data.results} rowKey={(action) => action.id} /> : null}
      {chosen ? (
        <Card>
          <h2 className="actions-page__history-title">{t('actions.runsOfName', { name: chosen.name })}</h2>
          <ActionRuns key={chosen.id} actionId={chosen.id} entity={chosen.scope.entity} />
        </Card>
      ) : null}
    </section>
  );
}
