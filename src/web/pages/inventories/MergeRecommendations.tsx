import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, Card, EmptyState, ErrorState, PageHeader, Pagination, Spinner } from '../../ui';
import { recommendationListQuery, type DeviceSummary, type RecommendationResponse } from './deviceActionsApi';
import { valueText } from './fieldValues';
import './inventories.css';
import './deviceActions.css';

const pageSize = 20;
const keyFields: { key: keyof DeviceSummary; label: string }[] = [
  { key: 'Hostname', get label() { return t('inventories.hostname'); } },
  { key: 'IpAddresses', get label() { return t('inventories.ipAddresses'); } },
  { key: 'OS.Type', get label() { return t('inventories.osType'); } },
  { key: 'Adapters', get label() { return t('inventories.sources'); } },
];

const listText = (values: unknown) => (Array.isArray(values) && values.length ? values.map((value) => valueText(value)).join(', ') : '-');
const nameOf = (device: DeviceSummary) => String(device.Hostname[0] ?? device.id);

/** A score as the analyst reads it: a percentage, with a tone for how strong the evidence is. */
function ScoreBadge({ score }: { score: number }) {
  const percent = Math.round(score <= 1 ? score * 100 : score);
  return <Badge tone={percent >= 80 ? 'success' : percent >= 50 ? 'warning' : 'neutral'}>{t('inventories.scorePercent', { percent })}</Badge>;
}

function DeviceHeading({ device, indexId }: { device: DeviceSummary; indexId: number }) {
  if (!hasPermission('users.view_device_detail')) return <>{nameOf(device)}</>;
  return <Link to="/device-inventory/detail/$deviceId/$discoveryId" params={{ deviceId: device.id, discoveryId: String(indexId) }}>{nameOf(device)}</Link>;
}

type Decision = { recommendation: RecommendationResponse; verdict: 'accept' | 'reject' };

/** One recommendation: why, how sure, the two devices' key fields side by side, and the analyst's decision. */
function Recommendation({ recommendation, onDecide, deciding }: { recommendation: RecommendationResponse; onDecide: (verdict: Decision['verdict']) => void; deciding: boolean }) {
  const { left, right, index_id: indexId } = recommendation;
  const title = `${nameOf(left)} and ${nameOf(right)}`;
  return (
    <Card>
      <article className="merge-recommendation" aria-label={title}>
        <header className="merge-recommendation__header">
          <ScoreBadge score={recommendation.score} />
          <ul className="merge-recommendation__reasons" aria-label={t('inventories.reasons')}>
            {recommendation.reasons.map((reason) => <li key={reason}>{reason}</li>)}
          </ul>
        </header>
        <table className="ui-table merge-recommendation__fields">
          <caption className="ui-visually-hidden">{t('inventories.keyFieldsTitle', { title })}</caption>
          <thead>
            <tr>
              <th scope="col" className="ui-table__th">{t('inventories.field')}</th>
              <th scope="col" className="ui-table__th"><DeviceHeading device={left} indexId={indexId} /></th>
              <th scope="col" className="ui-table__th"><DeviceHeading device={right} indexId={indexId} /></th>
            </tr>
          </thead>
          <tbody>
            {keyFields.map(({ key, label }) => {
              const same = listText(left[key]).toLowerCase() === listText(right[key]).toLowerCase();
              return (
                <tr key={key} className={same ? 'merge-recommendation__same' : undefined}>
                  <th scope="row" className="ui-table__td">{label}</th>
                  <td className="ui-table__td">{listText(left[key])}</td>
                  <td className="ui-table__td">{listText(right[key])}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {hasPermission('devices.merge_device') && (
          <footer className="query-builder__actions">
            <Button loading={deciding} onClick={() => onDecide('accept')} aria-label={t('inventories.mergeTitle', { title })}>{t('inventories.merge')}</Button>
            <Button variant="secondary" disabled={deciding} onClick={() => onDecide('reject')} aria-label={t('inventories.keepTitleApart', { title })}>{t('inventories.keepApart')}</Button>
          </footer>
        )}
      </article>
    </Card>
  );
}

/** `/device-inventory/merge-recommendations`: devices that may be one machine on weak evidence, best score first. */
export function MergeRecommendations() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery(recommendationListQuery({ page, size: pageSize }));
  useEffect(() => setBreadcrumb([{ label: t('inventories.devices'), to: '/device-inventory' }, { label: t('inventories.mergeRecommendations') }]), []);
  const decide = useMutation({
    mutationFn: ({ recommendation, verdict }: Decision) => apiFetch(`/devices/merge-recommendations/${recommendation.id}/${verdict}`, { method: 'POST' }),
    onSuccess: (_, { recommendation, verdict }) => {
      const title = `${nameOf(recommendation.left)} and ${nameOf(recommendation.right)}`;
      notify('success', verdict === 'accept' ? t('inventories.titleWereMergedInto', { title }) : t('inventories.titleStayApartNow', { title }));
      // The page may now be past the end (the last recommendation of the last page was decided).
      if (list.data && list.data.results.length === 1 && page > 1) setPage(page - 1);
      void queryClient.invalidateQueries({ queryKey: ['merge-recommendations'] });
      void queryClient.invalidateQueries({ queryKey: ['inventory'] });
    },
  });
  return (
    <section className="inventory-page">
      <PageHeader
        title={t('inventories.mergeRecommendations')}
        description={t('inventories.devicesShareOnlyHost')}
        meta={list.data ? <span className="inventory-muted">{t('inventories.countRecommendationS', { count: list.data.count.toLocaleString() })}</span> : null}
      />
      {list.isPending ? <Spinner label={t('inventories.loadingRecommendations')} /> : list.isError ? (
        <ErrorState title={t('inventories.recommendationsCouldNotLoaded')} message={list.error.message} onRetry={() => void list.refetch()} />
      ) : list.data.results.length ? (
        <div className="merge-recommendations">
          {list.data.results.map((recommendation) => (
            <Recommendation
              key={recommendation.id}
              recommendation={recommendation}
              deciding={decide.isPending && decide.variables.recommendation.id === recommendation.id}
              onDecide={(verdict) => decide.mutate({ recommendation, verdict })}
            />
          ))}
        </div>
      ) : (
        <EmptyState title={t('inventories.noMergeRecommendations')} description={t('inventories.everyWeakMatchLatest')} />
      )}
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
    </section>
  );
}
