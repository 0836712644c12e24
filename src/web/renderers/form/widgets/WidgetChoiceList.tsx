import type { WidgetProps } from '@rjsf/utils';
import type { ReactNode } from 'react';
import { ChoiceList, type Choice } from './ChoiceList';
import { reportWidgetValue } from './reportWidgetValue';

type WidgetChoiceListProps<Value> = {
  /** The props rjsf gave the widget: id, label, value, errors and the read-only state come from them. */
  widget: WidgetProps;
  choices: readonly Choice<Value>[];
  /** Shown instead of the choices while they load or when there are none. */
  status?: ReactNode;
};

/** A ChoiceList bound to an rjsf field whose value is a list of the chosen values (groups, users, adapters). */
export function WidgetChoiceList<Value>({ widget, choices, status }: WidgetChoiceListProps<Value>) {
  const { id, value, label, required, disabled, readonly, schema, rawErrors } = widget;
  return (
    <ChoiceList
      id={id}
      label={label}
      message={schema.description}
      error={rawErrors}
      required={required}
      disabled={disabled || readonly}
      choices={choices}
      selected={Array.isArray(value) ? (value as Value[]) : []}
      status={status}
      onSelectedChange={(next) => reportWidgetValue(widget, next)}
    />
  );
}
