// The configuration's rule settings, checked against the rules and validate's checks, and what they make of one
// rule: its severity and its options.
import type { Config, RuleSetting } from '../config/config.js';
import { CHECKS } from '../model/checks.js';
import type { Severity } from '../model/diagnostic.js';
import { SkillsError } from '../errors.js';
import { closest } from '../skill/names.js';
import { rules as allRules } from './rules/index.js';
import type { Rule } from './types.js';

export interface Resolved {
  severity: Severity | 'off';
  options: Record<string, unknown>;
}

/** Every id and alias a configuration may name: validate's checks and the lint rules. */
export function knownNames(rules: Rule[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const [alias, c] of Object.entries(CHECKS)) {
    names.set(c.id, c.id);
    names.set(alias, c.id);
  }
  for (const r of rules) {
    names.set(r.names[0], r.names[0]);
    names.set(r.names[1], r.names[0]);
  }
  return names;
}

/** Resolve the configuration's rule settings by id; unknown names and ill-typed options are E_CONFIG errors. */
export function resolveSettings(config: Config, rules: Rule[] = allRules): Map<string, RuleSetting> {
  const names = knownNames(rules);
  const byId = new Map<string, RuleSetting>();
  const nameOf = new Map<string, string>();
  for (const [name, setting] of Object.entries(config.rules)) {
    const place = config.rulePlaces?.[name];
    const file = place ? `${config.file}:${place.line}:${place.column}` : config.file;
    const id = names.get(name);
    if (!id) {
      const near = closest(name, [...names.keys()]);
      throw new SkillsError(
        'E_CONFIG',
        `${file}: unknown rule "${name}" in rules${near ? `; did you mean "${near}"?` : ''}`,
        {
          hint: 'run `skills lint --list-rules` for every rule id and alias',
        },
      );
    }
    // An id and its alias both set: which one wins would hang on their order (and a setting without a severity
    // would undo the other's), so the file says it once.
    const other = nameOf.get(id);
    if (other !== undefined)
      throw new SkillsError('E_CONFIG', `${file}: "${name}" and "${other}" in rules are one rule (${id})`, {
        hint: `keep one of them, with what the two of them say`,
      });
    nameOf.set(id, name);
    const rule = rules.find((r) => r.names[0] === id);
    for (const [opt, value] of Object.entries(setting.options ?? {})) {
      const spec = rule?.options?.[opt];
      if (!spec) {
        throw new SkillsError(
          'E_CONFIG',
          `${file}: rule ${name} has no option "${opt}"${rule?.options ? ` (it has: ${Object.keys(rule.options).join(', ')})` : ' (it takes none)'}`,
        );
      }
      const want = Array.isArray(spec.default) ? 'array' : typeof spec.default;
      const got = Array.isArray(value) ? 'array' : typeof value;
      if (want !== got || (want === 'number' && !Number.isFinite(value as number))) {
        throw new SkillsError(
          'E_CONFIG',
          `${file}: option ${opt} of rule ${name} must be ${want === 'array' ? 'a list of text' : `a ${want}`}, e.g. ${JSON.stringify(spec.default)}`,
        );
      }
    }
    byId.set(id, setting);
  }
  return byId;
}

/**
 * A rule's severity and options under the settings: the configuration's where it sets them, else the rule's defaults.
 */
export function settingFor(rule: Rule, settings: Map<string, RuleSetting>): Resolved {
  const s = settings.get(rule.names[0]);
  const options: Record<string, unknown> = {};
  for (const [k, o] of Object.entries(rule.options ?? {})) options[k] = s?.options?.[k] ?? o.default;
  return { severity: s?.severity ?? rule.severity, options };
}
