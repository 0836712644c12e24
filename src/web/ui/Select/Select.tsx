import type { SelectHTMLAttributes } from 'react';
import { controlAttributes, Field, type TextControlProps } from '../Field/Field';
import './Select.css';

/** A choice; options naming a `group` are shown under that heading (an optgroup), groups in their first option's order. */
export type SelectOption = { value: string; label: string; disabled?: boolean; group?: string };
export type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'multiple'> & TextControlProps & {
  options: readonly SelectOption[];
  /** A first, empty choice (value ''), for a field that may stay unset. */
  placeholder?: string;
};

const optionOf = (option: SelectOption) => (
  <option key={option.value} value={option.value} disabled={option.disabled}>
    {option.label}
  </option>
);

/** Runs of options by group, in order: ungrouped options stay where they are. */
function groupsOf(options: readonly SelectOption[]): { group?: string; members: SelectOption[] }[] {
  const runs: { group?: string; members: SelectOption[] }[] = [];
  for (const option of options) {
    const run = option.group === undefined ? undefined : runs.find((candidate) => candidate.group === option.group);
    if (run) run.members.push(option);
    else if (option.group === undefined && runs.at(-1) && runs.at(-1)!.group === undefined) runs.at(-1)!.members.push(option);
    else runs.push({ group: option.group, members: [option] });
  }
  return runs;
}

/** A labelled native select: the browser's own keyboard and screen-reader handling, styled with the tokens. */
export function Select({ label, message, error, options, value, onValueChange, placeholder, required, id, className, ...rest }: SelectProps) {
  return (
    <Field label={label} message={message} error={error} required={required} id={id} className={className}>
      {(ids) => (
        <select
          {...rest}
          {...controlAttributes(ids, required)}
          className="ui-control ui-select"
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {groupsOf(options).map(({ group, members }) =>
            group === undefined ? members.map(optionOf) : <optgroup key={group} label={group}>{members.map(optionOf)}</optgroup>,
          )}
        </select>
      )}
    </Field>
  );
}
