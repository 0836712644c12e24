import { t } from '../../../app/i18n/messages';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiFetch } from '../../../app/http';
import { Checkbox, Field, TextInput } from '../../../ui';
import { reportWidgetValue } from './reportWidgetValue';

export type PermissionRow = { id: number; name: string; codename: string; app: string };

/** Permissions grouped by app, apps and permissions in alphabetical order. */
export function groupByApp(permissions: readonly PermissionRow[]): [string, PermissionRow[]][] {
  const byApp = new Map<string, PermissionRow[]>();
  for (const permission of permissions) byApp.set(permission.app, [...(byApp.get(permission.app) ?? []), permission]);
  return [...byApp].sort(([left], [right]) => left.localeCompare(right)).map(([app, rows]) => [app, [...rows].sort((left, right) => left.codename.localeCompare(right.codename))]);
}

const appLabel = (app: string) => app.charAt(0).toUpperCase() + app.slice(1);

/** The permission picker of a group (`x-widget: permissions`): one section per app with a check-all box, and a filter. */
export function PermissionsWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
  const [filter, setFilter] = useState('');
  const catalogue = useQuery({
    queryKey: ['/users/permissions', { size: 1000 }],
    queryFn: () => apiFetch<{ results: PermissionRow[] }>('/users/permissions', { query: { size: 1000 } }),
    staleTime: Infinity,
  });
  const selected = useMemo(() => new Set<number>(Array.isArray(value) ? value : []), [value]);
  const needle = filter.trim().toLowerCase();
  const apps = groupByApp((catalogue.data?.results ?? []).filter((row) => !needle || `${row.app} ${row.name} ${row.codename}`.toLowerCase().includes(needle)));
  const inert = disabled || readonly;
  const report = (next: Set<number>) => reportWidgetValue({ id, onChange, onBlur }, [...next].sort((left, right) => left - right));
  const setMany = (ids: number[], checked: boolean) => {
    const next = new Set(selected);
    for (const permission of ids) if (checked) next.add(permission); else next.delete(permission);
    report(next);
  };
  return (
    <Field label={label} message={schema.description} error={rawErrors?.length ? rawErrors : undefined} required={required} id={`${id}-label`}>
      {({ describedBy }) => (
        <div id={id} className="schema-form__permissions" aria-describedby={describedBy}>
          <TextInput id={`${id}-filter`} type="search" label={t('renderers.filterPermissions')} value={filter} onValueChange={setFilter} />
          {catalogue.isPending ? <p>{t('renderers.loadingPermissions')}</p> : null}
          {catalogue.isError ? <p role="alert">{t('renderers.permissionsCouldNotLoaded')}</p> : null}
          {apps.map(([app, rows]) => {
            const chosen = rows.filter((row) => selected.has(row.id)).length;
            return (
              <fieldset key={app} className="schema-form__permission-app">
                <legend>
                  <Checkbox
                    id={`${id}-${app}`}
                    label={`${appLabel(app)} (${chosen}/${rows.length})`}
                    checked={chosen === rows.length}
                    indeterminate={chosen > 0 && chosen < rows.length}
                    disabled={inert}
                    onCheckedChange={(checked) => setMany(rows.map((row) => row.id), checked)}
                  />
                </legend>
                {rows.map((row) => (
                  <Checkbox key={row.id} id={`${id}-${row.id}`} label={row.name} checked={selected.has(row.id)} disabled={inert} onCheckedChange={(checked) => setMany([row.id], checked)} />
                ))}
              </fieldset>
            );
          })}
        </div>
      )}
    </Field>
  );
}
