import type { Queryable } from '../db/database.js';
import { loadSettingsDocument, saveSettingsDocument } from '../settings/settingsStore.js';
import type { SyslogTarget } from '../outbound/syslog.js';

/** The syslog configuration page, one document per company (`cartograph:settings/syslog-configuration`). */
export const syslogSettingsKind = 'cartograph:settings/syslog-configuration';

export type SyslogSettings = SyslogTarget & { enabled: boolean; ca_certificate: string; verify_certificate: boolean };

export const defaultSyslogSettings: SyslogSettings = {
  enabled: false, host: '', port: 514, transport: 'udp', format: 'rfc5424', ca_certificate: '', verify_certificate: true,
};

export function loadSyslogSettings(db: Queryable, companyId: number): Promise<SyslogSettings> {
  return loadSettingsDocument(db, companyId, syslogSettingsKind, defaultSyslogSettings);
}

export async function saveSyslogSettings(db: Queryable, companyId: number, settings: SyslogSettings): Promise<SyslogSettings> {
  const document = { ...defaultSyslogSettings, ...settings, host: settings.host.trim() };
  await saveSettingsDocument(db, companyId, syslogSettingsKind, document);
  return document;
}

/** The receiver of the settings, without the page's own switch. */
export function syslogTargetOf(settings: SyslogSettings): SyslogTarget {
  const { enabled: _enabled, ...target } = settings;
  return target;
}
