import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

/** `/settings/avm-configuration`: which feeds enrich the vulnerabilities, and the software → CVE matching. */
export function AvmConfiguration(_props: PageProps) {
  return <SettingsDocumentForm schemaId="cartograph:settings/avm-configuration" path="/configurations/avm-configuration" changePermission="configurations.change_advancedconfiguration" />;
}
