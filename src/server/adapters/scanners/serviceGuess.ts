/** A service's likely identity: from its banner when it spoke, else from the port's registered use. */
export type ServiceGuess = { name: string; product: string | null; version: string | null; source: 'banner' | 'port' | 'none' };

// IANA registrations and de-facto uses of common TCP ports.
const wellKnownPorts: Record<number, string> = {
  21: 'ftp', 22: 'ssh', 23: 'telnet', 25: 'smtp', 53: 'dns', 80: 'http', 88: 'kerberos', 110: 'pop3', 111: 'rpcbind', 135: 'msrpc',
  139: 'netbios-ssn', 143: 'imap', 389: 'ldap', 443: 'https', 445: 'smb', 465: 'smtps', 514: 'syslog', 587: 'submission', 631: 'ipp',
  636: 'ldaps', 873: 'rsync', 993: 'imaps', 995: 'pop3s', 1080: 'socks', 1433: 'mssql', 1521: 'oracle', 1883: 'mqtt', 2049: 'nfs',
  2375: 'docker', 2376: 'docker-tls', 3000: 'http', 3268: 'ldap-gc', 3269: 'ldaps-gc', 3306: 'mysql', 3389: 'rdp', 5000: 'http',
  5432: 'postgresql', 5672: 'amqp', 5900: 'vnc', 5985: 'winrm', 5986: 'winrm-https', 6379: 'redis', 6443: 'kubernetes-api',
  8000: 'http', 8080: 'http-proxy', 8443: 'https-alt', 9000: 'http', 9090: 'http', 9092: 'kafka', 9200: 'elasticsearch', 9443: 'https-alt',
  10250: 'kubelet', 11211: 'memcached', 27017: 'mongodb',
};

type BannerRule = { pattern: RegExp; name: string | ((port: number) => string); product?: (match: RegExpMatchArray) => string | null; version?: (match: RegExpMatchArray) => string | null };

const mailOrFtp = (port: number) => ([21, 2121].includes(port) ? 'ftp' : [465, 587].includes(port) ? (port === 465 ? 'smtps' : 'submission') : 'smtp');

// Order matters: the first matching rule names the service.
const bannerRules: BannerRule[] = [
  { pattern: /^SSH-([\d.]+)-([^\s_]+)(?:[_-]([\w.]+))?/, name: 'ssh', product: (match) => match[2], version: (match) => match[3] ?? null },
  { pattern: /^220[ -].*\b(FTP|FileZilla|vsFTPd|ProFTPD|Pure-FTPd)\b(?:[ /(]*([\d.]+\w*))?/i, name: 'ftp', product: (match) => match[1], version: (match) => match[2] ?? null },
  { pattern: /^220[ -].*\bE?SMTP\b\s*(Postfix|Exim|Sendmail|Microsoft ESMTP MAIL Service|[\w-]+)?(?:\s+([\d.]+))?/i, name: mailOrFtp, product: (match) => match[1] ?? null, version: (match) => match[2] ?? null },
  { pattern: /^220[ -]/, name: mailOrFtp },
  { pattern: /^\* OK .*IMAP/i, name: 'imap' },
  { pattern: /^\+OK/, name: 'pop3' },
  { pattern: /^RFB (\d{3}\.\d{3})/, name: 'vnc', version: (match) => match[1] },
  { pattern: /^HTTP\/\d/, name: 'http' },
  { pattern: /^-(ERR|NOAUTH|DENIED)\b/, name: 'redis' },
  { pattern: /^AMQP/, name: 'amqp' },
];

/** Printable form of a banner for display: control characters dropped, at most 200 characters. */
export function printableBanner(banner: Buffer): string | null {
  const text = banner.toString('latin1').replace(/[^\x20-\x7e\t]+/g, ' ').replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, 200) : null;
}

// The MySQL/MariaDB handshake: 3-byte length, sequence 0, protocol version 10, then the server version NUL-terminated.
function mysqlGreeting(banner: Buffer): ServiceGuess | null {
  if (banner.length < 6 || banner[3] !== 0 || banner[4] !== 0x0a) return null;
  const end = banner.indexOf(0, 5);
  if (end < 0) return null;
  const version = banner.subarray(5, end).toString('latin1');
  if (!/^[\d.]+[\w.+~-]*$/.test(version)) return null;
  // MariaDB announces "5.5.5-10.11.6-MariaDB" for old clients.
  const mariadb = /^(?:5\.5\.5-)?([\d.]+)-MariaDB/i.exec(version);
  return mariadb ? { name: 'mysql', product: 'MariaDB', version: mariadb[1], source: 'banner' } : { name: 'mysql', product: 'MySQL', version, source: 'banner' };
}

/**
 * Names the service on an open port. Before: port 2222 with banner `"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"`;
 * after: `{name: "ssh", product: "OpenSSH", version: "9.2p1", source: "banner"}`.
 */
export function guessService(port: number, banner: Buffer): ServiceGuess {
  if (banner.length) {
    const mysql = mysqlGreeting(banner);
    if (mysql) return mysql;
    // A TLS record (handshake or alert) from a server that spoke first: some TLS service.
    if (banner[0] === 0x15 || banner[0] === 0x16) return { name: port === 443 || port === 8443 ? 'https' : 'tls', product: null, version: null, source: 'banner' };
    const text = banner.toString('latin1');
    for (const rule of bannerRules) {
      const match = text.match(rule.pattern);
      if (!match) continue;
      const name = typeof rule.name === 'string' ? rule.name : rule.name(port);
      return { name, product: rule.product?.(match) ?? null, version: rule.version?.(match) ?? null, source: 'banner' };
    }
  }
  const known = wellKnownPorts[port];
  return known ? { name: known, product: null, version: null, source: 'port' } : { name: 'unknown', product: null, version: null, source: 'none' };
}
