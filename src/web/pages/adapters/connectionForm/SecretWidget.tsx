import type { WidgetProps } from '@rjsf/utils';
import { TextInput } from '../../../ui';
import { maskedSecret } from './connectionModel';

/** The form context of connection forms: the renderer's sections and labels, and which secrets are stored already. */
export type ConnectionFormContext = { groups: Record<string, string>; labels: Record<string, string>; storedSecretIds: ReadonlySet<string> };

/**
 * A secret (`x-secret`) as a password input. A stored secret comes back from the API masked: the input then starts
 * empty and, left empty, keeps sending the mask, which tells the server to keep the stored secret.
 */
export function SecretWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, registry, onChange, onBlur, onFocus }: WidgetProps) {
  const stored = (registry.formContext as ConnectionFormContext | undefined)?.storedSecretIds.has(id) ?? false;
  const text = value === maskedSecret || value === undefined || value === null ? '' : String(value);
  const valueOf = (typed: string) => (typed === '' ? (stored ? maskedSecret : undefined) : typed);
  return (
    <TextInput
      id={id}
      type="password"
      label={label}
      message={schema.description}
      error={rawErrors?.length ? rawErrors : undefined}
      value={text}
      required={required && !stored}
      disabled={disabled || readonly}
      autoComplete="new-password"
      placeholder={stored ? 'Stored: leave empty to keep it' : undefined}
      onValueChange={(typed) => onChange(valueOf(typed))}
      onBlur={(event) => onBlur(id, valueOf(event.target.value))}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
