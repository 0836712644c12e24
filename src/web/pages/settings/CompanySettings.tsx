import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

/** `/settings/company-settings`: the company's own settings — its OpenID Connect provider, client and group mapping. */
export function CompanySettings(_props: PageProps) {
  return <SettingsDocumentForm schemaId="cartograph:settings/sso-configuration" path="/configurations/sso-configuration" changePermission="configurations.change_companysettings" />;
}
