import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { Button, Dialog } from '../../ui';
import { mergeDevices } from './deviceActionsApi';
import './deviceActions.css';

export type ChosenDevice = { id: string; name: string };
type MergeDevicesDialogProps = { onClose: () => void; devices: ChosenDevice[]; indexId: number | null; onMerged?: () => void };

/** Merges two or more chosen devices into one; the decision is kept by later discoveries. Shows the merged device. */
export function MergeDevicesDialog({ onClose, devices, indexId, onMerged }: MergeDevicesDialogProps) {
  const queryClient = useQueryClient();
  const merge = useMutation({
    mutationFn: () => mergeDevices(devices.map((device) => device.id), indexId),
    onSuccess: () => {
      notify('success', t('inventories.lengthDevicesWereMerged', { length: devices.length }));
      void queryClient.invalidateQueries({ queryKey: ['inventory'] });
      void queryClient.invalidateQueries({ queryKey: ['merge-recommendations'] });
      onMerged?.();
    },
  });
  const errors = merge.error instanceof ApiError ? merge.error.fieldErrors : {};
  const problem = merge.error ? (errors.assets?.join(' ') ?? merge.error.message) : null;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.mergeDevices')}
      description={merge.data ? t('inventories.devicesOneDeviceNow') : t('inventories.theseDevicesWillBecome')}
      footer={
        merge.data ? <Button onClick={onClose}>{t('inventories.done')}</Button> : (
          <>
            <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
            <Button variant="warning" loading={merge.isPending} disabled={devices.length < 2} onClick={() => merge.mutate()}>{t('inventories.mergeLengthDevices', { length: devices.length })}</Button>
          </>
        )
      }
    >
      {merge.data ? (
        <div role="status" className="merge-result">
          <p>{t('inventories.mergedDeviceLengthSource', { length: merge.data.record_keys.length })}</p>
          <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: merge.data.id, discoveryId: String(merge.data.index_id) }} onClick={onClose}>{t('inventories.openMergedDevice')}</Link>
        </div>
      ) : (
        <ul aria-label={t('inventories.devicesToMerge')}>
          {devices.map((device) => <li key={device.id}>{device.name}</li>)}
        </ul>
      )}
      {problem && <p className="inventory-error" role="alert">{problem}</p>}
    </Dialog>
  );
}
