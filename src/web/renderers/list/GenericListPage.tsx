import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/pageModules';
import { useSession } from '../../app/session/session';
import { ErrorState } from '../../ui/ErrorState/ErrorState';
import { Spinner } from '../../ui/Spinner/Spinner';
import { entitySchemaQuery } from '../schema/entitySchema';
import { entityLinks } from './entityRoutes';
import { SchemaList } from './SchemaList';

/** The page of a `generic:list` route: loads the route's entity schema, then lists the entity's resource. */
export function GenericListPage({ route, schema: schemaId = route.schema }: PageProps) {
  const permissions = useSession().user?.permissions ?? [];
  const schema = useQuery({ ...entitySchemaQuery(schemaId ?? ''), enabled: Boolean(schemaId) });
  if (!schemaId) return <ErrorState message={`The route ${route.path} names no schema.`} />;
  if (schema.isError) return <ErrorState message={schema.error.message} />;
  if (!schema.data) return <Spinner label="Loading page" />;
  return <SchemaList schema={schema.data} links={entityLinks(schemaId, permissions)} />;
}
