import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { committedImports, importFeed } from '../avm/feedImport.js';
import type { Database } from '../db/database.js';

// The OSV advisories bundled with the demo: Ubuntu's published notice USN-6859-1 (regreSSHion, CVE-2024-6387, as
// canonical/ubuntu-security-notices publishes it in osv/usn/), which names the openssh the demo's Ubuntu 22.04 servers
// run. Cartograph's package matching then shows both sides of a distribution's backport: the servers still on
// 1:8.9p1-3ubuntu0.4 or 0.6 have the vulnerability, those on 1:8.9p1-3ubuntu0.10 have Ubuntu's fix although NVD's
// range (OpenSSH 8.5p1 up to 9.8p1) takes in 8.9p1, and the vulnerability's detail says why.

export const demoAdvisoriesFile = fileURLToPath(new URL('./demo-advisories.json', import.meta.url));
export const demoAdvisoriesSource = 'the advisories bundled with the demo (Ubuntu USN-6859-1)';

/** Imports the demo's advisories into the OSV feed unless an OSV import is already in use (the administrator's own stays). */
export async function importDemoAdvisories(db: Database): Promise<boolean> {
  const [row] = await db.query<{ used: boolean }>(`select exists (select 1 from avm_imports where id in ${committedImports('osv')}) as used`);
  if (row.used) return false;
  await importFeed(db, 'osv', demoAdvisoriesSource, createReadStream(demoAdvisoriesFile));
  return true;
}
