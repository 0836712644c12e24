import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fieldLabel,
  isScannerTarget,
  parseRules,
  ruleImplementations,
  rulesRequire,
  UnknownRuleError,
  validateValue,
  validateValues,
  validationRuleNames,
} from '../../src/core/validation/index.js';

const check = (value: unknown, rules: string, context: Record<string, unknown> = {}) => validateValue(value, rules, { field: 'Name', ...context });
const file = (name: string, size: number, type: string) => ({ name, size, type });

describe('the rule catalogue', () => {
  const catalogue = JSON.parse(readFileSync('schemas/validation/rules.json', 'utf8')) as { rules: { name: string }[] };

  it('lists every rule of spec §5 and each has an implementation', () => {
    const spec = ['required', 'email', 'min', 'max', 'min_value', 'max_value', 'between', 'integer', 'numeric', 'digits', 'alpha', 'alpha_num', 'alpha_dash',
      'alpha_spaces', 'regex', 'url', 'one_of', 'not_one_of', 'confirmed', 'size', 'image', 'ext', 'mimes', 'dimensions', 'greaterOrZero', 'greaterOrEmpty',
      'array_min', 'array_max', 'numericOrNotEmpty', 'min_date', 'alpha_num_underscore', 'no_space', 'scanner_target'];
    expect(catalogue.rules.map((rule) => rule.name).sort()).toEqual([...spec].sort());
    expect([...validationRuleNames].sort()).toEqual([...spec].sort());
    expect(Object.keys(ruleImplementations).sort()).toEqual([...spec].sort());
  });
});

describe('rule strings', () => {
  it('are split on pipes, with parameters after a colon separated by commas', () => {
    expect(parseRules('required|email|min:3|between:1,10')).toEqual([
      { name: 'required', parameters: [] },
      { name: 'email', parameters: [] },
      { name: 'min', parameters: ['3'] },
      { name: 'between', parameters: ['1', '10'] },
    ]);
  });

  it('give a regex rule everything after its colon, pipes and commas included', () => {
    expect(parseRules('required|regex:^(a|b){1,2}$')).toEqual([{ name: 'required', parameters: [] }, { name: 'regex', parameters: ['^(a|b){1,2}$'] }]);
  });

  it('throw on an unknown rule name', async () => {
    expect(() => parseRules('required|shiny')).toThrow(UnknownRuleError);
    await expect(check('x', 'requird')).rejects.toThrow('Unknown validation rule "requird"');
  });

  it('throw when a rule gets the wrong number of parameters', () => {
    expect(() => parseRules('min')).toThrow(/takes 1 parameter/);
    expect(() => parseRules('between:1')).toThrow(/takes 2 parameter/);
    expect(() => parseRules('one_of')).toThrow(/at least 1/);
  });

  it('make a field required only when they contain the word required', () => {
    expect(rulesRequire('email|required')).toBe(true);
    expect(rulesRequire('required')).toBe(true);
    expect(rulesRequire('email')).toBe(false);
    expect(rulesRequire(undefined)).toBe(false);
  });
});

describe('validation', () => {
  it('answers the first failing rule only', async () => {
    expect(await check('', 'required|email|min:3')).toBe('The Name field is required.');
    expect(await check('ab', 'required|email|min:3')).toBe('The Name field must be a valid email.');
    expect(await check('a@b.co', 'required|email|min:8')).toBe('The Name field must be at least 8 characters.');
    expect(await check('ann@example.com', 'required|email|min:3')).toBeNull();
  });

  it('lets empty values through every rule but required', async () => {
    for (const rules of ['email', 'min:3', 'numeric', 'url', 'scanner_target', 'between:1,2', 'regex:^x$']) {
      expect(await check('', rules), rules).toBeNull();
      expect(await check(undefined, rules), rules).toBeNull();
    }
  });

  it('judges whitespace as a value: only required treats blank text as missing', async () => {
    for (const rules of ['no_space', 'email', 'numeric', 'alpha', 'alpha_num', 'alpha_dash']) expect(await check('   ', rules), rules).not.toBeNull();
    expect(await check('   ', 'alpha_spaces')).toBeNull();
  });

  it('treats blank text, null, false and an empty list as missing for required', async () => {
    for (const value of ['', '   ', null, undefined, false, []]) expect(await check(value, 'required'), JSON.stringify(value)).toBe('The Name field is required.');
    for (const value of ['x', 0, true, ['a']]) expect(await check(value, 'required'), JSON.stringify(value)).toBeNull();
  });

  it('counts characters for min and max', async () => {
    expect(await check('abc', 'min:3')).toBeNull();
    expect(await check('abcd', 'max:3')).toBe('The Name field may not be greater than 3 characters.');
    expect(await check('😀😀😀', 'max:3')).toBeNull();
    expect(await check('😀', 'min:2')).not.toBeNull();
  });

  it('compares numbers for min_value, max_value and between', async () => {
    expect(await check('5', 'min_value:5')).toBeNull();
    expect(await check(4, 'min_value:5')).toBe('The Name field must be 5 or more.');
    expect(await check('11', 'max_value:10')).toBe('The Name field must be 10 or less.');
    expect(await check('abc', 'max_value:10')).toBe('The Name field must be 10 or less.');
    expect(await check(0, 'between:1,10')).toBe('The Name field must be between 1 and 10.');
    expect(await check('10', 'between:1,10')).toBeNull();
  });

  it('checks integer, numeric and digits', async () => {
    expect(await check('-12', 'integer')).toBeNull();
    expect(await check('1.5', 'integer')).toBe('The Name field must be an integer.');
    expect(await check('0123', 'numeric')).toBeNull();
    expect(await check('-1', 'numeric')).toBe('The Name field may only contain numeric characters.');
    expect(await check('1234', 'digits:4')).toBeNull();
    expect(await check('123', 'digits:4')).toBe('The Name field must be numeric and exactly contain 4 digits.');
    expect(await check('12a4', 'digits:4')).not.toBeNull();
  });

  it('checks the alpha family, alpha_num_underscore and no_space', async () => {
    expect(await check('Zoë', 'alpha')).toBeNull();
    expect(await check('abc1', 'alpha')).toBe('The Name field may only contain alphabetic characters.');
    expect(await check('abc1', 'alpha_num')).toBeNull();
    expect(await check('abc-1', 'alpha_num')).not.toBeNull();
    expect(await check('abc-1_x', 'alpha_dash')).toBeNull();
    expect(await check('abc 1', 'alpha_dash')).not.toBeNull();
    expect(await check('Jane Doe', 'alpha_spaces')).toBeNull();
    expect(await check('Jane-Doe', 'alpha_spaces')).toBe('The Name field may only contain alphabetic characters as well as spaces.');
    expect(await check('snake_case_1', 'alpha_num_underscore')).toBeNull();
    expect(await check('kebab-case', 'alpha_num_underscore')).toBe('The Name field may only contain alpha-numeric characters and underscores.');
    expect(await check('nospace', 'no_space')).toBeNull();
    expect(await check('has space', 'no_space')).toBe('The Name field may not contain spaces.');
    expect(await check('tab\there', 'no_space')).not.toBeNull();
  });

  it('checks regex and url', async () => {
    expect(await check('abc', 'regex:^[a-c]+$')).toBeNull();
    expect(await check('abd', 'regex:^[a-c]+$')).toBe('The Name field format is invalid.');
    expect(await check('https://example.com/path?q=1', 'url')).toBeNull();
    expect(await check('ftp://files.example.com', 'url')).toBeNull();
    expect(await check('javascript:alert(1)', 'url')).toBe('The Name field is not a valid URL.');
    expect(await check('example.com', 'url')).not.toBeNull();
  });

  it('checks one_of and not_one_of against the listed values, item by item for a list', async () => {
    expect(await check('b', 'one_of:a,b,c')).toBeNull();
    expect(await check('d', 'one_of:a,b,c')).toBe('The Name field is not a valid value.');
    expect(await check(['a', 'c'], 'one_of:a,b,c')).toBeNull();
    expect(await check(['a', 'z'], 'one_of:a,b,c')).not.toBeNull();
    expect(await check('root', 'not_one_of:root,admin')).toBe('The Name field is not a valid value.');
    expect(await check('jane', 'not_one_of:root,admin')).toBeNull();
  });

  it('compares confirmed with the target field of the same form and names its label', async () => {
    const values = { password: 'secret one', password_confirmation: 'secret two' };
    expect(await validateValue('secret two', 'confirmed:password', { field: 'Confirmation', values })).toBe('The Confirmation field confirmation does not match.');
    expect(await validateValue('secret one', 'confirmed:password', { field: 'Confirmation', values })).toBeNull();
  });

  it('checks files by size in kilobytes, image type, extension and MIME type', async () => {
    const logo = file('logo.PNG', 2048, 'image/png');
    expect(await check(logo, 'size:2')).toBeNull();
    expect(await check(logo, 'size:1')).toBe('The Name field size must be less than 1KB.');
    expect(await check(logo, 'image')).toBeNull();
    expect(await check(file('a.pdf', 1, 'application/pdf'), 'image')).toBe('The Name field must be an image.');
    expect(await check(logo, 'ext:jpg,png')).toBeNull();
    expect(await check(logo, 'ext:jpg,gif')).toBe('The Name field is not a valid file.');
    expect(await check(logo, 'mimes:image/*')).toBeNull();
    expect(await check(logo, 'mimes:application/pdf')).toBe('The Name field must have a valid file type.');
    expect(await check([logo, file('b.txt', 1, 'text/plain')], 'image')).not.toBeNull();
    expect(await check('not a file', 'image')).not.toBeNull();
  });

  it('checks image dimensions with the measurer it is given', async () => {
    const measureImage = async () => ({ width: 64, height: 32 });
    expect(await check(file('a.png', 1, 'image/png'), 'dimensions:64,32', { measureImage })).toBeNull();
    expect(await check(file('a.png', 1, 'image/png'), 'dimensions:32,32', { measureImage })).toBe('The Name field must be 32 pixels by 32 pixels.');
    expect(await check(file('a.png', 1, 'image/png'), 'dimensions:64,32', { measureImage: async () => Promise.reject(new Error('broken')) })).not.toBeNull();
  });

  it('accepts zero or at least the minimum for greaterOrZero, and empty or at least the minimum for greaterOrEmpty', async () => {
    expect(await check(0, 'greaterOrZero:5')).toBeNull();
    expect(await check('7', 'greaterOrZero:5')).toBeNull();
    expect(await check(3, 'greaterOrZero:5')).toBe('The Name field must be 5 or more, or 0.');
    expect(await check('', 'greaterOrEmpty:5')).toBeNull();
    expect(await check(5, 'greaterOrEmpty:5')).toBeNull();
    expect(await check(4, 'greaterOrEmpty:5')).toBe('The Name field must be 5 or more, or empty.');
  });

  it('counts items for array_min and array_max, a missing list counting as empty', async () => {
    expect(await check([], 'array_min:1')).toBe('The Name field must have at least 1 items.');
    expect(await check(undefined, 'array_min:1')).not.toBeNull();
    expect(await check(['a'], 'array_min:1')).toBeNull();
    expect(await check(['a', 'b', 'c'], 'array_max:2')).toBe('The Name field may not have more than 2 items.');
  });

  it('accepts numeric characters only for numericOrNotEmpty', async () => {
    expect(await check('123', 'numericOrNotEmpty')).toBeNull();
    expect(await check('12a', 'numericOrNotEmpty')).toBe('The Name field may only contain numeric characters.');
  });

  it('wants a date after the given one for min_date, in any accepted format', async () => {
    expect(await check('2024-03-02', 'min_date:2024-03-01')).toBeNull();
    expect(await check('02.03.2024 10:00', 'min_date:01/03/2024')).toBeNull();
    expect(await check('2024-03-01', 'min_date:2024-03-01')).toBe('The Name field must be after 2024-03-01.');
    expect(await check('not a date', 'min_date:2024-03-01')).not.toBeNull();
  });

  it('uses the default message for scanner_target', async () => {
    expect(await check('10.0.0.300', 'scanner_target')).toBe('The Name is not valid.');
  });

  it('validates several fields and labels the messages', async () => {
    const errors = await validateValues({ username: '', email: 'x' }, { username: 'required', email: 'email' }, { username: 'Username', email: 'Email' });
    expect(errors).toEqual({ username: 'The Username field is required.', email: 'The Email field must be a valid email.' });
  });
});

describe('scanner targets', () => {
  it('accept addresses, CIDR suffixes 8 to 32 and ranges, comma-separated', () => {
    for (const value of ['10.0.0.1', '10.0.0.0/8', '10.0.0.0/24', '10.0.0.1/32', '10.0.0.1-10.0.0.20', '10.0.0.1, 192.168.1.0/24,172.16.0.1-172.16.0.9', '0.0.0.0', '255.255.255.255']) {
      expect(isScannerTarget(value), value).toBe(true);
    }
  });

  it('refuse suffixes outside 8 to 32, bad octets, a suffix with a range and empty entries', () => {
    for (const value of ['10.0.0.0/7', '10.0.0.0/33', '10.0.0.0/0', '256.0.0.1', '10.0.0', '10.0.0.01', '10.0.0.1-10.0.0', '10.0.0.0/24-10.0.1.0', '10.0.0.1,', ',10.0.0.1', 'host.example.com', '10.0.0.1 - 10.0.0.2', '::1']) {
      expect(isScannerTarget(value), value).toBe(false);
    }
  });
});

describe('field labels', () => {
  it('split keys on dots and underscores and capitalise each word', () => {
    expect(fieldLabel('first_name')).toBe('First Name');
    expect(fieldLabel('OS.type')).toBe('OS Type');
    expect(fieldLabel('Specifics.crowdstrike.agent_version')).toBe('Specifics Crowdstrike Agent Version');
  });
});

describe('the generated rule types', () => {
  it('name every rule of the catalogue and keep its parameters and message', async () => {
    const { generateValidationRuleTypes } = await import('../../codegen/validationRules.js');
    const source = generateValidationRuleTypes({
      defaultMessage: 'The {field} is not valid.',
      rules: [
        { name: 'min', description: 'Long enough.', message: 'The {field} field must be at least {length} characters.', parameters: [{ name: 'length', description: 'Fewest characters.' }] },
        { name: 'scanner_target', description: 'Targets.', parameters: [] },
      ],
    });
    expect(source).toContain('export type ValidationRuleName = "min" | "scanner_target";');
    expect(source).toContain('"min": {"parameters":["length"],"message":"The {field} field must be at least {length} characters."},');
    expect(source).toContain('"scanner_target": {"parameters":[],"message":null},');
  });

  it('come from a catalogue that codegen checks against its schema', async () => {
    const { loadValidationRuleCatalogue } = await import('../../codegen/validationRules.js');
    expect(loadValidationRuleCatalogue().rules).toHaveLength(33);
  });
});

describe('x-rules in schemas', () => {
  it('name only catalogue rules with the right parameters, in every schema including adapter forms', async () => {
    const { loadSchemas } = await import('../../codegen/loadSchemas.js');
    const found: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [key, child] of Object.entries(node)) {
        if (key === 'x-rules' && typeof child === 'string') {
          found.push(child);
          expect(() => parseRules(child), `${where}: ${child}`).not.toThrow();
        } else visit(child, `${where}/${key}`);
      }
    };
    for (const { file, schema } of loadSchemas('schemas')) visit(schema, file);
    expect(found.length).toBeGreaterThan(0);
  });
});
