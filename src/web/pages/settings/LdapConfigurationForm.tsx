import { useState } from 'react';
import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { GenericFormPage } from '../../renderers';
import { routeParams } from '../../renderers/form/routeParams';
import { TextInput } from '../../ui';
import { ldapListPath, ldapSchemaId } from './LdapConfigurations';
import { TestAction } from './outbound/TestAction';

type TestAnswer = { user?: { dn: string; username: string; email: string; groups: string[]; mapped_group_ids: number[] } };

/** `/settings/ldap-configuration/create` and `/{id}/edit`: the directory's form, and on edit the bind-and-lookup test. */
export function LdapConfigurationForm(props: PageProps) {
  const id = routeParams(props.route.path).id ?? null;
  const [username, setUsername] = useState('');
  return (
    <>
      <GenericFormPage {...props} schema={ldapSchemaId} itemId={id} listPath={ldapListPath} />
      {id && (
        <TestAction
          title={t('settings.ldap.testTitle')} description={t('settings.ldap.testText')}
          path={`/configurations/ldap-configurations/${encodeURIComponent(id)}/test`} permission="configurations.change_ldapconfiguration" buttonLabel={t('settings.ldap.test')}
          fields={<TextInput id="ldap-test-username" label={t('settings.ldap.sampleUsername')} value={username} onValueChange={setUsername} />}
          body={() => (username.trim() ? { username: username.trim() } : {})}
          successText={(answer) => {
            const user = (answer as TestAnswer).user;
            return user
              ? t('settings.ldap.testFound', { username: user.username, dn: user.dn, groups: user.groups.length, mapped: user.mapped_group_ids.length })
              : t('settings.ldap.testWorked');
          }}
        />
      )}
    </>
  );
}
