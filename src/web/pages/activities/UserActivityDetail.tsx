import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../core/dates/index.js';
import { apiFetch } from '../../app/http';
import type { PageProps } from '../../app/pageModules';
import { routeParams } from '../../renderers/form/routeParams';
import { Card, ErrorState, PageHeader, Spinner } from '../../ui';
import type { Activity } from './activityApi';

/** `/activities/user/{activityId}`: one recorded activity. Bodies are not stored (they may hold secrets), so no before/after. */
export function UserActivityDetail(props: PageProps) {
  const id = routeParams(props.route.path).activityId ?? '';
  const item = useQuery({ queryKey: ['/activities/activities', id], queryFn: () => apiFetch<Activity>(`/activities/activities/${encodeURIComponent(id)}`) });
  if (item.isError) return <ErrorState title="This activity could not be loaded" message={item.error.message} />;
  if (!item.data) return <Spinner label="Loading" />;
  const activity = item.data;
  const rows: [string, string][] = [
    ['Time', formatDate(activity.created_at)], ['User', activity.username || '—'], ['Action', activity.action],
    ['Object', activity.target_type], ['Object id', activity.target_id || '—'], ['Source address', activity.source_ip],
    ['Result', activity.result], ['HTTP status', String(activity.status_code)],
  ];
  return (
    <section>
      <PageHeader title={`Activity ${activity.id}`} description={<a href="#/activities/user">Back to the activities</a>} />
      <Card title="What happened">
        <dl className="activities__detail">{rows.map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}</dl>
      </Card>
    </section>
  );
}
