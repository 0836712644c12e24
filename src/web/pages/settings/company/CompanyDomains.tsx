import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import domainSchema from '../../../../../schemas/entities/domain.json';
import { apiFetch, useFieldErrors } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { getSession, hasPermission } from '../../../app/session/session';
import { formModelOf, shownFieldsOf, type EntitySchema } from '../../../renderers/form/formSchema';
import { SchemaForm } from '../../../renderers/form/SchemaForm';
import { Badge, Button, Dialog, EmptyState, Table, type TableColumn } from '../../../ui';

export type DomainVerification = { type: 'TXT'; names: string[]; value: string };
export type DomainRecord = {
  id: number; domain: string; tenant: number; tenant_name: string; is_primary: boolean;
  /** A claim routes single sign-on only once verified (DNS TXT record, or the provider company's approval). */
  status?: 'pending' | 'verified'; verification?: DomainVerification;
};
const domainsCall = '/companies/domains';

/** What a pending claim asks for: publish this TXT record, then verify. */
function PendingClaim({ verification }: { verification: DomainVerification }) {
  return (
    <div className="company-part__claim">
      <Badge tone="warning">{t('settings.company.pending')}</Badge>{' '}
      <span>{t('settings.company.publishRecord', { names: verification.names.join(t('settings.company.or')) })}</span>{' '}
      <code>{verification.value}</code>
    </div>
  );
}

/** Domains part: the company's domains, one primary; add, verify (DNS TXT) or approve (provider), make primary, remove. */
export function CompanyDomains({ companyId }: { companyId: number }) {
  const queryClient = useQueryClient();
  const key = ['resource-list', domainsCall, { tenant: companyId }] as const;
  const domains = useQuery({ queryKey: key, queryFn: () => apiFetch<{ results: DomainRecord[] }>(domainsCall, { query: { tenant: companyId, size: 1000, ordering: 'domain' } }) });
  const [removing, setRemoving] = useState<DomainRecord | null>(null);
  const [formKey, setFormKey] = useState(0);
  // The company is fixed by the page: its field is hidden and filled in.
  const model = useMemo(() => {
    const base = formModelOf(domainSchema as unknown as EntitySchema, 'create');
    return { ...base, uiSchema: { ...base.uiSchema, tenant: { 'ui:widget': 'hidden' } }, rules: { ...base.rules, domain: 'required|max:253|no_space' } };
  }, []);
  const serverErrors = useFieldErrors(domainsCall, shownFieldsOf(model));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['resource-list', domainsCall] });

  const add = async (body: Record<string, unknown>) => {
    await apiFetch(domainsCall, { method: 'POST', body: { ...body, tenant: companyId } });
    notify('success', t('settings.company.domainAdded', { domain: String(body.domain) }));
    setFormKey((value) => value + 1);
    await refresh();
  };
  const makePrimary = async (domain: DomainRecord) => {
    await apiFetch(`${domainsCall}/${domain.id}`, { method: 'PATCH', body: { is_primary: true } }).then(refresh, () => undefined);
  };
  // Verify and approve answer the domain; a refusal is notified by the HTTP client and leaves the list as it is.
  const claimAction = async (domain: DomainRecord, action: 'verify' | 'approve') => {
    await apiFetch(`${domainsCall}/${domain.id}/${action}`, { method: 'POST' }).then(refresh, () => undefined);
  };
  const remove = async () => {
    if (!removing) return;
    try {
      await apiFetch(`${domainsCall}/${removing.id}`, { method: 'DELETE' });
      setRemoving(null);
      await refresh();
    } catch {
      // Notified by the HTTP client.
    }
  };

  const canChange = hasPermission('companies.change_domain');
  const isProvider = getSession().company?.is_constant === true;
  const claimCell = (domain: DomainRecord) => {
    if (domain.status !== 'pending') return domain.status === 'verified' ? <Badge tone="success">{t('settings.company.verified')}</Badge> : null;
    return (
      <>
        {domain.verification ? <PendingClaim verification={domain.verification} /> : <Badge tone="warning">{t('settings.company.pending')}</Badge>}
        {canChange ? <Button size="small" variant="link" onClick={() => void claimAction(domain, 'verify')}>{t('settings.company.verify')}</Button> : null}
        {canChange && isProvider ? <Button size="small" variant="link" onClick={() => void claimAction(domain, 'approve')}>{t('settings.company.approve')}</Button> : null}
      </>
    );
  };
  const columns: TableColumn<DomainRecord>[] = [
    { id: 'domain', header: t('settings.company.domain'), cell: (domain) => domain.domain },
    { id: 'claim', header: t('settings.company.claim'), cell: claimCell },
    { id: 'is_primary', header: t('settings.company.primary'), cell: (domain) => (domain.is_primary ? <Badge tone="success">{t('settings.company.primary')}</Badge> : canChange ? <Button size="small" variant="link" onClick={() => void makePrimary(domain)}>{t('settings.company.makePrimary')}</Button> : null) },
    ...(hasPermission('companies.delete_domain')
      ? [{ id: 'actions', header: t('settings.company.actions'), align: 'end' as const, cell: (domain: DomainRecord) => <Button size="small" variant="danger" onClick={() => setRemoving(domain)}>{t('settings.company.remove')}</Button> }]
      : []),
  ];
  return (
    <div className="company-part">
      <Table caption={t('settings.company.domains')} columns={columns} rows={domains.data?.results ?? []} rowKey={(domain) => domain.id} loading={domains.isPending} empty={<EmptyState title={t('settings.company.noDomains')} />} />
      {hasPermission('companies.add_domain') ? (
        <div className="company-part__form">
          <h3>{t('settings.company.addDomain')}</h3>
          <SchemaForm key={formKey} model={model} initialValues={{ tenant: companyId, is_primary: false }} serverErrors={serverErrors} onSubmit={add} submitLabel={t('settings.company.addDomainButton')} />
        </div>
      ) : null}
      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        alert
        title={t('settings.company.removeDomainTitle')}
        description={t('settings.company.removeDomainText', { domain: removing?.domain ?? '' })}
        footer={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>{t('settings.company.cancel')}</Button>
            <Button variant="danger" onClick={() => void remove()}>{t('settings.company.remove')}</Button>
          </>
        }
      />
    </div>
  );
}
