import type { EntityKind, FetchedRecord } from '../engine.js';

/**
 * Column → Cartograph field, for the headers exports commonly use. Headers are compared after lower-casing and
 * dropping everything but letters and digits, so "Computer Name", "computer_name" and "ComputerName" all match.
 */
/** How exports name the device a software or vulnerability row is about (the contract's device identifiers). */
const deviceIdentifierHeaders: Record<string, string[]> = {
  Hostname: ['hostname', 'host', 'asset', 'assetname', 'computername', 'computer', 'devicename', 'machinename', 'dnsname', 'fqdn'],
  DeviceId: ['deviceid', 'assetid', 'hostid', 'machineid'],
  AgentId: ['agentid', 'aid', 'sensorid', 'agentuuid'],
  SerialNumber: ['serial', 'serialnumber', 'serialno', 'servicetag'],
  IpAddresses: ['ip', 'ips', 'ipaddress', 'ipaddresses', 'hostip', 'ipv4'],
  MacAddresses: ['mac', 'macaddress', 'macaddresses'],
};

const commonHeaders: Partial<Record<EntityKind, Record<string, string[]>>> = {
  device: {
    Hostname: ['hostname', 'host', 'hostnames', 'computername', 'computer', 'devicename', 'machinename', 'machine', 'dnsname', 'fqdn', 'assetname', 'name', 'nodename'],
    Domain: ['domain', 'dnsdomain', 'domainname'],
    SerialNumber: ['serial', 'serialnumber', 'serialno', 'sn', 'hardwareserial', 'servicetag'],
    MacAddresses: ['mac', 'macs', 'macaddress', 'macaddresses', 'ethernetmac', 'wifimac', 'physicaladdress'],
    IpAddresses: ['ip', 'ips', 'ipaddress', 'ipaddresses', 'ipv4', 'ipv4address', 'ipv6', 'privateip', 'localip', 'lastip'],
    Subnets: ['subnet', 'subnets', 'network'],
    'OS.Type': ['os', 'ostype', 'osfamily', 'platform', 'operatingsystem', 'osplatform'],
    'OS.Version': ['osversion', 'operatingsystemversion'],
    'OS.Build': ['osbuild', 'build', 'buildnumber'],
    'OS.FullOsString': ['osname', 'fullos', 'osfull', 'operatingsystemname', 'osdescription'],
    DeviceManufacturer: ['manufacturer', 'vendor', 'make', 'devicemanufacturer', 'systemmanufacturer'],
    DeviceModel: ['model', 'devicemodel', 'systemmodel', 'productname'],
    Category: ['category', 'devicetype', 'devicecategory', 'assettype', 'class', 'type'],
    AgentId: ['agentid', 'aid', 'sensorid', 'deviceid'],
    CloudInstanceId: ['instanceid', 'cloudinstanceid', 'vmid'],
    CloudProvider: ['cloudprovider', 'provider', 'cloud'],
    LastUsedUsers: ['lastuser', 'lastloggedonuser', 'lastlogonuser', 'user', 'username', 'primaryuser', 'assignedto', 'owner'],
    FirstSeen: ['firstseen', 'enrolled', 'enrollmentdate', 'created', 'createdat'],
    LastSeen: ['lastseen', 'lastcheckin', 'lastcontact', 'lastsync', 'lastscan', 'lastlogon', 'lastactive'],
    Tags: ['tags', 'labels'],
    'InstalledSoftware.SoftwareName': ['installedsoftware', 'software', 'applications'],
    'OpenPorts.PortNumber': ['openports', 'ports'],
    'VulnerableSoftware.CveId': ['cves', 'vulnerabilities'],
  },
  user: {
    Username: ['username', 'user', 'login', 'loginname', 'samaccountname', 'account', 'accountname', 'userid', 'uid'],
    Email: ['email', 'mail', 'emailaddress', 'primaryemail', 'workemail'],
    UserPrincipalName: ['upn', 'userprincipalname', 'principalname'],
    DisplayName: ['displayname', 'fullname', 'name', 'cn'],
    FirstName: ['firstname', 'givenname', 'first'],
    LastName: ['lastname', 'surname', 'familyname', 'last', 'sn'],
    Domain: ['domain', 'netbiosdomain'],
    EmployeeId: ['employeeid', 'employeenumber', 'employeeno', 'staffid', 'personnelnumber'],
    Groups: ['groups', 'memberof', 'group'],
    AdminStatus: ['admin', 'isadmin', 'administrator', 'adminstatus', 'privileged'],
    Location: ['location', 'office', 'site', 'city'],
    CreatedTime: ['created', 'createdat', 'whencreated', 'creationdate'],
    LastLogOnTime: ['lastlogon', 'lastlogin', 'lastsignin', 'lastlogontimestamp', 'lastseen'],
  },
  software: {
    SoftwareName: ['name', 'software', 'softwarename', 'application', 'applicationname', 'product', 'productname', 'displayname', 'program'],
    SoftwareVersion: ['version', 'softwareversion', 'displayversion', 'productversion'],
    SoftwareVendor: ['vendor', 'publisher', 'manufacturer', 'softwarevendor'],
    SoftwareCpe: ['cpe', 'cpe23', 'cpename', 'softwarecpe'],
    SoftwareCategory: ['category', 'softwarecategory'],
    InstallDate: ['installdate', 'installed', 'installedon', 'installtime'],
    InstallPath: ['installpath', 'path', 'installlocation'],
    ...deviceIdentifierHeaders,
  },
  vulnerability: {
    CveId: ['cve', 'cveid', 'cves', 'vulnerabilityid'],
    VendorVulnerabilityId: ['qid', 'pluginid', 'plugin', 'checkid', 'vulnid', 'findingid', 'vendorid', 'vendorvulnerabilityid'],
    Title: ['title', 'name', 'vulnerability', 'pluginname', 'vulnerabilityname', 'vulnerabilitytitle'],
    Description: ['description', 'summary'],
    Solution: ['solution', 'remediation', 'fix'],
    Severity: ['severity', 'risk', 'criticality', 'riskfactor'],
    CvssScore: ['cvss', 'cvssscore', 'cvss3', 'cvssv3', 'cvss3basescore', 'cvssv3basescore', 'cvssv30basescore', 'cvssv31basescore', 'cvssbasescore', 'cvssv2basescore', 'cvssv20basescore', 'basescore', 'score'],
    CvssVector: ['cvssvector', 'cvss3vector', 'cvssv3vector', 'vector'],
    Cwe: ['cwe', 'cweid', 'cwes'],
    PublishedDate: ['published', 'publisheddate', 'publicationdate'],
    References: ['references', 'reference', 'seealso', 'urls'],
    ExploitKnown: ['exploit', 'exploitknown', 'exploitavailable', 'exploitable'],
    Status: ['status', 'state', 'findingstatus'],
    Port: ['port'],
    Protocol: ['protocol', 'proto'],
    Evidence: ['evidence', 'output', 'pluginoutput', 'results', 'proof'],
    SoftwareName: ['software', 'product', 'softwarename', 'affectedsoftware'],
    SoftwareVersion: ['softwareversion', 'productversion', 'version'],
    FirstSeen: ['firstseen', 'firstfound', 'firstdetected', 'detected'],
    LastSeen: ['lastseen', 'lastfound', 'lastdetected'],
    ...deviceIdentifierHeaders,
  },
  certificate: {
    FingerprintSha256: ['fingerprint', 'sha256', 'sha256fingerprint', 'fingerprintsha256'],
    FingerprintSha1: ['thumbprint', 'sha1', 'sha1fingerprint', 'fingerprintsha1'],
    CommonName: ['commonname', 'cn', 'subjectcn'],
    Subject: ['subject', 'subjectdn'],
    Issuer: ['issuer', 'issuercn', 'ca', 'issuedby'],
    SerialNumber: ['serial', 'serialnumber'],
    NotBefore: ['notbefore', 'validfrom', 'issued'],
    NotAfter: ['notafter', 'validto', 'validuntil', 'expires', 'expiry', 'expiration', 'expirationdate'],
    KeyAlgorithm: ['keyalgorithm', 'keytype', 'publickeyalgorithm'],
    KeySize: ['keysize', 'keylength', 'keybits'],
    SignatureAlgorithm: ['signaturealgorithm', 'sigalg', 'signaturehash'],
    SelfSigned: ['selfsigned'],
    SubjectAltNames: ['san', 'sans', 'subjectaltnames', 'subjectalternativenames', 'dnsnames'],
    // Where it is served (the certificate stage makes a place of each row naming a host).
    Host: ['host', 'hostname', 'endpoint', 'domain'],
    Port: ['port'],
    Sni: ['sni', 'servername'],
    IpAddresses: ['ip', 'ipaddress'],
    Pem: ['pem', 'certificate'],
  },
  service: {
    Hostname: ['hostname', 'host', 'computername'],
    IpAddresses: ['ip', 'ipaddress', 'address'],
    PortNumber: ['port', 'portnumber'],
    Protocol: ['protocol', 'transport', 'proto'],
    ServiceName: ['service', 'servicename', 'name', 'product'],
    Banner: ['banner'],
    DisplayName: ['displayname', 'servicedisplayname', 'caption'],
    State: ['state', 'status', 'servicestate', 'runningstate'],
    StartType: ['starttype', 'startmode', 'startup', 'startuptype'],
    Account: ['account', 'logonas', 'startname', 'runas', 'serviceaccount', 'user'],
    Product: ['product', 'productname'],
    Version: ['version', 'productversion'],
    Path: ['path', 'pathname', 'binarypath', 'executable', 'imagepath'],
    ...deviceIdentifierHeaders,
  },
  // One row per entitlement (a contract line, a purchase): the license inventory counts its use.
  license: {
    LicenseName: ['license', 'licensename', 'name', 'product', 'entitlement', 'contract', 'sku', 'skuname'],
    SoftwareName: ['software', 'softwarename', 'application', 'productname'],
    Vendor: ['vendor', 'publisher', 'manufacturer'],
    Sku: ['skuid', 'partnumber', 'sku', 'skunumber'],
    Metric: ['metric', 'licensemetric', 'licensetype', 'type', 'per'],
    SeatsPurchased: ['seats', 'seatspurchased', 'quantity', 'purchased', 'licenses', 'rights', 'entitled', 'count'],
    SeatsUsed: ['used', 'seatsused', 'consumed', 'inuse', 'assigned', 'allocated'],
    Cost: ['cost', 'price', 'totalcost', 'amount', 'purchasecost'],
    Currency: ['currency'],
    PurchaseDate: ['purchasedate', 'purchasedon', 'startdate', 'start'],
    ExpirationDate: ['expirationdate', 'expiration', 'expires', 'expiry', 'enddate', 'end', 'renewal', 'renewaldate'],
    AssignedUsers: ['users', 'assignedusers', 'assignedto', 'assignees', 'usernames'],
  },
};

/** The fields of an entity a column can be mapped to (those the common headers name), in the order they are listed. */
export function fieldsOfEntity(entity: EntityKind): string[] {
  return Object.keys(commonHeaders[entity] ?? {});
}

/** Fields that hold several values: a cell such as "10.0.0.1; 10.0.0.2" is split into its items. */
export const listFields = new Set(['IpAddresses', 'SubjectAltNames', 'MacAddresses', 'Subnets', 'Groups', 'Tags', 'LastUsedUsers', 'CveId', 'Cwe', 'References', 'InstalledSoftware.SoftwareName', 'OpenPorts.PortNumber', 'VulnerableSoftware.CveId']);
const listSeparator = /[,;|\s]+/;
/** Cell values that mean "nothing here": they are dropped instead of becoming field values. */
const emptyValues = new Set(['', 'null', 'none', 'n/a', 'na', '-', '--', 'undefined', '(null)']);

/** Fields the contract gives a number or a yes/no: text cells that read as one become one, others stay as written. */
const numberFields = new Set(['CvssScore', 'Port', 'KeySize']);
const booleanFields = new Set(['ExploitKnown', 'SelfSigned', 'Enabled']);
const booleanWords = new Map([['true', true], ['yes', true], ['1', true], ['y', true], ['false', false], ['no', false], ['0', false], ['n', false]]);

function typedText(field: string, text: string): unknown {
  if (numberFields.has(field) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (booleanFields.has(field)) return booleanWords.get(text.toLowerCase()) ?? text;
  return text;
}

export const headerKey = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const defaultsByEntity = new Map<EntityKind, Map<string, string>>(
  (Object.entries(commonHeaders) as [EntityKind, Record<string, string[]>][]).map(([entity, fields]) => {
    // A column named after the field itself ("OS.Type", "SerialNumber") always means that field.
    const byHeader = new Map<string, string>(Object.keys(fields).map((field) => [headerKey(field), field]));
    for (const [field, headers] of Object.entries(fields)) for (const header of headers) if (!byHeader.has(header)) byHeader.set(header, field);
    return [entity, byHeader];
  }),
);

/**
 * The field each column feeds: the connection's own mapping first (exact, then ignoring case and punctuation),
 * then the common headers of the entity. A column no rule names feeds no field (its value stays under Specifics).
 * Two columns may feed one field (e.g. "IP" and "Secondary IP"): their values are combined. With `explicitOnly` (a
 * custom adapter's mapping, where leaving a column unmapped is a choice) no common header applies.
 */
export function resolveColumns(columns: string[], entity: EntityKind, columnMap: Record<string, string> = {}, explicitOnly = false): Map<string, string> {
  const explicitByKey = new Map(Object.entries(columnMap).map(([column, field]) => [headerKey(column), field]));
  const defaults = defaultsByEntity.get(entity) ?? new Map<string, string>();
  const resolved = new Map<string, string>();
  const claimedByDefault = new Set<string>();
  for (const column of columns) {
    const explicit = columnMap[column] ?? explicitByKey.get(headerKey(column));
    if (explicit) resolved.set(column, explicit);
  }
  if (explicitOnly) return resolved;
  const explicitFields = new Set(resolved.values());
  for (const column of columns) {
    if (resolved.has(column)) continue;
    const field = defaults.get(headerKey(column));
    // A default never competes with an explicit mapping, and the first matching column wins (e.g. "Name" after "Hostname").
    if (!field || explicitFields.has(field) || claimedByDefault.has(field)) continue;
    claimedByDefault.add(field);
    resolved.set(column, field);
  }
  return resolved;
}

function cleanValue(field: string, value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? [] : [value.toISOString()];
  if (Array.isArray(value)) return value.flatMap((item) => cleanValue(field, item));
  if (typeof value === 'object') return [value];
  if (typeof value !== 'string') return [value];
  const text = value.trim();
  if (emptyValues.has(text.toLowerCase())) return [];
  if (listFields.has(field)) return text.split(listSeparator).filter((item) => !emptyValues.has(item.toLowerCase()));
  return [typedText(field, text)];
}

/**
 * One row as a record: mapped columns become fields, the whole row is kept as the raw record.
 * Before: `{"Computer Name": "WS-0042", "IP": "10.1.2.3; 10.1.2.4"}`; after: fields `{Hostname: "WS-0042", IpAddresses: ["10.1.2.3", "10.1.2.4"]}`.
 */
export function recordFromRow(row: Record<string, unknown>, entity: EntityKind, columns: Map<string, string>): FetchedRecord {
  const fields: Record<string, unknown> = {};
  for (const [column, field] of columns) {
    const values = cleanValue(field, readPath(row, column));
    if (!values.length) continue;
    const existing = fields[field];
    const combined = existing === undefined ? values : [...(Array.isArray(existing) ? existing : [existing]), ...values];
    fields[field] = combined.length === 1 && !listFields.has(field) ? combined[0] : combined;
  }
  return { entity, fields, raw: row };
}

/** A column by name, or a dotted key path into a nested object (JSON records): `os.name`. */
export function readPath(row: Record<string, unknown>, column: string): unknown {
  if (column in row) return row[column];
  let current: unknown = row;
  for (const part of column.split('.')) {
    if (!current || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Header cells as unique, non-empty column names: an empty cell becomes `column_3`, a repeated one `Name_2`. */
export function uniqueHeaders(cells: unknown[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, index) => {
    const text = cell === null || cell === undefined ? '' : String(cell).trim();
    const base = text || `column_${index + 1}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  });
}

/** Collects per-line warnings, naming the first ones and counting all, so a bad file cannot flood the connection's status. */
export class WarningCounter {
  private count = 0;
  constructor(
    private readonly warn: (message: string) => void,
    private readonly named = 20,
  ) {}

  add(message: string): void {
    this.count += 1;
    if (this.count <= this.named) this.warn(message);
  }

  /** The closing summary: how many were skipped in all. */
  finish(what: string): void {
    if (this.count > this.named) this.warn(`${this.count} ${what} skipped in total (the first ${this.named} are listed).`);
    else if (this.count > 1) this.warn(`${this.count} ${what} skipped in total.`);
  }

  get total(): number {
    return this.count;
  }
}
