import { t } from '../../app/i18n/messages';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { hasPermission } from '../../app/session/session';
import { Button } from '../../ui';
import type { ListActionsProps } from './listActionsProps';
import { AddToSoftwareGroupDialog, CreateSoftwareGroupDialog } from './SoftwareGroupDialogs';

/** The software list's own actions: its groups, the chosen software added to a group, a group made from the choice or the query. */
export function SoftwareListActions({ chosen, onChosenChange, query }: ListActionsProps) {
  const [open, setOpen] = useState<'add' | 'create' | null>(null);
  const close = () => setOpen(null);
  const software = chosen.map((row) => row.PrimaryKey[0]);
  const done = () => {
    onChosenChange([]);
    close();
  };
  return (
    <>
      {hasPermission('appinventory.view_group') && <Link className="ui-button ui-button--ghost ui-button--medium" to="/software-inventory/groups">{t('inventories.groups')}</Link>}
      {hasPermission('appinventory.change_group') && <Button variant="secondary" disabled={!software.length} onClick={() => setOpen('add')}>{software.length ? t('inventories.addToGroupCount', { count: software.length }) : t('inventories.addToGroup')}</Button>}
      {hasPermission('appinventory.add_group') && <Button variant="secondary" disabled={!software.length && !query} onClick={() => setOpen('create')}>{t('inventories.createGroup')}</Button>}
      {open === 'add' && <AddToSoftwareGroupDialog software={software} onClose={close} onDone={done} />}
      {open === 'create' && <CreateSoftwareGroupDialog software={software} query={query} onClose={close} onDone={done} />}
    </>
  );
}
