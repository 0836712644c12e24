import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, EmptyState, PageHeader, Pagination, Switch, Table, TextInput, orderingOf, type SortState } from '../../ui';
import { policiesPath, policyListQuery, type SecurityPolicy } from './securityApi';
import { DeleteDialog } from './DeleteDialog';

const pageSize = 50;
const severityTone = { critical: 'danger', high: 'danger', medium: 'warning', low: 'info' } as const;

/** `/security-manager/security-policy`: the policies, their CIS safeguard, and how many devices failed each. */
export function SecurityPolicies() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ id: 'cis_safeguard', direction: 'asc' });
  const [deleting, setDeleting] = useState<SecurityPolicy | null>(null);
  const list = useQuery(policyListQuery({ page, size: pageSize, search, ordering: orderingOf(sort) }));
  useEffect(() => setBreadcrumb([{ label: 'Security manager', to: '/security-manager' }, { label: 'Security policies' }]), []);
  const canAdd = hasPermission('securitymanager.add_securitypolicy');
  const canChange = hasPermission('securitymanager.change_securitypolicy');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['security-policies'] });
  const starter = useMutation({
    mutationFn: (enable: boolean) => apiFetch<{ added: number; enabled: number }>(`${policiesPath}/starter`, { method: 'POST', body: { enable } }),
    onSuccess: (answer) => {
      notify('success', `${answer.added} starter polic${answer.added === 1 ? 'y' : 'ies'} added, ${answer.enabled} enabled. Scores follow at the next discovery.`);
      void refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (policy: SecurityPolicy) => apiFetch(`${policiesPath}/${policy.id}`, { method: 'PATCH', body: { enabled: !policy.enabled } }),
    onSuccess: () => void refresh(),
  });
  return (
    <section className="security-page">
      <PageHeader
        title="Security policies"
        description="Controls every device they apply to should meet, written in the query language: a device passes when it matches. Enabled policies are evaluated at each discovery."
        actions={
          <span className="security-actions">
            {canAdd && <Button variant="secondary" loading={starter.isPending && starter.variables === false} onClick={() => starter.mutate(false)}>Add starter policies</Button>}
            {canAdd && canChange && <Button variant="secondary" loading={starter.isPending && starter.variables === true} onClick={() => starter.mutate(true)}>Enable starter policies</Button>}
            {canAdd && <Button onClick={() => void navigate({ to: '/security-manager/security-policy/create' })}>New policy</Button>}
          </span>
        }
      />
      <TextInput label="Search policies" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption="Security policies"
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        sort={sort}
        onSortChange={(next) => { setSort(next); setPage(1); }}
        loading={list.isFetching}
        columns={[
          { id: 'enabled', header: 'Enabled', sortable: true, cell: (row) => <Switch label={`Enable ${row.name}`} checked={row.enabled} disabled={!canChange || toggle.isPending} onCheckedChange={() => toggle.mutate(row)} /> },
          { id: 'name', header: 'Name', sortable: true, cell: (row) => (canChange ? <Link to="/security-manager/security-policy/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> : row.name) },
          { id: 'severity', header: 'Severity', sortable: true, cell: (row) => <Badge tone={severityTone[row.severity]}>{row.severity}{row.weight ? ` (weight ${row.weight})` : ''}</Badge> },
          { id: 'cis_safeguard', header: 'CIS v8', sortable: true, cell: (row) => (row.cis_safeguard ? <span title={row.cis_title}>{row.cis_safeguard}</span> : '-') },
          {
            id: 'last_result', header: 'Latest snapshot',
            cell: (row) => (!row.last_result ? '-' : row.last_result.error ? <span className="security-error">{row.last_result.error}</span>
              : <Link to="/device-inventory" search={{ query: `FailedPolicies = "${row.name.replace(/"/g, '\\"')}"` }}>{`${row.last_result.failed.toLocaleString()} of ${row.last_result.applicable.toLocaleString()} failed`}</Link>),
          },
          { id: 'actions', header: 'Actions', cell: (row) => hasPermission('securitymanager.delete_securitypolicy') && <Button variant="link" aria-label={`Delete ${row.name}`} onClick={() => setDeleting(row)}>Delete</Button> },
        ]}
        empty={<EmptyState title={search ? 'No policies match' : 'No policies yet'} description={search ? 'Change or clear the search.' : 'Add the starter library (about twenty CIS Controls v8 safeguards) or write your own.'} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
      {deleting && <DeleteDialog noun="policy" item={deleting} path={policiesPath} listKey="security-policies" consequence="Scores from the next discovery on leave it out." onClose={() => setDeleting(null)} />}
    </section>
  );
}
