import { expect, it } from 'vitest';
import rule, { chmodFix } from '../../../../src/lint/rules/script-executable.js';
import { holdsWord } from '../../../../src/lint/rules/script-shebang.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', ...extra },
    null,
    2,
  );
const sh = '#!/usr/bin/env bash\nset -e\necho hi\n';

it.skipIf(process.platform === 'win32')('script-executable', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': { content: sh, mode: 0o755 } } },
      // No shebang: maybe a module that is imported, not run (script-shebang speaks about it).
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/util.py': { content: 'x = 1\n', mode: 0o644 } } },
      // Declared manifest scripts are validate's SK026.
      {
        tree: {
          'manifest.json': manifest({ scripts: ['scripts/run.sh'] }),
          'scripts/run.sh': { content: sh, mode: 0o644 },
        },
      },
      { tree: { 'manifest.json': manifest(), 'scripts/a.py': { content: '#!/usr/bin/env python3\n', mode: 0o700 } } },
      {
        tree: {
          'SKILL.md': skillMd(fm, '```bash\n./find-polluter.sh\n```\n'),
          'find-polluter.sh': { content: sh, mode: 0o755 },
        },
      },
      // Always run through an interpreter (trailofbits' let-fate-decide, codeql), or a module its siblings import
      // (openai's skill-installer): the execute bit is never used.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '```bash\nuv run --no-config {baseDir}/scripts/draw.py\n. "{baseDir}/scripts/log.sh" || exit 1\n```\n',
          ),
          'scripts/draw.py': { content: '#!/usr/bin/env python3\nimport utils\n', mode: 0o644 },
          'scripts/log.sh': { content: sh, mode: 0o644 },
          'scripts/utils.py': { content: '#!/usr/bin/env python3\nx = 1\n', mode: 0o644 },
        },
      },
      // Run through its interpreter by its path from the repository's top (elastic/agent-skills keeps the skill in
      // skills/security/<folder>/ and runs `node skills/security/case-management/scripts/case-manager.js`).
      {
        folder: 'case-management',
        tree: {
          'SKILL.md': skillMd(
            fm,
            '```bash\nnode skills/security/case-management/scripts/case-manager.js find\npython3 skills/case-management/scripts/x.py\n```\n',
          ),
          'scripts/case-manager.js': { content: '#!/usr/bin/env node\nconsole.log(1)\n', mode: 0o644 },
          'scripts/x.py': { content: '#!/usr/bin/env python3\nx = 1\n', mode: 0o644 },
        },
      },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': { content: sh, mode: 0o644 } },
        messages: [/^scripts\/run\.sh starts with a shebang but is not executable/],
        lines: [1],
        modes: { 'scripts/run.sh': 0o755 },
        output: { 'scripts/run.sh': sh },
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/a.py': { content: '#!/usr/bin/env python3\n', mode: 0o600 } },
        messages: [/scripts\/a\.py/],
        modes: { 'scripts/a.py': 0o700 },
      },
      // Undeclared scripts in a manifest skill; declared ones in a SKILL.md skill (SK026 does not see those).
      {
        tree: {
          'manifest.json': manifest({ scripts: ['scripts/run.sh'] }),
          'scripts/run.sh': { content: sh, mode: 0o755 },
          'scripts/extra.sh': { content: sh, mode: 0o640 },
        },
        messages: [/^scripts\/extra\.sh/],
        modes: { 'scripts/extra.sh': 0o750, 'scripts/run.sh': 0o755 },
      },
      {
        tree: { 'SKILL.md': skillMd(`${fm}scripts:\n  - tools/go\n`), 'tools/go': { content: sh, mode: 0o664 } },
        messages: [/^tools\/go starts with a shebang/],
        modes: { 'tools/go': 0o775 },
      },
      // Run by path in the instructions (openai's skill-creator: `scripts/init_skill.py my-skill`).
      {
        tree: {
          'SKILL.md': skillMd(fm, 'Run `scripts/init_skill.py my-skill --path out`.\n'),
          'scripts/init_skill.py': { content: '#!/usr/bin/env python3\n', mode: 0o644 },
        },
        messages: [/^scripts\/init_skill\.py starts with a shebang but is not executable/],
        modes: { 'scripts/init_skill.py': 0o755 },
      },
      // obra's systematic-debugging: a script outside scripts/ that a referenced Markdown file runs by path; one
      // that is only mentioned is left alone.
      {
        tree: {
          'SKILL.md': skillMd(fm, 'See `root-cause-tracing.md`; `helper.sh` is for people.\n'),
          'root-cause-tracing.md':
            'Use the bisection script `find-polluter.sh` in this directory:\n\n```bash\n./find-polluter.sh .git\n```\n',
          'find-polluter.sh': { content: sh, mode: 0o644 },
          'helper.sh': { content: sh, mode: 0o644 },
        },
        messages: [/^find-polluter\.sh starts with a shebang but is not executable/],
        modes: { 'find-polluter.sh': 0o755, 'helper.sh': 0o644 },
      },
    ],
  }),
);

it('chmodFix adds x where r is set, and x for the owner when nobody may read', async () => {
  const r = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm) } });
  try {
    const fix = chmodFix(r.skill, 'scripts/x.sh', 0o100644);
    expect(fix).toEqual({
      description: 'make scripts/x.sh executable',
      changes: [{ kind: 'chmod', file: `${r.root}/scripts/x.sh`, mode: 0o755 }],
    });
    expect((chmodFix(r.skill, 'a', 0o640).changes[0] as { mode: number }).mode).toBe(0o750);
    expect((chmodFix(r.skill, 'a', 0o200).changes[0] as { mode: number }).mode).toBe(0o300);
    expect((chmodFix(r.skill, 'a', 0o4644).changes[0] as { mode: number }).mode).toBe(0o4755);
  } finally {
    r.cleanup();
  }
});

it.skipIf(process.platform === 'win32')(
  'a module its siblings import is left alone, in a folder of a few scripts and in one of many (indexed)',
  async () => {
    const mod = { content: '#!/usr/bin/env python3\nx = 1\n', mode: 0o644 };
    for (const many of [0, 40]) {
      const others: Record<string, { content: string; mode: number }> = {};
      for (let i = 0; i < many; i++) others[`scripts/tool_${i}.py`] = { content: `print(${i})\n`, mode: 0o755 };
      const imports = { content: '#!/usr/bin/env python3\nfrom helper_mod import x\n', mode: 0o755 };
      // The word is there, but as part of a longer word or in a string: no import.
      const near = { content: '#!/usr/bin/env python3\nhelper_mod2 = 1\nmy_helper_mod = 2\n', mode: 0o755 };
      const imported = await runRule(rule, {
        tree: { 'SKILL.md': skillMd(fm), ...others, 'scripts/main.py': imports, 'scripts/helper_mod.py': mod },
      });
      const alone = await runRule(rule, {
        tree: { 'SKILL.md': skillMd(fm), ...others, 'scripts/main.py': near, 'scripts/helper_mod.py': mod },
      });
      try {
        expect(imported.reports, `${many} more scripts`).toEqual([]);
        expect(
          alone.reports.map((r) => r.message),
          `${many} more scripts`,
        ).toEqual(['scripts/helper_mod.py starts with a shebang but is not executable']);
      } finally {
        imported.cleanup();
        alone.cleanup();
      }
    }
  },
);

it('holdsWord finds a word where a split into runs of \\w finds it', () => {
  let s = 7;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff), s / 0x7fffffff);
  const parts = ['util', 'utils', 'my_util', 'util2', '_', '-', '.', ' ', '\n', '(', 'é', '😀', 'x', '9', 'Util'];
  const wrong: string[] = [];
  for (let n = 0; n < 5000; n++) {
    let text = '';
    const len = Math.floor(rand() * 12);
    for (let i = 0; i < len; i++) text += parts[Math.floor(rand() * parts.length)];
    for (const word of ['util', 'x', '9', 'my_util']) {
      const split = (text.match(/\w+/g) ?? ([] as string[])).includes(word);
      if (holdsWord(text, word) !== split) wrong.push(JSON.stringify([text, word]));
    }
  }
  expect(wrong).toEqual([]);
});
