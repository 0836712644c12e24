import { t } from '../../app/i18n/messages';
import type { ComponentType } from 'react';
import { hasPermission } from '../../app/session/session';
import { Checkbox, type TableColumn } from '../../ui';
import { canActOnChosenDevices, DeviceListActions } from './DeviceListActions';
import type { AssetRow } from './inventoryApi';
import type { ListActionsProps } from './listActionsProps';
import type { InventoryKind } from './inventoryKinds';
import { SoftwareListActions } from './SoftwareListActions';

/** What a list's own actions get: the chosen rows, and the query and snapshot for actions on every matching row. */
export type { ListActionsProps } from './listActionsProps';

type ListActions = { canChoose: () => boolean; Actions: ComponentType<ListActionsProps> };

/** The inventories whose list has actions of its own: tags and merges of devices, groups of software. */
export const listActionsOf: Partial<Record<InventoryKind['entity'], ListActions>> = {
  device: { canChoose: canActOnChosenDevices, Actions: DeviceListActions },
  software: { canChoose: () => hasPermission('appinventory.add_group', 'appinventory.change_group'), Actions: SoftwareListActions },
};

/** The selection column: a checkbox per row and one for the page; a click on it does not open the preview. */
export function selectionColumn(kind: InventoryKind, rows: AssetRow[], chosen: AssetRow[], onChosenChange: (chosen: AssetRow[]) => void): TableColumn<AssetRow> {
  const nameOf = (row: AssetRow) => String(row[kind.nameField]?.[0] ?? row.PrimaryKey[0]);
  const isChosen = (row: AssetRow) => chosen.some((other) => other.PrimaryKey[0] === row.PrimaryKey[0]);
  const allChosen = rows.length > 0 && rows.every(isChosen);
  const toggleAll = (on: boolean) => onChosenChange(on ? [...chosen, ...rows.filter((row) => !isChosen(row))] : chosen.filter((row) => !rows.some((other) => other.PrimaryKey[0] === row.PrimaryKey[0])));
  return {
    id: 'chosen',
    header: <Checkbox label={<span className="ui-visually-hidden">{t('inventories.chooseEveryEntityPage', { entity: kind.entity })}</span>} checked={allChosen} indeterminate={!allChosen && rows.some(isChosen)} onCheckedChange={toggleAll} />,
    width: '44px',
    cell: (row) => (
      <span onClick={(event) => event.stopPropagation()}>
        <Checkbox
          label={<span className="ui-visually-hidden">{t('inventories.chooseNameof', { nameOf: nameOf(row) })}</span>}
          checked={isChosen(row)}
          onCheckedChange={(on) => onChosenChange(on ? [...chosen, row] : chosen.filter((other) => other.PrimaryKey[0] !== row.PrimaryKey[0]))}
        />
      </span>
    ),
  };
}
