import { branchChoice, choice, flag, integer, list, optionalText, secret, text, type AdapterSource, type Field } from '../model.js';
import { port } from './shared.js';

/** LDAP directories (the `ldap` engine): domain controllers and other directory servers. */

function ldapLocation(options: { hostExample: string; baseDnExample: string; baseDnDescription: string }): Field[] {
  return [
    list('hosts', 'Directory servers', 'Host names or IP addresses of the directory servers, tried in order (the first that answers is used).', [options.hostExample]),
    choice('security', 'Connection security', 'ldaps (TLS from the first byte, port 636), starttls (upgrade on port 389) or plain (unencrypted; the password crosses the network in clear text, use only in a lab).', ['ldaps', 'starttls', 'plain']),
    port(636, 'LDAP port: 636 for LDAPS, 389 for StartTLS or plain, 3269/3268 for the Global Catalog.'),
    text('base_dn', 'Base DN', options.baseDnDescription, [options.baseDnExample]),
  ];
}

function bindAuth(userDescription: string, userExample: string): AdapterSource['auth'] {
  return [{
    type: 'simple_bind', title: 'Simple bind', description: 'An LDAP simple bind over the encrypted connection.',
    fields: [text('bind_dn', 'Bind user', userDescription, [userExample]), secret('password', 'Password', 'The bind user\'s password.', 'correct-horse-battery-staple')],
  }];
}

// The `hosts` list must not be empty: the form marks it required.
function requiredHosts(fields: Field[]): Field[] {
  return fields.map((field) => (field.name === 'hosts' ? { ...field, required: true, schema: { ...field.schema, minItems: 1 } } : field));
}

export const directories: AdapterSource[] = [
  {
    slug: 'active-directory', name: 'Microsoft Active Directory', vendor: 'Microsoft', website: 'https://learn.microsoft.com/windows-server/identity/ad-ds/active-directory-domain-services',
    docs_url: 'https://learn.microsoft.com/windows/win32/adschema/active-directory-schema', description: 'Computer and user accounts from Active Directory Domain Services over LDAP.',
    groups: ['ad', 'identity'], categories: ['device', 'user'], engine: 'ldap',
    location: requiredHosts(ldapLocation({ hostExample: 'dc01.corp.example.com', baseDnExample: 'DC=corp,DC=example,DC=com', baseDnDescription: 'Where the search starts: the domain\'s defaultNamingContext, or an OU to read only part of the domain.' })),
    auth: bindAuth('A domain account, as user principal name (svc-cartograph@corp.example.com) or distinguished name.', 'svc-cartograph@corp.example.com'),
    options: [
      flag('fetch_computers', 'Fetch computers', 'Read computer objects (the `Computer filter` field).', true),
      flag('fetch_users', 'Fetch users', 'Read user objects (the `User filter` field).', true),
      flag('include_disabled', 'Include disabled accounts', 'Also read accounts whose userAccountControl has the ACCOUNTDISABLE bit.', false),
      integer('page_size', 'Page size', 'Entries per page of the paged-results control; Active Directory caps it at MaxPageSize (1000).', [100, 1000], 1000),
      optionalText('user_filter', 'User filter', 'LDAP filter for user objects; empty means (&(objectClass=user)(!(objectClass=computer))).', ['(&(objectClass=user)(!(objectClass=computer)))']),
      optionalText('computer_filter', 'Computer filter', 'LDAP filter for computer objects; empty means (objectClass=computer).', ['(objectClass=computer)']),
    ],
    network: 'tls',
    guide: {
      prerequisites: ['TCP 636 (LDAPS) or 389 (StartTLS) from Cartograph to at least one domain controller.', 'For LDAPS, a domain controller certificate (AD CS or another CA) that Cartograph trusts; paste the issuing CA into the `Custom CA certificate (PEM)` field.'],
      grant: [
        'Create a dedicated, non-privileged domain user (for example svc-cartograph) with a long password that does not expire, or rotate it here when it does.',
        'Authenticated Users can read computer and user objects by default; no group membership is needed. If your domain removed that default, delegate "Read all properties" on the OUs to read (Active Directory Users and Computers → Delegate Control).',
        'Reading the LAPS password attributes or BitLocker recovery keys is never needed; do not delegate them.',
      ],
      collects: ['Computers: name, dNSHostName, operatingSystem and version, whenCreated, lastLogonTimestamp, pwdLastSet, userAccountControl (enabled, server or workstation, domain controller), distinguished name (OU), objectGUID, objectSid, servicePrincipalName, managedBy.', 'Users: sAMAccountName, userPrincipalName, mail, display, given and family names, employeeID, title, department, manager, group memberships, lastLogonTimestamp, pwdLastSet, accountExpires, enabled or locked state.'],
      troubleshooting: [
        ['"Invalid credentials (data 52e)"', 'Wrong password or user; "data 775" means the account is locked, "data 532" that the password expired.'],
        ['"Strong(er) authentication required"', 'The domain requires LDAP signing or channel binding: use ldaps or starttls in the `Connection security` field.'],
        ['TLS "unable to verify the first certificate"', 'Paste the enterprise CA certificate into the `Custom CA certificate (PEM)` field.'],
        ['Last logon looks weeks old', 'lastLogonTimestamp replicates only every 9 to 14 days by design.'],
      ],
    },
  },
  {
    slug: 'freeipa', name: 'FreeIPA / Red Hat Identity Management', vendor: 'Red Hat', website: 'https://www.freeipa.org', docs_url: 'https://freeipa.readthedocs.io',
    description: 'Hosts and users enrolled in a FreeIPA (Red Hat IdM) domain, read over LDAP.',
    groups: ['identity'], categories: ['device', 'user'], engine: 'ldap',
    location: requiredHosts(ldapLocation({ hostExample: 'ipa01.corp.example.com', baseDnExample: 'cn=accounts,dc=corp,dc=example,dc=com', baseDnDescription: 'The accounts container of the realm; hosts are under cn=computers and users under cn=users below it.' })),
    auth: bindAuth('A system account DN, e.g. uid=cartograph,cn=sysaccounts,cn=etc,dc=corp,dc=example,dc=com.', 'uid=cartograph,cn=sysaccounts,cn=etc,dc=corp,dc=example,dc=com'),
    options: [
      flag('include_disabled', 'Include disabled accounts', 'Also read users locked with nsAccountLock.', false),
      integer('page_size', 'Page size', 'Entries per page of the paged-results control.', [10, 5000], 500),
      optionalText('user_filter', 'User filter', 'LDAP filter for users; empty means (&(objectClass=posixAccount)(uid=*)).', ['(&(objectClass=posixAccount)(uid=*))']),
      optionalText('computer_filter', 'Host filter', 'LDAP filter for enrolled hosts; empty means (objectClass=ipaHost).', ['(objectClass=ipaHost)']),
    ],
    network: 'tls',
    guide: {
      prerequisites: ['LDAPS (636) or StartTLS (389) to an IPA server; the IPA CA certificate (/etc/ipa/ca.crt) for the `Custom CA certificate (PEM)` field.'],
      grant: ['Create a system account with ldapmodify under cn=sysaccounts,cn=etc (IPA docs: "System accounts"); it can read hosts and users with the default read ACIs.', 'Give it a password and set passwordExpirationTime far in the future, since system accounts are not renewed by ipa commands.'],
      collects: ['Hosts (cn=computers): fqdn, ipaUniqueID, nsOsVersion, nsHardwarePlatform, serverHostName, managedBy, host groups.', 'Users (cn=users): uid, mail, givenName, sn, cn, employeeNumber, title, nsAccountLock (disabled), memberOf, krbLastSuccessfulAuth.'],
      troubleshooting: [['"Insufficient access"', 'Use a system account or an IPA user; anonymous binds see fewer attributes.'], ['TLS error', 'Paste /etc/ipa/ca.crt into the `Custom CA certificate (PEM)` field.']],
    },
  },
  {
    slug: 'openldap', name: 'OpenLDAP directory', vendor: 'OpenLDAP Project', website: 'https://www.openldap.org', docs_url: 'https://www.openldap.org/doc/admin26/',
    description: 'Person entries (inetOrgPerson) from an OpenLDAP or other standard LDAPv3 directory.',
    groups: ['identity'], categories: ['user'], engine: 'ldap',
    location: requiredHosts(ldapLocation({ hostExample: 'ldap.corp.example.com', baseDnExample: 'ou=people,dc=example,dc=com', baseDnDescription: 'Where person entries live.' })),
    auth: bindAuth('A DN allowed to read people entries, e.g. cn=cartograph,ou=services,dc=example,dc=com.', 'cn=cartograph,ou=services,dc=example,dc=com'),
    options: [
      optionalText('user_filter', 'User filter', 'LDAP filter for person entries.', ['(objectClass=inetOrgPerson)'], { default: '(objectClass=inetOrgPerson)' }),
      integer('page_size', 'Page size', 'Entries per page of the paged-results control (RFC 2696); keep it at or below the server\'s size.pr limit.', [10, 5000], 500),
    ],
    network: 'tls',
    guide: {
      prerequisites: ['LDAPS or StartTLS to the directory; plain LDAP only in a lab.'],
      grant: ['Add a service DN and an olcAccess rule giving it read on the people subtree, e.g. to dn.subtree="ou=people,dc=example,dc=com" by dn.exact="cn=cartograph,ou=services,dc=example,dc=com" read.'],
      collects: ['People: uid, cn, mail, givenName, sn, displayName, employeeNumber, title, departmentNumber, memberOf (with the memberof overlay), createTimestamp, modifyTimestamp.'],
      troubleshooting: [['"Invalid credentials (49)"', 'Wrong bind DN or password.'], ['No entries', 'The olcAccess rules hide the subtree from the bind DN, or the `User filter` field does not match your object classes.']],
    },
  },
  {
    slug: 'cyberark', name: 'CyberArk Privileged Access Manager', vendor: 'CyberArk', website: 'https://www.cyberark.com', docs_url: 'https://docs.cyberark.com/pam-self-hosted/latest/en/content/webservices/implementing%20privileged%20account%20security%20web%20services%20.htm',
    description: 'Vault users and privileged accounts from CyberArk PAM Self-Hosted (PVWA REST API).',
    groups: ['pam', 'identity'], categories: ['user'], engine: 'http',
    location: [{ name: 'base_url', required: true, schema: { type: 'string', format: 'uri', pattern: '^https://', title: 'PVWA URL', description: 'The Password Vault Web Access URL, up to /PasswordVault.', examples: ['https://pvwa.corp.example.com/PasswordVault'] } }],
    auth: [{
      type: 'pvwa_logon', title: 'Vault user', description: 'Logs on at /API/auth/{method}/Logon and sends the session token in the Authorization header.',
      fields: [
        branchChoice('logon_method', 'Logon method', 'How the user authenticates to the Vault: CyberArk (Vault user), LDAP or RADIUS.', ['CyberArk', 'LDAP', 'RADIUS']),
        text('username', 'Username', 'A Vault user with the Audit Users authorisation.', ['svc-cartograph']),
        secret('password', 'Password', 'That user\'s password.', 'correct-horse-battery-staple'),
      ],
    }],
    guide: {
      prerequisites: ['PAM Self-Hosted 12.1 or later (Gen2 REST API).'],
      grant: ['In PrivateArk Client or the PVWA create a Vault user with the Audit Users Vault authorisation.', 'To list privileged accounts, add the user as a member of the Safes to inventory with List accounts and View Safe members.'],
      collects: ['Vault users from /API/Users: username, source (internal, LDAP), user type, enabled, suspended, last successful logon, e-mail, group memberships.', 'Privileged accounts from /API/Accounts: user name, address, platform, Safe, last change and verification status.'],
      troubleshooting: [['PASWS013E "Authentication failure"', 'Wrong method in the `Logon method` field for this user, or the password expired.'], ['Empty account list', 'The user is not a member of the Safes.']],
    },
  },
];
