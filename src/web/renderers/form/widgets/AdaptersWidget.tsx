import type { WidgetProps } from '@rjsf/utils';
import { useSession } from '../../../app/session/session';
import { Switch } from '../../../ui';
import { ChoiceList } from './ChoiceList';

const everyAdapter = '*';
// Spec §3: the built-in pseudo-adapters carry status 6.
const builtinStatus = 6;

/**
 * Which adapters a group's members may use (`x-widget: adapters`): every adapter ("*"), or a chosen list of the
 * adapters known to the console. The built-in pseudo-adapters are always available, so they are not offered.
 */
export function AdaptersWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
  const { adapters } = useSession();
  const selected: string[] = Array.isArray(value) ? value : [];
  const all = selected.includes(everyAdapter);
  const choices = adapters
    .filter((adapter) => adapter.status !== builtinStatus)
    .map((adapter) => ({ value: adapter.slug, label: adapter.name }))
    .sort((left, right) => left.label.localeCompare(right.label));
  const report = (next: string[]) => {
    onChange(next);
    onBlur(id, next);
  };
  return (
    <div className="schema-form__adapters">
      <Switch id={`${id}-all`} label="Every adapter, including those added later" checked={all} disabled={disabled || readonly} onCheckedChange={(checked) => report(checked ? [everyAdapter] : [])} />
      {all ? null : (
        <ChoiceList
          id={id}
          label={label}
          message={schema.description}
          error={rawErrors}
          required={required}
          disabled={disabled || readonly}
          choices={choices}
          selected={selected}
          status={choices.length ? undefined : 'No adapters are available.'}
          onSelectedChange={report}
        />
      )}
      {all && rawErrors?.length ? <p className="ui-field__error" role="alert">{rawErrors.join(' ')}</p> : null}
    </div>
  );
}
