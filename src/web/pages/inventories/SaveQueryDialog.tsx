import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { Button, Checkbox, Dialog, TextInput } from '../../ui';

type SaveQueryDialogProps = { open: boolean; onClose: () => void; query: string; type: string };

/** Saves the list's current query on the server, private unless made public, under a unique name. */
export function SaveQueryDialog({ open, onClose, query, type }: SaveQueryDialogProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  const save = useMutation({
    mutationFn: () => apiFetch('/queries/queries', { method: 'POST', body: { name: name.trim(), text: query, type, is_public: isPublic, tags: [] }, silent: true }),
    onSuccess: () => {
      notify('success', t('inventories.queryNameWasSaved', { name: name.trim() }));
      void queryClient.invalidateQueries({ queryKey: ['saved-queries'] });
      onClose();
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('inventories.saveQuery')}
      description={query}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button loading={save.isPending} disabled={!name.trim()} onClick={() => save.mutate()}>{t('inventories.save')}</Button>
        </>
      }
    >
      <TextInput label={t('inventories.name')} required value={name} onValueChange={setName} error={fieldErrors.name ?? fieldErrors.text} maxLength={200} />
      <Checkbox label={t('inventories.publicEveryoneCompanyCan')} checked={isPublic} onCheckedChange={setIsPublic} />
      {save.error && !fieldErrors.name && !fieldErrors.text && <p className="inventory-error" role="alert">{save.error.message}</p>}
    </Dialog>
  );
}
