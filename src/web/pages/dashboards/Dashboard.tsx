import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, EmptyState, ErrorState, PageHeader, Select, Spinner } from '../../ui';
import { DashboardGrid, type GridTile } from './DashboardGrid';
import { dashboardDataQuery, dashboardsQuery, saveDashboard, type DashboardResponse, type LayoutTile } from './dashboardsApi';
import { completeLayout } from './layout';
import { WidgetView } from './WidgetView';
import './dashboards.css';

const selectedKey = 'cartograph.dashboard';

/** The dashboard shown: the one chosen last in this tab, else the company's default, else the first. */
function chooseDashboard(dashboards: DashboardResponse[], chosen: number | null): DashboardResponse | undefined {
  return dashboards.find((dashboard) => dashboard.id === chosen) ?? dashboards.find((dashboard) => dashboard.is_default) ?? dashboards[0];
}

const errorText = (error: unknown): string =>
  error && typeof error === 'object' ? Object.entries(error).map(([field, messages]) => `${field === 'detail' ? '' : `${field}: `}${([] as unknown[]).concat(messages).join(' ')}`).join(' ') : t('dashboards.tileCouldNotBeComputed');

/** `/dashboard`: the chosen dashboard's charts and widgets on a grid that can be rearranged and resized. */
export function Dashboard() {
  const client = useQueryClient();
  const dashboards = useQuery(dashboardsQuery());
  const [chosen, setChosen] = useState<number | null>(() => Number(sessionStorage.getItem(selectedKey)) || null);
  const [editing, setEditing] = useState(false);
  const dashboard = chooseDashboard(dashboards.data ?? [], chosen);
  const data = useQuery({ ...dashboardDataQuery(dashboard?.id ?? 0), enabled: dashboard !== undefined });
  const canChange = hasPermission('dashboards.change_dashboard');
  const saveLayout = useMutation({
    mutationFn: (layout: LayoutTile[]) => saveDashboard(dashboard?.id ?? 0, { layout }),
    onMutate: (layout) => client.setQueryData(dashboardsQuery().queryKey, (list) => list?.map((entry) => (entry.id === dashboard?.id ? { ...entry, layout } : entry))),
    onSettled: () => client.invalidateQueries({ queryKey: dashboardsQuery().queryKey }),
  });
  useEffect(() => setBreadcrumb([{ label: t('dashboards.dashboard') }, ...(dashboard ? [{ label: dashboard.name }] : [])]), [dashboard?.name]);

  if (dashboards.isPending) return <Spinner label={t('dashboards.loadingDashboards')} />;
  if (dashboards.isError) return <ErrorState onRetry={() => void dashboards.refetch()} />;
  if (!dashboard) {
    return <EmptyState title={t('dashboards.noDashboard')} description={t('dashboards.createDashboardSeeCharts')} action={hasPermission('dashboards.add_dashboard') ? <a href="#/dashboard/add-dashboard">{t('dashboards.addDashboard')}</a> : undefined} />;
  }
  const tiles: GridTile[] = (data.data?.tiles ?? []).map((tile) => ({
    item: tile.item,
    title: tile.name,
    actions: canChange || hasPermission('dashboards.change_chart') ? (
      <a className="dashboard-tile__edit" href={`#/dashboard/${tile.type === 'chart' ? 'edit-chart' : 'edit-widget'}/${dashboard.id}/${tile.id}`} aria-label={t('dashboards.editName', { name: tile.name })}>{t('dashboards.edit')}</a>
    ) : undefined,
    body: tile.data ? <WidgetView title={tile.name} data={tile.data} /> : <p className="dashboard-tile__error" role="alert">{errorText(tile.error)}</p>,
  }));
  const layout = completeLayout(dashboard.layout ?? [], tiles.map((tile) => tile.item));

  return (
    <section className="dashboard-page">
      <PageHeader
        title={dashboard.name}
        description={dashboard.description || undefined}
        actions={
          <div className="dashboard-actions">
            {(dashboards.data?.length ?? 0) > 1 && (
              <Select label={t('dashboards.dashboard')} value={String(dashboard.id)} options={(dashboards.data ?? []).map((entry) => ({ value: String(entry.id), label: entry.name }))}
                onValueChange={(value) => {
                  sessionStorage.setItem(selectedKey, value);
                  setChosen(Number(value));
                  setEditing(false);
                }} />
            )}
            {canChange && <Button variant={editing ? 'success' : 'secondary'} onClick={() => setEditing(!editing)}>{editing ? t('dashboards.doneArranging') : t('dashboards.arrange')}</Button>}
            {canChange && <a className="ui-button ui-button--secondary ui-button--medium" href={`#/dashboard/add-widget/${dashboard.id}`}>{t('dashboards.addWidget')}</a>}
            {hasPermission('dashboards.add_chart') && <a className="ui-button ui-button--secondary ui-button--medium" href={`#/dashboard/add-chart/${dashboard.id}`}>{t('dashboards.addChart')}</a>}
            <a className="ui-button ui-button--ghost ui-button--medium" href={`#/dashboard/widget-list/${dashboard.id}`}>{t('dashboards.widgets')}</a>
            <a className="ui-button ui-button--ghost ui-button--medium" href="#/dashboard/manager">{t('dashboards.manageDashboards')}</a>
          </div>
        }
      />
      {data.isPending ? <Spinner label={t('dashboards.computingTheWidgets')} /> : data.isError ? <ErrorState onRetry={() => void data.refetch()} /> : tiles.length ? (
        <DashboardGrid tiles={tiles} layout={layout} editing={editing} onLayoutChange={(next) => saveLayout.mutate(next)} />
      ) : (
        <EmptyState title={t('dashboards.dashboardEmpty')} description={t('dashboards.addWidgetsChartsFill')} />
      )}
    </section>
  );
}
