import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

/** `/settings/discovery-settings`: connections fetched at once, the time one may take, and the snapshots kept. */
export function DiscoverySettings(_props: PageProps) {
  return (
    <SettingsDocumentForm
      schemaId="cartograph:settings/discovery-settings" path="/configurations/discovery-settings" changePermission="configurations.change_discoverysettings"
      savedMessage={t('settings.discoverySettings.saved')}
    />
  );
}
