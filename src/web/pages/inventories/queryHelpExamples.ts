// The runnable examples of the query bar's help, for each inventory (by entity name), written against the demo data
// set so that "Run" answers something on a first visit. tests/server/queryHelpExamples.test.ts runs every one on the
// demo and checks it parses, is accepted and matches some assets. `explains` is the message key of its description.
// Dates are written as dates where the demo's are fixed (devices), and as date math where they follow the load.

type QueryHelpExample = { query: string; explains: string };

export const queryHelpExamples: Record<string, QueryHelpExample[]> = {
  device: [
    { query: 'lt-0017', explains: 'queryHelp.deviceFragment' },
    { query: 'IpAddresses = 10.61.0.0/16', explains: 'queryHelp.deviceSubnet' },
    { query: 'IpAddresses in [10.0.0.0/10, 10.61.77.1-10.61.77.254]', explains: 'queryHelp.deviceSubnetList' },
    { query: 'OS.Type = Windows AND NOT Adapters = crowdstrike', explains: 'queryHelp.deviceMissingAgent' },
    { query: 'Hostname contains srv AND LastSeen >= 2026-11-15', explains: 'queryHelp.deviceServersSeen' },
    { query: 'NOT SerialNumber exists', explains: 'queryHelp.deviceNoSerial' },
  ],
  user: [
    { query: 'berners', explains: 'queryHelp.userFragment' },
    { query: 'Adapters in [microsoft-intune, servicenow] AND AdapterCount >= 2', explains: 'queryHelp.userSources' },
    { query: 'Email contains example.com AND NOT UserPrincipalName exists', explains: 'queryHelp.userNoPrincipal' },
  ],
  software: [
    { query: 'chrome', explains: 'queryHelp.softwareFragment' },
    { query: 'VulnerabilityCount > 0 AND InstallCount >= 100', explains: 'queryHelp.softwareVulnerable' },
    { query: 'Vendor in [Microsoft, Google]', explains: 'queryHelp.softwareVendors' },
  ],
  vulnerability: [
    { query: 'openssh', explains: 'queryHelp.vulnerabilityFragment' },
    { query: 'Severity in [High, Critical] AND ExploitKnown = true', explains: 'queryHelp.vulnerabilityExploited' },
    { query: 'Score >= 7 AND AffectedDeviceCount > 100', explains: 'queryHelp.vulnerabilityWidespread' },
  ],
  service: [
    { query: 'https', explains: 'queryHelp.serviceFragment' },
    { query: 'Ports in [443, 3389]', explains: 'queryHelp.servicePorts' },
    { query: 'States = running AND DeviceCount > 100', explains: 'queryHelp.serviceRunning' },
  ],
  license: [
    { query: 'slack', explains: 'queryHelp.licenseFragment' },
    { query: 'Expired = true OR OverUsed = true', explains: 'queryHelp.licenseAttention' },
    { query: 'SeatsFree > 100', explains: 'queryHelp.licenseFreeSeats' },
  ],
  certificate: [
    { query: 'srv-0001', explains: 'queryHelp.certificateFragment' },
    { query: 'DaysToExpiry < 365 AND KeyAlgorithm = rsa', explains: 'queryHelp.certificateExpiring' },
    { query: 'NotBefore last now-365d', explains: 'queryHelp.certificateRecent' },
    { query: 'IssuerCommonName contains "Issuing CA"', explains: 'queryHelp.certificateIssuer' },
  ],
};
