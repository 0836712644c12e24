import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import administratorSchema from '../../../../../schemas/api/company-administrator.json';
import { apiFetch, useFieldErrors } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { formModelOf, shownFieldsOf, type EntitySchema } from '../../../renderers/form/formSchema';
import { SchemaForm } from '../../../renderers/form/SchemaForm';
import { Badge, EmptyState, Table, type TableColumn } from '../../../ui';

type Administrator = { id: number; username: string; name: string; email: string; is_active: boolean };

/** Administrator part: the members of the company's Administrators group, and a form to create one more. */
export function CompanyAdministrators({ companyId }: { companyId: number }) {
  const queryClient = useQueryClient();
  const callPath = `/companies/companies/${companyId}/administrators`;
  const admins = useQuery({ queryKey: ['resource-list', callPath], queryFn: () => apiFetch<Administrator[]>(callPath) });
  const [formKey, setFormKey] = useState(0);
  const model = useMemo(() => {
    const base = formModelOf(administratorSchema as unknown as EntitySchema, 'create');
    return { ...base, rules: { ...base.rules, email: 'email' } };
  }, []);
  const serverErrors = useFieldErrors(callPath, shownFieldsOf(model));
  const add = async (body: Record<string, unknown>) => {
    const created = await apiFetch<Administrator>(callPath, { method: 'POST', body });
    notify('success', t('settings.company.administratorAdded', { username: created.username }));
    setFormKey((value) => value + 1);
    await queryClient.invalidateQueries({ queryKey: ['resource-list', callPath] });
  };
  const columns: TableColumn<Administrator>[] = [
    { id: 'username', header: t('settings.company.username'), cell: (admin) => admin.username },
    { id: 'name', header: t('settings.company.name'), cell: (admin) => admin.name || '-' },
    { id: 'email', header: t('settings.company.email'), cell: (admin) => admin.email || '-' },
    { id: 'is_active', header: t('settings.company.status'), cell: (admin) => <Badge tone={admin.is_active ? 'success' : 'neutral'}>{admin.is_active ? t('settings.company.active') : t('settings.company.inactive')}</Badge> },
  ];
  return (
    <div className="company-part">
      <Table caption={t('settings.company.administrators')} columns={columns} rows={admins.data ?? []} rowKey={(admin) => admin.id} loading={admins.isPending} empty={<EmptyState title={t('settings.company.noAdministrators')} />} />
      <div className="company-part__form">
        <h3>{t('settings.company.addAdministrator')}</h3>
        <SchemaForm key={formKey} model={model} serverErrors={serverErrors} onSubmit={add} submitLabel={t('settings.company.createAdministrator')} />
      </div>
    </div>
  );
}
