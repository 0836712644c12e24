import { t } from '../../app/i18n/messages';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { hasPermission } from '../../app/session/session';
import { Button } from '../../ui';
import { AddTagDialog } from './AddTagDialog';
import { BulkUpdateDialog } from './BulkUpdateDialog';
import type { ListActionsProps } from './listActionsProps';
import { MergeDevicesDialog } from './MergeDevicesDialog';

/** Whether the device list offers row selection (tagging or merging chosen rows). */
export const canActOnChosenDevices = (): boolean => hasPermission('devices.change_tag', 'devices.merge_device');

/** The device list's own actions: add tag and merge for the chosen rows, bulk update for every device of the query. */
export function DeviceListActions({ chosen, onChosenChange, query, count, indexId }: ListActionsProps) {
  const [open, setOpen] = useState<'tag' | 'bulk' | 'merge' | null>(null);
  const close = () => setOpen(null);
  const canTag = hasPermission('devices.change_tag');
  return (
    <>
      {/* The device inventory's own pages have no menu entry of their own: they open from here. */}
      {hasPermission('devices.view_tag') && <Link className="ui-button ui-button--ghost ui-button--medium" to="/device-inventory/tags">{t('inventories.tags')}</Link>}
      {hasPermission('devices.view_devicerelation') && <Link className="ui-button ui-button--ghost ui-button--medium" to="/device-inventory/relations">{t('inventories.relations')}</Link>}
      {hasPermission('users.view_device_merge_recommendation') && <Link className="ui-button ui-button--ghost ui-button--medium" to="/device-inventory/merge-recommendations">{t('inventories.mergeRecommendations')}</Link>}
      {canTag && <Button variant="secondary" disabled={!chosen.length} onClick={() => setOpen('tag')}>{chosen.length ? t('inventories.addTagCount', { count: chosen.length }) : t('inventories.addTag')}</Button>}
      {hasPermission('devices.merge_device') && <Button variant="secondary" disabled={chosen.length < 2} onClick={() => setOpen('merge')}>{t('inventories.mergeDevices')}</Button>}
      {canTag && <Button variant="secondary" disabled={!count} onClick={() => setOpen('bulk')}>{t('inventories.bulkUpdate')}</Button>}
      {open === 'tag' && <AddTagDialog onClose={close} assets={chosen.map((row) => row.PrimaryKey[0])} indexId={indexId} />}
      {open === 'bulk' && <BulkUpdateDialog onClose={close} query={query} count={count ?? 0} indexId={indexId} />}
      {open === 'merge' && (
        <MergeDevicesDialog onClose={close} indexId={indexId} devices={chosen.map((row) => ({ id: row.PrimaryKey[0], name: String(row.Hostname?.[0] ?? row.PrimaryKey[0]) }))} onMerged={() => onChosenChange([])} />
      )}
    </>
  );
}
