import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { apiFetch, useFieldErrors } from '../../../app/http';
import { t } from '../../../app/i18n/messages';
import { notify } from '../../../app/notifications/notifications';
import { getSession } from '../../../app/session/session';
import { formModelOf, shownFieldsOf, initialValuesOf, type EntitySchema as FormEntitySchema } from '../../../renderers/form/formSchema';
import { SchemaForm } from '../../../renderers/form/SchemaForm';
import { entitySchemaQuery } from '../../../renderers/schema/entitySchema';
import { Card, ErrorState, PageHeader, Spinner } from '../../../ui';
import './avm.css';

type Values = Record<string, unknown>;

/** A settings document (GET `path`); pages showing more of the same document (next runs, an editor) share its cache. */
export const settingsDocumentQuery = <T extends Values = Values>(path: string) => queryOptions({ queryKey: ['settings-document', path], queryFn: () => apiFetch<T>(path) });

/**
 * A settings page's document (one per company) rendered from its schema in schemas/settings: read with GET `path`,
 * saved whole with PUT `path`. Read-only for a caller without `changePermission` (or, `providerOnly`, of another company than the provider).
 * `children` (a test button) follow the form. `omit` leaves properties to an editor of their own on the page: the form
 * saves them as loaded. `asSection` renders a second document of a page under a card heading instead of the page's.
 */
export function SettingsDocumentForm({ schemaId, path, changePermission, savedMessage = t('settings.document.saved'), providerOnly = false, omit, asSection = false, children }: {
  schemaId: string; path: string; changePermission: string; savedMessage?: string; providerOnly?: boolean; omit?: string[]; asSection?: boolean; children?: ReactNode;
}) {
  const schemaQuery = useQuery(entitySchemaQuery(schemaId));
  const documentQuery = useQuery(settingsDocumentQuery(path));
  const schema = schemaQuery.data as unknown as FormEntitySchema | undefined;
  const omitted = omit?.join(',') ?? '';
  const model = useMemo(() => (schema ? formModelOf(withoutProperties(schema, omitted ? omitted.split(',') : []), 'edit') : null), [schema, omitted]);
  const serverErrors = useFieldErrors(path, model ? shownFieldsOf(model) : undefined);
  const queryClient = useQueryClient();
  const mayChange = (getSession().user?.permissions ?? []).includes(changePermission) && (!providerOnly || Boolean(getSession().company?.is_constant));

  if (schemaQuery.isError) return <ErrorState title={t('settings.cannotShow')} message={schemaQuery.error.message} />;
  if (documentQuery.isError) return <ErrorState title={t('settings.document.loadFailed')} message={documentQuery.error.message} onRetry={() => void documentQuery.refetch()} />;
  if (!model || !documentQuery.data) return <Spinner label={t('settings.loading')} />;

  const save = async (body: Values) => {
    const saved = await apiFetch<Values>(path, { method: 'PUT', body: { ...documentQuery.data, ...body } });
    queryClient.setQueryData(['settings-document', path], saved);
    notify('success', savedMessage);
  };

  const form = <SchemaForm model={model} initialValues={initialValuesOf(model, documentQuery.data)} serverErrors={serverErrors} onSubmit={save} submitLabel={t('settings.document.save')} disabled={!mayChange} />;
  if (asSection) {
    return (
      <Card title={schema?.title ?? t('settings.document.title')} className="settings-document">
        {schema?.description ? <p>{schema.description}</p> : null}
        {form}
        {children}
      </Card>
    );
  }
  return (
    <section className="settings-document">
      <PageHeader title={schema?.title ?? t('settings.document.title')} description={schema?.description} />
      {form}
      {children}
    </section>
  );
}

function withoutProperties(schema: FormEntitySchema, names: string[]): FormEntitySchema {
  if (!names.length) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !names.includes(name)));
  return { ...schema, properties, required: schema.required?.filter((name) => !names.includes(name)) };
}
