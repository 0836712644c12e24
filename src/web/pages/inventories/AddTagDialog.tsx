import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button, Dialog } from '../../ui';
import { updateDeviceTags } from './deviceActionsApi';
import { chosenTags, TagPicker } from './TagPicker';

type AddTagDialogProps = { onClose: () => void; assets: string[]; indexId: number | null };

/** Tags the chosen devices with existing tags or new ones typed here (created on the way when the user may add tags). */
export function AddTagDialog({ onClose, assets, indexId }: AddTagDialogProps) {
  const queryClient = useQueryClient();
  const [ticked, setTicked] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const tags = chosenTags(ticked, typed);
  const add = useMutation({
    mutationFn: () => updateDeviceTags({ tags, action: 'add', assets, index_id: indexId }),
    onSuccess: (result) => {
      notify('success', t('inventories.tagsAddedDevicesDevice', { tags: result.tags.map((tag) => tag.name).join(', '), devices: result.devices.toLocaleString() }));
      void queryClient.invalidateQueries({ queryKey: ['inventory'] });
      void queryClient.invalidateQueries({ queryKey: ['inventory-detail'] });
      void queryClient.invalidateQueries({ queryKey: ['device-tags'] });
      onClose();
    },
  });
  const errors = add.error instanceof ApiError ? add.error.fieldErrors : {};
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.addTag')}
      description={t('inventories.tagsLengthChosenDevice', { length: assets.length.toLocaleString() })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button loading={add.isPending} disabled={!tags.length} onClick={() => add.mutate()}>{tags.length ? t('inventories.addLengthTagS', { length: tags.length }) : t('inventories.add')}</Button>
        </>
      }
    >
      <TagPicker ticked={ticked} onTickedChange={setTicked} typed={typed} onTypedChange={setTyped} allowNew={hasPermission('devices.add_tag')} error={errors.tags} />
      {add.error && !errors.tags && <p className="inventory-error" role="alert">{add.error.message}</p>}
    </Dialog>
  );
}
