import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button, Dialog, Select } from '../../ui';
import { updateDeviceTags } from './deviceActionsApi';
import { chosenTags, TagPicker } from './TagPicker';

type BulkUpdateDialogProps = { onClose: () => void; query: string; count: number; indexId: number | null };

/**
 * Adds or removes tags on every device the list's query matches (all devices without a query). The count comes
 * first, so the analyst sees how far the change reaches before making it.
 */
export function BulkUpdateDialog({ onClose, query, count, indexId }: BulkUpdateDialogProps) {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<'add' | 'remove'>('add');
  const [ticked, setTicked] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const tags = action === 'add' ? chosenTags(ticked, typed) : ticked;
  const update = useMutation({
    mutationFn: () => updateDeviceTags({ tags, action, query, index_id: indexId }),
    onSuccess: (result) => {
      const names = result.tags.map((tag) => tag.name).join(', ');
      notify('success', action === 'add' ? t('inventories.namesAddedDevicesDevice', { names, devices: result.devices.toLocaleString() }) : t('inventories.namesRemovedFromDevices', { names, devices: result.devices.toLocaleString() }));
      void queryClient.invalidateQueries({ queryKey: ['inventory'] });
      void queryClient.invalidateQueries({ queryKey: ['inventory-detail'] });
      void queryClient.invalidateQueries({ queryKey: ['device-tags'] });
      onClose();
    },
  });
  const errors = update.error instanceof ApiError ? update.error.fieldErrors : {};
  const reach = `${count.toLocaleString()} device(s)`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.bulkUpdate')}
      size="large"
      description={query ? <>{t('inventories.changesTagsReachMatching', { reach })}{' '}<code>{query}</code>.</> : <>{t('inventories.noQueryChangesTags', { reach })}</>}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button variant={action === 'remove' ? 'danger' : 'success'} loading={update.isPending} disabled={!tags.length || !count} onClick={() => update.mutate()}>
            {action === 'add' ? t('inventories.addToReach', { reach }) : t('inventories.removeFromReach', { reach })}
          </Button>
        </>
      }
    >
      <Select label={t('inventories.action')} value={action} onValueChange={(next) => setAction(next as 'add' | 'remove')} options={[{ value: 'add', label: t('inventories.addTags') }, { value: 'remove', label: t('inventories.removeTags') }]} />
      <TagPicker ticked={ticked} onTickedChange={setTicked} typed={typed} onTypedChange={setTyped} allowNew={action === 'add' && hasPermission('devices.add_tag')} error={errors.tags} />
      {update.error && !errors.tags && <p className="inventory-error" role="alert">{update.error.message}</p>}
    </Dialog>
  );
}
