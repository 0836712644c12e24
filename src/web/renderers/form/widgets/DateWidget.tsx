import type { WidgetProps } from '@rjsf/utils';
import { format } from 'date-fns';
import { useEffect, useState } from 'react';
import { datePlaceholder, parseDate, toDate } from '../../../../core/dates/index.js';
import { TextInput } from '../../../ui';

/**
 * Dates typed in any format of spec §5, with the browser locale's pattern as placeholder; the value becomes
 * `yyyy-MM-dd` (format date) or an ISO date-time (format date-time) once the field loses focus. Text that is no date
 * is kept, so validation can say so.
 */
function dateInput(kind: 'date' | 'date-time') {
  return function DateInput({ id, value, label, required, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
    const shown = (stored: unknown) => {
      const date = typeof stored === 'string' && stored ? toDate(stored) : null;
      if (!date) return typeof stored === 'string' ? stored : '';
      return kind === 'date' ? format(date, 'yyyy-MM-dd') : format(date, 'yyyy-MM-dd HH:mm:ss');
    };
    const [text, setText] = useState(shown(value));
    useEffect(() => setText(shown(value)), [value]);
    const stored = (typed: string) => {
      if (typed.trim() === '') return undefined;
      const date = parseDate(typed);
      if (!date) return typed;
      return kind === 'date' ? format(date, 'yyyy-MM-dd') : date.toISOString();
    };
    const placeholder = kind === 'date' ? datePlaceholder() : `${datePlaceholder()} HH:mm`;
    return (
      <TextInput
        id={id}
        label={label}
        message={schema.description}
        error={rawErrors?.length ? rawErrors : undefined}
        value={text}
        placeholder={placeholder}
        required={required}
        disabled={disabled || readonly}
        onValueChange={setText}
        onBlur={() => {
          onChange(stored(text));
          onBlur(id, stored(text));
        }}
      />
    );
  };
}

export const DateWidget = dateInput('date');
export const DateTimeWidget = dateInput('date-time');
