import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { apiFetch } from '../../app/http';
import { t } from '../../app/i18n/messages';
import { navigateTo } from '../../app/navigation';
import type { PageProps } from '../../app/pageModules';
import { routeParams } from '../../renderers/form/routeParams';
import { Button, ErrorState, PageHeader, Spinner, Tabs } from '../../ui';
import { CompanyAdministrators } from './company/CompanyAdministrators';
import { CompanyBasicInfo, companyKey, type CompanyRecord } from './company/CompanyBasicInfo';
import { CompanyDomains } from './company/CompanyDomains';
import './company/company.css';

/** /settings/company/{id}/edit: basic info, domains and administrator parts of one company (spec §2). */
export function CompanyEdit({ route }: PageProps) {
  const id = routeParams(route.path).id ?? '';
  const company = useQuery({ queryKey: companyKey(id), queryFn: () => apiFetch<CompanyRecord>(`/companies/companies/${encodeURIComponent(id)}`) });
  useEffect(() => {
    if (company.data) document.title = `${company.data.name} - ${product.name}`;
  }, [company.data]);
  if (company.isPending) return <Spinner label={t('settings.loading')} />;
  if (company.isError) return <ErrorState title={t('settings.company.loadFailed')} message={company.error.message} onRetry={() => void company.refetch()} />;
  const record = company.data;
  return (
    <section className="company-edit">
      <PageHeader
        title={t('settings.company.editTitle', { name: record.name })}
        description={record.is_constant ? t('settings.company.providerText') : undefined}
        actions={<Button variant="secondary" onClick={() => navigateTo('/settings/company')}>{t('settings.company.back')}</Button>}
      />
      <Tabs
        label={t('settings.company.parts')}
        defaultValue="basic"
        tabs={[
          { id: 'basic', label: t('settings.company.basicInfo'), content: <CompanyBasicInfo company={record} /> },
          { id: 'domains', label: t('settings.company.domains'), content: <CompanyDomains companyId={record.id} /> },
          { id: 'administrator', label: t('settings.company.administrator'), content: <CompanyAdministrators companyId={record.id} /> },
        ]}
      />
    </section>
  );
}
