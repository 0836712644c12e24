import { t } from '../../app/i18n/messages';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { GenericFormPage } from '../../renderers';
import { softwareInventory } from './inventoryKinds';
import { newGroupId, softwareGroupSchema, softwareGroupsListPath } from './softwareGroupPages';

/** `/software-inventory/groups/edit/{groupId}` (`new`: a new group): the software group form from its schema. */
export function SoftwareGroupForm({ route }: PageProps) {
  const { groupId = newGroupId } = useParams({ strict: false }) as { groupId?: string };
  const creating = groupId === newGroupId;
  useEffect(() => setBreadcrumb([{ label: softwareInventory.title, to: softwareInventory.basePath }, { label: t('inventories.groups'), to: softwareGroupsListPath }, { label: creating ? t('inventories.newGroup') : t('inventories.editGroup') }]), [creating]);
  return <GenericFormPage route={route} schema={softwareGroupSchema} itemId={creating ? null : groupId} listPath={softwareGroupsListPath} />;
}
