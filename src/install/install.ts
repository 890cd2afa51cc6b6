// Installing skills: from a git repository, an archive (a file or a URL), a folder, or a spec resolved against a
// registry, with their dependencies; into the agent folders a project (or, with --global, the user) reads skills
// from, and into the registry when one is asked for (registerSkill does the store and the index); recorded in
// skills-lock.json. Everything that can refuse (validation, resolution, the lock, an existing folder) is decided
// before the first write, so a refused install leaves nothing behind.
import { mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { INTO_PATH, emptyLockfile, intoOf, type Lockfile } from '../formats/lockfile.js';
import { cleanStale } from '../fs/atomic.js';
import { isInside, present } from '../fs/walk.js';
import { quoteConsumer } from '../model/consumer.js';
import {
  AGENTS,
  agentsInUse,
  findAgent,
  projectAgentFolders,
  readsManifestSkills,
  userFolder,
} from '../skill/agents.js';
import { carryOut } from './apply.js';
import { leaveOutTooDeep } from './too-deep.js';
import { nothingToInstall } from './nothing-to-install.js';
import { afterPlacing } from './placing.js';
import { lockPath, readLockfile, withProjectLock } from './lock.js';
import { IntegrityMismatch, planFromSources } from './plan.js';
import { REMOVING_PREFIX, STAGING_PREFIX, TRASH_PREFIX, placesOf, type Place } from './places.js';
import { planFromLock } from './replay.js';
import { Scratch, UNPACK_PREFIX, classifySource, scratchBase, type Classified } from './sources.js';
import { prepareExtraction } from '../fs/archive.js';
import type { ForeignEntry } from '../formats/foreign-lock.js';
import { foreignHash, foreignLockBeside, replayForeign } from './foreign-lock.js';
import type { InstallOptions, InstallOutcome, InstalledSkill, Planned } from './types.js';

/** `skills install`: install the sources (or, with none, exactly what the lockfile says). */
export async function installSkills(options: InstallOptions): Promise<InstallOutcome> {
  const { lockfile } = options;
  const lockDir = dirname(lockfile);
  cleanStale(scratchBase(options), [UNPACK_PREFIX]);
  if (options.from !== undefined && !present(join(options.from, 'index.json'))) {
    throw new SkillsError('E_NOT_FOUND', `--from ${options.from}: no registry there (no index.json)`, {
      hint: 'give a registry folder: one that skills registry sync wrote, with index.json in it',
    });
  }
  // The user's lock lives in a folder of its own, made on first use.
  if (options.global && !options.dryRun) mkdirSync(lockDir, { recursive: true });
  // A big archive's writer thread starts while the lock is taken and the install planned.
  for (const raw of options.sources) {
    let c: Classified | undefined;
    try {
      c = classifySource(raw, options.cwd);
    } catch {
      // Told when the source is planned.
    }
    if (c?.kind === 'archive') prepareExtraction(c.abs);
  }
  try {
    return await withProjectLock(lockfile, () => afterPlacing(options, () => installLocked(options)), {
      readOnly: options.frozen || options.dryRun,
      onWait: () => options.progress?.(`waiting for another install in ${lockDir}`),
    });
  } catch (err) {
    // For --frozen, content other than the lock records is the lock not holding, whatever the source (a folder's
    // versioned skill changed, as its unversioned one): the check's finding, exit 1, as npm ci fails on a stale lock.
    if (options.frozen && err instanceof IntegrityMismatch)
      return { ok: false, kind: 'frozen', error: err, warnings: [] };
    throw err;
  }
}

/** True when the nearest existing part of `abs` is, with its symlinks followed, outside the lock's folder. */
function leadsOut(options: InstallOptions, abs: string): boolean {
  // The user's own folders (--global) may lead out of the home folder, as dotfiles often do (~/.claude a link into a
  // dotfiles repository): their lock is the user's alone, and records them as it places into them.
  if (options.global) return false;
  const base = dirname(options.lockfile);
  for (let d = abs; ; d = dirname(d)) {
    if (present(d)) {
      try {
        return !isInside(realpathSync(base), realpathSync(d));
      } catch {
        return false;
      }
    }
    if (dirname(d) === d) return false;
  }
}

/** How the lock records a folder skills are placed into: relative to its folder, `~/…` in the user's lock. */
function recordedAs(options: InstallOptions, abs: string): string | undefined {
  const lockDir = dirname(options.lockfile);
  if (options.global && isInside(options.home, abs) && abs !== options.home)
    return `~/${relative(options.home, abs).split(sep).join('/')}`;
  if (!isInside(lockDir, abs)) return undefined;
  const rel = lockPath(lockDir, abs);
  return INTO_PATH.test(rel) ? rel : undefined;
}

/**
 * The folders a project install places into when none is given or recorded: those asked on a terminal, else the
 * agent folders the project (or, --global, the user) has, else `.agents/skills` (read by most agents), said on stderr.
 */
async function defaultPlaces(options: InstallOptions, warnings: string[]): Promise<string[]> {
  const chosen = await options.choosePlaces?.();
  if (chosen && chosen.length > 0) return chosen;
  const base = options.global ? options.home : dirname(options.lockfile);
  // A project: the agent folders it has. The user (--global): the user folders of the agents found in the home
  // folder (~/.claude, ~/.cursor, …).
  const place = { cwd: base, home: options.home, env: options.env };
  const found = options.global ? [...new Set(agentsInUse(place, true).map((u) => u.dir))] : projectAgentFolders(base);
  if (found.length > 0) return found;
  // No skill folder yet, but agents that are used here (a .claude folder, CLAUDE.md, .cursor, …): their folders,
  // made. `.agents/skills` would be lost on those that do not read it (Claude Code reads only .claude/skills).
  if (!options.global) {
    const used = agentsInUse(place, false);
    const dirs = [...new Set(used.map((u) => u.dir))];
    if (dirs.length > 0) {
      const why = used.map(
        ({ found: d }) =>
          `${d.agent.title} (${d.found
            .filter((f) => isInside(base, f))
            .map((f) => relative(base, f) || '.')
            .join(', ')})`,
      );
      warnings.push(
        `no skill folder in ${base} yet: ${options.dryRun ? 'would be placed' : 'placed'} into ${dirs.map((d) => relative(base, d)).join(', ')}, for the agents used here: ${why.join('; ')}; choose others with --agent`,
      );
      return dirs;
    }
  }
  const generic = join(base, '.agents', 'skills');
  warnings.push(
    `no agent folder ${options.global ? 'in the home folder' : `in ${base}`}: ${options.dryRun ? 'would be placed' : 'placed'} into ${options.global ? '~/.agents/skills' : '.agents/skills'}, which most agents read but Claude Code does not (it reads .claude/skills: --agent claude-code); choose others with --agent (skills agents lists them)`,
  );
  return [generic];
}

/** The install itself, under the project's lock: the lock read here is the one the last writer left. */
async function installLocked(options: InstallOptions): Promise<InstallOutcome> {
  const { lockfile } = options;
  const before = readLockfile(lockfile);
  const placeOpts = { home: options.home, global: options.global };
  let places: Place[] = placesOf(lockfile, before, options.into ?? [], {
    ...placeOpts,
    confined: options.agentInto ?? [],
  });
  // A project install places every skill somewhere an agent reads it: with no folder given or recorded, the
  // project's agent folders (or .agents/skills), a registry used or not. Only an install for a consumer (--for: an
  // agent server reading the registry) places nothing unless asked. Chosen now when nobody is asked (on a terminal
  // the question waits until the plan holds), so that archives are unpacked where they will be placed.
  const defaulted: string[] = [];
  const placesLater = options.consumer === undefined && places.length === 0;
  if (placesLater && !options.choosePlaces) {
    const chosen = await defaultPlaces(options, defaulted);
    places = placesOf(lockfile, before, chosen, { ...placeOpts, confined: chosen });
  }
  for (const p of places) cleanPlace(p, before);
  // Unpacked files are copied only into a registry or into more than one folder: else none is kept in memory.
  const copies = options.useRegistry || options.dryRun || places.length !== 1;
  const scratch = new Scratch(unpackBase(options, places), copies ? undefined : 0);
  try {
    // No lock of ours yet, beside another installer's: replay its skills (from where they live), lock them in ours.
    const foreign = options.sources.length === 0 && !before ? foreignLockBeside(lockfile) : undefined;
    const replay = foreign ? replayForeign(foreign.file, foreign.entries) : undefined;
    const planned =
      replay && replay.sources.length > 0
        ? await planFromSources(
            { ...options, sources: replay.sources, only: replay.names },
            emptyLockfile(),
            scratch,
            dirname(lockfile),
          )
        : options.sources.length === 0
          ? await planFromLock(options, before, scratch)
          : await planFromSources(
              options,
              before ?? emptyLockfile(),
              scratch,
              dirname(lockfile),
              // The agent folders placed into, as a repository's paths would name them: one copy per agent is taken.
              places
                .filter((p) => isInside(dirname(lockfile), p.abs))
                .map((p) => relative(dirname(lockfile), p.abs).split(sep).join('/')),
            );
    if (!planned.ok) return planned;
    if (replay) planned.warnings.push(...replay.warnings);
    planned.warnings.push(...defaulted);
    if (placesLater && places.length === 0) {
      const chosen = await defaultPlaces(options, planned.warnings);
      places = placesOf(lockfile, before, chosen, { ...placeOpts, confined: chosen });
      for (const p of places) cleanPlace(p, before);
    }
    // Before anything is written: a skill whose files would lie too deep where they go.
    const chosen = planned.items.length;
    leaveOutTooDeep(options, planned, places, before);
    if (chosen > 0 && planned.items.length === 0) return nothingToInstall(planned.skipped);
    record(options, planned, places);
    planned.warnings.push(...manifestWarnings(options, planned, places));
    planned.warnings.push(...(await agentAsConsumer(options, places)));
    const outcome = await carryOut(options, planned, before, places, scratch);
    if (foreign && outcome.ok) outcome.warnings.push(...checkForeign(foreign, outcome.skills));
    return outcome;
  } finally {
    scratch.cleanup();
  }
}

/**
 * Remove what a killed install left in a folder it placed into: unpack and staging folders; a copy moved aside is
 * put back when its replacement never arrived (one whose name was shortened is known by the skills the lock records).
 */
function cleanPlace(p: Place, lock: Lockfile | undefined): void {
  cleanStale(p.abs, [UNPACK_PREFIX, STAGING_PREFIX, REMOVING_PREFIX], {
    prefix: TRASH_PREFIX,
    target: (base) => base,
    names: Object.keys(lock?.skills ?? {}),
  });
}

/**
 * Where archives are unpacked: into the registry when one is used (the store adopts the folder by rename); else into
 * the last folder placed into (its placement adopts the folder by rename, on the same file system, and the files are
 * created in a new folder, as `tar xzf` into a new folder creates them); else (a dry run, or folders still to be
 * asked for) the cache's scratch.
 */
function unpackBase(options: InstallOptions, places: Place[]): string {
  if (options.useRegistry || options.dryRun || places.length === 0) return scratchBase(options);
  return places.at(-1)!.abs;
}

/**
 * `--for claude-code` with nothing placed: --for names a consumer the registry records, not a folder. When it is an
 * agent's id that no skill of the registry is used by, --agent was most likely meant, and no agent sees the skills.
 */
async function agentAsConsumer(options: InstallOptions, places: Place[]): Promise<string[]> {
  const who = options.consumer;
  const agent = who === undefined || places.length > 0 ? undefined : findAgent(who);
  if (!agent) return [];
  // Loaded as apply.ts loads it: only an install for a consumer needs the registry's usage.
  const { knownConsumer } = await import('../registry/usage.js');
  if (knownConsumer(options.registry, who!)) return [];
  const folder = options.global && agent.user !== undefined ? `~/${agent.user}` : agent.project;
  return [
    `--for ${quoteConsumer(who!)} records who uses the skills in the registry and places them into no agent folder, so ${agent.title} does not see them; no skill in the registry is used by ${quoteConsumer(who!)} yet, which is an agent's id: did you mean --agent ${agent.name}? (it places them into ${folder}, where ${agent.title} reads skills)`,
  ];
}

/**
 * A manifest.json skill placed where only SKILL.md readers look: the agents that read that folder (by the table of
 * agents) will not see it. Said once per folder.
 */
function manifestWarnings(options: InstallOptions, planned: Planned, places: Place[]): string[] {
  const manifests = planned.items.filter((i) => i.resolved.layout === 'manifest').map((i) => i.resolved.id);
  if (manifests.length === 0) return [];
  const at = { cwd: dirname(options.lockfile), home: options.home, env: options.env };
  const out: string[] = [];
  for (const p of places) {
    const readers = AGENTS.filter(
      (a) => resolve(at.cwd, a.project) === p.abs || (a.user !== undefined && userFolder(a, at) === p.abs),
    );
    if (readers.length === 0 || readsManifestSkills({ readers })) continue;
    out.push(
      `${manifests.join(', ')} ${manifests.length === 1 ? 'is a manifest.json skill' : 'are manifest.json skills'}, and ${readers.map((a) => a.title).join(', ')} ${readers.length === 1 ? 'reads' : 'read'} only SKILL.md skills from ${relative(options.cwd, p.abs) || '.'}: ${manifests.length === 1 ? 'it is' : 'they are'} placed there but will not be seen (skills render-prompt and run-script read ${manifests.length === 1 ? 'it' : 'them'})`,
    );
  }
  return out;
}

/** What the other installer locked (its hash of each skill) against what was placed now. */
function checkForeign(foreign: { file: string; entries: ForeignEntry[] }, skills: InstalledSkill[]): string[] {
  const out: string[] = [];
  for (const e of foreign.entries) {
    const placed = skills.find((s) => s.id === e.name)?.placed?.[0];
    if (!e.computedHash || !placed) continue;
    if (foreignHash(placed.into) !== e.computedHash)
      out.push(
        `${e.name}: the content installed differs from what ${foreign.file} locked (its computedHash); that file is left as it was`,
      );
  }
  return out;
}

/**
 * The folders placed into are recorded, so the next `skills install` (a teammate's clone) places skills there too;
 * --frozen records nothing, and a folder outside the project cannot be recorded.
 */
function record(options: InstallOptions, planned: Planned, places: Place[]): void {
  if (options.frozen) return;
  const add: string[] = [];
  for (const p of places) {
    if (p.recorded) continue;
    const rel = recordedAs(options, p.abs);
    if (rel !== undefined && leadsOut(options, p.abs))
      planned.warnings.push(
        `${p.abs} leads out of ${dirname(options.lockfile)} through a symlink, so ${basename(options.lockfile)} does not record it (a lock names folders inside its project): pass it again to place skills there`,
      );
    else if (rel !== undefined) add.push(rel);
    else
      planned.warnings.push(
        `--into ${p.abs} is outside ${dirname(options.lockfile)}, so ${basename(options.lockfile)} does not record it: pass --into again to place skills there`,
      );
  }
  if (add.length > 0) planned.next = { ...planned.next, into: [...new Set([...intoOf(planned.next), ...add])].sort() };
  const kept = places.filter((p) => p.recorded);
  if (add.length > 0 && kept.length > 0) planned.warnings.push(addedPlaces(options, planned, add, kept));
}

/**
 * Folders are added to those the lock records, never put in their place: --agent codex after --agent claude-code
 * places into both from then on. Said once, with the skills installed before, which go there on the next install.
 */
function addedPlaces(options: InstallOptions, planned: Planned, add: string[], kept: Place[]): string {
  const lock = basename(options.lockfile);
  const keptShown = kept.map((p) => recordedAs(options, p.abs) ?? p.abs).join(', ');
  const now = new Set(planned.items.map((i) => i.resolved.id));
  const earlier = Object.keys(planned.next.skills).filter((id) => !now.has(id));
  const folders = add.length === 1 ? add[0]! : add.join(', ');
  const them = add.length === 1 ? 'it' : 'them';
  const rest =
    earlier.length === 0
      ? ''
      : `; the ${earlier.length === 1 ? 'skill' : `${earlier.length} skills`} installed before (${earlier.slice(0, 5).join(', ')}${earlier.length > 5 ? ', …' : ''}) ${options.dryRun ? 'would go' : earlier.length === 1 ? 'goes' : 'go'} into ${them} on the next skills install${options.global ? ' --global' : ''}`;
  return `${folders} ${add.length === 1 ? 'is' : 'are'} added to the ${kept.length === 1 ? 'folder' : 'folders'} ${lock} records (${keptShown}), not put in ${kept.length === 1 ? 'its' : 'their'} place: every skill installed is placed into all of them${rest}; to stop placing into a folder, remove it from "into" in ${lock}`;
}
