import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Layout } from '../model/skill.js';
import { codePoints } from '../formats/text.js';
import { SkillsError } from '../errors.js';
import { titleOf } from '../formats/template-marks.js';

export { defaultDescription, titleOf } from '../formats/template-marks.js';

/** Optional folders of the SKILL.md layout. */
export const PARTS = ['scripts', 'references', 'assets'] as const;
export type Part = (typeof PARTS)[number];

export interface CreateSkillOptions {
  /** Already checked: a valid skill name, NFKC-normalised. */
  name: string;
  layout: Layout;
  /** Absolute path of the folder to create the skill folder in; created when missing. */
  parent: string;
  description: string;
  version: string;
  /** Manifest owner, or SKILL.md metadata.author when set. */
  owner?: string;
  /** Optional folders (SKILL.md layout; the manifest layout always has scripts/). */
  with: Part[];
  /** Folder holding skill-md/ and manifest/; found next to the code when absent. */
  templates?: string;
}

export interface InitResult {
  /** Absolute path of the new skill folder. */
  path: string;
  name: string;
  layout: Layout;
  /** Files written, relative to the skill folder, with forward slashes. */
  files: string[];
}

/** The templates folder: `../templates` from dist/*.js, `../../templates` from src/init/*.ts. */
export function templatesDir(base: string | URL = import.meta.url): string {
  for (const rel of ['../templates/', '../../templates/']) {
    const dir = fileURLToPath(new URL(rel, base));
    if (existsSync(join(dir, 'skill-md')) && existsSync(join(dir, 'manifest'))) return dir;
  }
  throw new SkillsError('E_IO', `cannot find the init templates next to ${fileURLToPath(base)}`, {
    hint: 'the installation is incomplete: reinstall skills',
  });
}

/** Why a description cannot be used (empty, over 1024 characters, or holding < or >), or undefined. */
export function descriptionProblem(description: string): string | undefined {
  const d = description.trim();
  if (d === '') return 'the description is empty: say what the skill does and when to use it ("… Use when …")';
  const len = codePoints(d);
  if (len > 1024) return `the description is ${len} characters long; at most 1024 are allowed`;
  if (/[<>]/.test(d)) return 'the description must not contain < or > (agents read it inside XML-like tags)';
  return undefined;
}

type Escape = 'json' | 'yaml' | 'text';

/**
 * Render one template: `{{#flag}}…{{/flag}}` blocks are kept when the flag is set and dropped otherwise, then
 * `{{key}}` is replaced, escaped for where it stands (JSON string content in .json files, a YAML scalar in
 * the frontmatter of .md files, as is elsewhere).
 */
export function renderTemplate(
  text: string,
  file: string,
  values: Record<string, string>,
  flags: Record<string, boolean>,
): string {
  let out = text.replace(/\{\{#(\w+)\}\}\n?([\s\S]*?)\{\{\/\1\}\}\n?/g, (_, flag: string, body: string) =>
    flags[flag] ? body : '',
  );
  const fill = (s: string, escape: Escape) =>
    s.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
      const v = values[key];
      if (v === undefined) return whole;
      return escape === 'json' ? JSON.stringify(v).slice(1, -1) : escape === 'yaml' ? yamlScalar(v) : v;
    });
  if (file.endsWith('.json')) return fill(out, 'json');
  if (file.endsWith('.md') && out.startsWith('---\n')) {
    const end = out.indexOf('\n---\n', 3);
    if (end !== -1) return fill(out.slice(0, end), 'yaml') + fill(out.slice(end), 'text');
  }
  out = fill(out, 'text');
  return out;
}

/** A YAML scalar that reads back as the same text: plain when that is unambiguous, else double-quoted. */
export function yamlScalar(v: string): string {
  const plain =
    /^\p{L}[\p{L}\p{N} .,;!?()'’…-]*$/u.test(v) && !/ $/.test(v) && !/^(?:true|false|yes|no|on|off|null)$/i.test(v);
  return plain ? v : JSON.stringify(v);
}

/** Where a template file lands: `_env.example` → `.env.example` (npm drops some dotfiles from packages). */
function targetName(rel: string): string {
  return rel
    .split('/')
    .map((seg) => (seg.startsWith('_') ? `.${seg.slice(1)}` : seg))
    .join('/');
}

async function listTemplate(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listTemplate(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Refuse a target that exists and is not an empty folder. Returns whether the target exists (as an empty
 * folder, which the new skill then replaces).
 */
export async function checkTarget(target: string): Promise<boolean> {
  let st;
  try {
    st = await lstat(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new SkillsError('E_IO', `cannot create ${target}: a parent of it is a file, not a folder`, { cause: err });
    }
    throw new SkillsError('E_IO', `cannot check ${target}: ${(err as Error).message}`, { cause: err });
  }
  if (!st.isDirectory()) {
    throw new SkillsError('E_EXISTS', `${target} already exists and is not a folder; nothing was written`, {
      hint: 'choose another name, or --dir to create the skill elsewhere',
    });
  }
  if ((await readdir(target)).length > 0) {
    throw new SkillsError('E_EXISTS', `${target} already exists and is not empty; nothing was written`, {
      hint: 'choose another name, or --dir to create the skill elsewhere',
    });
  }
  return true;
}

/**
 * Create a skill folder from the templates of its layout. Everything is written into a staging folder next to
 * the target and renamed into place at the end, so a failure leaves nothing behind: the staging folder, and any
 * parent folders this call created, are removed.
 */
export async function createSkill(options: CreateSkillOptions): Promise<InitResult> {
  if (!isAbsolute(options.parent)) throw new Error(`createSkill: parent must be absolute, got ${options.parent}`);
  const parent = normalize(options.parent);
  const target = join(parent, options.name);
  const layoutDir = join(options.templates ?? templatesDir(), options.layout);
  const replacesEmpty = await checkTarget(target);

  const values: Record<string, string> = {
    name: options.name,
    title: titleOf(options.name),
    description: options.description,
    version: options.version,
    owner: options.owner ?? '',
  };
  const flags: Record<string, boolean> = { owner: options.owner !== undefined };
  for (const p of PARTS) flags[p] = options.layout === 'manifest' ? p === 'scripts' : options.with.includes(p);

  let sources: string[];
  try {
    sources = await listTemplate(layoutDir);
  } catch (err) {
    throw new SkillsError(
      'E_IO',
      `cannot read the ${options.layout} templates in ${layoutDir}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  // Optional folders of the layout are copied only when chosen.
  sources = sources.filter((rel) => {
    const top = rel.split('/')[0] as Part;
    return !(PARTS as readonly string[]).includes(top) || flags[top];
  });

  let createdParent: string | undefined;
  let staging: string | undefined;
  try {
    createdParent = await mkdir(parent, { recursive: true });
    staging = join(parent, stagingName(options.name));
    await mkdir(staging);
    const files: string[] = [];
    for (const rel of sources) {
      const dest = targetName(rel);
      const text = await readFile(join(layoutDir, rel), 'utf8');
      const abs = join(staging, dest);
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, renderTemplate(text, dest, values, flags), { flag: 'wx' });
      // Scripts are run by agents: executable regardless of the umask or how the package was unpacked.
      if (dest.startsWith('scripts/')) await chmod(abs, 0o755);
      files.push(dest);
    }
    try {
      // POSIX renames a folder over an empty one; Windows needs the empty one gone first.
      if (replacesEmpty && process.platform === 'win32') await rmdir(target);
      await rename(staging, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
        throw new SkillsError('E_EXISTS', `${target} appeared while the skill was being written; nothing was written`, {
          cause: err,
        });
      }
      throw err;
    }
    staging = undefined;
    return { path: target, name: options.name, layout: options.layout, files };
  } catch (err) {
    if (staging) await rm(staging, { recursive: true, force: true }).catch(() => {});
    if (createdParent) await rm(createdParent, { recursive: true, force: true }).catch(() => {});
    if (err instanceof SkillsError) throw err;
    const e = err as NodeJS.ErrnoException;
    const where = e.code === 'ENOTDIR' ? ` (is a part of ${parent} a file?)` : '';
    throw new SkillsError('E_IO', `cannot create ${target}: ${e.message}${where}; nothing was written`, { cause: err });
  }
}

/** `.<name>.tmp-<random>`, shortened when a long non-ASCII name would pass the 255-byte file name limit. */
function stagingName(name: string): string {
  const rand = randomBytes(4).toString('hex');
  const full = `.${name}.tmp-${rand}`;
  return Buffer.byteLength(full) <= 255 ? full : `.skills-init.tmp-${rand}`;
}
