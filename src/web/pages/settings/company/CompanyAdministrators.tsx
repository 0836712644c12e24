import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import administratorSchema from '../../../../../schemas/api/company-administrator.json';
import { apiFetch, useFieldErrors } from '../../../app/http';
import { notify } from '../../../app/notifications/notifications';
import { formModelOf, type EntitySchema } from '../../../renderers/form/formSchema';
import { SchemaForm } from '../../../renderers/form/SchemaForm';
import { Badge, EmptyState, Table, type TableColumn } from '../../../ui';

type Administrator = { id: number; username: string; name: string; email: string; is_active: boolean };

/** Administrator part: the members of the company's Administrators group, and a form to create one more. */
export function CompanyAdministrators({ companyId }: { companyId: number }) {
  const queryClient = useQueryClient();
  const callPath = `/companies/companies/${companyId}/administrators`;
  const admins = useQuery({ queryKey: ['resource-list', callPath], queryFn: () => apiFetch<Administrator[]>(callPath) });
  const serverErrors = useFieldErrors(callPath);
  const [formKey, setFormKey] = useState(0);
  const model = useMemo(() => {
    const base = formModelOf(administratorSchema as unknown as EntitySchema, 'create');
    return { ...base, rules: { ...base.rules, email: 'email' } };
  }, []);
  const add = async (body: Record<string, unknown>) => {
    const created = await apiFetch<Administrator>(callPath, { method: 'POST', body });
    notify('success', `${created.username} is now an administrator of this company.`);
    setFormKey((value) => value + 1);
    await queryClient.invalidateQueries({ queryKey: ['resource-list', callPath] });
  };
  const columns: TableColumn<Administrator>[] = [
    { id: 'username', header: 'Username', cell: (admin) => admin.username },
    { id: 'name', header: 'Name', cell: (admin) => admin.name || '-' },
    { id: 'email', header: 'Email', cell: (admin) => admin.email || '-' },
    { id: 'is_active', header: 'Status', cell: (admin) => <Badge tone={admin.is_active ? 'success' : 'neutral'}>{admin.is_active ? 'Active' : 'Inactive'}</Badge> },
  ];
  return (
    <div className="company-part">
      <Table caption="Administrators" columns={columns} rows={admins.data ?? []} rowKey={(admin) => admin.id} loading={admins.isPending} empty={<EmptyState title="No administrators" />} />
      <div className="company-part__form">
        <h3>Add an administrator</h3>
        <SchemaForm key={formKey} model={model} serverErrors={serverErrors} onSubmit={add} submitLabel="Create administrator" />
      </div>
    </div>
  );
}
