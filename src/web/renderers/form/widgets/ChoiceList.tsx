import { t } from '../../../app/i18n/messages';
import { useState, type ReactNode } from 'react';
import { Checkbox, Field, TextInput } from '../../../ui';

export type Choice<Value> = { value: Value; label: string };

type ChoiceListProps<Value> = {
  id: string;
  label: ReactNode;
  message?: ReactNode;
  error?: readonly string[];
  required?: boolean;
  disabled?: boolean;
  choices: readonly Choice<Value>[];
  selected: readonly Value[];
  onSelectedChange: (selected: Value[]) => void;
  /** Shown instead of the choices while they load or when there are none. */
  status?: ReactNode;
};

// Past this many choices (the adapter catalogue has ~150) a filter box helps to find one.
const filterFrom = 12;

/** A labelled list of checkboxes for picking several values (groups of a user, members and adapters of a group). */
export function ChoiceList<Value>({ id, label, message, error, required, disabled, choices, selected, onSelectedChange, status }: ChoiceListProps<Value>) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle ? choices.filter((choice) => choice.label.toLowerCase().includes(needle)) : choices;
  return (
    <Field label={label} message={message} error={error?.length ? error : undefined} required={required} id={`${id}-label`}>
      {({ describedBy }) => (
        <div className="schema-form__choice-list">
          {!status && choices.length > filterFrom ? <TextInput id={`${id}-filter`} type="search" label={t('renderers.filter')} value={filter} onValueChange={setFilter} /> : null}
          <div id={id} role="group" aria-describedby={describedBy} className="schema-form__choices">
            {status ??
              shown.map((choice, index) => (
                <Checkbox
                  key={String(choice.value)}
                  id={`${id}-${index}`}
                  label={choice.label}
                  checked={selected.includes(choice.value)}
                  disabled={disabled}
                  onCheckedChange={(checked) => onSelectedChange(checked ? [...selected, choice.value] : selected.filter((value) => value !== choice.value))}
                />
              ))}
          </div>
        </div>
      )}
    </Field>
  );
}
