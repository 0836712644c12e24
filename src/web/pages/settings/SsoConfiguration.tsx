import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

/** `/settings/sso-configuration`: the company's OpenID Connect provider, client and group mapping. */
export function SsoConfiguration(_props: PageProps) {
  return <SettingsDocumentForm schemaId="cartograph:settings/sso-configuration" path="/configurations/sso-configuration" changePermission="configurations.change_ssoconfiguration" />;
}
