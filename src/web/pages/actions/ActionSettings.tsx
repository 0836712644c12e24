import { useEffect } from 'react';
import type { PageProps } from '../../app/pageModules';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { SettingsDocumentForm } from '../settings/avm/SettingsDocumentForm';
import { actionCenterPath } from './actionPages';

/** `/action-center/settings`: concurrency, per-target timeout, retries, history retention and allowed destinations. */
export function ActionSettings(_props: PageProps) {
  useEffect(() => setBreadcrumb([{ label: 'Action center', to: actionCenterPath }, { label: 'Settings' }]), []);
  return <SettingsDocumentForm schemaId="cartograph:settings/action-center" path="/actions/settings" changePermission="workflows.change_jobsettings" savedMessage="Settings saved. They apply from the next run." />;
}
