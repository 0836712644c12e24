import type { WidgetProps } from '@rjsf/utils';

/**
 * Reports a widget's new value as a change and a blur at once. rjsf validates a field when it loses focus; a checkbox,
 * a select or a list of checkboxes is a finished choice at every change, so it validates then (spec §5).
 */
export function reportWidgetValue({ id, onChange, onBlur }: Pick<WidgetProps, 'id' | 'onChange' | 'onBlur'>, next: unknown): void {
  onChange(next);
  onBlur(id, next);
}
