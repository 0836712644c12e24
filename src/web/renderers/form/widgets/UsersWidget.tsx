import { t } from '../../../app/i18n/messages';
import type { WidgetProps } from '@rjsf/utils';
import { useCompanyRows } from './useCompanyRows';
import { WidgetChoiceList } from './WidgetChoiceList';

type UserRow = { id: number; username: string; name?: string };

/** The users of the company, to make members of a group (a write-only `user_ids` list). */
export function UsersWidget(props: WidgetProps) {
  const { rows, status } = useCompanyRows<UserRow>('/users/users', 'username', t('renderers.users'));
  const choices = rows.map((user) => ({ value: user.id, label: user.name ? `${user.username} (${user.name})` : user.username }));
  return <WidgetChoiceList widget={props} choices={choices} status={status} />;
}
