import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../app/http';
import { ChoiceList } from './ChoiceList';

type UserRow = { id: number; username: string; name?: string };

/** The users of the company, to make members of a group (a write-only `user_ids` list). */
export function UsersWidget({ id, value, label, required, disabled, readonly, schema, rawErrors, onChange, onBlur }: WidgetProps) {
  const users = useQuery({
    queryKey: ['/users/users', { size: 1000, ordering: 'username' }],
    queryFn: () => apiFetch<{ results: UserRow[] }>('/users/users', { query: { size: 1000, ordering: 'username' } }),
  });
  const status = users.isPending ? 'Loading users…' : users.isError ? 'The users could not be loaded.' : users.data.results.length ? undefined : 'No users yet.';
  return (
    <ChoiceList
      id={id}
      label={label}
      message={schema.description}
      error={rawErrors}
      required={required}
      disabled={disabled || readonly}
      choices={(users.data?.results ?? []).map((user) => ({ value: user.id, label: user.name ? `${user.username} (${user.name})` : user.username }))}
      selected={Array.isArray(value) ? value : []}
      status={status}
      onSelectedChange={(next) => {
        onChange(next);
        onBlur(id, next);
      }}
    />
  );
}
