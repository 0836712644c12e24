import { t } from '../../app/i18n/messages';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { GenericFormPage } from '../../renderers';
import { actionCenterPath, sshCredentialSchema, sshListPath } from './actionPages';

/** `/action-center/ssh/create` and `/action-center/ssh/edit/{id}`: an SSH credential, its secrets never shown again. */
export function SshActionForm({ route }: PageProps) {
  const { id } = useParams({ strict: false }) as { id?: string };
  useEffect(() => setBreadcrumb([{ label: t('actions.actionCenter'), to: actionCenterPath }, { label: t('actions.ssh'), to: sshListPath }, { label: id ? t('actions.edit') : t('actions.create') }]), [id]);
  return <GenericFormPage route={route} schema={sshCredentialSchema} itemId={id ?? null} listPath={sshListPath} />;
}
