import { t } from '../../../app/i18n/messages';
import type { WidgetProps } from '@rjsf/utils';
import { useCompanyRows } from './useCompanyRows';
import { WidgetChoiceList } from './WidgetChoiceList';

type GroupRow = { id: number; name: string };

/** The groups of the company, to put a user in (`x-widget: groups`). */
export function GroupsWidget(props: WidgetProps) {
  const { rows, status } = useCompanyRows<GroupRow>('/users/groups', 'name', t('renderers.groups'));
  return <WidgetChoiceList widget={props} choices={rows.map((group) => ({ value: group.id, label: group.name }))} status={status} />;
}
