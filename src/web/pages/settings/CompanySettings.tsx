import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

/**
 * `/settings/company-settings`: the company's own settings — its single sign-on provider, client and group mapping —
 * how long its activity log (and, for the provider company, the system log) is kept, and how long API tokens may live.
 */
export function CompanySettings(_props: PageProps) {
  return (
    <>
      <SettingsDocumentForm schemaId="cartograph:settings/sso-configuration" path="/configurations/sso-configuration" changePermission="configurations.change_companysettings" />
      <SettingsDocumentForm schemaId="cartograph:settings/activity-retention" path="/configurations/activity-retention" changePermission="configurations.change_companysettings" asSection />
      <SettingsDocumentForm schemaId="cartograph:settings/api-tokens" path="/configurations/api-tokens" changePermission="configurations.change_companysettings" asSection />
    </>
  );
}
