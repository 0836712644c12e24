import { t } from '../../app/i18n/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiFetch, useFieldErrors } from '../../app/http';
import { navigateTo } from '../../app/navigation';
import { notify } from '../../app/notifications/notifications';
import type { PageProps } from '../../app/pageModules';
import { getSession } from '../../app/session/session';
import { Button, EmptyState, ErrorState, PageHeader, Spinner } from '../../ui';
import { entityLinks } from '../list/entityRoutes';
import { resourceItemQuery } from '../list/listQuery';
import { entitySchemaQuery } from '../schema/entitySchema';
import { formModelOf, initialValuesOf, shownFieldsOf, type EntitySchema as FormEntitySchema } from './formSchema';
import { routeParams } from './routeParams';
import { SchemaForm } from './SchemaForm';

type Values = Record<string, unknown>;

/**
 * The `generic:form` page: the route's entity schema rendered as a form, loaded with `GET path/{id}` when the route has
 * an `{id}`, saved with `POST path` or `PUT path/{id}` on the schema's `x-resource` path. After saving it goes back to
 * the entity's list. A page whose routes do not follow the generic paths passes the item's id (none: create) and its list.
 */
export function GenericFormPage({ route, schema: schemaId = route.schema ?? '', ...custom }: PageProps & { itemId?: string | null; listPath?: string }) {
  const id = custom.itemId === undefined ? routeParams(route.path).id : (custom.itemId ?? undefined);
  const schemaQuery = useQuery(entitySchemaQuery(schemaId));
  const entity = schemaQuery.data as unknown as FormEntitySchema | undefined;
  const resourcePath = entity?.['x-resource']?.path;
  const item = useQuery({ ...resourceItemQuery<Values>(resourcePath ?? '', id ?? ''), enabled: Boolean(resourcePath && id) });
  const model = useMemo(() => (entity ? formModelOf(entity, id ? 'edit' : 'create') : null), [entity, id]);
  const callPath = id ? `${resourcePath}/${encodeURIComponent(id)}` : (resourcePath ?? '');
  const serverErrors = useFieldErrors(callPath, model ? shownFieldsOf(model) : undefined);
  const queryClient = useQueryClient();
  const listPath = custom.listPath ?? entityLinks(schemaId, getSession().user?.permissions ?? []).list;
  const title = id ? t('renderers.editTitle', { title: (entity?.title ?? t('renderers.item')).toLowerCase() }) : t('renderers.createTitle', { title: (entity?.title ?? t('renderers.item')).toLowerCase() });

  if (schemaQuery.isError) return <ErrorState title={t('renderers.formCannotShown')} message={schemaQuery.error.message} />;
  if (schemaQuery.isPending || (id && item.isPending)) return <Spinner label={t('renderers.loading')} />;
  if (!model || !resourcePath) return <EmptyState title={t('renderers.schemaHasNoApi')} />;
  if (id && item.isError) return <ErrorState title={t('renderers.itemCouldNotLoaded')} message={item.error.message} onRetry={() => void item.refetch()} />;

  const save = async (body: Values) => {
    const saved = await apiFetch<Values>(callPath, { method: id ? 'PUT' : 'POST', body });
    await queryClient.invalidateQueries({ queryKey: ['resource-list', resourcePath] });
    if (id) queryClient.setQueryData(resourceItemQuery(resourcePath, id).queryKey, saved);
    notify('success', id ? t('renderers.changesSaved') : t('renderers.titleCreated', { title: entity?.title ?? t('renderers.item') }));
    if (listPath) navigateTo(listPath);
  };

  return (
    <section className="generic-form-page">
      <PageHeader title={title} description={entity?.description} />
      <SchemaForm
        key={id ?? 'new'}
        model={model}
        initialValues={id && item.data ? initialValuesOf(model, item.data) : {}}
        serverErrors={serverErrors}
        onSubmit={save}
        submitLabel={id ? t('renderers.save') : t('renderers.create')}
        sendChangedOnly={Boolean(id)}
        actions={listPath ? <Button variant="secondary" onClick={() => navigateTo(listPath)}>{t('renderers.cancel')}</Button> : null}
      />
    </section>
  );
}
