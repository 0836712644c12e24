import { cellText, csvField } from '../../inventory/exports.js';
import { sendCompanyMail } from '../../outbound/smtp.js';
import type { ActionRunner } from '../actionTypes.js';
import { allTargets, messageOf } from '../actionTypes.js';
import { renderText, type Target } from '../template.js';

type EmailParameters = { recipients: string[]; subject: string; format: 'table' | 'csv'; fields: string[] };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const cellsOf = (target: Target, fields: string[]) => fields.map((field) => cellText(field === 'PrimaryKey' ? [target.assetId] : target.fields[field]));

/** The assets as CSV: a header of the fields, one row per asset, cells escaped against formulas. */
export function assetsCsv(targets: Target[], fields: string[]): string {
  return [fields, ...targets.map((target) => cellsOf(target, fields))].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function htmlTable(targets: Target[], fields: string[]): string {
  const head = fields.map((field) => `<th align="left">${escapeHtml(field)}</th>`).join('');
  const rows = targets.map((target) => `<tr>${cellsOf(target, fields).map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('');
  return `<table border="1" cellpadding="4" cellspacing="0"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** One message to the recipients through the company's SMTP configuration, the assets as a table or a CSV file. */
export const emailRunner: ActionRunner = {
  entities: null,
  async run({ context, companyId, parameters, actionName, outbound }, targets) {
    const { recipients, subject, format, fields } = parameters as EmailParameters;
    const extras = { action: actionName, count: targets.length };
    const intro = `${targets.length} assets found by the Cartograph action "${actionName}".`;
    try {
      const receipt = await sendCompanyMail(context.db, context.keys.secretsKey, companyId, {
        to: recipients,
        subject: renderText(subject, null, extras),
        ...(format === 'csv'
          ? { text: `${intro}\nThey are in the attached CSV file.`, attachments: [{ filename: 'assets.csv', content: assetsCsv(targets, fields), contentType: 'text/csv' }] }
          : { text: `${intro}\n\n${targets.map((target) => cellsOf(target, fields).join(' | ')).join('\n')}`, html: `<p>${escapeHtml(intro)}</p>${htmlTable(targets, fields)}` }),
      }, outbound, context.config.smtpTimeoutSeconds);
      return allTargets(targets, { status: 'succeeded', detail: `Mailed to ${receipt.accepted.join(', ')}` });
    } catch (error) {
      return allTargets(targets, { status: 'failed', detail: messageOf(error) });
    }
  },
};
