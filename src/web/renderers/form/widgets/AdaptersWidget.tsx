import { t } from '../../../app/i18n/messages';
import type { WidgetProps } from '@rjsf/utils';
import { useSession } from '../../../app/session/session';
import { Switch } from '../../../ui';
import { reportWidgetValue } from './reportWidgetValue';
import { WidgetChoiceList } from './WidgetChoiceList';

const everyAdapter = '*';
// Spec §3: the built-in pseudo-adapters carry status 6.
const builtinStatus = 6;

/**
 * Which adapters a group's members may use (`x-widget: adapters`): every adapter ("*"), or a chosen list of the
 * adapters known to the console. The built-in pseudo-adapters are always available, so they are not offered.
 */
export function AdaptersWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, rawErrors } = props;
  const { adapters } = useSession();
  const all = Array.isArray(value) && value.includes(everyAdapter);
  const choices = adapters
    .filter((adapter) => adapter.status !== builtinStatus)
    .map((adapter) => ({ value: adapter.slug, label: adapter.name }))
    .sort((left, right) => left.label.localeCompare(right.label));
  return (
    <div className="schema-form__adapters">
      <Switch
        id={`${id}-all`}
        label={t('renderers.everyAdapterIncludingThose')}
        checked={all}
        disabled={disabled || readonly}
        onCheckedChange={(checked) => reportWidgetValue(props, checked ? [everyAdapter] : [])}
      />
      {all ? null : <WidgetChoiceList widget={props} choices={choices} status={choices.length ? undefined : t('renderers.noAdaptersAvailable')} />}
      {all && rawErrors?.length ? <p className="ui-field__error" role="alert">{rawErrors.join(' ')}</p> : null}
    </div>
  );
}
