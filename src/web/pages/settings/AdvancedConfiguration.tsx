import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { FieldPrecedence } from './advanced/FieldPrecedence';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';

const path = '/configurations/advanced-configuration';
const changePermission = 'configurations.change_advancedconfiguration';

/**
 * `/settings/advanced-configuration`: the advanced and merge-recommendation parts as the schema renders them, then
 * the field precedence, which needs an editor of its own (a list per field, in order).
 */
export function AdvancedConfiguration(_props: PageProps) {
  return (
    <SettingsDocumentForm
      schemaId="cartograph:settings/advanced-configuration" path={path} changePermission={changePermission} omit={['ordering']}
      savedMessage={t('settings.advanced.saved')}
    >
      <FieldPrecedence path={path} changePermission={changePermission} />
    </SettingsDocumentForm>
  );
}
