import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { product } from '../../../core/product';
import { apiFetch } from '../../app/http';
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
  if (company.isPending) return <Spinner label="Loading" />;
  if (company.isError) return <ErrorState title="This company could not be loaded" message={company.error.message} onRetry={() => void company.refetch()} />;
  const record = company.data;
  return (
    <section className="company-edit">
      <PageHeader
        title={`Edit company: ${record.name}`}
        description={record.is_constant ? 'The provider company: it administers every other company.' : undefined}
        actions={<Button variant="secondary" onClick={() => navigateTo('/settings/company')}>Back to companies</Button>}
      />
      <Tabs
        label="Company parts"
        defaultValue="basic"
        tabs={[
          { id: 'basic', label: 'Basic info', content: <CompanyBasicInfo company={record} /> },
          { id: 'domains', label: 'Domains', content: <CompanyDomains companyId={record.id} /> },
          { id: 'administrator', label: 'Administrator', content: <CompanyAdministrators companyId={record.id} /> },
        ]}
      />
    </section>
  );
}
