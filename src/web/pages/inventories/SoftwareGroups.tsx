import { t } from '../../app/i18n/messages';
import { useEffect } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { GenericListPage } from '../../renderers';
import { softwareInventory } from './inventoryKinds';
import { softwareGroupLinks, softwareGroupSchema } from './softwareGroupPages';

/** `/software-inventory/groups`: the software groups, listed from their schema. */
export function SoftwareGroups({ route }: PageProps) {
  useEffect(() => setBreadcrumb([{ label: softwareInventory.title, to: softwareInventory.basePath }, { label: t('inventories.groups') }]), []);
  return <GenericListPage route={route} schema={softwareGroupSchema} links={softwareGroupLinks()} />;
}
