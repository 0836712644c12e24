import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

/** `/settings/avm-configuration`: which feeds enrich the vulnerabilities, the software → CVE matching, and the feeds' downloads. */
export function AvmConfiguration(_props: PageProps) {
  return (
    <>
      <SettingsDocumentForm schemaId="cartograph:settings/avm-configuration" path="/configurations/avm-configuration" changePermission="configurations.change_advancedconfiguration" />
      {/* The feeds are shared by every company: their addresses and schedule are the provider company's to change.
          A section of the page, not a second page title. */}
      <SettingsDocumentForm
        schemaId="cartograph:settings/avm-feed-downloads" path="/configurations/avm-feed-downloads" changePermission="configurations.change_advancedconfiguration" providerOnly asSection
      />
    </>
  );
}
