import { t } from '../../app/i18n/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { apiFetch } from '../../app/http';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, EmptyState, PageHeader, Table, type TableColumn } from '../../ui';
import { fieldLabel } from '../inventories/fieldValues';
import { discoveryConfigurationQuery, type FieldMap } from '../inventories/inventoryApi';
import { inventoryKindOfEntity } from '../inventories/inventoryKinds';
import { dashboardQuery, widgetKindLabels, widgetsQuery, type WidgetResponse } from './dashboardsApi';
import './dashboards.css';

/** `/dashboard/widget-list/{dashboardId}`: the widgets of one dashboard, to edit or remove. */
export function WidgetList() {
  const dashboardId = Number((useParams({ strict: false }) as { dashboardId: string }).dashboardId);
  const client = useQueryClient();
  const dashboard = useQuery(dashboardQuery(dashboardId));
  const widgets = useQuery(widgetsQuery(dashboardId));
  const configuration = useQuery(discoveryConfigurationQuery());
  const canChange = hasPermission('dashboards.change_dashboard');
  // A widget grouped by a field names it by its title, as the column picker does ("OS type", never `OS.Type`).
  const fieldTitle = (row: WidgetResponse) => {
    const kind = inventoryKindOfEntity(row.inventory === 'application' ? 'software' : row.inventory);
    const fieldMap = (kind && configuration.data?.[kind.fieldMapKey]) as FieldMap | undefined;
    return fieldLabel(row.field, fieldMap?.[row.field]);
  };
  useEffect(() => setBreadcrumb([{ label: t('dashboards.dashboard'), to: '/dashboard' }, { label: t('dashboards.widgets') }]), []);
  const columns: TableColumn<WidgetResponse>[] = [
    { id: 'name', header: t('dashboards.name'), cell: (row) => row.name, sortable: true, sortValue: (row) => row.name },
    { id: 'kind', header: t('dashboards.kind'), cell: (row) => widgetKindLabels[row.kind] ?? row.kind },
    { id: 'query', header: t('dashboards.query'), cell: (row) => row.query || (row.field ? fieldTitle(row) : '-') },
    {
      id: 'actions', header: t('dashboards.actions'),
      cell: (row) => canChange ? (
        <div className="dashboard-actions">
          <a href={`#/dashboard/edit-widget/${dashboardId}/${row.id}`}>{t('dashboards.edit')}</a>
          <Button size="small" variant="danger" onClick={async () => {
            await apiFetch(`/dashboards/widgets/${row.id}`, { method: 'DELETE' }).catch(() => undefined);
            await client.invalidateQueries({ queryKey: ['dashboards'] });
          }}>{t('dashboards.remove')}</Button>
        </div>
      ) : null,
    },
  ];
  return (
    <section className="dashboard-page">
      <PageHeader title={dashboard.data?.name !== undefined ? t('dashboards.widgetsOfName', { name: dashboard.data.name }) : t('dashboards.widgetsOfTheDashboard')} actions={canChange ? <a className="ui-button ui-button--success ui-button--medium" href={`#/dashboard/add-widget/${dashboardId}`}>{t('dashboards.addWidget')}</a> : undefined} />
      <Table caption={t('dashboards.widgets')} columns={columns} rows={widgets.data ?? []} rowKey={(row) => row.id} loading={widgets.isPending} empty={<EmptyState title={t('dashboards.noWidgets')} description={t('dashboards.addWidgetDashboard')} />} />
    </section>
  );
}
