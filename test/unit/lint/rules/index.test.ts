// The rule registry: every rule in src/lint/rules/index.ts has the shape the linter, the docs and SARIF rely on,
// ids and names are unique (with validate's checks too), and docs/rules.md is generated from this very array.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../src/model/checks.js';
import { rules } from '../../../../src/lint/rules/index.js';
import { renderRules } from '../../../../src/lint/rules-doc.js';

const RULES_DIR = new URL('../../../../src/lint/rules/', import.meta.url);
const DOCS = new URL('../../../../docs/rules.md', import.meta.url);
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

describe('the rule registry', () => {
  it('has a unique id and a unique name for every rule, distinct from validate’s checks', () => {
    const ids = rules.map((r) => r.names[0]);
    const names = rules.map((r) => r.names[1]);
    expect(new Set(ids).size, `duplicate ids: ${ids.filter((id, i) => ids.indexOf(id) !== i)}`).toBe(ids.length);
    expect(new Set(names).size, `duplicate names: ${names.filter((n, i) => names.indexOf(n) !== i)}`).toBe(
      names.length,
    );
    const checkIds = new Set<string>(Object.values(CHECKS).map((c) => c.id));
    const checkNames = new Set<string>(Object.keys(CHECKS));
    expect(ids.filter((id) => checkIds.has(id))).toEqual([]);
    // Known, and left as it is: SK026 (validate) and SK114 share the name script-executable; in a configuration
    // the name sets SK114, so SK026 is reachable by its id only. No other name may be shared.
    expect(names.filter((n) => checkNames.has(n))).toEqual(['script-executable']);
  });

  it('lists the rules in id order, SK100 on', () => {
    const ids = rules.map((r) => r.names[0]);
    for (const id of ids) expect(id).toMatch(/^SK1\d\d$/);
    expect(ids).toEqual([...ids].sort());
  });

  it.each(rules.map((r) => [r.names[1], r] as const))('%s has the shape of a rule', (_name, rule) => {
    const [id, name] = rule.names;
    expect(rule.names).toHaveLength(2);
    expect(name).toMatch(KEBAB);
    expect(typeof rule.description).toBe('string');
    // The docs add the full stop; the description is one phrase that starts in lower case.
    expect(rule.description, id).toMatch(/^[a-z."'.<(0-9]/);
    expect(rule.description.endsWith('.'), `${id}: description ends with a full stop`).toBe(false);
    expect(rule.tags.length, `${id}: tags`).toBeGreaterThan(0);
    for (const t of rule.tags) expect(t).toMatch(KEBAB);
    expect(rule.layouts.length, `${id}: layouts`).toBeGreaterThan(0);
    for (const l of rule.layouts) expect(['skill-md', 'manifest']).toContain(l);
    expect(new Set(rule.layouts).size).toBe(rule.layouts.length);
    expect(['error', 'warning', 'info']).toContain(rule.severity);
    expect(rule.sources.length, `${id}: sources`).toBeGreaterThan(0);
    for (const s of rule.sources) expect(s.trim()).not.toBe('');
    expect(typeof rule.fixable).toBe('boolean');
    expect(typeof rule.check === 'function' || typeof rule.checkTree === 'function', `${id}: check or checkTree`).toBe(
      true,
    );
    for (const [opt, spec] of Object.entries(rule.options ?? {})) {
      expect(opt, `${id}: option name`).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(
        ['number', 'string', 'boolean'].includes(typeof spec.default) ||
          (Array.isArray(spec.default) && spec.default.every((x) => typeof x === 'string')),
        `${id}: default of ${opt}`,
      ).toBe(true);
      expect(spec.description.trim(), `${id}: description of ${opt}`).not.toBe('');
    }
  });

  it('has one file per rule, named as its alias, and every rule file in the array', async () => {
    const files = readdirSync(RULES_DIR)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -3))
      .sort();
    expect(files).toEqual(rules.map((r) => r.names[1]).sort());
    for (const f of files) {
      const mod = (await import(new URL(`${f}.ts`, RULES_DIR).href)) as { default: unknown };
      expect(rules, `${f}.ts's default export is in the array`).toContain(mod.default);
    }
  });
});

describe('docs/rules.md', () => {
  const docs = readFileSync(DOCS, 'utf8');

  it('has an entry for every rule, in the order of the array, and no other', () => {
    const headings = [...docs.matchAll(/^## (SK\d+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(headings).toEqual(rules.map((r) => `${r.names[0]} ${r.names[1]}`));
    for (const r of rules) {
      expect(docs, `${r.names[0]} in the table`).toContain(
        `| [${r.names[0]}](#${r.names[0].toLowerCase()}-${r.names[1]}) | ${r.names[1]} | ${r.severity} |`,
      );
    }
  });

  it('is what the array renders: run `npm run docs` after changing a rule', () => {
    expect(docs).toBe(renderRules(rules, 'markdown'));
  });
});
