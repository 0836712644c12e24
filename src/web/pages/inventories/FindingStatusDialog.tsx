import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { Button, Dialog, Select, Textarea } from '../../ui';
import { findingStatuses, findingStatusLabels, setFindingStatus, type FindingResponse, type FindingStatus } from './softwareLinksApi';

/** Sets a finding open, fixed, false positive or risk accepted, with the reason; kept across discoveries. */
export function FindingStatusDialog({ finding, onClose }: { finding: FindingResponse; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<FindingStatus>(finding.status);
  const [reason, setReason] = useState('');
  const save = useMutation({
    mutationFn: () => setFindingStatus(finding.id, status, reason.trim()),
    onSuccess: () => {
      notify('success', t('inventories.findingOnDeviceIsNow', { finding: finding.cve_id ?? t('inventories.theFinding'), device: finding.hostname ?? t('inventories.theDevice'), status: findingStatusLabels[status].toLowerCase() }));
      void queryClient.invalidateQueries({ queryKey: ['inventory-links'] });
      void queryClient.invalidateQueries({ queryKey: ['inventory-detail'] });
      onClose();
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.changeStatus')}
      description={t('inventories.findingOnDevice', { finding: finding.cve_id ?? finding.title ?? t('inventories.finding'), device: finding.hostname ?? finding.device_id })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button loading={save.isPending} disabled={!reason.trim()} onClick={() => save.mutate()}>{t('inventories.save')}</Button>
        </>
      }
    >
      <Select label={t('inventories.status')} options={findingStatuses.map((value) => ({ value, label: findingStatusLabels[value] }))} value={status} onValueChange={(value) => setStatus(value as FindingStatus)} error={errors.status} />
      <Textarea label={t('inventories.reason')} required value={reason} onValueChange={setReason} error={errors.reason} maxLength={2000} />
      {save.error && !errors.status && !errors.reason && <p className="inventory-error" role="alert">{save.error.message}</p>}
    </Dialog>
  );
}
