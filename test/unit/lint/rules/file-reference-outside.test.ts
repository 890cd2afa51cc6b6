import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/file-reference-outside.js';
import { checkAt, testRule } from '../../../helpers/rule-tester.js';
import { skillMd, writeTree } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const md = (body: string) => skillMd(fm, body);
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/instructions.md'],
});

it('file-reference-outside', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          'SKILL.md': md('Read [API](references/api.md), run ./scripts/run.py; write /tmp/out.json.\n'),
          'references/api.md': '',
          'scripts/run.py': '',
        },
      },
      // A link to a plugin's slash command (UiPath's skills: `[uipath-functions](/uipath:uipath-functions)`) runs
      // the command; no file is meant.
      {
        tree: {
          'SKILL.md': md(
            'Use the [`uipath-functions`](/uipath:uipath-functions) skill, or [brainstorm](/superpowers:brainstorming).\n',
          ),
        },
      },
      // ../ from a context file that stays inside the skill.
      {
        tree: {
          'manifest.json': manifest,
          'context/instructions.md': 'See [the API](../references/api.md) and ../assets/x.png.\n',
          'references/api.md': '',
          'assets/x.png': '',
        },
      },
      // A symlink that stays inside is fine.
      {
        tree: {
          'SKILL.md': md('See references/latest.md.\n'),
          'references/v2.md': '',
          'references/latest.md': { symlink: 'v2.md' },
        },
      },
      // Where Claude.ai mounts the skill (/mnt/skills/<anything>/<folder>/) is the skill root, not an absolute path.
      {
        tree: {
          'SKILL.md': md('Read [the API](/mnt/skills/public/demo/references/api.md).\n'),
          'references/api.md': '',
        },
      },
      // Path-traversal payloads a security skill quotes (github/awesome-copilot's mcp-implementation-security-review:
      // "`../../../../etc/passwd`, `..\\..\\..\\.env` must be rejected | CWE-22"): no file of the skill, none to copy
      // in.
      {
        tree: {
          'SKILL.md': md(
            '| Path traversal | `fs.readFile(args.path)` | `../../../../etc/passwd`, `..\\..\\..\\.env` must be rejected | CWE-22 |\n\n' +
              'Try ../../../windows/win.ini and ../../proc/self/environ.\n\nAn LFI probe: ../../../var/www/config.php\n',
          ),
        },
      },
    ],
    invalid: [
      // A link is followed, whatever its line says: no quoted payload (sweep33). A bare path that climbs two folders
      // on a line about LFI is a script beside the skill; a payload climbs three or more, or names a system file.
      {
        tree: {
          'SKILL.md': md(
            'Read the [payload list](../../shared/payloads.md).\n\nConfig lives in [env](../../.env) here.\n\n' +
              'Run `python ..\\..\\tools\\lfi.py` for LFI checks.\n',
          ),
        },
        messages: [
          /^"\.\.\/\.\.\/shared\/payloads\.md" leads out of the skill folder$/,
          /^"\.\.\/\.\.\/\.env" leads out of the skill folder$/,
          /^"\.\.\\\.\.\\tools\\lfi\.py" leads out of the skill folder$/,
        ],
        lines: [5, 7, 9],
      },
      // Once per file that refers to a place outside, at its first mention, with how many more (thoughtspot's skills
      // name ../../shared/schemas/x.md in step after step: 318 findings, 227 files and places).
      {
        tree: {
          'SKILL.md': md(
            'Read [schema](../../shared/schema.md).\n\nCheck it against ../../shared/schema.md again.\n\nThen [rules](../../shared/rules.md) and [schema](../../shared/schema.md).\n\nSee [guide](references/guide.md).\n',
          ),
          'references/guide.md':
            'The schema: [schema](../../../shared/schema.md), [again](../../../shared/schema.md).\n',
        },
        messages: [
          /^"\.\.\/\.\.\/shared\/schema\.md" leads out of the skill folder \(\+2 more references\)$/,
          /^"\.\.\/\.\.\/shared\/rules\.md" leads out of the skill folder$/,
          /^"\.\.\/\.\.\/\.\.\/shared\/schema\.md" leads out of the skill folder \(\+1 more reference\)$/,
        ],
        lines: [5, 9, 1],
      },
      {
        tree: {
          'SKILL.md': md(
            '# Demo\n\nSee [the policy](/etc/policy.md) and [the other skill](../other/SKILL.md).\nAlso ../shared/notes.md.\n',
          ),
        },
        messages: [
          /"\/etc\/policy\.md" is an absolute path/,
          /"\.\.\/other\/SKILL\.md" leads out of the skill folder/,
          /"\.\.\/shared\/notes\.md" leads out/,
        ],
        lines: [7, 7, 8],
      },
      // Another skill's mount is outside this one.
      {
        tree: { 'SKILL.md': md('Read [x](/mnt/skills/public/other/references/x.md).\n') },
        messages: [/"\/mnt\/skills\/public\/other\/references\/x\.md" is an absolute path/],
      },
      {
        tree: { 'SKILL.md': md('Read [a](C:\\docs\\a.md).\n') },
        messages: [/"C:\\docs\\a\.md" is an absolute path/],
      },
      // A web site's path, kept by a page copied from the web (anthropics/knowledge-work-plugins' zoom OAuth scopes,
      // editframe/skills): no file to copy in; the full URL is the fix. A file's path (/etc/policy.md above) is not.
      {
        tree: {
          'SKILL.md': md(
            'See [plan usage](/docs/api/rest/reference/billing/ma/#operation/GetPlanUsage) and [Dial](/skills/editor-gui/dial).\n',
          ),
        },
        messages: [
          /^"\/docs\/api\/rest\/reference\/billing\/ma\/" is a link from a web site's root \(copied from a web page\?\), which leads nowhere in the skill$/,
          /^"\/skills\/editor-gui\/dial" is a link from a web site's root/,
        ],
      },
      {
        tree: { 'manifest.json': manifest, 'context/instructions.md': 'See [x](../../outside.md).\n' },
        messages: [/leads out of the skill folder/],
        lines: [1],
      },
      // Through symlinks that lead out: a folder, and a file.
      {
        tree: {
          'SKILL.md': md('Read shared/guide.md and [the tool](references/node.md).\n'),
          shared: { symlink: tmpdir() },
          'references/node.md': { symlink: process.execPath },
        },
        messages: [
          /"shared\/guide\.md" goes through shared, a symlink that leads out/,
          /"references\/node\.md" goes through references\/node\.md, a symlink/,
        ],
      },
    ],
  }));

it('file-reference-outside: a reference into the plugin the skill ships in is no reference out (the plugin is installed whole)', async () => {
  // anthropics/claude-code's plugin-dev (named by its marketplace, no manifest of its own) links its sibling skills;
  // obra/superpowers (.claude-plugin/plugin.json) and trailofbits' plugins the same.
  const base = mkdtempSync(join(tmpdir(), 'skills-outside-'));
  try {
    const body = (name: string) =>
      skillMd(
        `name: ${name}\ndescription: Demo skill. Use when testing.\n`,
        'See [hooks](../hook-development/SKILL.md), [the README](../../README.md) and [gone](../gone/SKILL.md).\n',
      );
    const hook = skillMd('name: hook-development\ndescription: Hooks. Use when testing.\n');
    writeTree(base, {
      '.claude-plugin/marketplace.json': JSON.stringify({ plugins: [{ name: 'dev', source: './plugins/dev' }] }),
      'plugins/dev/README.md': '',
      'plugins/dev/skills/skill-development/SKILL.md': body('skill-development'),
      'plugins/dev/skills/hook-development/SKILL.md': hook,
      'plugins/own/.claude-plugin/plugin.json': '{"name":"own"}',
      'plugins/own/README.md': '',
      'plugins/own/skills/skill-development/SKILL.md': body('skill-development'),
      'plugins/own/skills/hook-development/SKILL.md': hook,
      // No manifest and no marketplace names it: each skill is installed alone.
      'loose/README.md': '',
      'loose/skills/skill-development/SKILL.md': body('skill-development'),
      'loose/skills/hook-development/SKILL.md': hook,
    });
    const messages = async (dir: string) =>
      (await checkAt(rule, join(base, dir, 'skills/skill-development'))).reports.map((r) => r.message);
    // What is not in the plugin (../gone/) is still reported.
    const gone = '"../gone/SKILL.md" leads out of the skill folder';
    expect(await messages('plugins/dev')).toEqual([gone]);
    expect(await messages('plugins/own')).toEqual([gone]);
    expect(await messages('loose')).toEqual([
      '"../hook-development/SKILL.md" leads out of the skill folder',
      '"../../README.md" leads out of the skill folder',
      gone,
    ]);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

it("file-reference-outside: a marketplace.json that is a FIFO (a stranger's trap) is passed over, never waited on", async () => {
  const base = mkdtempSync(join(tmpdir(), 'skills-outside-'));
  try {
    writeTree(base, {
      'plugins/dev/skills/a/SKILL.md': md('See [b](../b/SKILL.md).\n'),
      'plugins/dev/skills/b/SKILL.md': skillMd('name: b\ndescription: B. Use when testing.\n'),
    });
    mkdirSync(join(base, '.claude-plugin'));
    execFileSync('mkfifo', [join(base, '.claude-plugin/marketplace.json')]);
    // Named by no marketplace it can read: no plugin, so the link out is reported (and the check returns).
    const { reports } = await checkAt(rule, join(base, 'plugins/dev/skills/a'));
    expect(reports.map((r) => r.message)).toEqual(['"../b/SKILL.md" leads out of the skill folder']);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}, 20_000);
