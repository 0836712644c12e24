// Zscaler Internet Access' legacy API sign-in (https://help.zscaler.com/zia/getting-started-zia-api, "Obfuscating the
// API key"): the 12-character organisation key is never sent as it is. The last six digits of the current epoch
// milliseconds (n) and n shifted right by one bit, zero-padded to six digits (r), pick its characters: each digit d of
// n picks key[d], each digit d of r picks key[d + 2]. The same timestamp is sent beside the result, so the cloud
// can repeat the choice, and a captured login body is useless once its timestamp is stale.

/** The obfuscated key for `timestampMs` (milliseconds since the epoch, as sent in the login body). */
export function obfuscateZscalerApiKey(apiKey: string, timestampMs: number | string): string {
  const n = String(timestampMs).slice(-6);
  const r = String(Number.parseInt(n, 10) >> 1).padStart(6, '0');
  let obfuscated = '';
  for (const digit of n) obfuscated += apiKey.charAt(Number(digit));
  for (const digit of r) obfuscated += apiKey.charAt(Number(digit) + 2);
  return obfuscated;
}
