import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../app/http';
import { ChoiceList } from './ChoiceList';

type GroupRow = { id: number; name: string };

/** The groups of the company, to put a user in (`x-widget: groups`). */
export function GroupsWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
  const groups = useQuery({
    queryKey: ['/users/groups', { size: 1000, ordering: 'name' }],
    queryFn: () => apiFetch<{ results: GroupRow[] }>('/users/groups', { query: { size: 1000, ordering: 'name' } }),
  });
  const selected: number[] = Array.isArray(value) ? value : [];
  const status = groups.isPending ? 'Loading groups…' : groups.isError ? 'The groups could not be loaded.' : groups.data.results.length ? undefined : 'No groups yet.';
  return (
    <ChoiceList
      id={id}
      label={label}
      message={schema.description}
      error={rawErrors}
      required={required}
      disabled={disabled || readonly}
      choices={(groups.data?.results ?? []).map((group) => ({ value: group.id, label: group.name }))}
      selected={selected}
      status={status}
      onSelectedChange={(next) => {
        onChange(next);
        onBlur(id, next);
      }}
    />
  );
}
