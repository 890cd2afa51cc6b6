import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import rule, { envExampleFix } from '../../../../src/lint/rules/env-example-sync.js';
import { planFixes, writeEdits } from '../../../../src/lint/fix.js';
import { checkAt, runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';
import { validateSkill as validate } from '../../../../src/skill/validate.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (envVars: string[]) =>
  JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', envVars },
    null,
    2,
  );

it('env-example-sync', () =>
  testRule(rule, {
    valid: [
      { tree: { 'manifest.json': manifest(['API_KEY']), '.env.example': '# the key\nAPI_KEY=\n\n' } },
      { tree: { 'manifest.json': manifest(['A', 'B']), '.env.example': 'export A=1\nB = 2\n' } },
      { tree: { 'manifest.json': manifest([]) } },
      // Missing entries are SK027's (validate), not this rule's.
      { tree: { 'manifest.json': manifest(['A', 'B']), '.env.example': 'A=\n' } },
      { tree: { 'SKILL.md': skillMd(fm), '.env.example': 'TOKEN=\n' } },
    ],
    invalid: [
      {
        tree: { 'manifest.json': manifest(['API_KEY']), '.env.example': '# keys\nAPI_KEY=\nOLD_KEY=abc\n' },
        messages: [/^\.env\.example names OLD_KEY, which envVars does not declare/],
        lines: [3],
      },
      {
        tree: { 'manifest.json': manifest([]), '.env.example': 'A=\n  export B=\nA=again\n' },
        messages: [/names A,/, /names B,/],
        lines: [1, 2],
      },
    ],
  }));

it('env-example-sync reports the column of the name', async () => {
  const r = await runRule(rule, { tree: { 'manifest.json': manifest([]), '.env.example': '  export B=\n' } });
  try {
    expect(r.reports.map((x) => [x.file, x.line, x.column])).toEqual([[join(r.root, '.env.example'), 1, 10]]);
  } finally {
    r.cleanup();
  }
});

it('envExampleFix appends the missing names, and validate then finds nothing missing', async () => {
  const r = await runRule(rule, {
    tree: { 'manifest.json': manifest(['API_KEY', 'OTHER', 'KEPT']), '.env.example': '# keep me\nKEPT=1' },
  });
  try {
    const fix = envExampleFix(r.skill)!;
    expect(fix).toEqual({
      description: 'add API_KEY, OTHER to .env.example',
      changes: [{ kind: 'append', file: join(r.root, '.env.example'), text: 'API_KEY=\nOTHER=\n' }],
    });
    expect(validate(r.skill).map((d) => d.ruleId)).toContain('SK027');
    writeEdits(planFixes([fix]).edits);
    expect(readFileSync(join(r.root, '.env.example'), 'utf8')).toBe('# keep me\nKEPT=1\nAPI_KEY=\nOTHER=\n');
    const again = await checkAt(rule, r.root);
    expect(envExampleFix(again.skill)).toBeUndefined();
    expect(validate(again.skill).map((d) => d.ruleId)).not.toContain('SK027');
  } finally {
    r.cleanup();
  }
});

it('envExampleFix creates .env.example when there is none', async () => {
  const r = await runRule(rule, { tree: { 'manifest.json': manifest(['A', 'A', 'B']) } });
  try {
    const fix = envExampleFix(r.skill)!;
    expect(fix.description).toBe('add A, B to .env.example');
    writeEdits(planFixes([fix]).edits);
    expect(readFileSync(join(r.root, '.env.example'), 'utf8')).toBe('A=\nB=\n');
    expect(envExampleFix((await checkAt(rule, r.root)).skill)).toBeUndefined();
  } finally {
    r.cleanup();
  }
});
