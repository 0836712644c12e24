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
      notify('success', `${software.length.toLocaleString()} software added to "${saved.name}".`);
      void queryClient.invalidateQueries({ queryKey: ['resource-list', softwareGroupsPath] });
      onDone();
    },
  });
  const errors = errorsOf(add.error);
  return (
    <Dialog
      open
      onClose={onClose}
      title="Add to group"
      description={`The ${software.length.toLocaleString()} chosen software join the group, whatever its query says.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          <Button loading={add.isPending} disabled={!group} onClick={() => add.mutate()}>Add</Button>
        </>
      }
    >
      <Select
        label="Group"
        placeholder={groups.isPending ? 'Loading groups…' : groups.data?.count ? 'Choose a group' : 'No groups yet: create one'}
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
      notify('success', `The group "${saved.name}" was created.`);
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
      title="Create group"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          <Button loading={create.isPending} disabled={!name.trim() || holds} onClick={() => create.mutate()}>Create</Button>
        </>
      }
    >
      <TextInput label="Name" required value={name} onValueChange={setName} error={errors.name} maxLength={200} />
      <Textarea label="Description" value={description} onValueChange={setDescription} error={errors.description} maxLength={2000} />
      {software.length > 0 && <p className="inventory-muted">{software.length.toLocaleString()} chosen software will be in the group.</p>}
      {query && <Checkbox label={`Also every software matching: ${query}`} checked={byQuery} onCheckedChange={setByQuery} />}
      {errors.query && <p className="inventory-error" role="alert">{errors.query.join(' ')}</p>}
      {create.error && !Object.keys(errors).length && <p className="inventory-error" role="alert">{create.error.message}</p>}
    </Dialog>
  );
}
