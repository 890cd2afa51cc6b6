import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Context } from '../context.js';
import {
  checkTarget,
  createSkill,
  defaultDescription,
  descriptionProblem,
  PARTS,
  type InitResult,
  type Part,
} from '../init/init.js';
import { checkManifestId, checkName, reservedWordIn, type NameCheck } from '../skill/names.js';
import { isStrictSemver } from '../model/spec.js';
import { SkillsError } from '../errors.js';
import type { Layout } from '../model/skill.js';
import { safeJson } from '../ui/terminal-text.js';

export interface InitOptions {
  name: string;
  layout?: string;
  description?: string;
  owner?: string;
  version?: string;
  with?: string[];
  dir?: string;
  yes?: boolean;
  json?: boolean;
}

interface Answers {
  layout: Layout;
  description: string;
  owner?: string;
  version: string;
  with: Part[];
}

const LAYOUTS: readonly Layout[] = ['skill-md', 'manifest'];
const DEFAULT_OWNER = 'built-in';
const DEFAULT_VERSION = '1.0.0';

/** `skills init <name>`: create a skill folder from a template; prompts only for what flags left open. */
export async function init(options: InitOptions, ctx: Context): Promise<InitResult> {
  const name = options.name.normalize('NFKC');
  refuse(checkName(options.name));
  if (options.layout !== undefined && !LAYOUTS.includes(options.layout as Layout)) {
    throw new SkillsError('E_USAGE', `--layout must be skill-md or manifest, not "${options.layout}"`);
  }
  if (options.layout === 'manifest') refuse(checkManifestId(name));
  if (options.description !== undefined) {
    const problem = descriptionProblem(options.description);
    if (problem)
      throw new SkillsError('E_USAGE', `--description: ${problem}`, {
        hint: `e.g. --description "${defaultDescription(name)}"`,
      });
  }
  if (options.version !== undefined && !isStrictSemver(options.version)) {
    throw new SkillsError(
      'E_USAGE',
      `--skill-version "${options.version}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. 1.0.0`,
    );
  }
  if (options.owner !== undefined && options.owner.trim() === '') {
    throw new SkillsError(
      'E_USAGE',
      '--owner is empty: expected "built-in" or the id of the agent that owns the skill',
    );
  }
  const parts = checkParts(options.with, options.layout);
  // The same word lint warns about (SK106): said before anything is written, so init and lint agree.
  const reserved = reservedWordIn(name);
  if (reserved !== undefined)
    ctx.stderr.write(
      `warning: "${name}" contains "${reserved}", a word Anthropic reserves: the Claude API and claude.ai refuse to upload a custom skill so named (other agents load it)\n`,
    );
  const parent = resolve(ctx.cwd, options.dir ?? '.');
  // Refuse an occupied target before asking anything.
  await checkTarget(join(parent, name));

  const answers =
    ctx.stdin.isTTY === true && !options.yes
      ? await ask(name, options, parts, ctx)
      : withDefaults(name, options, parts, ctx);
  if (answers.layout === 'manifest') refuse(checkManifestId(name));
  checkParts(answers.with, answers.layout);

  const result = await createSkill({ name, parent, ...answers });
  if (options.json) {
    ctx.stdout.write(safeJson(result) + '\n');
  } else {
    const shown = shownPath(relative(ctx.cwd, result.path), result.path);
    const edit = result.layout === 'manifest' ? 'manifest.json and context/instructions.md' : 'SKILL.md';
    ctx.stdout.write(
      `Created ${shown}/ (${result.layout}): ${result.files.join(', ')}\nNext: edit ${edit}, then run skills lint ${shellQuote(shown)} (it says what is still the template)\n`,
    );
  }
  return result;
}

function refuse(check: NameCheck): void {
  if (check.ok) return;
  throw new SkillsError('E_USAGE', `invalid skill name (${check.rule}): ${check.message}; nothing was written`, {
    hint: `try: skills init ${check.suggestion}`,
  });
}

function checkParts(parts: string[] | undefined, layout: string | undefined): Part[] | undefined {
  if (parts === undefined) return undefined;
  for (const p of parts) {
    if (!(PARTS as readonly string[]).includes(p)) {
      throw new SkillsError(
        'E_USAGE',
        `--with "${p}" is not an optional folder: expected scripts, references or assets (comma-separated)`,
      );
    }
    if (layout === 'manifest' && p !== 'scripts') {
      throw new SkillsError(
        'E_USAGE',
        `the manifest layout has no ${p}/ folder: put extra material in context/ files and list them in manifest.json`,
        {
          hint: 'use --layout skill-md for references/ and assets/',
        },
      );
    }
  }
  return [...new Set(parts)] as Part[];
}

/** Without a terminal (or with --yes): defaults for everything not given, named on stderr. */
function withDefaults(name: string, options: InitOptions, parts: Part[] | undefined, ctx: Context): Answers {
  const used: string[] = [];
  const layout = (options.layout as Layout | undefined) ?? (used.push('layout skill-md'), 'skill-md');
  let description = options.description?.trim();
  if (description === undefined) {
    description = defaultDescription(name);
    used.push(`description "${description}"`);
  }
  let owner = options.owner?.trim();
  if (owner === undefined && layout === 'manifest') {
    owner = DEFAULT_OWNER;
    used.push(`owner ${owner}`);
  }
  const version = options.version ?? (used.push(`version ${DEFAULT_VERSION}`), DEFAULT_VERSION);
  if (parts === undefined && layout === 'skill-md') used.push('no optional folders (--with scripts,references,assets)');
  if (used.length > 0) ctx.stderr.write(`using defaults: ${used.join(', ')}\n`);
  return { layout, description, owner, version, with: parts ?? [] };
}

/** The prompt gate: ask, on the terminal, only what the flags did not answer. */
async function ask(name: string, options: InitOptions, parts: Part[] | undefined, ctx: Context): Promise<Answers> {
  const { checkbox, input, select } = await import('@inquirer/prompts');
  const io = { input: ctx.stdin, output: ctx.stderr };
  try {
    const idProblem = checkManifestId(name);
    const layout =
      (options.layout as Layout | undefined) ??
      (await select<Layout>(
        {
          message: 'Layout',
          choices: [
            { value: 'skill-md', name: 'skill-md', description: 'SKILL.md (Agent Skills specification)' },
            {
              value: 'manifest',
              name: 'manifest',
              description: 'manifest.json with context/ and scripts/',
              disabled: idProblem.ok ? false : '(the name must be a-z, 0-9 and hyphens)',
            },
          ],
        },
        io,
      ));
    const description =
      options.description?.trim() ??
      (
        await input(
          { message: 'Description', default: defaultDescription(name), validate: (v) => descriptionProblem(v) ?? true },
          io,
        )
      ).trim();
    let owner = options.owner?.trim();
    if (owner === undefined && layout === 'manifest') {
      owner = (
        await input(
          {
            message: 'Owner ("built-in" or an agent id)',
            default: DEFAULT_OWNER,
            validate: (v) => v.trim() !== '' || 'the owner is required',
          },
          io,
        )
      ).trim();
    }
    const version =
      options.version ??
      (await input(
        {
          message: 'Version',
          default: DEFAULT_VERSION,
          validate: (v) => isStrictSemver(v) || 'expected MAJOR.MINOR.PATCH, e.g. 1.0.0',
        },
        io,
      ));
    let chosen = parts;
    if (chosen === undefined && layout === 'skill-md') {
      chosen = await checkbox<Part>(
        { message: 'Optional folders', choices: PARTS.map((p) => ({ value: p, name: `${p}/` })) },
        io,
      );
    }
    return { layout, description, owner, version, with: chosen ?? [] };
  } catch (err) {
    if (err instanceof Error && err.name === 'ExitPromptError')
      throw new SkillsError('E_CANCELLED', 'init cancelled (Ctrl-C); nothing was written', { cause: err });
    throw err;
  }
}

function shownPath(rel: string, abs: string): string {
  return rel === '' ? '.' : isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`) ? abs : rel;
}

function shellQuote(s: string): string {
  return /^[\p{L}\p{N}@%+=:,./_-]+$/u.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
