// The lint wing's one entry for a command: find the skills under some paths, lint them with the configuration
// in force, and apply (or plan) the safe fixes, re-linting after each pass until nothing is left to fix.
import { loadConfig } from '../config/config.js';
import { discoverSkills } from '../skill/discover.js';
import { cleanLeftoversBelow } from '../fs/atomic.js';
import { planFixes, wontWrite, writeEdits, type FileEdit } from './fix.js';
import { userTokenCache } from '../tokens/token-cache.js';
import { cachedWholeCounter, COUNTER_ID } from '../tokens/tokens.js';
import type { Dirent } from 'node:fs';
import { resolve } from 'node:path';
import { createLinter, ignoresOf, type LintReport, type Linter, type SkillResult } from './linter.js';
import { configKey, userLintCache, type LintCache } from './lint-cache.js';
import { lintRoots, type Concurrency, type LintRootsOptions } from './parallel.js';
import { resolveSettings } from './settings.js';
import type { Fix } from './types.js';

export interface LintPathsOptions {
  paths: string[];
  cwd: string;
  /** --config: the configuration file, relative to cwd; else the nearest skills.config.json. */
  config?: string;
  spec?: boolean;
  /** Apply the safe fixes, as many passes as it takes (at most MAX_PASSES). */
  fix?: boolean;
  /** Plan the fixes of one pass without writing them. */
  fixDryRun?: boolean;
  /** Where the user's token cache is (`$XDG_CACHE_HOME`, SKILLS_TOKEN_CACHE=0 turns it off); none without. */
  env?: Record<string, string | undefined>;
  home?: string;
  /** Threads to lint on (parallel.ts): a number, "auto" (the default) or "off". */
  concurrency?: Concurrency;
  /**
   * Keep each skill's findings in the user's cache folder and use them while nothing they were made from changed
   * (lint-cache.ts); needs `env`, `home` and `version`. On unless false or SKILLS_LINT_CACHE=0.
   */
  cache?: boolean;
  /** This version of skills (the cache's rows belong to it). */
  version?: string;
  /** The build the cache's rows belong to, when not this one's (tests). */
  cacheBuild?: string;
}

export interface FixRecord {
  file: string;
  description: string;
}

/** A fix no --fix applies, and why (fix.ts's planFixes refused it). */
export interface NotFixedRecord extends FixRecord {
  reason: string;
}

export interface LintRun {
  reports: LintReport[];
  /** Paths given that hold no skill. */
  outside: string[];
  /** The skill folders found that the configuration's ignores leave out, and the file that says so. */
  ignored: string[];
  configFile?: string;
  /** With `fix`: what was fixed, in order. */
  fixed: FixRecord[];
  /** With `fixDryRun`: the edits a fix would make. */
  preview: FileEdit[];
  /** The fixes of the findings left that no --fix applies, and why; their findings are not marked fixable. */
  notFixed: NotFixedRecord[];
  /** With `fix`: the fixes of files that could not be written, and why (the run's other fixes were written). */
  notWritten: NotFixedRecord[];
  /** With `fix`: the findings left whose fix was not written (not marked fixable: a second --fix would fail too). */
  leftUnwritten: number;
  /** Set when the search for skills stopped at its limits (skill/discover.ts): what was cut. */
  cut?: string;
  /** Folders the search could not read (skill/discover.ts's links): their skills were not linted. */
  unread: { path: string; message: string }[];
  /** Links to skill folders the search left out (skill/discover.ts's notFollowed): warned of, not failing. */
  notFollowed: { path: string; message: string }[];
  /** Ids of the rules and checks whose level the configuration sets (their info findings are shown). */
  explicit: Set<string>;
  /** The skill folders whose findings came from the result cache (lint-cache.ts), in order. */
  cached: string[];
}

const MAX_PASSES = 10;

/** Lint the skills under `paths` (the working directory when none), fixing or planning fixes when asked. */
export async function lintPaths(options: LintPathsOptions): Promise<LintRun> {
  const config = loadConfig(options.cwd, options.config);
  const paths = options.paths.length > 0 ? options.paths : ['.'];
  let cut: string | undefined;
  let unread: { path: string; message: string }[] = [];
  let notFollowed: { path: string; message: string }[] = [];
  const cache = options.env && options.home ? userTokenCache(options.env, options.home, COUNTER_ID) : undefined;
  const countTokens = cache ? cachedWholeCounter(cache) : undefined;
  // Taken before anything is read: what changed after it is never kept (lint-cache.ts).
  const start = Date.now();
  const { env, home, version } = options;
  const results =
    options.cache !== false && env && home && version
      ? userLintCache(
          env,
          home,
          version,
          configKey(config, options.spec),
          paths.map((p) => resolve(options.cwd, p)),
          options.cacheBuild,
        )
      : undefined;
  const inputsSince = results ? start : undefined;
  const ignores = ignoresOf(config);
  // One skill at a time: loaded, checked and let go, so that what stays in memory is the findings.
  const run = async (useKept: boolean) => {
    // A folder met in the search whose kept result still holds is taken there: its listing is never read, and a
    // hundred thousand listings are not held (or read) for skills that did not change.
    const taken = new Map<string, SkillResult>();
    const probe =
      results && useKept
        ? (dir: string) => {
            const r = results.take(dir);
            if (r) taken.set(dir, r);
            return r !== undefined;
          }
        : undefined;
    // Only what is used is taken: the search's other maps (a real path for each of 100,000 skills) go now.
    const {
      roots,
      outside,
      listings,
      cut: searchCut,
      links,
      notFollowed: leftOut,
    } = discoverSkills(paths, {
      cwd: options.cwd,
      ...(probe ? { probe } : {}),
    });
    cut = searchCut;
    unread = links;
    notFollowed = leftOut;
    const linter = createLinter({
      config,
      spec: options.spec,
      ...(countTokens ? { countTokens } : {}),
      ...(inputsSince !== undefined ? { inputsSince } : {}),
    });
    const threads: LintRootsOptions = {
      concurrency: options.concurrency ?? 'auto',
      spec: options.spec,
      // Workers count tokens from the counts this cache holds, and send the counts they used back to it.
      workerData: () => ({
        config,
        spec: options.spec,
        ...(cache?.snapshot ? { tokenCounts: cache.snapshot() } : {}),
        ...(inputsSince !== undefined ? { inputsSince } : {}),
      }),
      ...(cache ? { cache } : {}),
    };
    const cached = results ? await lintKept(linter, results, taken, roots, listings, threads, useKept) : [];
    if (!results) await lintRoots(linter, roots, listings, threads);
    const ignored = ignores ? roots.filter(ignores.root) : [];
    return { reports: linter.finish(), outside, cached, ignored };
  };
  // --fix rewrites files, and every pass lints every skill afresh: the last pass's results are the ones kept.
  let { reports, outside, cached, ignored } = await run(!options.fix);
  const fixed: FixRecord[] = [];
  const notWritten: NotFixedRecord[] = [];
  // Files a pass could not write: later passes leave their fixes alone.
  const unwritable = new Set<string>();
  let preview: FileEdit[] = [];
  // The plan of the findings in `reports`: with or without --fix, it says which fixes no pass would apply.
  let plan: ReturnType<typeof planFixes> | undefined;
  if (options.fix) {
    // What an earlier run killed mid-write left (temp files of ours, of dead processes) goes before this one writes.
    for (const r of reports) cleanLeftoversBelow(r.skill.root);
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      plan = planFixes(...fixesOf(reports, unwritable));
      if (plan.applied.length === 0) break;
      const failed = new Map(writeEdits(plan.edits).map((u) => [u.edit, u.reason]));
      for (const e of plan.edits) {
        const reason = failed.get(e);
        if (reason !== undefined) unwritable.add(e.file);
        for (const description of e.fixes)
          if (reason === undefined) fixed.push({ file: e.file, description });
          else notWritten.push({ file: e.file, description, reason });
      }
      ({ reports, outside, cached, ignored } = await run(false));
      plan = undefined;
    }
  }
  // Without --fix, a fix of a file --fix would not write (read-only) is said with why, not offered as fixable.
  const wont = new Map<string, string | undefined>();
  if (!options.fix)
    for (const r of reports)
      for (const d of r.diagnostics)
        for (const c of d.fix?.changes ?? []) if (!wont.has(c.file)) wont.set(c.file, wontWrite(c.file, r.skill.root));
  for (const [file, reason] of wont) if (reason === undefined) wont.delete(file);
  plan ??= planFixes(...fixesOf(reports, wont.size > 0 ? new Set(wont.keys()) : unwritable));
  if (options.fixDryRun) preview = plan.edits;
  cache?.save();
  results?.save();
  // After the caches kept them: a finding whose fix is refused is not offered as fixable (a copy, without the fix).
  // So is one whose file --fix could not write: the summary counts it as left, not as fixable.
  const refused = new Set(plan.refused.map((r) => r.fix));
  const notWrittenFix = (fix: Fix) => fix.changes.some((c) => unwritable.has(c.file));
  const notFixed = plan.refused.map((r) => ({ file: r.file, description: r.fix.description, reason: r.reason }));
  let leftUnwritten = 0;
  if (refused.size > 0 || unwritable.size > 0 || wont.size > 0)
    for (const r of reports)
      r.diagnostics = r.diagnostics.map((d) => {
        if (!d.fix) return d;
        if (notWrittenFix(d.fix)) leftUnwritten++;
        const wontAt = d.fix.changes.find((c) => wont.has(c.file))?.file;
        if (wontAt !== undefined)
          notFixed.push({ file: wontAt, description: d.fix.description, reason: wont.get(wontAt)! });
        return refused.has(d.fix) || notWrittenFix(d.fix) || wontAt !== undefined ? withoutFix(d) : d;
      });
  const explicit = new Set<string>();
  for (const [id, setting] of resolveSettings(config)) if (setting.severity !== undefined) explicit.add(id);
  return {
    reports,
    outside,
    ignored,
    ...(config.file ? { configFile: config.file } : {}),
    fixed,
    preview,
    notFixed,
    notWritten,
    leftUnwritten,
    explicit,
    cached,
    unread,
    notFollowed,
    ...(cut ? { cut } : {}),
  };
}

/**
 * Lint the skill folders at `roots` through the result cache: the results it keeps for skills that did not change
 * (when `useKept`), the others linted (on worker threads too: only what the cache misses goes to them) and kept for
 * the next run; every result is kept in the linter in the order of `roots`, as lintRoots would keep it. `taken`
 * holds the results the search already took (its probe). Returns the roots whose results the cache gave.
 */
async function lintKept(
  linter: Linter,
  results: LintCache,
  taken: Map<string, SkillResult>,
  roots: string[],
  listings: Map<string, Dirent[]>,
  threads: LintRootsOptions,
  useKept: boolean,
): Promise<string[]> {
  // Each result in the slot of its root; the roots linted, by their slot (the misses: few, on a warm run).
  const slots: (SkillResult | undefined)[] = new Array(roots.length);
  const misses = new Map<string, number>();
  const hits: string[] = [];
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!;
    const r = useKept ? (taken.get(root) ?? results.take(root)) : undefined;
    if (r) {
      slots[i] = r;
      hits.push(root);
      listings.delete(root);
    } else misses.set(root, i);
  }
  taken.clear();
  if (misses.size > 0) {
    await lintRoots(
      {
        ...linter,
        keep(result) {
          results.record(result, result.inputs);
          delete result.inputs;
          const i = misses.get(result.report.skill.root);
          if (i !== undefined) slots[i] = result;
        },
      },
      [...misses.keys()],
      listings,
      threads,
    );
  }
  for (const r of slots) if (r) linter.keep(r);
  return hits;
}

/**
 * The fixes of the findings, less those that change a file of `skip`, and the skill each belongs to (a fix writes
 * nothing outside its skill).
 */
function fixesOf(reports: LintReport[], skip: Set<string>): [Fix[], (fix: Fix) => string | undefined] {
  const roots = new Map<Fix, string>();
  for (const r of reports)
    for (const d of r.diagnostics)
      if (d.fix && !d.fix.changes.some((c) => skip.has(c.file))) roots.set(d.fix, r.skill.root);
  return [[...roots.keys()], (fix) => roots.get(fix)];
}

function withoutFix<T extends { fix?: Fix }>(d: T): T {
  const copy = { ...d };
  delete copy.fix;
  return copy;
}
