import type { PageProps } from '../../app/pageModules';
import { SettingsDocumentForm } from './avm/SettingsDocumentForm';
import { TestAction } from './outbound/TestAction';

/** `/settings/syslog-configuration`: where every activity is forwarded, and a test event. */
export function SyslogConfiguration(_props: PageProps) {
  return (
    <SettingsDocumentForm schemaId="cartograph:settings/syslog-configuration" path="/configurations/syslog-configuration" changePermission="configurations.change_syslogconfiguration" savedMessage="Syslog settings saved. Activities are forwarded from now on.">
      <TestAction
        title="Send a test event" description="Sends one event to the saved receiver. Save your changes first."
        path="/configurations/syslog-configuration/test" permission="configurations.change_syslogconfiguration" buttonLabel="Send test event"
        successText={(answer) => `The test event was sent over ${String(answer.transport).toUpperCase()} as ${answer.format === 'cef' ? 'CEF' : 'RFC 5424'}.`}
      />
    </SettingsDocumentForm>
  );
}
