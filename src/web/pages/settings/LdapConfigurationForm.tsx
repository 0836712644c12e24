import { useState } from 'react';
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
          title="Test the directory" description="Binds with the saved service account and looks up a user (the one named, or the first the filter finds)."
          path={`/configurations/ldap-configurations/${encodeURIComponent(id)}/test`} permission="configurations.change_ldapconfiguration" buttonLabel="Test"
          fields={<TextInput id="ldap-test-username" label="Sample username" value={username} onValueChange={setUsername} />}
          body={() => (username.trim() ? { username: username.trim() } : {})}
          successText={(answer) => {
            const user = (answer as TestAnswer).user;
            return user ? `Bind worked. Found ${user.username} (${user.dn}), ${user.groups.length} directory groups, ${user.mapped_group_ids.length} mapped to Cartograph groups.` : 'Bind worked.';
          }}
        />
      )}
    </>
  );
}
