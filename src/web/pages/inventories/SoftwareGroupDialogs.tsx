import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, type FieldErrors } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { Button, Checkbox, Dialog, Select, Textarea, TextInput } from '../../ui';
import { addSoftwareToGroup, createSoftwareGroup, softwareGroupChoicesQuery, softwareGroupsPath } from './softwareGroupsApi';

type GroupDialogProps = { software: string[]; onClose: () => void; onDone: () => void };

const errorsOf = (error: unknown): FieldErrors => (error instanceof ApiError ? error.fieldErrors : {});

/** Puts the chosen software into an existing group, next to what the group already holds. */
export function AddToSoftwareGroupDialog({ software, onClose, onDone }: GroupDialogProps) {
  const queryClient = useQueryClient();
  const groups = useQuery(softwareGroupChoicesQuery());
  const [groupId, setGroupId] = useState('');
  const group = groups.data?.results.find((candidate) => String(candidate.id) === groupId);
  const add = useMutation({
    mutationFn: () => addSoftwareToGroup(group!, software),
    onSuccess: (saved) => {
      notify('success', t('inventories.lengthSoftwareAddedName', { length: software.length.toLocaleString(), name: saved.name }));
      void queryClient.invalidateQueries({ queryKey: ['resource-list', softwareGroupsPath] });
      onDone();
    },
  });
  const errors = errorsOf(add.error);
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.addToGroup')}
      description={t('inventories.lengthChosenSoftwareJoin', { length: software.length.toLocaleString() })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button loading={add.isPending} disabled={!group} onClick={() => add.mutate()}>{t('inventories.add')}</Button>
        </>
      }
    >
      <Select
        label={t('inventories.group')}
        placeholder={groups.isPending ? t('inventories.loadingGroups') : groups.data?.count ? t('inventories.chooseAGroup') : t('inventories.noGroupsYetCreate')}
        options={(groups.data?.results ?? []).map((candidate) => ({ value: String(candidate.id), label: candidate.name }))}
        value={groupId}
        onValueChange={setGroupId}
        error={errors.software}
      />
      {add.error && !errors.software && <p className="inventory-error" role="alert">{add.error.message}</p>}
    </Dialog>
  );
}

/** A new group of the chosen software and, when asked, of every software the list's query matches. */
export function CreateSoftwareGroupDialog({ software, query, onClose, onDone }: GroupDialogProps & { query: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [byQuery, setByQuery] = useState(!software.length);
  const create = useMutation({
    mutationFn: () => createSoftwareGroup({ name: name.trim(), description, query: byQuery ? query : '', software }),
    onSuccess: (saved) => {
      notify('success', t('inventories.groupNameWasCreated', { name: saved.name }));
      void queryClient.invalidateQueries({ queryKey: ['resource-list', softwareGroupsPath] });
      onDone();
    },
  });
  const errors = errorsOf(create.error);
  const holds = !byQuery && !software.length;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.createGroup')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button loading={create.isPending} disabled={!name.trim() || holds} onClick={() => create.mutate()}>{t('inventories.create')}</Button>
        </>
      }
    >
      <TextInput label={t('inventories.name')} required value={name} onValueChange={setName} error={errors.name} maxLength={200} />
      <Textarea label={t('inventories.description')} value={description} onValueChange={setDescription} error={errors.description} maxLength={2000} />
      {software.length > 0 && <p className="inventory-muted">{t('inventories.lengthChosenSoftwareWill', { length: software.length.toLocaleString() })}</p>}
      {query && <Checkbox label={t('inventories.alsoEverySoftwareMatching', { query })} checked={byQuery} onCheckedChange={setByQuery} />}
      {errors.query && <p className="inventory-error" role="alert">{errors.query.join(' ')}</p>}
      {create.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{create.error.message}</p>}
    </Dialog>
  );
}
