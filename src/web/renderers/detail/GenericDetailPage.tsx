import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import type { PageProps } from '../../app/pageModules';
import { useSession } from '../../app/session/session';
import { ErrorState } from '../../ui/ErrorState/ErrorState';
import { Spinner } from '../../ui/Spinner/Spinner';
import { entityLinks } from '../list/entityRoutes';
import { entitySchemaQuery } from '../schema/entitySchema';
import { SchemaDetail } from './SchemaDetail';

/** The page of a `generic:detail` route (`…/{id}`): loads the entity schema, then shows the item with that id. */
export function GenericDetailPage({ route, schema: schemaId = route.schema }: PageProps) {
  const { id } = useParams({ strict: false }) as { id?: string };
  const permissions = useSession().user?.permissions ?? [];
  const schema = useQuery({ ...entitySchemaQuery(schemaId ?? ''), enabled: Boolean(schemaId) });
  if (!schemaId || !id) return <ErrorState message={t('renderers.routePathNamesNo', { path: route.path })} />;
  if (schema.isError) return <ErrorState message={schema.error.message} />;
  if (!schema.data) return <Spinner label={t('renderers.loadingPage')} />;
  return <SchemaDetail schema={schema.data} id={id} links={entityLinks(schemaId, permissions)} />;
}
