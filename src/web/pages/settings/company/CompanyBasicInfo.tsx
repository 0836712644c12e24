import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import companySchema from '../../../../../schemas/entities/company.json';
import { apiFetch, useFieldErrors } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { formModelOf, shownFieldsOf, initialValuesOf, type EntitySchema } from '../../../renderers/form/formSchema';
import { SchemaForm } from '../../../renderers/form/SchemaForm';

export type CompanyRecord = { id: number; name: string; domain: string; is_active: boolean; is_constant: boolean };
export const companyKey = (id: string) => ['resource-item', '/companies/companies', id] as const;

/** Basic info part: the company entity form (name, active flag), saved with PUT. */
export function CompanyBasicInfo({ company }: { company: CompanyRecord }) {
  const queryClient = useQueryClient();
  const callPath = `/companies/companies/${company.id}`;
  const model = useMemo(() => formModelOf(companySchema as unknown as EntitySchema, 'edit'), []);
  const serverErrors = useFieldErrors(callPath, shownFieldsOf(model));
  const save = async (body: Record<string, unknown>) => {
    const saved = await apiFetch<CompanyRecord>(callPath, { method: 'PUT', body });
    queryClient.setQueryData(companyKey(String(company.id)), saved);
    await queryClient.invalidateQueries({ queryKey: ['resource-list', '/companies/companies'] });
    notify('success', t('settings.company.saved'));
  };
  return <SchemaForm model={model} initialValues={initialValuesOf(model, company)} serverErrors={serverErrors} onSubmit={save} sendChangedOnly />;
}
