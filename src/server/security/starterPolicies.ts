import type { Queryable } from '../db/database.js';
import { policyKind, type PolicyInventory } from './securityStore.js';

// The starter library: controls most fleets want, each mapped to a safeguard of the CIS Critical Security Controls
// v8 (the safeguard ids and titles are the CIS's own). They are added switched off: an administrator reviews and
// enables them (one by one, or all at once from the policy list). Conditions are plain query-language text, so a
// user edits them like their own; "which tool reports it" is asked of the source categories, never of vendor slugs.
// Most check devices; the people controls check the user inventory (`inventory: 'user'`).

export type StarterPolicy = {
  starter_id: string;
  name: string;
  /** The inventory it checks (devices when absent). */
  inventory?: PolicyInventory;
  description: string;
  query: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  remediation: string;
  cis_safeguard: string;
  cis_title: string;
};

/** A device some source of these kinds reports: `SourceCategories = edr OR SourceCategories = epp`. */
const anyCategory = (categories: string[]) => categories.map((category) => `SourceCategories = ${category}`).join(' OR ');

// Source categories are the adapters' groups (schemas/adapters/adapter.meta.json); a file export counts under the
// system it was exported from. Testing them rather than vendor slugs keeps a policy true for every product of a kind.
const edr = ['edr', 'epp', 'antivirus'];
const managers = ['mdm', 'software_deployment', 'configuration_management'];
const patching = ['software_deployment', 'mdm'];
const scanners = ['vulnerability_management', 'attack_surface'];
const directories = ['ad', 'identity'];
const cmdbs = ['cmdb', 'itam'];
const logging = ['siem'];

export const starterPolicies: StarterPolicy[] = [
  {
    starter_id: 'cis-1.1-several-sources', name: 'Known to more than one source', severity: 'low',
    description: 'The device is reported by at least two sources (connections), so the inventory does not rest on one tool.',
    query: 'ConnectionCount >= 2', remediation: 'Find why only one tool sees the device: enroll it in the directory, the EDR or the MDM.',
    cis_safeguard: '1.1', cis_title: 'Establish and Maintain Detailed Enterprise Asset Inventory',
  },
  {
    starter_id: 'cis-1.1-cmdb', name: 'Recorded in the CMDB', severity: 'low',
    description: 'A CMDB or asset-management tool knows the device.',
    query: anyCategory(cmdbs), remediation: 'Register the device in the CMDB with its owner and location.',
    cis_safeguard: '1.1', cis_title: 'Establish and Maintain Detailed Enterprise Asset Inventory',
  },
  {
    starter_id: 'cis-1.1-serial-number', name: 'Serial number known', severity: 'low',
    description: 'Some source reports the hardware serial number.',
    query: 'SerialNumber = *', remediation: 'Collect the serial number through the MDM or the CMDB.',
    cis_safeguard: '1.1', cis_title: 'Establish and Maintain Detailed Enterprise Asset Inventory',
  },
  {
    starter_id: 'cis-1.1-seen-recently', name: 'Seen in the last 7 days', severity: 'medium',
    description: 'A source saw the device active within the last seven days.',
    query: 'LastSeen last now-7d', remediation: 'Check whether the device is still in use; retire it from the inventory if not.',
    cis_safeguard: '1.1', cis_title: 'Establish and Maintain Detailed Enterprise Asset Inventory',
  },
  {
    starter_id: 'cis-1.2-directory', name: 'Joined to the directory', severity: 'medium',
    description: 'A directory service (Active Directory, Entra ID, LDAP) knows the device: a device it does not know may be unauthorized.',
    query: anyCategory(directories), remediation: 'Join the device to the directory, or remove it from the network if it is not authorized.',
    cis_safeguard: '1.2', cis_title: 'Address Unauthorized Assets',
  },
  {
    starter_id: 'cis-2.1-software-inventoried', name: 'Installed software inventoried', severity: 'low',
    description: 'Some source reports the software installed on the device.',
    query: 'Software.Name = *', remediation: 'Deploy an agent that reports installed software (MDM, EDR or configuration manager).',
    cis_safeguard: '2.1', cis_title: 'Establish and Maintain a Software Inventory',
  },
  {
    // OS.Supported comes from the OS lifecycle feed (endoflife.date) for the release normalization read: false once
    // the release is past its end of life on the discovery's day. Only a known "false" fails. A device whose release
    // the feed does not know (no version reported, an appliance the feed does not list, a Windows release whose
    // edition is unknown while its Enterprise and Pro servicing disagree) passes: failing the unknown would flag most
    // of a fleet whose sources report no version, and a policy that fails everything is switched off, not followed.
    // A device any source reports on an unsupported release fails, whatever the others say (the field holds every
    // source's value).
    starter_id: 'cis-2.2-os-supported', name: 'Operating system still supported', severity: 'high',
    description: 'The operating system release still gets security updates from its vendor: the OS lifecycle feed (endoflife.date) does not put it past its end of life. A release the feed does not know passes.',
    query: 'NOT OS.Supported = false',
    remediation: 'Upgrade the operating system to a supported release, or isolate and replace the device.',
    cis_safeguard: '2.2', cis_title: 'Ensure Authorized Software is Currently Supported',
  },
  {
    starter_id: 'cis-2.3-no-unapproved-remote-tools', name: 'No unapproved remote-access or file-sharing tool', severity: 'medium',
    description: 'No peer-to-peer client or remote-access tool commonly used outside IT is installed.',
    query: 'NOT Software.Name = /(bittorrent|utorrent|qbittorrent|anydesk|teamviewer|ammyy)/i',
    remediation: 'Uninstall the tool, or add it to the approved list by editing this policy.',
    cis_safeguard: '2.3', cis_title: 'Address Unauthorized Software',
  },
  {
    starter_id: 'cis-3.6-disk-encryption', name: 'Disk encryption on', severity: 'high',
    description: 'The MDM or BitLocker Management reports the device encrypted (Intune: isEncrypted; Jamf Pro: FileVault 2 on every partition; Configuration Manager BitLocker Management: protection on for the OS drive).',
    query: 'Specifics.microsoft-intune.isEncrypted = true OR Specifics.jamfpro.FileVault2Status = "All Partitions Encrypted" OR Specifics.mbam-sccm.OsVolume.ProtectionStatus = 1',
    remediation: 'Turn on BitLocker or FileVault through the MDM\'s disk-encryption profile.',
    cis_safeguard: '3.6', cis_title: 'Encrypt Data on End-User Devices',
  },
  {
    starter_id: 'cis-4.1-managed', name: 'Managed by an MDM or configuration manager', severity: 'medium',
    description: 'A device manager enforces its configuration.',
    query: anyCategory(managers), remediation: 'Enroll the device in the MDM or configuration manager.',
    cis_safeguard: '4.1', cis_title: 'Establish and Maintain a Secure Configuration Process',
  },
  {
    starter_id: 'cis-4.8-no-cleartext-services', name: 'No Telnet, FTP or TFTP service running', severity: 'high',
    description: 'No clear-text remote service runs on the device.',
    query: 'NOT (Service.Name = /^(telnet|telnetd|ftp|ftpd|vsftpd|tftp|tftpd)$/i AND Service.State = running)',
    remediation: 'Stop and disable the service; use SSH or SFTP instead.',
    cis_safeguard: '4.8', cis_title: 'Uninstall or Disable Unnecessary Services on Enterprise Assets and Software',
  },
  {
    starter_id: 'cis-4.8-no-smb1', name: 'No SMBv1 server running', severity: 'medium',
    description: 'The legacy SMBv1 server (Windows service "mrxsmb10") is not running.',
    query: 'NOT (Service.Name = mrxsmb10 AND Service.State = running)',
    remediation: 'Disable SMBv1 (Windows feature "SMB 1.0/CIFS File Sharing Support").',
    cis_safeguard: '4.8', cis_title: 'Uninstall or Disable Unnecessary Services on Enterprise Assets and Software',
  },
  {
    starter_id: 'cis-3.10-no-expired-certificate', name: 'No expired certificate on the device', severity: 'medium',
    description: 'No certificate the device serves or has installed (its places in the certificate inventory) is past its expiry date at the discovery.',
    query: 'NOT Certificate.ExpiryStatus = Expired',
    remediation: 'Renew the certificate and deploy the new one where the old one is served or installed; remove it if it is no longer used.',
    cis_safeguard: '3.10', cis_title: 'Encrypt Sensitive Data in Transit',
  },
  {
    starter_id: 'cis-5.4-local-admins', name: 'At most one local administrator account', severity: 'medium',
    description: 'At most one local account has administrator rights (LocalAdminCount, from a source that inventories local accounts such as Jamf Pro): administration uses a dedicated account, not the everyday ones. A device no source reports local accounts for passes; change the 1 to the number you allow.',
    query: 'NOT LocalAdminCount > 1',
    remediation: 'Remove administrator rights from everyday accounts; keep one dedicated administrator account (or use a privilege-management tool).',
    cis_safeguard: '5.4', cis_title: 'Restrict Administrator Privileges to Dedicated Administrator Accounts',
  },
  {
    starter_id: 'cis-7.3-os-patching', name: 'Operating-system patching automated', severity: 'medium',
    description: 'A patch-management tool reports the device.',
    query: anyCategory(patching), remediation: 'Enroll the device in the patch-management tool.',
    cis_safeguard: '7.3', cis_title: 'Perform Automated Operating System Patch Management',
  },
  {
    starter_id: 'cis-7.5-scanned', name: 'Scanned for vulnerabilities', severity: 'medium',
    description: 'A vulnerability scanner reports the device.',
    query: anyCategory(scanners), remediation: 'Add the device\'s network or agent to the vulnerability scanner\'s scope.',
    cis_safeguard: '7.5', cis_title: 'Perform Automated Vulnerability Scans of Internal Enterprise Assets',
  },
  {
    starter_id: 'cis-7.7-no-kev', name: 'No open known-exploited vulnerability (CISA KEV)', severity: 'critical',
    description: 'No open finding on the device is in CISA\'s Known Exploited Vulnerabilities catalogue.',
    query: 'NOT (Vulnerability.Kev = true AND Vulnerability.Status = open)',
    remediation: 'Apply the KEV entry\'s required action by its due date (see the vulnerability\'s detail).',
    cis_safeguard: '7.7', cis_title: 'Remediate Detected Vulnerabilities',
  },
  {
    starter_id: 'cis-7.7-no-critical', name: 'No open critical vulnerability', severity: 'high',
    description: 'No open finding on the device is rated Critical.',
    query: 'NOT (Vulnerability.Severity = Critical AND Vulnerability.Status = open)',
    remediation: 'Patch or mitigate the critical findings; record an accepted risk with its reason if they cannot be fixed.',
    cis_safeguard: '7.7', cis_title: 'Remediate Detected Vulnerabilities',
  },
  {
    starter_id: 'cis-7.7-no-known-exploit', name: 'No open vulnerability with a known exploit', severity: 'high',
    description: 'No open finding on the device has an exploit known to its sources.',
    query: 'NOT (Vulnerability.ExploitKnown = true AND Vulnerability.Status = open)',
    remediation: 'Prioritise these findings: patch or mitigate them first.',
    cis_safeguard: '7.7', cis_title: 'Remediate Detected Vulnerabilities',
  },
  {
    starter_id: 'cis-7.1-no-likely-exploited', name: 'No open vulnerability likely to be exploited (EPSS 0.5 or more)', severity: 'medium',
    description: 'No open finding on the device has an EPSS probability of exploitation of 0.5 or more.',
    query: 'NOT (Vulnerability.EpssScore >= 0.5 AND Vulnerability.Status = open)',
    remediation: 'Patch these findings ahead of the regular cycle.',
    cis_safeguard: '7.1', cis_title: 'Establish and Maintain a Vulnerability Management Process',
  },
  {
    starter_id: 'cis-8.2-audit-logs', name: 'Audit logs collected', severity: 'low',
    description: 'A log platform or SIEM reports the device.',
    query: anyCategory(logging), remediation: 'Forward the device\'s logs to the log platform.',
    cis_safeguard: '8.2', cis_title: 'Collect Audit Logs',
  },
  {
    starter_id: 'cis-10.1-anti-malware', name: 'EDR or anti-malware agent reports it', severity: 'critical',
    description: 'An endpoint-protection product reports the device.',
    query: anyCategory(edr), remediation: 'Install the EDR agent and check that it reports to the console.',
    cis_safeguard: '10.1', cis_title: 'Deploy and Maintain Anti-Malware Software',
  },
  {
    // An HR system (BambooHR, Workday) says the person left; a directory or identity provider still has the account
    // enabled. Correlation joins the two by employee id and e-mail (userRules.ts). A user passes unless both hold.
    starter_id: 'cis-5.3-leavers-active-account', name: 'Leavers with an active account', inventory: 'user', severity: 'high',
    description: 'No person the HR system reports as terminated still has an enabled account in a directory or identity provider: the users that fail are the leavers whose account still signs in.',
    query: 'NOT (Employment.Status = terminated AND Enabled = true)',
    remediation: 'Disable the account in the directory (and the identity provider), then revoke its sessions and tokens; follow the leaver process for its devices and licenses.',
    cis_safeguard: '5.3', cis_title: 'Disable Dormant Accounts',
  },
];

/** A company's copy of a starter policy, as stored (`ownerId`: who added it; null when the company was created with it). */
export const starterPolicyDocument = (policy: StarterPolicy, enabled: boolean, ownerId: number | null) => ({
  inventory: 'device', ...policy, enabled, weight: null, profile_ids: [], ...(ownerId === null ? {} : { owner_id: ownerId }),
});

/** The starter policies every new company has from the start, switched off: the people control (leavers). */
export const companyStarterPolicyIds = ['cis-5.3-leavers-active-account'];

/**
 * Adds a starter policy the company lacks (by starter id or name), switched on or off, or switches on the one it has
 * when `enable` asks (a policy the company switched off stays off otherwise). Answers whether it added one.
 */
export async function ensureStarterPolicy(db: Queryable, companyId: number, starterId: string, enable: boolean): Promise<boolean> {
  const policy = starterPolicies.find((candidate) => candidate.starter_id === starterId);
  if (!policy) throw new Error(`No starter policy ${starterId}`);
  const [existing] = await db.query<{ id: number }>(
    "select id from resources where kind = $1 and company_id = $2 and (document->>'starter_id' = $3 or lower(document->>'name') = lower($4)) order by id limit 1",
    [policyKind, companyId, starterId, policy.name],
  );
  if (existing) {
    if (enable) await db.query("update resources set document = jsonb_set(document, '{enabled}', 'true'), updated_at = now() where id = $1", [existing.id]);
    return false;
  }
  await db.query('insert into resources (kind, company_id, document) values ($1, $2, $3)', [policyKind, companyId, JSON.stringify(starterPolicyDocument(policy, enable, null))]);
  return true;
}
