import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { homeOf, type Context } from '../context.js';
import { SkillsError, wholeNumber } from '../errors.js';
import { markSkillWarnings } from './skill-warnings.js';
import { loadConfig } from '../config/config.js';
import { registryFor } from '../registry/locate.js';
import { skillFolders, userFolderWarnings } from '../skill/folders.js';
import { activate, type ActiveSkill, type CatalogEntry } from '../skill/light.js';
import { closest } from '../skill/names.js';
import { isInside, real } from '../fs/walk.js';
import { readRegularText } from '../fs/read.js';
import { escapeChar, replaceUnsafe } from '../formats/unsafe-text.js';
import { userTokenCache } from '../tokens/token-cache.js';
import { userMetaCache } from '../skill/meta-cache.js';
import { cachedTokenCounter, COUNTER_ID, tokenCounter } from '../tokens/tokens.js';
import { buildCatalog, type Catalog } from './catalog.js';
import { isRegistryEntry } from './selection-index.js';
import { blockTokenCounter } from './prompt-tokens.js';
import { fitAutomatic } from './auto-tier.js';
import {
  fitBudget,
  below,
  relativePath,
  TIERS,
  type Dropped,
  type Fitted,
  type PromptEntry,
  type PromptFormat,
  type PromptInput,
  type Tier,
} from './render.js';
import {
  candidateOf,
  hasTriggers,
  selectSkills,
  type MatchKind,
  type Scored,
  type SelectionCandidate,
} from './select.js';
import { counted } from '../formats/text.js';

// render-prompt's work: read the options, build the catalog, select (by name, the --selector, the built-in ranking),
// choose the tier, activate the selected skills, and render within the token budget. Printing is the command's.

export interface RenderPromptOptions {
  dirs: string[];
  query?: string;
  maxSkills?: string | number;
  explain?: boolean;
  /** --quiet: nothing on stderr but errors. */
  quiet?: boolean;
  /** --verbose: every warning about single skills (else the first few: skill-warnings.ts). */
  verbose?: boolean;
  select?: string;
  selector?: string;
  selectorTimeout?: string | number;
  tier?: string;
  format?: string;
  json?: boolean;
  soul?: string;
  budget?: string | number;
  /** A folder, or false for --no-registry. */
  registry?: string | false;
  config?: string;
  /**
   * The file the prompt goes into (render-prompt --write): locations are shown relative to its folder, and only
   * what the project names is read (no user folders, no registry unless --registry names one).
   */
  write?: string;
  /** With write: count no tokens (unless there is a budget), as nothing is printed with them. */
  check?: boolean;
}

/** Why a skill was selected: the built-in ranking's kinds, a --select name, or the --selector's pick. */
export type SelectedKind = MatchKind | 'select' | 'selector';

export interface SelectedSkill {
  name: string;
  kind: SelectedKind;
  score?: number;
  matched: string[];
}

export interface RenderPromptResult {
  tier: Tier;
  query: string | null;
  maxSkills: number;
  selected: SelectedSkill[];
  /** Every candidate that matched, best first (with --explain). */
  ranked?: Scored[];
  catalog: { name: string; description: string; location: string; scope: string; version?: string }[];
  prompt: string;
  tokens: number;
  budget?: number;
  dropped: Dropped[];
  warnings: string[];
  /** Where the skills were looked for: the folders in order, and the registry read (null: none). */
  searched: { folders: string[]; registry: string | null; leftOut: number };
}

const FORMATS = ['markdown', 'xml', 'json'];
const DEFAULT_MAX_SKILLS = 3;
const DEFAULT_SELECTOR_TIMEOUT_MS = 30_000;

/** The skills part of an agent's system prompt, and what went into it; nothing is printed. */
export async function renderPrompt(
  options: RenderPromptOptions,
  ctx: Pick<Context, 'cwd' | 'env'> & Partial<Pick<Context, 'version'>>,
): Promise<RenderPromptResult> {
  const format = formatOf(options);
  if (!FORMATS.includes(format))
    throw new SkillsError('E_USAGE', `--format must be markdown, xml or json, not "${format}"`);
  if (options.tier !== undefined && !TIERS.includes(options.tier as Tier)) {
    throw new SkillsError('E_USAGE', `--tier must be none, breadcrumb, catalog or full, not "${options.tier}"`);
  }
  const home = homeOf(ctx);
  const config = loadConfig(ctx.cwd, options.config, home);
  const budget = options.budget === undefined ? undefined : wholeNumber('--budget', options.budget, 1);
  const fromEnv =
    ctx.env.SKILLS_MAX_ACTIVE !== undefined && ctx.env.SKILLS_MAX_ACTIVE.trim() !== ''
      ? wholeNumber('SKILLS_MAX_ACTIVE', ctx.env.SKILLS_MAX_ACTIVE, 0)
      : undefined;
  const maxSkills =
    options.maxSkills !== undefined
      ? wholeNumber('--max-skills', options.maxSkills, 0)
      : (fromEnv ?? config.maxSkills ?? DEFAULT_MAX_SKILLS);
  const timeoutMs =
    options.selectorTimeout === undefined
      ? DEFAULT_SELECTOR_TIMEOUT_MS
      : wholeNumber('--selector-timeout', options.selectorTimeout, 1, 2 ** 31 - 1);
  const query = options.query !== undefined && options.query.trim() !== '' ? options.query : undefined;

  // Sources: the folders given (and the registry only when --registry names one), else skillDirs from the
  // configuration, else the standard project and user folders; then the registry.
  const given = options.dirs ?? [];
  for (const d of given) {
    try {
      statSync(resolve(ctx.cwd, d));
    } catch {
      // `-q "scrape prices"`: -q is --quiet, and the request was read as a folder.
      const request = options.query === undefined && /\s/.test(d.trim());
      throw new SkillsError('E_NOT_FOUND', `${d}: no such folder`, {
        hint: request
          ? `to select skills for a request, give it with --query: skills render-prompt --query ${JSON.stringify(d)}${options.quiet ? ' (-q is --quiet)' : ''}`
          : 'give skill folders or folders that hold skills',
      });
    }
  }
  const configured = given.length > 0 ? undefined : config.skillDirs;
  // A file that is committed lists the project's skills, not those of whoever ran the command last: the project's
  // folders up to the file's own (`--write ../../AGENTS.md` from a subfolder).
  const reach = options.write === undefined ? undefined : dirname(resolve(ctx.cwd, options.write));
  const found = skillFolders({ cwd: ctx.cwd, home, env: ctx.env, given, configured, reach });
  // Its folder with symlinks resolved, as skill locations are (skill/light.ts).
  const base = reach === undefined ? undefined : real(reach);
  const folders =
    base !== undefined && given.length === 0 && configured === undefined
      ? found.filter((f) => f.scope === 'project')
      : found;
  const useRegistry =
    options.registry !== false && ((base === undefined && given.length === 0) || typeof options.registry === 'string');
  const registry = useRegistry ? registryFor({ registry: options.registry || undefined }, ctx) : undefined;
  // The readings of skill files unchanged since an earlier run are kept in the user's cache (off with
  // SKILLS_CATALOG_CACHE=0): without a query such a file is not read again, with one only its body is taken.
  const metaCache =
    ctx.version !== undefined
      ? userMetaCache(
          ctx.env,
          home,
          ctx.version,
          folders.map((f) => f.dir),
        )
      : undefined;
  const catalog = buildCatalog({
    folders,
    registry,
    disabled: config.disabledSkills,
    bodies: query !== undefined,
    cache: metaCache,
  });
  metaCache?.save();
  const warnings = userFolderWarnings(folders, ctx.env);
  warnings.push(...catalog.warnings);
  if (base !== undefined) warnOutside(catalog, base, options.write!, warnings);

  // Selection: names given with --select always; then the query's picks (the selector's, else the built-in
  // ranking's) fill the remaining places up to maxSkills. A registry entry is its own candidate (RegistryEntry).
  const explicit = selectByName(options.select, catalog, config.file);
  const selected: SelectedSkill[] = explicit.map((e) => ({ name: e.name, kind: 'select', matched: ['--select'] }));
  const candidates: SelectionCandidate[] = catalog.entries.map((e) => (isRegistryEntry(e) ? e : candidateOf(e)));
  let ranked: Scored[] | undefined;
  let picked: SelectedSkill[] = [];
  if (query !== undefined) {
    const room = Math.max(0, maxSkills - explicit.length);
    let fromSelector: string[] | undefined;
    if (options.selector) {
      fromSelector = await askSelector(
        options.selector,
        query,
        room,
        catalog,
        { cwd: ctx.cwd, env: ctx.env, timeoutMs },
        warnings,
      );
      if (fromSelector)
        picked = fromSelector.map((name) => ({ name, kind: 'selector', matched: [`--selector ${options.selector}`] }));
    }
    if (!fromSelector || options.explain) {
      const r = selectSkills(query, candidates, { max: room, mayMatch: catalog.mayMatch });
      warnings.push(...r.warnings);
      // Put in order only when shown: thousands of skills may match a common word.
      if (options.explain) ranked = r.ranked;
      if (!fromSelector)
        picked = r.selected.map((s) => ({ name: s.name, kind: s.kind, score: s.score, matched: s.matched }));
    }
  } else if (options.selector) {
    warnings.push('--selector is used only with --query; ignored');
  }
  for (const p of picked) if (!selected.some((s) => s.name === p.name)) selected.push(p);

  const chosen: Tier = (options.tier as Tier | undefined) ?? autoTier(catalog, selected, query, candidates);
  const promptFormat: PromptFormat = format === 'xml' ? 'xml' : 'markdown';
  const soul = options.soul !== undefined ? readSoul(resolve(ctx.cwd, options.soul)) : undefined;
  // The catalog as the prompt shows it, made once, and only when a prompt is rendered with all of it.
  let shownCatalog: PromptEntry[] | undefined;
  const allShown = () => (shownCatalog ??= catalog.entries.map(promptEntryOf));
  /** The prompt's input at a tier, but its catalog: at the full tier the selected skills' instructions. */
  const partsAt = (t: Tier): Omit<PromptInput, 'catalog'> => {
    const active: ActiveSkill[] = [];
    if (t === 'full') {
      for (const s of selected) {
        const a = activate(entryNamed(catalog, s.name)!, warnings);
        if (a) active.push(a);
      }
    }
    return {
      tier: t,
      active: active.map((a) => ({
        name: a.entry.name,
        title: a.entry.title,
        ...(a.entry.version ? { version: a.entry.version } : {}),
        root: dirname(a.location),
        instructions: a.instructions,
        files: a.files,
        tools: a.tools,
        mcpServers: a.mcpServers,
      })),
      ...(soul !== undefined ? { soul } : {}),
      ...(base !== undefined ? { base } : {}),
    };
  };
  let tier = chosen;
  const parts = partsAt(tier);
  // The tokenizer's tables take a while to load: only a prompt with something in it, and with pieces that the
  // token cache has not counted before, loads them.
  // --check prints no count: it need not load them at all (a pre-commit hook runs it on every commit).
  const uncounted = emptyPrompt(parts, catalog.entries.length) || (options.check === true && budget === undefined);
  const cache = uncounted ? undefined : userTokenCache(ctx.env, home, COUNTER_ID);
  const counter = uncounted
    ? () => 0
    : cache
      ? blockTokenCounter(cache, cachedTokenCounter(cache))
      : await tokenCounter();
  let fitted: Fitted;
  if (options.tier === undefined && budget === undefined && !uncounted) {
    const names = new Set(selected.map((x) => x.name));
    const auto = await fitAutomatic({
      chosen,
      parts,
      partsAt,
      shown: allShown,
      entry: (i) => shownCatalog?.[i] ?? promptEntryOf(catalog.entries[i]!),
      length: catalog.entries.length,
      run: catalog.registryRun,
      narrowed: () => ({
        list: catalog.entries.filter((e) => names.has(shownName(e))).map(promptEntryOf),
        selected: names.size,
      }),
      format: promptFormat,
      count: counter,
      cache,
      limit: autoLimit(ctx.env),
    });
    fitted = auto.fitted;
    tier = auto.tier;
    if (auto.warning !== undefined) warnings.push(auto.warning);
  } else {
    fitted = await fitBudget({ ...parts, catalog: allShown() }, promptFormat, counter, budget);
  }
  cache?.save();
  for (const d of fitted.dropped) warnings.push(`--budget ${budget}: dropped ${describeDrop(d)}`);
  if (fitted.over)
    warnings.push(
      `the prompt is ${fitted.tokens} tokens, still over --budget ${budget} with every instruction and description dropped`,
    );

  let items: RenderPromptResult['catalog'] | undefined;
  const result: RenderPromptResult = {
    tier,
    query: query ?? null,
    maxSkills,
    selected,
    ...(options.explain && ranked ? { ranked } : {}),
    // Made when read: text output reads only its length, --json all of it (ten thousand items from a registry).
    get catalog() {
      return (items ??= catalog.entries.map(catalogItemOf));
    },
    prompt: fitted.prompt,
    tokens: fitted.tokens,
    ...(budget !== undefined ? { budget } : {}),
    dropped: fitted.dropped,
    warnings,
    searched: {
      folders: folders.map((f) => f.dir),
      registry: registry ?? null,
      leftOut: catalog.hidden.length + catalog.disabled.length,
    },
  };
  return markSkillWarnings(result, catalog.warnings.length);
}

/** The output format the options ask for: markdown, xml or json. */
export function formatOf(options: Pick<RenderPromptOptions, 'json' | 'format'>): string {
  return options.json ? 'json' : (options.format ?? 'markdown');
}

// The three functions below run once per skill of the catalog (ten thousand times from a large registry): each
// builds its objects in one shape, absent fields undefined, which selection and rendering read as absent.

/** The reference shows SKILL.md's name as written; a manifest skill goes by its id. */
const shownName = (e: CatalogEntry): string => (e.layout === 'skill-md' ? e.title : e.name);

function promptEntryOf(e: CatalogEntry): PromptEntry {
  return {
    name: shownName(e),
    description: e.description,
    briefDescription: e.briefDescription || undefined,
    location: e.location,
  };
}

/** A catalog entry as the JSON result shows it (no `version` key when there is none). */
function catalogItemOf(e: CatalogEntry): RenderPromptResult['catalog'][number] {
  const item: RenderPromptResult['catalog'][number] = {
    name: e.name,
    description: e.description,
    location: e.location,
    scope: e.scope,
  };
  if (e.version) item.version = e.version;
  return item;
}

/** The largest prompt a tier chosen automatically may give, in tokens: SKILLS_PROMPT_LIMIT, else 50,000. */
export const AUTO_PROMPT_LIMIT = 50_000;

function autoLimit(env: Record<string, string | undefined>): number {
  const v = env.SKILLS_PROMPT_LIMIT;
  return v === undefined || v.trim() === '' ? AUTO_PROMPT_LIMIT : wholeNumber('SKILLS_PROMPT_LIMIT', v, 1);
}

/** The catalog entry of a selected name (a hidden one when --select named it). */
function entryNamed(catalog: Catalog, name: string): CatalogEntry | undefined {
  // A loop, not find(): ten thousand calls of a closure per selected skill.
  for (const list of [catalog.entries, catalog.hidden]) for (const e of list) if (e.name === name) return e;
  return undefined;
}

/**
 * Nothing when there is no skill; the full tier when something is selected; the breadcrumb when a query matched
 * nothing but skills declare triggers (seed 004); else the catalog.
 */
function autoTier(
  catalog: Catalog,
  selected: SelectedSkill[],
  query: string | undefined,
  candidates: SelectionCandidate[],
): Tier {
  if (selected.length > 0) return 'full';
  if (catalog.entries.length === 0) return 'none';
  if (query !== undefined && hasTriggers(candidates)) return 'breadcrumb';
  return 'catalog';
}

function selectByName(list: string | undefined, catalog: Catalog, configFile: string | undefined): CatalogEntry[] {
  if (list === undefined) return [];
  const names = [
    ...new Set(
      list
        .split(',')
        // Names are NFKC (skill/light.ts): `café` typed in NFD (as macOS spells folder names) is the same skill.
        .map((s) => s.trim().normalize('NFKC'))
        .filter(Boolean),
    ),
  ];
  const known = new Map([...catalog.entries, ...catalog.hidden].map((e) => [e.name, e]));
  const out: CatalogEntry[] = [];
  for (const name of names) {
    const e = known.get(name);
    if (e) {
      out.push(e);
      continue;
    }
    if (catalog.disabled.includes(name)) {
      throw new SkillsError(
        'E_USAGE',
        `--select ${name}: the skill is disabled by disabledSkills in ${configFile ?? 'skills.config.json'}`,
        {
          hint: 'remove it from disabledSkills to use it',
        },
      );
    }
    const all = [...known.keys()];
    const near = closest(name, all);
    const others = all.filter((n) => n !== near && (n.includes(name) || name.includes(n))).slice(0, 5);
    const close = [...(near ? [near] : []), ...others];
    // Names come from skills (leniently loaded ones may hold anything): escaped, as the error goes to a terminal.
    const shown = (n: string) => replaceUnsafe(n, (c) => escapeChar(c.cp));
    throw new SkillsError(
      'E_NOT_FOUND',
      `--select ${shown(name)}: no skill of that name${close.length ? `; did you mean ${close.map((n) => `"${shown(n)}"`).join(', ')}?` : ''}`,
      {
        hint:
          all.length > 0
            ? `the skills found: ${all.slice(0, 10).map(shown).join(', ')}${all.length > 10 ? `, … (${all.length} in all)` : ''}`
            : 'no skills were found: give the folders that hold them',
      },
    );
  }
  return out;
}

async function askSelector(
  command: string,
  query: string,
  room: number,
  catalog: Catalog,
  opts: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number },
  warnings: string[],
): Promise<string[] | undefined> {
  const { runSelector } = await import('../prompt/selector.js');
  const request = {
    query,
    maxSkills: room,
    catalog: catalog.entries.map((e) => ({ name: e.name, description: e.description, location: e.location })),
  };
  const r = await runSelector(command, request, opts);
  if ('error' in r) {
    warnings.push(`${r.error}; the built-in selection is used`);
    return undefined;
  }
  const known = new Set(catalog.entries.map((e) => e.name));
  const unknown = r.names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    warnings.push(
      `the selector named ${unknown.map((n) => `"${n}"`).join(', ')}, not in the catalog; the built-in selection is used`,
    );
    return undefined;
  }
  const first = room === 1 ? 'the first is' : `the first ${room} are`;
  const said = `the selector named ${counted(r.names.length, 'skill')}; ${first} used (--max-skills)`;
  if (r.names.length > room) warnings.push(said);
  return r.names.slice(0, room);
}

function readSoul(file: string): string {
  try {
    // A FIFO or a device is refused (openRegularFile's E_IO), never waited on: --write records the path in the file.
    // A folder fails with EISDIR at once, as before, whose words and hint the error report has.
    const text = statSync(file, { throwIfNoEntry: false })?.isDirectory()
      ? readFileSync(file, 'utf8')
      : readRegularText(file);
    return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  } catch (err) {
    throw new SkillsError('E_IO', `--soul: cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

function describeDrop(d: Dropped): string {
  if (d.what === 'instructions') return `the instructions of ${d.skill}`;
  return d.to === 'brief' ? 'the long descriptions (brief ones shown)' : 'the descriptions (names and locations shown)';
}

/** A committed file whose locations lead out of its folder works on this machine only: said for each skill. */
function warnOutside(catalog: Catalog, base: string, file: string, warnings: string[]): void {
  for (const e of catalog.entries) {
    if (below(base, e.location) === undefined && !isInside(base, e.location))
      warnings.push(
        `${e.name}: ${e.root} is outside the folder of ${file}; its location there (${relativePath(base, e.location)}) will not resolve on another machine`,
      );
  }
}

/** True when the prompt of a catalog of `n` skills will be empty, so nothing needs counting. */
function emptyPrompt(input: Omit<PromptInput, 'catalog'>, n: number): boolean {
  const full = input.tier === 'full' && input.active.length > 0;
  return input.soul === undefined && (input.tier === 'none' || (input.tier !== 'breadcrumb' && n === 0 && !full));
}
