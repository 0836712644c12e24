/**
 * The network scanner's limits and defaults, shared by the engine (which refuses larger scans) and the console's
 * form (which shows the refusal before saving).
 */
export const scanLimits = {
  /** The most addresses one connection may scan (a /16): wider ranges belong in several connections or a real scanner. */
  addresses: 65_536,
  /** The most probes (addresses × ports) in one scan: at the top rate this is still hours, not days. */
  probes: 2_000_000,
  defaultPorts: '22,80,135,139,443,445,3389,5985,8080,8443',
  /** Probes per second when the form leaves the rate empty. */
  defaultRate: 200,
} as const;
