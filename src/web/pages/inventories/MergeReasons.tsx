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
import './deviceActions.css';

type Reason = { rule?: string; value?: unknown; reason?: string; records?: string[]; keys?: string[] };

const ruleLabels: Record<string, string> = {
  serial_number: 'Same serial number',
  cloud_instance_id: 'Same cloud instance id',
  agent_id: 'Same agent id',
  mac_address: 'Same MAC address',
  fqdn: 'Same fully qualified host name',
  employee_id: 'Same employee id',
  email: 'Same email',
  domain_account: 'Same domain account',
  manual: 'Merged by hand',
};

/** One merge reason as a sentence: the rule's label and the value both records shared. */
export function reasonText(reason: Reason): string {
  if (reason.reason) return reason.reason;
  if (!reason.rule) return valueText(reason);
  if (reason.rule === 'manual') return 'Merged by an analyst';
  return `${ruleLabels[reason.rule] ?? reason.rule}${reason.value === undefined ? '' : ` ${valueText(reason.value)}`}`;
}

/** Takes chosen source records out of a merged device; they become a device of their own, in later discoveries too. */
function UnmergeDialog({ asset, onClose }: { asset: AssetDetailResponse; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [records, setRecords] = useState<string[]>([]);
  const unmerge = useMutation({
    mutationFn: () => unmergeDevice(asset.PrimaryKey[0], records, asset.index_id),
    onSuccess: (result) => {
      notify('success', `The device was split into ${result.devices.length} devices.`);
      void queryClient.invalidateQueries({ queryKey: ['inventory'] });
    },
  });
  const errors = unmerge.error instanceof ApiError ? unmerge.error.fieldErrors : {};
  const keepsOne = records.length > 0 && records.length < asset.sources.length;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Unmerge device"
      description={unmerge.data ? 'The device was split; later discoveries keep these records apart.' : 'Choose the source records to take out: they become a device of their own.'}
      footer={unmerge.data ? <Button onClick={onClose}>Done</Button> : (
        <>
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          <Button variant="warning" loading={unmerge.isPending} disabled={!keepsOne} onClick={() => unmerge.mutate()}>Unmerge {records.length || ''} record(s)</Button>
        </>
      )}
    >
      {unmerge.data ? (
        <ul aria-label="Devices after the split">
          {unmerge.data.devices.map((device) => (
            <li key={device.id}>
              <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: device.id, discoveryId: String(unmerge.data.index_id) }} onClick={onClose}>
                Device with {device.record_keys.join(', ')}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="tag-picker__list" aria-label="Source records">
          {asset.sources.map((source) => (
            <li key={source.record_key}>
              <Checkbox label={`${source.adapter}: ${source.record_key}`} checked={records.includes(source.record_key)} onCheckedChange={(on) => setRecords(on ? [...records, source.record_key] : records.filter((key) => key !== source.record_key))} />
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
      ) : <EmptyState title="One source record" description="Nothing was merged into this asset." />}
      {canUnmerge && <Button variant="secondary" onClick={() => setUnmerging(true)}>Unmerge…</Button>}
      {unmerging && <UnmergeDialog asset={asset} onClose={() => setUnmerging(false)} />}
    </div>
  );
}
