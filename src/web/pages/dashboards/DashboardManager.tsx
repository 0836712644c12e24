import { t } from '../../app/i18n/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../app/http';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, Dialog, EmptyState, PageHeader, Table, TextInput, type TableColumn } from '../../ui';
import { dashboardsQuery, saveDashboard, type DashboardResponse } from './dashboardsApi';
import './dashboards.css';

/** `/dashboard/manager`: every dashboard the user may see: rename, reorder, make default, edit, delete. */
export function DashboardManager() {
  const client = useQueryClient();
  const list = useQuery(dashboardsQuery());
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [deleting, setDeleting] = useState<DashboardResponse | null>(null);
  const canChange = hasPermission('dashboards.change_dashboard');
  useEffect(() => setBreadcrumb([{ label: t('dashboards.dashboard'), to: '/dashboard' }, { label: t('dashboards.manageDashboards') }]), []);
  const refresh = () => client.invalidateQueries({ queryKey: ['dashboards'] });
  const dashboards = list.data ?? [];

  // Reordering rewrites every position, so the menu order is exactly the order shown.
  const move = async (index: number, step: -1 | 1) => {
    const order = [...dashboards];
    const [moved] = order.splice(index, 1);
    order.splice(index + step, 0, moved);
    for (const [position, dashboard] of order.entries()) {
      if (dashboard.position !== position) await saveDashboard(dashboard.id, { position });
    }
    await refresh();
  };

  const columns: TableColumn<DashboardResponse>[] = [
    {
      id: 'name', header: t('dashboards.name'),
      cell: (row) => renaming?.id === row.id ? (
        <form className="dashboard-actions" onSubmit={async (event) => {
          event.preventDefault();
          if (await saveDashboard(row.id, { name: renaming.name })) {
            setRenaming(null);
            await refresh();
          }
        }}>
          <TextInput label={t('dashboards.newName')} value={renaming.name} onValueChange={(name) => setRenaming({ id: row.id, name })} required maxLength={200} />
          <Button type="submit" size="small">{t('dashboards.save')}</Button>
          <Button size="small" variant="ghost" onClick={() => setRenaming(null)}>{t('dashboards.cancel')}</Button>
        </form>
      ) : (
        <span>{row.name} {row.is_default && <Badge tone="info">{t('dashboards.default')}</Badge>} {!row.is_public && <Badge tone="neutral">{t('dashboards.private')}</Badge>}</span>
      ),
    },
    { id: 'description', header: t('dashboards.description'), cell: (row) => row.description || '-' },
    {
      id: 'actions', header: t('dashboards.actions'),
      cell: (row) => {
        const index = dashboards.indexOf(row);
        return (
          <div className="dashboard-actions">
            <a href={`#/dashboard`} onClick={() => sessionStorage.setItem('cartograph.dashboard', String(row.id))}>{t('dashboards.open')}</a>
            {canChange && <Button size="small" variant="ghost" onClick={() => setRenaming({ id: row.id, name: row.name })}>{t('dashboards.rename')}</Button>}
            {canChange && <Button size="small" variant="ghost" disabled={index === 0} onClick={() => void move(index, -1)} aria-label={t('dashboards.moveNameUp', { name: row.name })}>{t('dashboards.up')}</Button>}
            {canChange && <Button size="small" variant="ghost" disabled={index === dashboards.length - 1} onClick={() => void move(index, 1)} aria-label={t('dashboards.moveNameDown', { name: row.name })}>{t('dashboards.down')}</Button>}
            {canChange && !row.is_default && <Button size="small" variant="secondary" onClick={async () => (await saveDashboard(row.id, { is_default: true })) && refresh()}>{t('dashboards.setDefault')}</Button>}
            {canChange && <a href={`#/dashboard/edit-dashboard/${row.id}`}>{t('dashboards.edit')}</a>}
            {hasPermission('dashboards.delete_dashboard') && !row.is_default && <Button size="small" variant="danger" onClick={() => setDeleting(row)}>{t('dashboards.delete')}</Button>}
          </div>
        );
      },
    },
  ];

  return (
    <section className="dashboard-page">
      <PageHeader title={t('dashboards.manageDashboards')} description={t('dashboards.firstDashboardOrderLeads')} actions={hasPermission('dashboards.add_dashboard') ? <a className="ui-button ui-button--success ui-button--medium" href="#/dashboard/add-dashboard">{t('dashboards.addDashboard')}</a> : undefined} />
      <Table caption={t('dashboards.dashboards')} columns={columns} rows={dashboards} rowKey={(row) => row.id} loading={list.isPending} empty={<EmptyState title={t('dashboards.noDashboards')} />} />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} title={t('dashboards.deleteDashboard')} description={t('dashboards.deleteNameChartsWidgets', { name: deleting?.name ?? '' })} alert
        footer={<>
          <Button variant="secondary" onClick={() => setDeleting(null)}>{t('dashboards.cancel')}</Button>
          <Button variant="danger" onClick={async () => {
            if (!deleting) return;
            await apiFetch(`/dashboards/dashboards/${deleting.id}`, { method: 'DELETE' }).catch(() => undefined);
            setDeleting(null);
            await refresh();
          }}>{t('dashboards.delete')}</Button>
        </>} />
    </section>
  );
}
