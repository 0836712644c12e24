import { t } from '../../app/i18n/messages';
import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';
import { TestAction } from './outbound/TestAction';

/** `/settings/syslog-configuration`: where every activity is forwarded, and a test event. */
export function SyslogConfiguration(_props: PageProps) {
  return (
    <SettingsDocumentForm schemaId="cartograph:settings/syslog-configuration" path="/configurations/syslog-configuration" changePermission="configurations.change_syslogconfiguration" savedMessage={t('settings.syslog.saved')}>
      <TestAction
        title={t('settings.syslog.testTitle')} description={t('settings.syslog.testText')}
        path="/configurations/syslog-configuration/test" permission="configurations.change_syslogconfiguration" buttonLabel={t('settings.syslog.test')}
        successText={(answer) => t('settings.syslog.testSent', { transport: String(answer.transport).toUpperCase(), format: answer.format === 'cef' ? 'CEF' : 'RFC 5424' })}
      />
    </SettingsDocumentForm>
  );
}
