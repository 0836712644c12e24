export { isScannerTarget } from './scannerTarget.js';
export { isRuleName, parseRule, parseRules, rulesRequire, UnknownRuleError, type ParsedRule } from './ruleString.js';
export { isEmptyValue, ruleImplementations, type FileLike, type ImageSize, type RuleContext } from './rules.js';
export { defaultMessageFor, ruleMessage, validateValue, validateValues, type ValidationContext } from './validate.js';
export { fieldLabel, propertyLabel } from './fieldLabel.js';
export { schemaRuleMessages, type RuledSchema } from './schemaRules.js';
export { defaultValidationMessage, validationRuleCatalogue, validationRuleNames, type ValidationRuleName } from '../../generated/validationRules.js';
