import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { Button, Dialog } from '../../ui';

/** Asks before deleting a profile or a policy, deletes it, and refreshes its list. */
export function DeleteDialog({ noun, item, path, listKey, consequence, onClose }: {
  noun: 'profile' | 'policy'; item: { id: number; name: string }; path: string; listKey: string; consequence: string; onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => apiFetch(`${path}/${item.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('success', t(noun === 'profile' ? 'security.profileNameWasDeleted' : 'security.policyNameWasDeleted', { name: item.name }));
      void queryClient.invalidateQueries({ queryKey: [listKey] });
      onClose();
    },
  });
  return (
    <Dialog
      open alert onClose={onClose} title={t(noun === 'profile' ? 'security.deleteProfileName' : 'security.deletePolicyName', { name: item.name })} description={t('security.consequenceCannotUndone', { consequence })}
      footer={<><Button variant="secondary" onClick={onClose}>{t('security.cancel')}</Button><Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>{t('security.delete')}</Button></>}
    />
  );
}
