import { t } from '../../app/i18n/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../core/dates';
import { notify } from '../../app/notifications/notifications';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { Badge, Button, EmptyState, ErrorState, PageHeader, Pagination, Table, TextInput, type TableColumn } from '../../ui';
import { customCertificatesQuery, deleteCustomCertificate, type CustomCertificate } from './certificateApi';
import { ExpiryBadge } from './certificateBadges';
import './inventories.css';

const pageSize = 50;

/** `/certificate-inventory/custom-certificate`: the certificates administrators uploaded or pasted. */
export function CustomCertificates() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const list = useQuery(customCertificatesQuery({ page, size: pageSize, search }));
  useEffect(() => setBreadcrumb([{ label: t('inventories.certificates'), to: '/certificate-inventory' }, { label: t('inventories.customCertificates') }]), []);
  const remove = useMutation({
    mutationFn: (certificate: CustomCertificate) => deleteCustomCertificate(certificate.id).then(() => certificate),
    onSuccess: (certificate) => {
      notify('success', t('inventories.nameWasDeleted', { name: certificate.name }));
      void queryClient.invalidateQueries({ queryKey: ['custom-certificates'] });
    },
  });
  const columns: TableColumn<CustomCertificate>[] = [
    {
      id: 'name', header: t('inventories.name'),
      cell: (row) => (hasPermission('certificates.change_customcertificate')
        ? <Link to="/certificate-inventory/custom-certificate/$id/edit" params={{ id: String(row.id) }}>{row.name}</Link>
        : row.name),
    },
    { id: 'common_name', header: t('inventories.commonName'), cell: (row) => row.common_name ?? row.subject ?? '-' },
    { id: 'issuer', header: t('inventories.issuer'), cell: (row) => row.issuer ?? '-' },
    { id: 'not_after', header: t('inventories.expires'), cell: (row) => <span className="ui-nowrap">{formatDate(row.not_after)}</span> },
    { id: 'expiry', header: t('inventories.expiry'), cell: (row) => <ExpiryBadge status={row.expiry_status} /> },
    { id: 'key', header: t('inventories.key'), cell: (row) => [row.key_algorithm?.toUpperCase(), row.key_size].filter(Boolean).join(' ') || '-' },
    { id: 'weaknesses', header: t('inventories.weaknesses'), cell: (row) => (row.weaknesses.length ? row.weaknesses.map((weakness) => <Badge key={weakness} tone="danger">{weakness}</Badge>) : '-') },
    { id: 'certificate_count', header: t('inventories.certificates'), align: 'end', cell: (row) => row.certificate_count },
    { id: 'updated_at', header: t('inventories.changed'), cell: (row) => <span className="ui-nowrap">{formatDate(row.updated_at)}</span> },
    ...(hasPermission('certificates.delete_customcertificate') ? [{ id: 'actions', header: t('inventories.actions'), cell: (row: CustomCertificate) => <Button variant="link" onClick={() => remove.mutate(row)}>{t('inventories.delete')}</Button> }] : []),
  ];
  return (
    <section className="inventory-page">
      <PageHeader
        title={t('inventories.customCertificates')}
        description={t('inventories.certificatesUploadedHereJoin')}
        actions={hasPermission('certificates.add_customcertificate') ? <Button onClick={() => void navigate({ to: '/certificate-inventory/custom-certificate/create' })}>{t('inventories.addCertificate')}</Button> : null}
      />
      {list.isError ? <ErrorState title={t('inventories.customCertificatesCouldNot')} message={list.error.message} onRetry={() => void list.refetch()} /> : (
        <>
          <TextInput label={t('inventories.searchCustomCertificates')} type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
          <Table caption={t('inventories.customCertificates')} columns={columns} rows={list.data?.results ?? []} rowKey={(row) => row.id} loading={list.isFetching}
            empty={<EmptyState title={search ? t('inventories.nothingMatchesSearch') : t('inventories.noCustomCertificateYet')} description={search ? undefined : t('inventories.uploadPasteCertificatePem')} />} />
          <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
        </>
      )}
    </section>
  );
}
