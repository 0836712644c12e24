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
  useEffect(() => setBreadcrumb([{ label: 'Dashboard', to: '/dashboard' }, { label: 'Manage dashboards' }]), []);
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
      id: 'name', header: 'Name',
      cell: (row) => renaming?.id === row.id ? (
        <form className="dashboard-actions" onSubmit={async (event) => {
          event.preventDefault();
          if (await saveDashboard(row.id, { name: renaming.name })) {
            setRenaming(null);
            await refresh();
          }
        }}>
          <TextInput label="New name" value={renaming.name} onValueChange={(name) => setRenaming({ id: row.id, name })} required maxLength={200} />
          <Button type="submit" size="small">Save</Button>
          <Button size="small" variant="ghost" onClick={() => setRenaming(null)}>Cancel</Button>
        </form>
      ) : (
        <span>{row.name} {row.is_default && <Badge tone="info">Default</Badge>} {!row.is_public && <Badge tone="neutral">Private</Badge>}</span>
      ),
    },
    { id: 'description', header: 'Description', cell: (row) => row.description || '-' },
    {
      id: 'actions', header: 'Actions',
      cell: (row) => {
        const index = dashboards.indexOf(row);
        return (
          <div className="dashboard-actions">
            <a href={`#/dashboard`} onClick={() => sessionStorage.setItem('cartograph.dashboard', String(row.id))}>Open</a>
            {canChange && <Button size="small" variant="ghost" onClick={() => setRenaming({ id: row.id, name: row.name })}>Rename</Button>}
            {canChange && <Button size="small" variant="ghost" disabled={index === 0} onClick={() => void move(index, -1)} aria-label={`Move ${row.name} up`}>Up</Button>}
            {canChange && <Button size="small" variant="ghost" disabled={index === dashboards.length - 1} onClick={() => void move(index, 1)} aria-label={`Move ${row.name} down`}>Down</Button>}
            {canChange && !row.is_default && <Button size="small" variant="secondary" onClick={async () => (await saveDashboard(row.id, { is_default: true })) && refresh()}>Set default</Button>}
            {canChange && <a href={`#/dashboard/edit-dashboard/${row.id}`}>Edit</a>}
            {hasPermission('dashboards.delete_dashboard') && !row.is_default && <Button size="small" variant="danger" onClick={() => setDeleting(row)}>Delete</Button>}
          </div>
        );
      },
    },
  ];

  return (
    <section className="dashboard-page">
      <PageHeader title="Manage dashboards" description="The first dashboard in this order leads the menu; the default one opens first." actions={hasPermission('dashboards.add_dashboard') ? <a className="ui-button ui-button--success ui-button--medium" href="#/dashboard/add-dashboard">Add dashboard</a> : undefined} />
      <Table caption="Dashboards" columns={columns} rows={dashboards} rowKey={(row) => row.id} loading={list.isPending} empty={<EmptyState title="No dashboards" />} />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} title="Delete dashboard" description={`Delete "${deleting?.name ?? ''}" with its charts and widgets? This cannot be undone.`} alert
        footer={<>
          <Button variant="secondary" onClick={() => setDeleting(null)}>Cancel</Button>
          <Button variant="danger" onClick={async () => {
            if (!deleting) return;
            await apiFetch(`/dashboards/dashboards/${deleting.id}`, { method: 'DELETE' }).catch(() => undefined);
            setDeleting(null);
            await refresh();
          }}>Delete</Button>
        </>} />
    </section>
  );
}
