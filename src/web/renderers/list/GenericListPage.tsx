import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/pageModules';
import { useSession } from '../../app/session/session';
import { ErrorState } from '../../ui/ErrorState/ErrorState';
import { Spinner } from '../../ui/Spinner/Spinner';
import { entitySchemaQuery } from '../schema/entitySchema';
import { entityLinks, type EntityLinks } from './entityRoutes';
import { defaultPageSize, pageSizes } from './listParams';
import type { ListView, ViewCodec } from './listView';
import { SchemaList } from './SchemaList';
import { useUrlListView } from './useUrlListView';

const listCodec: ViewCodec = { text: 'search', sizes: pageSizes };
const listDefaults: ListView = { page: 1, size: defaultPageSize, text: '', sort: null };

/**
 * The page of a `generic:list` route: loads the route's entity schema, then lists the entity's resource. Page, size,
 * search and sort are kept in the URL (`?page=2&search=ops&sort=-username`). A page whose routes do not follow the
 * generic paths (`…/create`, `…/{id}/edit`) passes its own links.
 */
export function GenericListPage({ route, schema: schemaId = route.schema, links }: PageProps & { links?: EntityLinks }) {
  const permissions = useSession().user?.permissions ?? [];
  const schema = useQuery({ ...entitySchemaQuery(schemaId ?? ''), enabled: Boolean(schemaId) });
  const [view, changeView] = useUrlListView(listDefaults, listCodec);
  if (!schemaId) return <ErrorState message={t('renderers.routePathNamesNoSchema', { path: route.path })} />;
  if (schema.isError) return <ErrorState message={schema.error.message} />;
  if (!schema.data) return <Spinner label={t('renderers.loadingPage')} />;
  return <SchemaList schema={schema.data} links={links ?? entityLinks(schemaId, permissions)} view={view} onViewChange={changeView} />;
}
