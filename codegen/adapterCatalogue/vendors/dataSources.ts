import { passwordAuth } from '../auth.js';
import { choice, flag, integer, list, multiline, optionalText, text, type AdapterSource, type Field, type JsonSchema } from '../model.js';

/** Files, SQL databases and Cartograph's own active scanners: the code engines. */

const entityChoice = choice('entity', 'Records are', 'Which inventory each row feeds: devices, users, installed software (one row per software on a device), vulnerability findings (one row per finding on a device), certificates, services or licenses (one row per entitlement: name, seats, cost, expiry, assigned users).', ['device', 'user', 'software', 'vulnerability', 'certificate', 'service', 'license']);

const columnMap: Field = {
  name: 'column_map', required: false,
  schema: { type: 'object', title: 'Column mapping', description: 'Source column (or JSON key path) → Cartograph field, e.g. "Computer Name" → Hostname. Unmapped columns are kept under Specifics.<adapter>.', additionalProperties: { type: 'string', minLength: 1 }, default: {}, examples: [{ 'Computer Name': 'Hostname', 'IP': 'IpAddresses', 'Serial': 'SerialNumber' }] },
};

/** Where the file comes from: uploaded once, fetched from a URL on every discovery, or read from the Cartograph server's disk. */
function fileSource(extensionHint: string, exampleUrl: string): Field {
  const branch = (type: string, title: string, description: string, properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
    type: 'object', title, description, required: ['source_type', ...required],
    properties: { source_type: { type: 'string', const: type, title: 'File source', description: title, examples: [type] }, ...properties },
  });
  return {
    name: 'source', required: true,
    schema: {
      type: 'object', title: 'File source', description: `Where the ${extensionHint} file comes from.`, examples: [{ source_type: 'url', file_url: exampleUrl }],
      oneOf: [
        branch('upload', 'Uploaded file', 'A file uploaded to Cartograph (kept in its data folder); the same content is read on every discovery until you upload a new one.', {
          file: { type: 'string', minLength: 1, pattern: '^(uploads/[0-9a-f-]{36}\\.(csv|json|xlsx)|data:.*)$', title: 'File', description: `The ${extensionHint} file: set by the upload, or a small file sent inline with the form.`, 'x-widget': 'file', examples: ['data:text/plain;name=devices.csv;base64,SG9zdG5hbWUsSVAKV1MtMDA0MiwxMC4xLjIuMwo='] },
          file_name: { type: 'string', minLength: 1, maxLength: 255, title: 'File name', description: 'The name of the uploaded file, as it was on the uploader\'s computer.', examples: ['devices.csv'] },
        }, []),
        branch('url', 'Download from a URL', 'Fetched over HTTPS on every discovery.', { file_url: { type: 'string', format: 'uri', pattern: '^https?://', title: 'File URL', description: 'The URL to download.', examples: [exampleUrl] }, authorization_header: { type: 'string', title: 'Authorization header', description: 'Optional value sent as the Authorization header, e.g. Bearer <token>.', 'x-secret': true } }, ['file_url']),
        branch('path', 'File on the Cartograph server', 'A path readable by the Cartograph process (for example a share mounted on the server).', { file_path: { type: 'string', minLength: 1, pattern: '^/', title: 'File path', description: 'Absolute path on the Cartograph server.', examples: [`/srv/exports/inventory.${extensionHint.toLowerCase()}`] } }, ['file_path']),
      ],
    },
  };
}

const fileGuide = (format: string, specifics: string[], troubles: Array<[string, string]>): AdapterSource['guide'] => ({
  prerequisites: [`A ${format} export from the system you want to import (one row or object per record), or a URL or server path where such an export is refreshed.`],
  grant: ['Nothing on a vendor side; for a URL source, a read-only token on the server that hosts the file, pasted into the `Authorization header` field.'],
  collects: [...specifics, 'Each record feeds the inventory chosen in the `Records are` field; mapped columns become Cartograph fields, all columns are kept under Specifics.'],
  troubleshooting: [...troubles, ['"Reading files from the server is turned off"', 'The server administrator lists the folders Cartograph may read in the CARTOGRAPH_IMPORT_DIRS setting (colon-separated); the `File path` field must point inside one of them.'], ['"No file has been uploaded"', 'Save the connection, then upload the file on its page (or send a small file with the form).']],
});

/** An SBOM's source: a file as the other file adapters read it, or a folder of SBOM files on the server. */
function sbomSource(): Field {
  const field = fileSource('SBOM', 'https://ci.corp.example.com/artifacts/payments-api.cdx.json');
  const folder: JsonSchema = {
    type: 'object', title: 'Folder on the Cartograph server', description: 'Every *.json (or *.json.gz) file of a folder readable by the Cartograph process, one SBOM per file: a file that cannot be read is skipped with a warning, the others are read.', required: ['source_type', 'folder_path'],
    properties: {
      source_type: { type: 'string', const: 'folder', title: 'File source', description: 'Folder on the Cartograph server', examples: ['folder'] },
      folder_path: { type: 'string', minLength: 1, pattern: '^/', title: 'Folder path', description: 'Absolute path of the folder on the Cartograph server (inside one of the folders the administrator allows).', examples: ['/srv/sboms'] },
    },
  };
  return { ...field, schema: { ...field.schema, description: 'Where the SBOM comes from: one file, or a folder of them.', oneOf: [...(field.schema.oneOf as JsonSchema[]), folder] } };
}

const entityValues = ['device', 'user', 'software', 'vulnerability', 'certificate', 'service', 'license'];

const sqlQueries: Field = {
  name: 'queries', required: true,
  schema: {
    type: 'array', title: 'Queries', minItems: 1, maxItems: 6,
    description: 'One read-only SELECT per inventory: every row becomes a record of that inventory. Columns named after Cartograph fields (alias them, e.g. AS "Hostname") or after common headers (hostname, serial, mac, ip, os, username, email) become those fields; every column is kept under Specifics.',
    items: {
      type: 'object', title: 'Query', description: 'A query and the inventory its rows feed.', required: ['entity', 'query'], additionalProperties: false,
      properties: {
        entity: { type: 'string', title: 'Records are', description: 'Which inventory the rows feed.', enum: entityValues, examples: ['device'] },
        query: { type: 'string', title: 'Query', description: 'One SELECT (or WITH … SELECT) statement.', minLength: 1, 'x-widget': 'code', examples: ['SELECT name AS "Hostname", ip AS "IpAddresses", serial AS "SerialNumber" FROM assets WHERE retired = false'] },
      },
    },
    examples: [[{ entity: 'device', query: 'SELECT name AS "Hostname", ip AS "IpAddresses", serial AS "SerialNumber" FROM assets WHERE retired = false' }]],
  },
};

const scannerTargetPattern = (() => {
  const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
  const ip = `${octet}(\\.${octet}){3}`;
  const one = `${ip}(/(3[0-2]|[12]\\d|[89])|-${ip})?`;
  return `^\\s*${one}(\\s*,\\s*${one})*\\s*$`;
})();

const portList = '^\\s*\\d{1,5}(-\\d{1,5})?(\\s*,\\s*\\d{1,5}(-\\d{1,5})?)*\\s*$';

// The TLS scanner needs at least one target: an empty list would "succeed" without reading anything.
const tlsTargets: Field = (() => {
  const field = list('targets', 'Targets', 'Host names, IP addresses or IPv4 CIDR ranges (/16 to /32), optionally with :port (e.g. www.example.com:8443).', ['www.example.com', '10.0.5.0/28', 'mail.example.com:465']);
  return { ...field, required: true, schema: { ...field.schema, minItems: 1 } };
})();

export const dataSources: AdapterSource[] = [
  {
    slug: 'csvfile', name: 'CSV file', vendor: 'Cartograph', website: 'https://www.rfc-editor.org/rfc/rfc4180', docs_url: 'https://www.rfc-editor.org/rfc/rfc4180',
    description: 'Records from a CSV file: an export of any system that has no adapter yet.',
    groups: ['file'], categories: ['device', 'user', 'application', 'vulnerability', 'certificate', 'service'], engine: 'csv',
    location: [fileSource('CSV', 'https://files.corp.example.com/exports/devices.csv')],
    options: [entityChoice, choice('delimiter', 'Delimiter', 'Column separator: comma, semicolon, tab or pipe.', [',', ';', '\t', '|']), choice('encoding', 'Encoding', 'Text encoding of the file.', ['utf-8', 'utf-16le', 'windows-1252']), flag('has_header', 'First row is a header', 'Column names are taken from the first row; otherwise columns are named column_1, column_2…', true), columnMap],
    guide: fileGuide('CSV', ['Every data row of the file (RFC 4180 quoting; a BOM is ignored).'], [['"Invalid Record Length"', 'A row has more or fewer columns than the header: check the `Delimiter` field and quoting.'], ['Garbled accents', 'Choose the right value in the `Encoding` field (Excel on Windows often writes windows-1252).']]),
  },
  {
    slug: 'jsonfile', name: 'JSON file', vendor: 'Cartograph', website: 'https://www.json.org', docs_url: 'https://www.rfc-editor.org/rfc/rfc8259',
    description: 'Records from a JSON (or JSON Lines) file: an array of objects, or an array under a key.',
    groups: ['file'], categories: ['device', 'user', 'application', 'vulnerability', 'certificate', 'service'], engine: 'json',
    location: [fileSource('JSON', 'https://files.corp.example.com/exports/devices.json')],
    options: [entityChoice, optionalText('records_path', 'Records path', 'Dot path to the array of records, e.g. data.items; empty when the file is an array (or JSON Lines).', ['data.items']), columnMap],
    guide: fileGuide('JSON', ['Every object of the array at the `Records path` field (or every line of a JSON Lines file); nested keys are addressed with dots in the mapping.'], [['"Unexpected token"', 'The file is not valid JSON; JSON Lines files must have one object per line.'], ['No records', 'The `Records path` field does not point to an array.']]),
  },
  {
    slug: 'xlsxfile', name: 'Excel (XLSX) file', vendor: 'Cartograph', website: 'https://www.ecma-international.org/publications-and-standards/standards/ecma-376/', docs_url: 'https://www.ecma-international.org/publications-and-standards/standards/ecma-376/',
    description: 'Records from a worksheet of an Excel workbook (.xlsx).',
    groups: ['file'], categories: ['device', 'user', 'application', 'vulnerability', 'certificate', 'service'], engine: 'xlsx',
    location: [fileSource('XLSX', 'https://files.corp.example.com/exports/assets.xlsx')],
    options: [entityChoice, optionalText('sheet', 'Worksheet', 'The worksheet name; empty for the first sheet.', ['Assets']), integer('header_row', 'Header row', 'The row number that holds the column names.', [1, 1000], 1), columnMap],
    guide: fileGuide('XLSX', ['Every row below the header row of the chosen worksheet; dates are read as dates, formulas as their cached values.'], [['"Worksheet not found"', 'Check the `Worksheet` field (names are case-sensitive).'], ['.xls files', 'The old binary format is not supported: save as .xlsx.']]),
  },
  {
    slug: 'sbom', name: 'SBOM (CycloneDX, SPDX)', vendor: 'Cartograph', website: 'https://cyclonedx.org', docs_url: 'https://spdx.github.io/spdx-spec/v2.3/',
    description: 'Software bills of materials in CycloneDX or SPDX JSON, as syft, trivy and cdxgen write them: the packages of each container image or machine, with their package URLs.',
    groups: ['file', 'container'], categories: ['device', 'application'], engine: 'sbom',
    location: [sbomSource()],
    options: [optionalText('host_name', 'Host name', 'The machine the software is installed on, for SBOMs that describe a folder or an application rather than a container image or a named device. Empty: such an SBOM\'s software is put on a device named after its file.', ['web-01.corp.example.com'], { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' })],
    guide: {
      prerequisites: ['SBOMs in CycloneDX JSON (1.2 to 1.6) or SPDX JSON (2.2, 2.3), at most 64 MB each (plain or gzipped): syft (`-o cyclonedx-json`, `-o spdx-json`), trivy (`--format cyclonedx`, `--format spdx-json`) or cdxgen output.', 'For a folder source, the folder on the Cartograph server where your pipeline drops the SBOMs, inside one of the folders the administrator allows in CARTOGRAPH_IMPORT_DIRS.'],
      grant: ['Nothing on a vendor side; for a URL source, a read-only token on the server that hosts the file, pasted into the `Authorization header` field.'],
      collects: ['The image or machine each SBOM describes becomes a device: a container image by its reference and digest (category Container image), a CycloneDX device by its host name, with the operating system the SBOM names.', 'Each package becomes installed software on it: name, version, package URL (purl), CPE, licenses, supplier and source package; the purl gives it its package identity (ecosystem, name and version), which package advisories match.'],
      troubleshooting: [['"is not JSON" or "is XML"', 'Export the SBOM as JSON: CycloneDX XML, SPDX tag-value and RDF are not read.'], ['"is a trivy JSON report, not an SBOM"', 'Run trivy with `--format cyclonedx` or `--format spdx-json`.'], ['"is larger than 64 MB"', 'One SBOM may be at most 64 MB, unpacked: leave file listings out of it (syft: its file catalogers), or split it per image.'], ['Software on a device named after the file', 'The SBOM describes a folder or an application: set the `Host name` field, or name each file after its machine.'], ['"Reading files from the server is turned off"', 'The server administrator lists the folders Cartograph may read in the CARTOGRAPH_IMPORT_DIRS setting (colon-separated); the `File path` and `Folder path` fields must point inside one of them.']],
    },
  },
  {
    slug: 'sqladapter', name: 'SQL database', vendor: 'Cartograph', website: 'https://www.postgresql.org', docs_url: 'https://www.postgresql.org/docs/current/sql-select.html',
    description: 'Records returned by read-only SQL queries you write, from a PostgreSQL or MySQL/MariaDB database.',
    groups: ['database'], categories: ['device', 'user', 'application', 'vulnerability', 'certificate', 'service'], engine: 'sql',
    location: [
      choice('dialect', 'Database type', 'The database server: PostgreSQL, or MySQL/MariaDB.', ['postgresql', 'mysql']),
      text('host', 'Host', 'Host name or IP address of the database server.', ['db01.corp.example.com']),
      { name: 'port', required: false, schema: { type: 'integer', title: 'Port', description: 'Empty for the usual port of the database type (PostgreSQL 5432, MySQL/MariaDB 3306).', minimum: 1, maximum: 65535, examples: [5432] } },
      text('database', 'Database', 'The database name.', ['cmdb']),
    ],
    auth: [passwordAuth({ title: 'Database user', description: 'Password authentication.', userDescription: 'A database user with SELECT on the queried tables only.', userExample: 'cartograph_ro', passwordDescription: 'That user\'s password.' })],
    options: [sqlQueries, choice('tls_mode', 'TLS', 'require (encrypt, verify per the network settings), prefer (encrypt when offered) or disable.', ['require', 'prefer', 'disable']), integer('statement_timeout_seconds', 'Query time limit (seconds)', 'The database stops a query that runs longer than this.', [1, 3600], 300)],
    network: 'tls',
    guide: {
      prerequisites: ['Network access from Cartograph to the database port.', 'PostgreSQL 10 or later, MySQL 5.7 or later, or MariaDB 10.1 or later. Microsoft SQL Server is not supported yet: Cartograph has no driver for it.'],
      grant: ['Create a login that can only read: PostgreSQL: CREATE ROLE cartograph_ro LOGIN PASSWORD \'…\'; GRANT SELECT ON assets TO cartograph_ro;', 'MySQL/MariaDB: CREATE USER \'cartograph_ro\'@\'%\' IDENTIFIED BY \'…\'; GRANT SELECT ON cmdb.assets TO \'cartograph_ro\'@\'%\';'],
      collects: ['Every row of each query in the `Queries` field, run in a read-only transaction with the `Query time limit (seconds)` field as statement timeout and read in batches; each query\'s rows feed the inventory it names, typed columns (numbers, booleans, timestamps, arrays) keep their types.'],
      troubleshooting: [['"permission denied for table"', 'Grant SELECT on that table to the user.'], ['"no pg_hba.conf entry"', 'PostgreSQL does not accept the Cartograph host: add a hostssl line for it.'], ['Query rejected as not read-only', 'Only one SELECT (or WITH … SELECT) statement is accepted.']],
    },
  },
  {
    slug: 'network-scanner', name: 'Network scanner', vendor: 'Cartograph', website: 'https://www.rfc-editor.org/rfc/rfc793', docs_url: 'https://www.rfc-editor.org/rfc/rfc9293',
    description: 'Hosts and open TCP ports found by Cartograph itself, scanning the address ranges you list.',
    groups: ['network', 'attack_surface'], categories: ['device', 'service'], engine: 'network-scanner',
    location: [text('targets', 'Targets', 'Comma-separated IPv4 addresses, each optionally with a CIDR suffix from /8 to /32 or a range to another address, e.g. 10.0.0.0/24, 10.1.0.10-10.1.0.50.', ['10.0.0.0/24, 10.1.0.10-10.1.0.50'], { rules: 'required|scanner_target', pattern: scannerTargetPattern })],
    options: [
      text('ports', 'Ports', 'TCP ports or ranges to probe with a connect scan.', ['22,80,443,445,3389,8080-8090'], { pattern: portList, default: '22,80,135,139,443,445,3389,5985,8080,8443', required: false }),
      integer('rate', 'Rate (probes per second)', 'Upper bound on connection attempts per second, so the scan does not trip IDS thresholds or overload firewalls.', [1, 10000], 200),
      integer('probe_timeout_ms', 'Probe timeout (ms)', 'How long to wait for a TCP handshake before a port counts as closed or filtered.', [100, 10000], 1500),
      flag('resolve_hostnames', 'Resolve host names', 'Look up the PTR record of every responding address.', true),
      list('exclude', 'Exclusions', 'Addresses or CIDRs never to probe (printers, fragile OT devices).', ['10.0.0.1', '10.0.0.128/25']),
    ],
    network: 'none',
    guide: {
      prerequisites: ['Routing from the Cartograph host to the target ranges; firewalls between them decide what can be seen.', 'Written approval from the owners of the networks: scanning can alert intrusion detection and, rarely, upset fragile devices.'],
      grant: ['Nothing to grant: the scan needs no credentials. Tell the security operations team the Cartograph host address and scan window, and allow-list it in IDS/IPS if agreed.'],
      collects: ['For every address that answers on at least one port: IP, reverse-DNS host name, open TCP ports, and the time it was seen; each open port becomes a service record.'],
      troubleshooting: [['No hosts found', 'A firewall drops the probes, or the `Targets` field names the wrong range; test from the Cartograph host with a TCP connection to a known port.'], ['Scan too slow', 'Raise the `Rate (probes per second)` field or narrow the `Ports` field.'], ['Alerts in the IDS', 'Lower the rate and agree on an allow-list entry.']],
    },
  },
  {
    slug: 'tls-scanner', name: 'TLS certificate scanner', vendor: 'Cartograph', website: 'https://www.rfc-editor.org/rfc/rfc8446', docs_url: 'https://www.rfc-editor.org/rfc/rfc5280',
    description: 'Certificates served by TLS endpoints, collected by Cartograph connecting to each host and port you list.',
    groups: ['certificate_management', 'attack_surface'], categories: ['certificate', 'service'], engine: 'tls-scanner',
    location: [tlsTargets],
    options: [
      text('ports', 'Ports', 'Ports tried for targets without an explicit port.', ['443,8443,636,993,995,465'], { pattern: portList, default: '443', required: false }),
      integer('concurrency', 'Parallel connections', 'How many handshakes run at once.', [1, 256], 32),
      integer('handshake_timeout_ms', 'Handshake timeout (ms)', 'How long one TLS handshake may take.', [500, 30000], 5000),
      multiline('custom_ca', 'Custom CA certificates (PEM)', 'CA certificates of your internal PKI: chains issued by them count as verified, in addition to the public authorities.', ['-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2FydG9ncmFwaCBleGFtcGxlIENBMAoGCCqGSM49BAMC\n-----END CERTIFICATE-----'], { required: false, pattern: '-----BEGIN CERTIFICATE-----' }),
    ],
    network: 'none',
    guide: {
      prerequisites: ['Routing from the Cartograph host to the targets.'],
      grant: ['Nothing to grant: the scanner performs a TLS handshake and reads the served chain, it sends no credentials.'],
      collects: ['Per endpoint: the leaf certificate (subject, SANs, issuer, serial, validity, key type and size, signature algorithm, SHA-256 fingerprint), the chain, the negotiated TLS version and cipher, and whether the chain validates for the host name.'],
      troubleshooting: [['Handshake timeout', 'The port is filtered, or the service speaks STARTTLS rather than implicit TLS.'], ['Wrong certificate for a name', 'The server needs SNI: list it by host name in the `Targets` field, not by IP.']],
    },
  },
];
