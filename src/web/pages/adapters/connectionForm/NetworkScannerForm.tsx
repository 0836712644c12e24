import { t } from '../../../app/i18n/messages';
import { useState } from 'react';
import { Checkbox, TextInput, Textarea } from '../../../ui';
import type { ConnectionValues } from './connectionModel';
import { probeSummary, summaryText } from './probeSummary';
import type { SettingsFormProps } from './SettingsForm';
import './connectionForm.css';

/** The engine's refusals as field messages, so the form stops what the scanner would refuse. */
export function scannerMessages(values: ConnectionValues): Record<string, string> {
  const summary = probeSummary(values);
  return summary.ok ? {} : { [summary.field]: summary.message };
}

const numberOf = (text: string): number | string | undefined => (text.trim() === '' ? undefined : Number.isNaN(Number(text)) ? text : Number(text));
const textOf = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const linesOf = (text: string) => text.split(/[\n,]/).map((line) => line.trim()).filter(Boolean);

/**
 * The network scanner's own form (the one custom connection form): targets checked with the `scanner_target` rule,
 * exclusions, ports and rate, with a live count of the probes the scan would send.
 */
export function NetworkScannerForm({ model, values, onValuesChange, onFieldBlur, errors, disabled = false }: SettingsFormProps) {
  const [exclusions, setExclusions] = useState(() => (Array.isArray(values.exclude) ? values.exclude.join('\n') : ''));
  const summary = probeSummary(values);
  const set = (field: string, value: unknown) => onValuesChange({ ...values, [field]: value }, field);
  const blur = (field: string, value: unknown) => onFieldBlur(field, { ...values, [field]: value });
  const label = (field: string) => model.labels[field] ?? field;
  const help = (field: string) => model.connectionSchema.properties?.[field]?.description;
  const errorOf = (field: string) => (errors[field]?.length ? errors[field] : undefined);
  return (
    <div className="schema-form connection-scanner-form">
      <fieldset className="schema-form__section">
        <legend className="schema-form__section-title">{t('adapters.targets')}</legend>
        <Textarea id="root_targets" label={label('targets')} message={help('targets')} error={errorOf('targets')} required monospace rows={3} disabled={disabled}
          value={textOf(values.targets)} onValueChange={(text) => set('targets', text === '' ? undefined : text)} onBlur={(event) => blur('targets', event.target.value || undefined)} />
        <Textarea id="root_exclude" label={label('exclude')} message={`${help('exclude') ?? ''} ${t('adapters.onePerLine')}`.trim()} error={errorOf('exclude')} monospace rows={3} disabled={disabled}
          value={exclusions}
          onValueChange={(text) => {
            setExclusions(text);
            set('exclude', linesOf(text).length ? linesOf(text) : undefined);
          }}
          onBlur={(event) => blur('exclude', linesOf(event.target.value).length ? linesOf(event.target.value) : undefined)} />
      </fieldset>
      <fieldset className="schema-form__section">
        <legend className="schema-form__section-title">{t('adapters.probes')}</legend>
        <TextInput id="root_ports" label={label('ports')} message={help('ports')} error={errorOf('ports')} disabled={disabled}
          value={textOf(values.ports)} onValueChange={(text) => set('ports', text === '' ? undefined : text)} onBlur={(event) => blur('ports', event.target.value || undefined)} />
        <TextInput id="root_rate" type="number" label={label('rate')} message={help('rate')} error={errorOf('rate')} disabled={disabled}
          value={textOf(values.rate)} onValueChange={(text) => set('rate', numberOf(text))} onBlur={(event) => blur('rate', numberOf(event.target.value))} />
        <TextInput id="root_probe_timeout_ms" type="number" label={label('probe_timeout_ms')} message={help('probe_timeout_ms')} error={errorOf('probe_timeout_ms')} disabled={disabled}
          value={textOf(values.probe_timeout_ms)} onValueChange={(text) => set('probe_timeout_ms', numberOf(text))} onBlur={(event) => blur('probe_timeout_ms', numberOf(event.target.value))} />
        <Checkbox id="root_resolve_hostnames" label={label('resolve_hostnames')} message={help('resolve_hostnames')} checked={values.resolve_hostnames !== false} disabled={disabled}
          onCheckedChange={(checked) => set('resolve_hostnames', checked)} />
      </fieldset>
      <p className={`connection-scan-summary${summary.ok ? '' : ' connection-scan-summary--invalid'}`} role="status" aria-live="polite">
        {summary.ok ? summaryText(summary) : summary.addresses === undefined ? t('adapters.enterTargetsSeeHow') : summary.message}
      </p>
    </div>
  );
}
