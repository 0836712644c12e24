import { t } from '../../../app/i18n/messages';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { Button, TextInput } from '../../../ui';
import { maskedSecret } from './connectionModel';

/** A file chosen for the connection's upload endpoint, and the share of it sent while it uploads. */
export type FileUpload = { file: File | null; progress: number | null; onChoose: (file: File | null) => void };

/**
 * The form context of connection forms: the renderer's sections and labels, which secrets are stored already, and the
 * file to upload.
 */
export type ConnectionFormContext = { groups: Record<string, string>; labels: Record<string, string>; storedSecretIds: ReadonlySet<string>; upload?: FileUpload };

/**
 * A secret (`x-secret`) as a password input. A stored secret comes back from the API masked: the input then starts
 * empty and, left empty, keeps sending the mask, which tells the server to keep the stored secret. An optional stored
 * secret can be cleared: it is then sent as nothing, and saving removes it.
 */
export function SecretWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, registry, onChange, onBlur, onFocus }: WidgetProps) {
  const stored = (registry.formContext as ConnectionFormContext | undefined)?.storedSecretIds.has(id) ?? false;
  const [cleared, setCleared] = useState(false);
  const keeping = stored && !cleared;
  const text = value === maskedSecret || value === undefined || value === null ? '' : String(value);
  const valueOf = (typed: string) => (typed === '' ? (keeping ? maskedSecret : undefined) : typed);
  const toggleCleared = () => {
    setCleared(!cleared);
    onChange(cleared ? maskedSecret : undefined);
  };
  return (
    <div className="connection-secret">
      <TextInput
        id={id}
        type="password"
        label={label}
        message={cleared ? t('adapters.storedSecretRemovedWhen') : schema.description}
        error={rawErrors?.length ? rawErrors : undefined}
        value={text}
        required={required && !stored}
        disabled={disabled || readonly}
        autoComplete="new-password"
        placeholder={keeping ? t('adapters.storedLeaveEmptyKeep') : undefined}
        onValueChange={(typed) => onChange(valueOf(typed))}
        onBlur={(event) => onBlur(id, valueOf(event.target.value))}
        onFocus={(event) => onFocus(id, event.target.value)}
      />
      {stored && !required && !(disabled || readonly) ? (
        <Button variant="secondary" size="small" onClick={toggleCleared}>{cleared ? t('adapters.keepStoredSecret') : t('adapters.clearStoredSecret')}</Button>
      ) : null}
    </div>
  );
}
