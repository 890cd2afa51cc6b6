import { describe, expect, it } from 'vitest';
import { scriptDescription } from '../../../src/skill/script-info.js';

describe('scriptDescription', () => {
  it.each([
    [
      'shell # lines after the shebang',
      'a.sh',
      '#!/usr/bin/env bash\n# List the cron jobs\n# of this agent.\n\n# Usage: x\nset -e\n',
      'List the cron jobs of this agent.',
    ],
    [
      'python docstring after a coding line',
      'a.py',
      '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"""Scrape a page.\n\nUsage: scraper.py URL\n"""\nimport sys\n',
      'Scrape a page.',
    ],
    [
      'one-line python docstring',
      'a.py',
      "'''Render a page with Playwright.'''\nimport sys\n",
      'Render a page with Playwright.',
    ],
    [
      'JSDoc block up to the first tag',
      'a.ts',
      '/**\n * Post a tweet\n * to Twitter.\n * @param text the tweet\n */\nexport {}\n',
      'Post a tweet to Twitter.',
    ],
    ['one-line block comment', 'a.mjs', '/* Read a file. */\nconsole.log(1)\n', 'Read a file.'],
    [
      '// lines after use strict and ts-check',
      'a.js',
      "'use strict';\n// @ts-check\n// Write a file.\nconst x = 1;\n",
      'Write a file.',
    ],
    [
      'python # comment block',
      'b.py',
      '# Count the rows of a CSV file.\nimport csv\n',
      'Count the rows of a CSV file.',
    ],
    [
      'up to a Usage: or Requires: line (real skills write them right below)',
      'deploy.sh',
      '#!/bin/bash\n\n# Vercel Deployment Script\n# Usage: ./deploy.sh [path]\n# Returns: JSON\n',
      'Vercel Deployment Script',
    ],
    [
      'a docstring up to its Args: section',
      'a.py',
      '"""Resize an image\nto a width.\nArgs:\n  width: pixels\n"""\n',
      'Resize an image to a width.',
    ],
  ])('%s', (_label, path, text, expected) => {
    expect(scriptDescription(text, path)).toBe(expected);
  });

  it.each([
    ['code first', 'a.sh', '#!/bin/sh\nset -e\n# late comment\n'],
    ['only directives', 'a.ts', '// @ts-nocheck\n// eslint-disable no-console\nexport {}\n'],
    ['empty file', 'a.py', ''],
    ['a # line in JavaScript is not a comment', 'a.js', '#private = 1\n'],
  ])('none: %s', (_label, path, text) => {
    expect(scriptDescription(text, path)).toBeUndefined();
  });

  it('cuts a very long description', () => {
    const d = scriptDescription(`# ${'word '.repeat(200)}\n`, 'a.sh')!;
    expect([...d]).toHaveLength(400);
    expect(d.endsWith('…')).toBe(true);
  });
});
