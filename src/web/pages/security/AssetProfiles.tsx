import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Button, EmptyState, PageHeader, Pagination, Table, TextInput, orderingOf, type SortState } from '../../ui';
import { profileListQuery, profilesPath, type AssetProfile } from './securityApi';
import { ScoreBadge } from './scoreParts';
import { DeleteDialog } from './DeleteDialog';

const pageSize = 50;

/** `/security-manager/asset-profile`: the profiles with their size and score in the latest scored snapshot. */
export function AssetProfiles() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ id: 'name', direction: 'asc' });
  const [deleting, setDeleting] = useState<AssetProfile | null>(null);
  const list = useQuery(profileListQuery({ page, size: pageSize, search, ordering: orderingOf(sort) }));
  useEffect(() => setBreadcrumb([{ label: t('security.securityManager'), to: '/security-manager' }, { label: t('security.assetProfiles') }]), []);
  const canChange = hasPermission('securitymanager.change_assetprofile');
  const canDelete = hasPermission('securitymanager.delete_assetprofile');
  return (
    <section className="security-page">
      <PageHeader
        title={t('security.assetProfiles')}
        description={t('security.namedSetsDevicesEach')}
        actions={hasPermission('securitymanager.add_assetprofile') && <Button onClick={() => void navigate({ to: '/security-manager/asset-profile/create' })}>{t('security.newProfile')}</Button>}
      />
      <TextInput label={t('security.searchProfiles')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
      <Table
        caption={t('security.assetProfiles')}
        rows={list.data?.results ?? []}
        rowKey={(row) => row.id}
        sort={sort}
        onSortChange={(next) => { setSort(next); setPage(1); }}
        loading={list.isFetching}
        columns={[
          { id: 'name', header: t('security.name'), sortable: true, cell: (row) => (canChange ? <Link to="/security-manager/asset-profile/edit/$id" params={{ id: String(row.id) }}>{row.name}</Link> : row.name) },
          { id: 'owner', header: t('security.owner'), sortable: true, cell: (row) => row.owner || '-' },
          { id: 'criticality', header: t('security.criticality'), sortable: true, align: 'end', cell: (row) => row.criticality },
          { id: 'member_count', header: t('security.devices'), align: 'end', cell: (row) => (row.member_count === null ? '-' : row.member_count.toLocaleString()) },
          { id: 'score', header: t('security.score'), cell: (row) => (row.error ? <span className="security-error">{row.error}</span> : <ScoreBadge score={row.score === null ? null : Math.round(row.score)} />) },
          { id: 'actions', header: t('security.actions'), cell: (row) => canDelete && <Button variant="link" aria-label={t('security.deleteName', { name: row.name })} onClick={() => setDeleting(row)}>{t('security.delete')}</Button> },
        ]}
        empty={<EmptyState title={search ? t('security.noProfilesMatch') : t('security.noProfilesYet')} description={search ? t('security.changeClearSearch') : t('security.createOneExampleProduction')} />}
      />
      <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
      {deleting && <DeleteDialog noun="profile" item={deleting} path={profilesPath} listKey="asset-profiles" consequence={t('security.scoresPastSnapshotsStay')} onClose={() => setDeleting(null)} />}
    </section>
  );
}
