import { t } from '../../app/i18n/messages';
import { useEffect } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { GenericListPage } from '../../renderers';
import { actionCenterPath, sshCredentialLinks, sshCredentialSchema } from './actionPages';

/** `/action-center/ssh`: the SSH credentials SSH command actions sign in with. */
export function SshActions({ route }: PageProps) {
  useEffect(() => setBreadcrumb([{ label: t('actions.actionCenter'), to: actionCenterPath }, { label: t('actions.ssh') }]), []);
  return <GenericListPage route={route} schema={sshCredentialSchema} links={sshCredentialLinks()} />;
}
