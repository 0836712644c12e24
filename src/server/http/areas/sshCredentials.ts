import type { AppContext } from '../../context.js';
import { signInOf } from '../../actions/runners/sshRunner.js';
import { sshCredentialDefaults, sshCredentialKind, sshSecretFields, type SshCredential } from '../../actions/sshCredentials.js';
import { secretRuleOf } from '../../auth/secretRule.js';
import { schemaById } from '../validators.js';
import { HttpError } from '../errors.js';
import type { RouteCatalogue } from '../routes.js';
import { registerSealedDocuments } from '../../resources/sealedDocuments.js';

/** SSH credentials of the action center (`/action-center/ssh`): passwords, keys and passphrases sealed at rest. */
export function registerSshCredentialRoutes(routes: RouteCatalogue, context: AppContext): void {
  const sshDestinationFields = secretRuleOf(schemaById(sshCredentialKind)).destinationFields;
  registerSealedDocuments(routes, context, {
    kind: sshCredentialKind, path: '/actions/ssh-credentials', name: 'ssh_credential', title: 'SSH credential',
    permissions: { view: 'workflows.view_sshsettings', add: 'workflows.add_sshsettings', change: 'workflows.change_sshsettings', delete: 'workflows.delete_sshsettings' },
    search: ['name', 'username'],
    defaults: sshCredentialDefaults,
    // Where the credential signs in is the action's scope, not this document: only its port is a destination here.
    secretRule: () => ({ secretFields: sshSecretFields, destinationFields: sshDestinationFields }),
    check: async (_caller, document) => {
      if (document.auth_method === 'password' && !document.password) throw new HttpError(400, { password: ['The Password field is required.'] });
      if (document.auth_method === 'private_key' && !document.private_key) throw new HttpError(400, { private_key: ['The Private key field is required.'] });
      const signIn = signInOf(document as unknown as SshCredential);
      if (typeof signIn === 'string') throw new HttpError(400, { private_key: [signIn] });
    },
  });
}
