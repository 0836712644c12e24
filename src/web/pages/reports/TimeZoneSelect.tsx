import { useMemo } from 'react';
import { timeZoneChoices } from '../../../core/dates';
import { Select } from '../../ui';

type TimeZoneSelectProps = { label: string; value: string; onValueChange: (zone: string) => void; message?: string; error?: string[] };

/**
 * A time zone chosen among the IANA names the browser knows (the server refuses any other), UTC first. A stored
 * name the list lacks (an older alias) stays offered, so editing never changes it unasked.
 */
export function TimeZoneSelect({ label, value, onValueChange, message, error }: TimeZoneSelectProps) {
  const options = useMemo(() => timeZoneChoices(value).map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })), [value]);
  return <Select label={label} value={value} options={options} onValueChange={onValueChange} message={message} error={error} />;
}
