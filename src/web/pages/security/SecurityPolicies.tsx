import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { schemaMessageKey } from '../../../core/schemaMessages';
import { apiFetch } from '../../app/http';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, EmptyState, PageHeader, Pagination, Switch, Table, TextInput, orderingOf, type SortState } from '../../ui';
import { policiesPath, policyListQuery, type SecurityPolicy } from './securityApi';
import { DeleteDialog } from './DeleteDialog';

const pageSize = 50;
const severityTone = { critical: 'danger', high: 'danger', medium: 'warning', low: 'info' } as const;
const policyText = (property: string, value: string) => t(schemaMessageKey('cartograph:entities/security-policy', `/properties/${property}`, `enum.${value}`), {}, value);

/**
 * The devices or users that failed a policy in the latest snapshot: its inventory's list, filtered by the failed
 * policies the scoring wrote into them (users by name and link to their detail, as the user inventory shows them).
 */
function FailedLink({ policy }: { policy: SecurityPolicy }) {
  const result = policy.last_result!;
  const text = t('security.failedApplicableFailed', { failed: result.failed.toLocaleString(), applicable: result.applicable.toLocaleString() });
  const search = { query: `FailedPolicies = "${policy.name.replace(/"/g, '\\"')}"` };
  return policy.inventory === 'user' ? <Link to="/user-inventory" search={search}>{text}</Link> : <Link to="/device-inventory" search={search}>{text}</Link>;
}

/** `/security-manager/security-policy`: the policies, what they check, their CIS safeguard, and how many failed each. */
export function SecurityPolicies() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ id: 'cis_safeguard', direction: 'asc' });
  const [deleting, setDeleting] = useState<SecurityPolicy | null>(null);
  // The server scores the latest snapshot again after a change, in the background: the list is read again for a
  // while so the new failures show without a reload.
  const [rescoringUntil, setRescoringUntil] = useState(0);
  const rescoring = () => setRescoringUntil(Date.now() + 60_000);
  const list = useQuery({ ...policyListQuery({ page, size: pageSize, search, ordering: orderingOf(sort) }), refetchInterval: () => (Date.now() < rescoringUntil ? 3000 : false) });
  useEffect(() => setBreadcrumb([{ label: t('security.securityManager'), to: '/security-manager' }, { label: t('security.securityPolicies') }]), []);
  const canAdd = hasPermission('securitymanager.add_securitypolicy');
  const canChange = hasPermission('securitymanager.change_securitypolicy');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['security-policies'] });
  const starter = useMutation({
    mutationFn: (enable: boolean) => apiFetch<{ added: number; enabled: number; available: number; queries_added?: number }>(`${policiesPath}/starter`, { method: 'POST', body: { enable } }),
    onSuccess: (answer) => {
      if (answer.added === 0 && answer.enabled === 0) notify('success', t('security.starterAllPresent', { available: answer.available }));
      else notify('success', t(answer.added === 1 ? 'security.starterPolicyAdded' : 'security.starterPoliciesAdded', { added: answer.added, enabled: answer.enabled }));
      // The people control comes as a saved query of the user inventory too.
      if (answer.queries_added) notify('success', t('security.starterQueriesAdded', { added: answer.queries_added }));
      if (answer.enabled) rescoring();
      void refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (policy: SecurityPolicy) => apiFetch(`${policiesPath}/${policy.id}`, { method: 'PATCH', body: { enabled: !policy.enabled } }),
    onSuccess: () => {
      rescoring();
      void refresh();
    },
  });
  return (
    <section className="security-page">
      <PageHeader
        title={t('security.securityPolicies')}
        description={t('security.controlsEveryDeviceThey')}
        actions={
          <span className="security-actions">
            {canAdd && <Button variant="secondary" loading={starter.isPending && starter.variables === false} onClick={() => starter.mutate(false)}>{t('security.addStarterPolicies')}</Button>}
            {canAdd && canChange && <Button variant="secondary" loading={starter.isPending && starter.variables === true} onClick={() => starter.mutate(true)}>{t('security.enableStarterPolicies')}</Button>}
            {canAdd && <Button onClick={() => void navigate({ to: '/security-manager/security-policy/create' })}>{t('security.newPolicy')}</Button>}
          </span>
        }
      />
      <TextInput label={t('security.searchPolicies')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={t('security.securityPolicies')}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        sort={sort}
        onSortChange={(next) => { setSort(next); setPage(1); }}
        loading={list.isFetching}
        columns={[
          { id: 'enabled', header: t('security.enabled'), sortable: true, cell: (row) => <Switch hideLabel label={t('security.enableName', { name: row.name })} checked={row.enabled} disabled={!canChange || toggle.isPending} onCheckedChange={() => toggle.mutate(row)} /> },
          { id: 'name', header: t('security.name'), sortable: true, cell: (row) => (canChange ? <Link to="/security-manager/security-policy/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> : row.name) },
          { id: 'inventory', header: t('security.inventory'), sortable: true, cell: (row) => policyText('inventory', row.inventory) },
          { id: 'severity', header: t('security.severity'), sortable: true, cell: (row) => <Badge tone={severityTone[row.severity]}>{policyText('severity', row.severity)}{row.weight ? t('security.weightSuffix', { weight: row.weight }) : ''}</Badge> },
          { id: 'cis_safeguard', header: t('security.cisV8'), sortable: true, cell: (row) => (row.cis_safeguard ? <span title={row.cis_title}>{row.cis_safeguard}</span> : '-') },
          {
            id: 'last_result', header: t('security.latestSnapshot'),
            cell: (row) => (!row.last_result ? '-' : row.last_result.error ? <span className="security-error">{row.last_result.error}</span> : <FailedLink policy={row} />),
          },
          { id: 'actions', header: t('security.actions'), cell: (row) => hasPermission('securitymanager.delete_securitypolicy') && <Button variant="link" aria-label={t('security.deleteName', { name: row.name })} onClick={() => setDeleting(row)}>{t('security.delete')}</Button> },
        ]}
        empty={<EmptyState title={search ? t('security.noPoliciesMatch') : t('security.noPoliciesYet')} description={search ? t('security.changeClearSearch') : t('security.addStarterLibraryAbout')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
      {deleting && <DeleteDialog noun="policy" item={deleting} path={policiesPath} listKey="security-policies" consequence={t('security.scoresFromNextDiscovery')} onClose={() => setDeleting(null)} />}
    </section>
  );
}
