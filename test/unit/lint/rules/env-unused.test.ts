import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/env-unused.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (envVars: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      id: 'demo',
      name: 'Demo',
      version: '1.0.0',
      description: 'Demo. Use when testing.',
      owner: 'built-in',
      envVars,
      ...extra,
    },
    null,
    2,
  );
// In manifest(), "envVars": [ is on line 7 and entry i on line 8 + i.
const skill = (envVars: string[], files: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  tree: { 'manifest.json': manifest(envVars, extra), '.env.example': envVars.map((v) => `${v}=\n`).join(''), ...files },
});

it('env-unused', () =>
  testRule(rule, {
    valid: [
      skill(['API_KEY'], { 'scripts/a.sh': '#!/bin/sh\nset -e\necho "$API_KEY"\n' }),
      skill(['API_KEY', 'REGION'], {
        'toolsets/index.ts': 'export const k = process.env.API_KEY;\n',
        'mcp/server.py': "os.environ['REGION']\n",
      }),
      // An MCP server's settings in the manifest count as a use.
      skill(
        ['MCP_TOKEN'],
        {},
        { mcpServers: [{ name: 'x', type: 'local', command: 'node', args: ['server.js', '--token=${MCP_TOKEN}'] }] },
      ),
      // Documentation that tells the user to set it counts too.
      skill(['API_KEY'], { 'context/setup.md': 'Set `API_KEY` before you start.\n' }),
      skill([], {}),
      { tree: { 'SKILL.md': skillMd(fm) } },
    ],
    invalid: [
      {
        ...skill(['API_KEY', 'UNUSED'], { 'scripts/a.sh': '#!/bin/sh\nset -e\necho "$API_KEY"\n' }),
        messages: [/^envVars declares UNUSED, but no file of the skill reads it/],
        lines: [9],
      },
      // Naming it in manifest.json, .env.example or .env is no read; nor is a longer name that contains it.
      {
        ...skill(
          ['API_KEY', 'OTHER'],
          { '.env': 'API_KEY=1\n', 'scripts/a.js': 'process.env.API_KEY_2; process.env.XOTHER;\n' },
          { description: 'Uses API_KEY. Use when testing.' },
        ),
        messages: [/declares API_KEY/, /declares OTHER/],
        lines: [8, 9],
      },
      { ...skill(['A'], {}), messages: [/declares A,/] },
    ],
  }));

it('env-unused reports at the envVars entry', async () => {
  const r = await runRule(rule, skill(['A', 'B'], { 'x.sh': '$A' }));
  try {
    expect(r.reports.map((x) => [x.file, x.line, x.column])).toEqual([[undefined, 9, 5]]);
  } finally {
    r.cleanup();
  }
});
