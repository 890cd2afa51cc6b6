import { closeSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { openRegularFile } from '../fs/walk.js';

// What a script says about itself, for a tool list (render-prompt's "Available Tools", run-script --list): the
// first paragraph of its leading comment block or module docstring, as seed 002's loader takes a tool's
// description from its script.

/** Directives and boilerplate that open scripts without describing them. */
const NOT_DESCRIPTION = [
  /^-\*-.*-\*-$/, // -*- coding: utf-8 -*-
  /^(?:vim?|ex):/,
  /^@ts-(?:check|nocheck|ignore|expect-error)\b/,
  /^(?:eslint|jshint|global|prettier-ignore|istanbul|c8)\b/,
  /^(?:shellcheck|type:|noqa|pylint|mypy|flake8)\b/,
  /^(?:SPDX-License-Identifier|Copyright|\(c\))\b/i,
  /^\/ ?<reference\b/,
  /^[-=#*/]{3,}$/, // rulers
];

const SECTION =
  /^(?:usage|examples?|args|arguments|params|parameters|options|returns?|requires|requirements|dependencies|input|output|env|environment|exit codes?|notes?)\s*:/i;

const MAX_CHARS = 400;

/**
 * The description a script's leading comment gives: `#` lines (shell, Python, Ruby), `//` lines or one block comment
 * (JavaScript, TypeScript), or a Python module docstring. Its first paragraph, joined into one line; undefined
 * when the script opens with code.
 */
export function scriptDescription(text: string, path = ''): string | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let i = 0;
  if (lines[0]?.startsWith('#!')) i++;
  const ext = extname(path).toLowerCase();
  const para: string[] = [];
  // Collect the first paragraph of comment text, skipping directives and blank comment lines before it.
  const take = (raw: string): boolean => {
    const t = raw.trim();
    if (t === '') return para.length === 0; // keep going until the paragraph starts; a blank ends it
    if (para.length === 0 && NOT_DESCRIPTION.some((re) => re.test(t))) return true;
    // "Usage:", "Requires:" and the like start the reference part of the comment: the description is before it.
    if (para.length > 0 && SECTION.test(t)) return false;
    para.push(t);
    return true;
  };
  for (; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' && para.length === 0) continue;
    if (/^(['"])use strict\1;?$/.test(line) && para.length === 0) continue;
    if (ext !== '.py' && line.startsWith('/*')) return blockComment(lines, i, take, para);
    if (ext === '.py' || ext === '') {
      const doc = /^[rRuU]?("""|''')/.exec(line);
      if (doc) return docstring(lines, i, doc[1]!, line.slice(doc[0].length), take, para);
    }
    const m = /^(#|\/\/)(.*)$/.exec(line);
    if (!m || (m[1] === '//' && ext === '.py') || (m[1] === '#' && /\.(?:[cm]?[jt]s)$/.test(ext))) break;
    if (!take(m[2]!.replace(/^[#/]*/, ''))) break;
  }
  return finish(para);
}

function blockComment(
  lines: string[],
  start: number,
  take: (s: string) => boolean,
  para: string[],
): string | undefined {
  for (let i = start; i < lines.length; i++) {
    let line = lines[i]!.trim();
    const end = line.indexOf('*/');
    if (i === start) line = line.replace(/^\/\*+!?/, '');
    const body = (end >= 0 ? line.slice(0, line.indexOf('*/')) : line).replace(/^\*+(?!\/)/, '');
    if (/^\s*@\w+/.test(body) && para.length > 0) break; // JSDoc tags end the description
    if (!take(body)) break;
    if (end >= 0) break;
  }
  return finish(para);
}

function docstring(
  lines: string[],
  start: number,
  quote: string,
  first: string,
  take: (s: string) => boolean,
  para: string[],
): string | undefined {
  let line = first;
  for (let i = start; i < lines.length; i++) {
    if (i > start) line = lines[i]!;
    const end = line.indexOf(quote);
    if (!take(end >= 0 ? line.slice(0, end) : line)) break;
    if (end >= 0) break;
  }
  return finish(para);
}

function finish(para: string[]): string | undefined {
  const text = para.join(' ').replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const chars = [...text];
  return chars.length > MAX_CHARS ? `${chars.slice(0, MAX_CHARS - 1).join('')}…` : text;
}

/** The first `max` bytes of a file as text: a script's description is in its first lines, and scripts can be large. */
export function readHead(file: string, max = 64 * 1024, within?: string): string {
  const { fd } = openRegularFile(file, within);
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}
