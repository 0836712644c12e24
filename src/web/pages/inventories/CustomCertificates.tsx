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
  useEffect(() => setBreadcrumb([{ label: 'Certificates', to: '/certificate-inventory' }, { label: 'Custom certificates' }]), []);
  const remove = useMutation({
    mutationFn: (certificate: CustomCertificate) => deleteCustomCertificate(certificate.id).then(() => certificate),
    onSuccess: (certificate) => {
      notify('success', `"${certificate.name}" was deleted.`);
      void queryClient.invalidateQueries({ queryKey: ['custom-certificates'] });
    },
  });
  const columns: TableColumn<CustomCertificate>[] = [
    {
      id: 'name', header: 'Name',
      cell: (row) => (hasPermission('certificates.change_customcertificate')
        ? <Link to="/certificate-inventory/custom-certificate/$id/edit" params={{ id: String(row.id) }}>{row.name}</Link>
        : row.name),
    },
    { id: 'common_name', header: 'Common name', cell: (row) => row.common_name ?? row.subject ?? '-' },
    { id: 'issuer', header: 'Issuer', cell: (row) => row.issuer ?? '-' },
    { id: 'not_after', header: 'Expires', cell: (row) => formatDate(row.not_after) },
    { id: 'expiry', header: 'Expiry', cell: (row) => <ExpiryBadge status={row.expiry_status} /> },
    { id: 'key', header: 'Key', cell: (row) => [row.key_algorithm?.toUpperCase(), row.key_size].filter(Boolean).join(' ') || '-' },
    { id: 'weaknesses', header: 'Weaknesses', cell: (row) => (row.weaknesses.length ? row.weaknesses.map((weakness) => <Badge key={weakness} tone="danger">{weakness}</Badge>) : '-') },
    { id: 'certificate_count', header: 'Certificates', align: 'end', cell: (row) => row.certificate_count },
    { id: 'updated_at', header: 'Changed', cell: (row) => formatDate(row.updated_at) },
    ...(hasPermission('certificates.delete_customcertificate') ? [{ id: 'actions', header: 'Actions', cell: (row: CustomCertificate) => <Button variant="link" onClick={() => remove.mutate(row)}>Delete</Button> }] : []),
  ];
  return (
    <section className="inventory-page">
      <PageHeader
        title="Custom certificates"
        description="Certificates uploaded here join the certificate inventory at the next discovery."
        actions={hasPermission('certificates.add_customcertificate') ? <Button onClick={() => void navigate({ to: '/certificate-inventory/custom-certificate/create' })}>Add certificate</Button> : null}
      />
      {list.isError ? <ErrorState title="The custom certificates could not be loaded" message={list.error.message} onRetry={() => void list.refetch()} /> : (
        <>
          <TextInput label="Search custom certificates" type="search" value={search} debounce={300} onValueChange={(value) => { setSearch(value); setPage(1); }} />
          <Table caption="Custom certificates" columns={columns} rows={list.data?.results ?? []} rowKey={(row) => row.id} loading={list.isFetching}
            empty={<EmptyState title={search ? 'Nothing matches the search' : 'No custom certificate yet'} description={search ? undefined : 'Upload or paste a certificate (PEM, DER, PKCS#7 or PKCS#12).'} />} />
          <Pagination page={page} pageSize={pageSize} count={list.data?.count ?? 0} onPageChange={setPage} />
        </>
      )}
    </section>
  );
}
