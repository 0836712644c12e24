import type { CorrelationRules, SourceRecord } from './correlate.js';
import { valuesOf } from './identifiers.js';

const lower = (value: unknown) => String(value).trim().toLowerCase();

function emailsOf(record: SourceRecord): string[] {
  return [...valuesOf(record.fields.Email), ...valuesOf(record.fields.UserPrincipalName)].map(lower).filter((value) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value));
}

/** `CORP\jdoe` or `jdoe` with domain `corp.example.com` → `jdoe@corp`: the account name within its directory. */
function domainAccountsOf(record: SourceRecord): string[] {
  return valuesOf(record.fields.Username).flatMap((value) => {
    const username = lower(value);
    if (username.includes('\\')) {
      const [domain, account] = username.split('\\');
      return domain && account ? [`${account}@${domain.split('.')[0]}`] : [];
    }
    const domain = valuesOf(record.fields.Domain).map(lower)[0];
    return domain && !username.includes('@') ? [`${username}@${domain.split('.')[0]}`] : [];
  });
}

const employeeIdsOf = (record: SourceRecord) => valuesOf(record.fields.EmployeeId).map(lower);

/** User correlation: email or user principal name, account name within its domain, employee id; two employee ids never merge. */
export function userCorrelationRules(): CorrelationRules {
  return {
    vetoes: [{ name: 'employee_id', valuesOf: employeeIdsOf }],
    rules: [
      { name: 'employee_id', keysOf: employeeIdsOf },
      { name: 'email', keysOf: emailsOf },
      { name: 'domain_account', keysOf: domainAccountsOf },
    ],
  };
}
