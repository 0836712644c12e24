import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatNumber } from '../../../core/format/numbers';
import { hasPermission } from '../../app/session/session';
import { notify } from '../../app/notifications/notifications';
import { Button, Dialog, Spinner } from '../../ui';
import { inventoryKindOfEntity } from '../inventories/inventoryKinds';
import { scopePreviewQuery, startRun, type ActionItem } from './actionApi';

/** What an action of this type does, as its parameter schema describes it. */
const whatItDoes = (type: string) => t(`schema.actions/${type}#.description`, {}, type);

/** Asks before a real run, naming how many assets the scope matches now and what the action does to each. */
function ConfirmRun({ action, onConfirm, onClose, starting }: { action: ActionItem; onConfirm: () => void; onClose: () => void; starting: boolean }) {
  const scope = useQuery(scopePreviewQuery(action.scope));
  const entity = (inventoryKindOfEntity(action.scope.entity)?.title ?? action.scope.entity).toLowerCase();
  const count = scope.data ? formatNumber(scope.data.matching) : '';
  return (
    <Dialog
      open
      alert
      onClose={onClose}
      title={t('actions.confirmRunTitle', { name: action.name })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button loading={starting} disabled={!scope.data} onClick={onConfirm}>{t('actions.runNow')}</Button>
        </>
      }
    >
      {scope.isPending ? <Spinner label={t('actions.confirmRunCounting')} /> : scope.isError ? (
        <p role="alert" className="inventory-error">{t('actions.confirmRunCountFailed', { reason: scope.error.message })}</p>
      ) : (
        <p>{action.scope.only_new ? t('actions.confirmRunCountNew', { count, entity }) : t('actions.confirmRunCount', { count, entity })}</p>
      )}
      <p>{t('actions.confirmRunWhat', { what: whatItDoes(action.type) })}</p>
    </Dialog>
  );
}

/** Dry run (lists the targets, does nothing) and Run, which asks first. */
export function RunButtons({ action, onStarted }: { action: ActionItem; onStarted: (id: number) => void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const run = useMutation({
    mutationFn: (dryRun: boolean) => startRun(action.id, { dry_run: dryRun }),
    onSuccess: (started) => {
      notify('success', started.dry_run ? t('actions.dryRunNameStarted', { name: action.name }) : t('actions.nameIsRunning', { name: action.name }));
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['actions'] });
      void queryClient.invalidateQueries({ queryKey: ['action-runs', action.id] });
      onStarted(action.id);
    },
  });
  if (!hasPermission('workflows.run_workflow')) return null;
  const sshDenied = action.type === 'ssh_command' && !hasPermission('workflows.run_sshcommand');
  return (
    <span className="actions-page__buttons">
      <Button size="small" variant="secondary" loading={run.isPending && run.variables} onClick={() => run.mutate(true)}>{t('actions.dryRun')}</Button>
      <Button size="small" disabled={sshDenied} onClick={() => setConfirming(true)}>{t('actions.run')}</Button>
      {confirming && <ConfirmRun action={action} starting={run.isPending && !run.variables} onConfirm={() => run.mutate(false)} onClose={() => setConfirming(false)} />}
    </span>
  );
}
