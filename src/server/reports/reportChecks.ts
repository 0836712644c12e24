import { isTimeZone } from '../../core/dates/index.js';
import type { Report } from '../../generated/types.js';
import type { Queryable } from '../db/database.js';
import { widgetSettingsErrors, widgetSettingsOf } from '../dashboards/computeWidget.js';
import { checkQueryText } from '../dashboards/snapshotScope.js';
import { Invalid } from '../errors.js';
import type { QueryReader } from '../query/savedQueryStore.js';
import { unknownTimeZone } from './scheduleTimes.js';
import { problemMessage, sectionQueryText } from './sections.js';
import type { ReportDocument } from './reportDocuments.js';

/**
 * Field errors of a report's sections the schema cannot see, named by their place (`sections.1.query`): a query
 * that does not parse or names a saved query that is gone, a chart without a widget or with settings its kind needs.
 */
export async function checkReportSections(db: Queryable, reader: QueryReader, report: ReportDocument): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const [index, section] of report.sections.entries()) {
    const at = `sections.${index}`;
    if (section.type === 'table' || section.type === 'comparison') {
      try {
        await checkQueryText({ db, ...reader }, sectionQueryText(section), 'query');
      } catch (error) {
        errors[`${at}.query`] = [problemMessage(error)];
      }
    }
    if (section.type === 'chart') {
      if (!section.widget) errors[`${at}.widget`] = ['A chart section needs a widget.'];
      else for (const [field, messages] of Object.entries(widgetSettingsErrors(widgetSettingsOf(section.widget)))) errors[`${at}.widget.${field}`] = messages;
    }
  }
  if (!isTimeZone(report.time_zone)) errors.time_zone = [unknownTimeZone(report.time_zone)];
  if (Object.keys(errors).length) throw new Invalid(errors);
}

export type ReportBody = Report;
