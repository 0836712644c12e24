import { t } from '../../app/i18n/messages';
import { useEffect } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { SettingsDocumentForm } from '../settings/avm/SettingsDocumentForm';
import { actionCenterPath } from './actionPages';

/** `/action-center/settings`: concurrency, per-target timeout, retries, history retention and allowed destinations. */
export function ActionSettings(_props: PageProps) {
  useEffect(() => setBreadcrumb([{ label: t('actions.actionCenter'), to: actionCenterPath }, { label: t('actions.settings') }]), []);
  return <SettingsDocumentForm schemaId="cartograph:settings/action-center" path="/actions/settings" changePermission="workflows.change_jobsettings" savedMessage={t('actions.settingsSavedTheyApply')} />;
}
