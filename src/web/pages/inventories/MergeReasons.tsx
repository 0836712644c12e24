import { t } from '../../app/i18n/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { Button, Checkbox, Dialog, EmptyState } from '../../ui';
import { unmergeDevice } from './deviceActionsApi';
import { valueText } from './fieldValues';
import type { AssetDetailResponse } from './inventoryApi';
import { sourceTabLabels } from './sources';
import './deviceActions.css';

type Reason = { rule?: string; value?: unknown; reason?: string; records?: string[]; keys?: string[] };

const ruleLabels: Record<string, string> = {
  get serial_number() { return t('inventories.sameSerialNumber'); },
  get cloud_instance_id() { return t('inventories.sameCloudInstanceId'); },
  get agent_id() { return t('inventories.sameAgentId'); },
  get mac_address() { return t('inventories.sameMacAddress'); },
  get fqdn() { return t('inventories.sameFullyQualifiedHost'); },
  get employee_id() { return t('inventories.sameEmployeeId'); },
  get email() { return t('inventories.sameEmail'); },
  get domain_account() { return t('inventories.sameDomainAccount'); },
  get manual() { return t('inventories.mergedByHand'); },
};

/** One merge reason as a sentence: the rule's label and the value both records shared. */
export function reasonText(reason: Reason): string {
  if (reason.reason) return reason.reason;
  if (!reason.rule) return valueText(reason);
  if (reason.rule === 'manual') return t('inventories.mergedByAnalyst');
  return `${ruleLabels[reason.rule] ?? reason.rule}${reason.value === undefined ? '' : ` ${valueText(reason.value)}`}`;
}

/** Takes chosen source records out of a merged device; they become a device of their own, in later discoveries too. */
function UnmergeDialog({ asset, onClose }: { asset: AssetDetailResponse; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [records, setRecords] = useState<string[]>([]);
  // Records by the names their tabs carry (the connection's name), never by their internal keys.
  const sourceLabels = sourceTabLabels(asset.sources);
  const labelOfRecord = (key: string) => sourceLabels[asset.sources.findIndex((source) => source.record_key === key)] ?? key;
  const unmerge = useMutation({
    mutationFn: () => unmergeDevice(asset.PrimaryKey[0], records, asset.index_id),
    onSuccess: (result) => {
      notify('success', t('inventories.deviceWasSplitInto', { length: result.devices.length }));
      void queryClient.invalidateQueries({ queryKey: ['inventory'] });
    },
  });
  const errors = unmerge.error instanceof ApiError ? unmerge.error.fieldErrors : {};
  const keepsOne = records.length > 0 && records.length < asset.sources.length;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('inventories.unmergeDevice')}
      description={unmerge.data ? t('inventories.deviceWasSplitLater') : t('inventories.chooseSourceRecordsTake')}
      footer={unmerge.data ? <Button onClick={onClose}>{t('inventories.done')}</Button> : (
        <>
          <Button variant="secondary" onClick={onClose}>{t('inventories.cancel')}</Button>
          <Button variant="warning" loading={unmerge.isPending} disabled={!keepsOne} onClick={() => unmerge.mutate()}>{t('inventories.unmergeLengthRecordS', { length: records.length || '' })}</Button>
        </>
      )}
    >
      {unmerge.data ? (
        <ul aria-label={t('inventories.devicesAfterSplit')}>
          {unmerge.data.devices.map((device) => (
            <li key={device.id}>
              <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: device.id, discoveryId: String(unmerge.data.index_id) }} onClick={onClose}>
                {t('inventories.deviceRecordKeys', { record_keys: device.record_keys.map(labelOfRecord).join(', ') })}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="tag-picker__list" aria-label={t('inventories.sourceRecords')}>
          {asset.sources.map((source, index) => (
            <li key={source.record_key}>
              <Checkbox label={sourceLabels[index]!} checked={records.includes(source.record_key)} onCheckedChange={(on) => setRecords(on ? [...records, source.record_key] : records.filter((key) => key !== source.record_key))} />
            </li>
          ))}
        </ul>
      )}
      {unmerge.error && <p className="inventory-error" role="alert">{errors.records?.join(' ') ?? errors.asset?.join(' ') ?? unmerge.error.message}</p>}
    </Dialog>
  );
}

/** The detail's "Why merged" panel: each merge reason, and for a device of several records the unmerge dialog. */
export function MergeReasons({ asset, entity }: { asset: AssetDetailResponse; entity: 'device' | 'user' }) {
  const [unmerging, setUnmerging] = useState(false);
  const reasons = asset.merge_reasons as Reason[];
  const canUnmerge = entity === 'device' && asset.sources.length > 1 && hasPermission('devices.merge_device');
  return (
    <div className="merge-reasons">
      {reasons.length ? (
        <ul>
          {reasons.map((reason, index) => (
            <li key={index}>
              <span>{reasonText(reason)}</span>
              {reason.records && <span className="inventory-muted"> · {reason.records.join(' ↔ ')}</span>}
            </li>
          ))}
        </ul>
      ) : <EmptyState title={t('inventories.oneSourceRecord')} description={t('inventories.nothingWasMergedInto')} />}
      {canUnmerge && <Button variant="secondary" onClick={() => setUnmerging(true)}>{t('inventories.unmerge')}</Button>}
      {unmerging && <UnmergeDialog asset={asset} onClose={() => setUnmerging(false)} />}
    </div>
  );
}
