import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { enumLabelsKeyword } from '../../../../core/schemaMessages.js';
import { t } from '../../../app/i18n/messages';
import { useSession, type Adapter } from '../../../app/session/session';
import { reportWidgetValue } from '../../../renderers/form/widgets/reportWidgetValue';
import { entitySchemaQuery } from '../../../renderers/schema/entitySchema';
import { Select, type SelectOption } from '../../../ui';

const categoryPrefix = 'category:';
// Spec §3: the built-in pseudo-adapters carry status 6.
const builtinStatus = 6;
// Connections of these engines are exports themselves: the server refuses them as an export's system.
const exportEngines = new Set(['csv', 'json', 'xlsx', 'sbom', 'sql']);

/** The adapters an export may come from: the catalogue's, neither built-in, custom nor a file or database engine. */
export function exporterChoices(adapters: readonly (Adapter & { engine?: string | null })[]): SelectOption[] {
  const group = t('adapters.exportedFromAdapters');
  return adapters
    .filter((adapter) => adapter.status !== builtinStatus && !adapter.custom && !exportEngines.has(adapter.engine ?? ''))
    .map((adapter) => ({ value: adapter.slug, label: adapter.name, group }))
    .sort((left, right) => left.label.localeCompare(right.label));
}

/**
 * The system a file or SQL export comes from (`x-widget: exported-from`): a kind of system (`category:edr`, named as
 * the devices' source categories name it) or a catalogue adapter, or nothing (the records count as the connection's
 * own adapter).
 */
export function ExportedFromWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
  const { adapters } = useSession();
  const device = useQuery(entitySchemaQuery('cartograph:entities/device'));
  const items = device.data?.properties.SourceCategories?.items as { [enumLabelsKeyword]?: Record<string, string> } | undefined;
  const kinds = t('adapters.exportedFromKinds');
  const categories = Object.entries(items?.[enumLabelsKeyword] ?? {})
    .map(([category, name]) => ({ value: `${categoryPrefix}${category}`, label: name, group: kinds }))
    .sort((left, right) => left.label.localeCompare(right.label));
  const options = [...categories, ...exporterChoices(adapters)];
  const current = typeof value === 'string' ? value : '';
  // A value the lists do not hold (an adapter this account may not use) is still shown as it is.
  if (current && !options.some((option) => option.value === current)) options.unshift({ value: current, label: current });
  return (
    <Select
      id={id}
      label={label}
      message={schema.description}
      error={rawErrors?.length ? rawErrors : undefined}
      options={options}
      value={current}
      placeholder={t('adapters.exportedFromNone')}
      required={required}
      disabled={disabled || readonly}
      onValueChange={(text) => reportWidgetValue({ id, onChange, onBlur }, text === '' ? undefined : text)}
    />
  );
}
