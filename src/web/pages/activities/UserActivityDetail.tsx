import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch } from '../../app/http';
import type { PageProps } from '../../app/pageModules';
import { routeParams } from '../../renderers/form/routeParams';
import { entitySchemaQuery } from '../../renderers/schema/entitySchema';
import { Card, ErrorState, PageHeader, Spinner } from '../../ui';
import { ActivityChange } from './ActivityChange';
import { actionText, codeText } from './activityActions';
import type { ActivityDetail } from './activityApi';
import './activities.css';

/** `/activities/user/{activityId}`: one recorded activity, and the change it made before and after where it was kept. */
export function UserActivityDetail(props: PageProps) {
  const id = routeParams(props.route.path).activityId ?? '';
  const item = useQuery({ queryKey: ['/activities/activities', id], queryFn: () => apiFetch<ActivityDetail>(`/activities/activities/${encodeURIComponent(id)}`) });
  // Titles for the change's fields; without the schema (none sent, or not one the console ships) the paths show.
  const schemaId = item.data?.schema_id ?? '';
  const schema = useQuery({ ...entitySchemaQuery(schemaId), enabled: Boolean(schemaId), retry: false });
  if (item.isError) return <ErrorState title={t('activities.activityCouldNotLoaded')} message={item.error.message} />;
  if (!item.data) return <Spinner label={t('activities.loading')} />;
  const activity = item.data;
  const rows: [string, string][] = [
    [t('activities.time'), formatDate(activity.created_at)], [t('activities.user'), activity.username || '—'], [t('activities.action'), actionText(activity.action)], [t('activities.recordedAs'), activity.action],
    [t('activities.object'), activity.target_type], [t('activities.objectId'), activity.target_id || '—'], [t('activities.sourceAddress'), activity.source_ip],
    [t('activities.result'), codeText(activity.result)], [t('activities.httpStatus'), String(activity.status_code)],
  ];
  return (
    <section>
      <PageHeader title={t('activities.activityId', { id: activity.id })} description={<a href="#/activities/user">{t('activities.backActivities')}</a>} />
      <Card title={t('activities.whatHappened')}>
        <dl className="activities__detail">{rows.map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}</dl>
      </Card>
      <ActivityChange before={activity.value_before ?? null} after={activity.value_after ?? null} schema={schema.data} />
    </section>
  );
}
