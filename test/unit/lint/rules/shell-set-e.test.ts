import { expect, it } from 'vitest';
import rule, { hasErrexit } from '../../../../src/lint/rules/shell-set-e.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', ...extra },
    null,
    2,
  );
const md = (files: Record<string, string>) => ({ tree: { 'SKILL.md': skillMd(fm), ...files } });

it('shell-set-e', () =>
  testRule(rule, {
    valid: [
      md({ 'scripts/a.sh': '#!/usr/bin/env bash\nset -euo pipefail\ncurl x\n' }),
      md({
        'scripts/a.sh': '#!/bin/sh\nset -o errexit\ncurl x\n',
        'scripts/b.bash': '#!/bin/bash\nset -Eeu -o pipefail\ncurl x\n',
      }),
      md({
        'scripts/a.sh': '#!/bin/sh -e\ncurl x\n',
        'scripts/b.sh': '#!/bin/sh\ncd "$(dirname "$0")" && set -e; curl x\n',
      }),
      // Not shell: the shebang decides over the extension.
      md({
        'scripts/a.py': '#!/usr/bin/env python3\nprint(1)\n',
        'scripts/odd.sh': '#!/usr/bin/env python3\nprint(1)\n',
      }),
      // Nothing to fail.
      md({ 'scripts/a.sh': '#!/bin/sh\n# only a comment\n' }),
      // Libraries loaded into the caller's shell, by the instructions or by a script beside them (trailofbits'
      // codeql build_log.sh): set -e would change the caller.
      {
        tree: {
          'SKILL.md': skillMd(fm, '```bash\n. "{baseDir}/scripts/log.sh" || exit 1\nsource scripts/env.sh\n```\n'),
          'scripts/log.sh': 'log() { echo "$*"; }\ncurl x\n',
          'scripts/env.sh': 'export A=1\ncurl x\n',
          'scripts/run.sh': '#!/bin/bash\nset -e\n. "$(dirname "$0")/common.sh"\n',
          'scripts/common.sh': 'curl x\n',
        },
      },
      {
        tree: {
          'manifest.json': manifest({ scripts: ['scripts/run'] }),
          'scripts/run': '#!/usr/bin/env bash\nset -eux\nmake\n',
        },
      },
      // Its comments say errexit was weighed and left out (daymade/claude-code-skills): run every check, grep's 1.
      md({
        'scripts/a.sh': '#!/usr/bin/env bash\nset -uo pipefail   # deliberately NOT -e: run every check\ncurl x\n',
        'scripts/b.sh': '#!/usr/bin/env bash\n# `set -e` is deliberately not used: grep exits 1 on no match.\ncurl x\n',
        'scripts/c.sh': '#!/bin/sh\ncurl x  # no errexit here: the caller checks $?\n',
      }),
    ],
    invalid: [
      // A usage line's own -e option, errtrace (-E) left out, or set -u alone say nothing of errexit.
      {
        ...md({
          'scripts/a.sh': '#!/usr/bin/env bash\n# Usage: a.sh -e ENV\ncurl x\n',
          'scripts/b.sh': '#!/usr/bin/env bash\nset -uo pipefail  # not set -E: no traps\ncurl x\n',
          'scripts/c.sh': '#!/usr/bin/env bash\nset -u\ncurl x\n',
        }),
        messages: [
          /^scripts\/a\.sh does not set -e/,
          /^scripts\/b\.sh does not set -e/,
          /^scripts\/c\.sh does not set -e/,
        ],
        lines: [1, 1, 1],
      },
      {
        ...md({ 'scripts/a.sh': '#!/usr/bin/env bash\ncurl x\n' }),
        messages: [/^scripts\/a\.sh does not set -e/],
        lines: [1],
      },
      // Sourced once, run by path once: it runs on its own too.
      {
        tree: {
          'SKILL.md': skillMd(fm, '```bash\n. scripts/log.sh\nbash scripts/log.sh --self-test\n```\n'),
          'scripts/log.sh': '#!/bin/bash\ncurl x\n',
        },
        messages: [/^scripts\/log\.sh does not set -e/],
      },
      // Run by path first, then sourced, then run by path again: it runs on its own too.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '```bash\nscripts/log.sh --self-test\n. scripts/log.sh\nscripts/log.sh --again\n```\n',
          ),
          'scripts/log.sh': '#!/bin/bash\ncurl x\n',
        },
        messages: [/^scripts\/log\.sh does not set -e/],
      },
      // In a comment, set +e, set -u, or -e after --: not errexit.
      {
        ...md({
          'scripts/a.sh': '#!/bin/bash\n# set -e\ncurl x\n',
          'scripts/b.sh': '#!/bin/bash\nset +e\nset -u\nset -- -e\ncurl x\n',
        }),
        messages: [/^scripts\/a\.sh/, /^scripts\/b\.sh/],
      },
      // A .bash file without shebang; a file without extension with a zsh shebang.
      {
        tree: { 'manifest.json': manifest(), 'scripts/run': '#!/usr/bin/env zsh\nmake\n', 'scripts/c.bash': 'make\n' },
        messages: [/^scripts\/c\.bash/, /^scripts\/run/],
      },
    ],
  }));

it('hasErrexit reads set flags, not words that contain them', () => {
  expect(hasErrexit('set -e\n')).toBe(true);
  expect(hasErrexit('  set -ex  # trace\n')).toBe(true);
  expect(hasErrexit('echo set -e\n')).toBe(false);
  expect(hasErrexit('reset -e\n')).toBe(false);
  expect(hasErrexit('set -o nounset -o errexit\n')).toBe(true);
  expect(hasErrexit('#!/usr/bin/env -S bash\nmake\n')).toBe(false);
});

it('shell-set-e suggests set -eu for sh and set -euo pipefail for bash', async () => {
  const { runRule } = await import('../../../helpers/rule-tester.js');
  const r = await runRule(rule, md({ 'scripts/a.sh': '#!/bin/sh\nmake\n', 'scripts/b.sh': '#!/bin/bash\nmake\n' }));
  try {
    expect(r.reports.map((x) => x.hint?.slice(0, 22))).toEqual(['add set -eu near the t', 'add set -euo pipefail ']);
    expect(r.reports.every((x) => x.fix === undefined)).toBe(true);
  } finally {
    r.cleanup();
  }
});
