import { useQuery } from '@tanstack/react-query';
import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { hasPermission } from '../../app/session/session';
import { entitySchemaQuery, SchemaList, type EntitySchema } from '../../renderers';
import { ErrorState, Spinner } from '../../ui';

export const ldapSchemaId = 'cartograph:settings/ldap-configuration';
export const ldapListPath = '/settings/ldap-configuration';

/** `/settings/ldap-configuration`: the directories users may sign in with. */
export function LdapConfigurations(_props: PageProps) {
  const schema = useQuery(entitySchemaQuery(ldapSchemaId));
  if (schema.isError) return <ErrorState title={t('settings.cannotShow')} message={schema.error.message} />;
  if (!schema.data) return <Spinner label={t('settings.loading')} />;
  const mayChange = hasPermission('configurations.change_ldapconfiguration');
  return (
    <SchemaList
      schema={schema.data as EntitySchema}
      links={{ list: ldapListPath, create: mayChange ? `${ldapListPath}/create` : null, edit: mayChange ? (id) => `${ldapListPath}/${encodeURIComponent(String(id))}/edit` : null, detail: null }}
    />
  );
}
