// Planning an install: what each skill resolves to, where it comes from, and the lock that results. Reads the disk
// (and unpacks archives into the scratch), writes nothing.
import { basename, join, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import {
  insideOf,
  namesakesOf,
  outrankedWarning,
  placedWarning,
  preferPlaced,
  someOf,
  tiedSkipped,
  withoutTwins,
} from './namesakes.js';
import { diffLockfiles, formatLockSource, intoOf, type LockEntry, type Lockfile } from '../formats/lockfile.js';
import type { DependencySpec } from '../model/spec.js';
import { readIndex, readReleases } from '../registry/index-io.js';
import { isSecretFile, legacyIntegrities } from '../registry/integrity.js';
import { loadSkill } from '../skill/load.js';
import { AGENTS } from '../skill/agents.js';
import { isInside } from '../fs/walk.js';
import { isUnversioned, looseVersion, looseVersionWarning, registryVersion } from '../registry/unversioned.js';
import { catalogFromIndex, resolveSpecs, type ResolvedSkill } from '../resolve/resolve.js';
import { lockPath } from './lock.js';
import type { Gathered } from './remote.js';
import { lfsPointers } from './lfs-pointers.js';
import {
  classifySource,
  prepareArchived,
  unpackArchive,
  withFolderHint,
  type Classified,
  type Scratch,
} from './sources.js';
import type { InstallOptions, InstallOutcome, InvalidSource, Plan, Planned, Prepared } from './types.js';
import { MissingSkills } from './missing-skills.js';
import { nothingToInstall } from './nothing-to-install.js';
import { overlayCatalog } from './overlay-catalog.js';
import { siblingLinkWarnings } from './sibling-links.js';
import { archivedToPrepare } from './nested-skills.js';
import { linksLeftOutWarning } from './archive-links.js';

const depsOf = (r: ResolvedSkill): Record<string, string> =>
  Object.fromEntries(r.dependencies.map((d) => [d.slice(0, d.indexOf('@', 1)), d.slice(d.indexOf('@', 1) + 1)]));

/** Content that differs from what the lock (or a registry) records for a version: --frozen's finding, else exit 2. */
export class IntegrityMismatch extends SkillsError {}

/** The refusal for content that differs from what the lock (or a registry) records for a version. */
export function mismatch(
  id: string,
  version: string,
  lockfile: string,
  locked: string,
  origin: string,
  found: string,
): SkillsError {
  return new IntegrityMismatch(
    'E_INVALID',
    `integrity mismatch for ${id}@${version}: ${lockfile} has ${locked}, but ${origin} has ${found}; nothing was installed`,
    {
      hint: `if the new content is wanted, give the skill a new version; or run skills uninstall ${id} and install it again`,
    },
  );
}

/** Said when a lock's integrity is the one an older skills gave the same content, with its inner links as links. */
export function relinkedNote(id: string, version: string, lockfile: string): string {
  return `${id}@${version}: ${basename(lockfile)} records the integrity skills gave it when it copied symbolic links inside a skill as links; they are now copied as the files they lead to, and the lock takes the new integrity (the content is the same)`;
}

const idOf = (p: Prepared | InvalidSource): string => ('diagnostics' in p ? (p.id ?? p.source) : p.skill.id);

/** The skills one source (not a spec) holds, each prepared or found invalid. */
export async function gather(
  c: Exclude<Classified, { kind: 'spec' }>,
  raw: string,
  options: InstallOptions,
  scratch: Scratch,
  lockDir: string,
  recorded: string[] = [],
): Promise<Gathered> {
  // Each kind of source loads its own code (git, downloads, npm, MCP) when given: an archive's install needs none.
  if (c.kind === 'git') return (await import('./remote.js')).gatherGit(c.remote, raw, options);
  if (c.kind === 'url') return (await import('./remote.js')).gatherUrl(c.remote, raw, options, scratch);
  if (c.kind === 'npm') return (await import('./npm.js')).gatherNpm([c.remote], options, scratch);
  if (c.kind === 'well-known') return (await import('./well-known.js')).gatherWellKnown(c.remote, options, scratch);
  if (c.kind === 'mcp') return (await import('./mcp.js')).gatherMcp(c.remote, options, scratch);
  if (c.kind === 'folder') {
    const { gatherTree, noSkill } = await import('./remote.js');
    // The agents' folders below a folder hold copies skills placed, not sources: `skills install .` in a project
    // reads its own skills, never `.claude/skills/pdf` (which would take the place of pdf's git origin).
    const placedIn = [...AGENTS.map((a) => resolve(lockDir, a.project)), ...(options.into ?? []), ...recorded];
    const copies = placedIn.filter((d) => isInside(c.abs, d) && d !== c.abs);
    const tree = await gatherTree(
      c.abs,
      raw,
      (abs) => ({ source: formatLockSource({ kind: 'folder', path: lockPath(lockDir, abs) }) }),
      undefined,
      undefined,
      (abs) => copies.some((d) => isInside(d, abs)),
      options.only,
    );
    // A folder with no skill in it or below: the loader says what it lacks; one searched in part, where it stopped.
    if (tree.found.length === 0 && tree.cut !== undefined)
      throw noSkill(raw, 'its top or in the folders read', tree.cut);
    if (tree.found.length === 0) loadSkill(c.abs);
    return tree;
  }
  // So does an archive that holds skills (a repository's "Download ZIP", git archive).
  const unpacked = await unpackArchive(c.abs, raw, scratch, options);
  const { found, several } = archivedToPrepare(unpacked, scratch, options.only);
  const prepared: Gathered['found'] = [];
  for (const a of found) prepared.push(await prepareArchived(a, raw, lockPath(lockDir, c.abs), several));
  const inners = unpacked.map((a) => a.inner);
  const warnings = linksLeftOutWarning(raw, scratch.linksLeftOut.get(c.abs) ?? [], inners);
  return { found: prepared, several, ...(warnings.length ? { warnings } : {}) };
}

/**
 * How to install one skill of a source of many by itself, as a command: its folder, or for a skill inside a
 * repository the repository with the path inside (`<url>#<ref>:<path>`). A skill inside an archive has no source of
 * its own (an archive takes no path): the way is to unpack it and install that folder.
 */
export function alone(raw: string, p: Prepared): string {
  const inside = p.origin?.path;
  if (inside !== undefined && p.origin?.commit !== undefined)
    return `skills install ${raw.replace(/#.*$/, '')}#${p.origin.ref ?? ''}:${inside}`;
  // Findings in a repository's or an archive's skill name it by a label; an archive's has no path to give.
  if (p.relabel && p.origin?.commit === undefined)
    return `unpack ${redactUrl(raw)} and run skills install <unpacked>/${insideOf(raw, p)}`;
  return `skills install ${p.typed}`;
}

/** Plan an install of the sources given: each resolved, with its dependencies, against the registry (or --from). */
export async function planFromSources(
  options: InstallOptions,
  lock: Lockfile,
  scratch: Scratch,
  lockDir: string,
  placed: readonly string[] = [],
): Promise<Planned | Extract<InstallOutcome, { ok: false }>> {
  const specs: DependencySpec[] = [];
  const locals = new Map<string, Prepared>();
  // The valid skills a source holds that --skill or the picker left out: a chosen skill's dependency is taken from
  // them before the registry, as `dependencies that no source holds` says. A name two of them share is none of them.
  const spare = new Map<string, Prepared | null>();
  // Every valid skill a source holds that was not chosen: one a chosen skill links to is said (sibling-links.ts).
  const leftOut: Prepared[] = [];
  const invalid: InvalidSource[] = [];
  const skipped: InvalidSource[] = [];
  const ofSeveral = new Set<string>();
  const warnings: string[] = [];
  const only = options.only === undefined ? undefined : new Set(options.only);
  const matched = new Set<string>();
  // The skills each source holds, named where --skill asks for one they lack.
  const held = new Map<string, string[]>();
  // Sources whose search for skills stopped at its limits: a skill --skill names may be beyond it.
  const cuts = new Map<string, string>();
  let npmGathered = false;
  for (const raw of options.sources) {
    const c = classifySource(raw, options.cwd);
    if (c.kind === 'spec') {
      specs.push(c.spec);
      continue;
    }
    if (options.link && c.kind !== 'folder')
      throw new SkillsError('E_USAGE', `--link links a skill folder on this machine, and ${raw} is not one`, {
        hint: `install ${raw} without --link: it is copied`,
      });
    const recorded = intoOf(lock)
      .filter((d) => !d.startsWith('~/'))
      .map((d) => resolve(lockDir, d));
    // The npm sources are resolved together, with the npm skills the lock holds, when the first is reached.
    if (c.kind === 'npm' && npmGathered) continue;
    if (c.kind === 'npm') npmGathered = true;
    const {
      found,
      several,
      warnings: said,
      cut,
    } = c.kind === 'npm'
      ? await (await import('./npm.js')).gatherNpmSources(options, scratch, lock)
      : await gather(c, raw, options, scratch, lockDir, recorded);
    if (said) warnings.push(...said);
    held.set(raw, found.map(idOf));
    if (cut) cuts.set(raw, cut);
    let chosen = found;
    // A skeleton (templates/…) is taken by its name only where no skill of the source has that name.
    const skillIds = new Set(found.filter((p) => !p.template).map(idOf));
    if (only)
      chosen = found.filter((p) => only.has(idOf(p)) && !(p.template && skillIds.has(idOf(p))) && matched.add(idOf(p)));
    else if (several && options.pick) {
      const namesakes = namesakesOf(found);
      const tiedOrOutranked = (p: Prepared) => namesakes.tied.has(p.skill.id) || namesakes.outranked.has(p);
      const clashes = new Set([...namesakes.tied.keys(), ...[...namesakes.outranked.values()].map((p) => p.skill.id)]);
      // Twins (one skill at two paths, file for file) are one choice, as --list shows them; it takes both.
      const shown = withoutTwins(raw, found);
      const picked = new Set(
        await options.pick(
          raw,
          shown.map(({ p, foundAt }) =>
            'diagnostics' in p
              ? { id: idOf(p), description: '', problem: p.diagnostics[0]?.message ?? p.message }
              : {
                  id: p.skill.id,
                  description: p.skill.description ?? '',
                  ...(clashes.has(p.skill.id) ? { inside: insideOf(raw, p), unticked: tiedOrOutranked(p) } : {}),
                  ...(foundAt ? { foundAt } : {}),
                },
          ),
        ),
      );
      const kept = new Set(shown.filter((_, i) => picked.has(i)).flatMap((s) => [s.p, ...(s.twins ?? [])]));
      chosen = found.filter((p) => kept.has(p));
    }
    const taken = new Set(chosen);
    for (const p of chosen === found ? [] : found) {
      if (taken.has(p) || 'diagnostics' in p) continue;
      leftOut.push(p);
      const had = spare.get(p.skill.id);
      spare.set(p.skill.id, had === undefined || had?.integrity === p.integrity ? p : null);
    }
    // Different skills of one name in a source of many cannot share one agent folder (namesakes.ts): the shallowest
    // is taken when alone at its depth, the deeper said in one warning; at a tie each is left out, as an invalid one
    // is, and the others install. Named one by one (`--skill`) or with --strict, a clash refuses the run.
    const settled = several && !only && !options.strict ? namesakesOf(chosen) : undefined;
    // One copy per agent in one repository (`.claude/skills/x`, `.agents/skills/x`): the placed folder's is taken.
    const forPlaced = settled ? preferPlaced(raw, settled, placed) : undefined;
    if (forPlaced?.size) warnings.push(placedWarning(raw, forPlaced));
    if (settled?.outranked.size) warnings.push(outrankedWarning(raw, settled.outranked));
    for (const p of chosen) {
      if ('diagnostics' in p) {
        // An invalid copy deeper than the namesake taken (a translation) is left out with the other deeper ones.
        if (settled?.outranked.has(p)) continue;
        // One skill of many that breaks a rule is left out, so the others install; --strict refuses the lot.
        (several && !options.strict ? skipped : invalid).push(p);
        continue;
      }
      if (settled?.outranked.has(p) || forPlaced?.has(p)) continue;
      const tie = settled?.tied.get(p.skill.id);
      if (tie) {
        skipped.push(tiedSkipped(raw, p, tie, alone(raw, p)));
        continue;
      }
      const twice = locals.get(p.skill.id);
      // The same skill reached twice (a repository and a folder inside it) is one skill.
      if (twice?.integrity === p.integrity) continue;
      if (twice)
        throw new SkillsError('E_USAGE', `${p.skill.id} is given twice: ${twice.typed} and ${p.typed}`, {
          // --skill picks by name, and both have this one: the way to one of them is its own source.
          hint: `two different skills are named ${p.skill.id}: install the one you want by itself, e.g. ${alone(raw, p)}${several ? ' (and the others with --skill)' : ''}`,
        });
      locals.set(p.skill.id, p);
      if (several && !options.strict) ofSeveral.add(p.skill.id);
    }
  }
  if (only) {
    const missing = [...only].filter((id) => !matched.has(id) && !specs.some((s) => s.id === id));
    if (missing.length > 0) throw new MissingSkills(missing, held, options.sources, cuts);
  }
  if (invalid.length > 0) {
    // A skill left out for no finding of its own (a file an MCP server would not send) is not for validate.
    const error = new SkillsError(
      'E_INVALID',
      invalid.map((i) => i.message).join('\n'),
      invalid.some((i) => i.diagnostics.length > 0)
        ? { hint: 'run skills validate on the skill folder (unpack an archive first) to see every finding' }
        : {},
    );
    return { ok: false, kind: 'invalid', error, invalid, warnings: [] };
  }
  if (locals.size === 0 && specs.length === 0) return nothingToInstall(skipped);
  const source = options.from ?? options.registry;
  options.progress?.('resolving dependencies');
  const base = catalogFromIndex(readIndex(source), (id) => readReleases(source, id));
  const spares = new Map<string, Prepared>();
  for (const [id, p] of spare) if (p && !locals.has(id)) spares.set(id, p);
  const catalog = overlayCatalog(base, new Map([...spares, ...locals]));
  const roots: DependencySpec[] = [
    ...[...locals.values()].map((p) => ({
      raw: `${p.skill.id}@${registryVersion(p.skill)}`,
      id: p.skill.id,
      range: registryVersion(p.skill),
      exact: true,
    })),
    ...specs,
  ];
  const resolution = resolveSpecs(roots, catalog, { nodeVersion: options.nodeVersion });
  if (!resolution.ok) {
    const error =
      resolution.kind === 'unknown-id'
        ? withFolderHint(resolution.error, specs, (id) => catalog.versions(id) !== undefined, options.cwd)
        : resolution.error;
    return { ok: false, kind: 'unresolved', error, warnings: resolution.warnings };
  }
  const requested = new Set(resolution.roots);
  // The range a spec asked for (`pdf@^1.2`), kept in the lock for outdated and update.
  const rangeAsked = new Map(specs.filter((sp) => sp.range !== undefined && !sp.exact).map((sp) => [sp.id, sp.range!]));
  const owners = new Map(options.from ? readIndex(options.from).skills.map((e) => [e.id, e.owner]) : []);
  const items: Planned['items'] = [];
  // Skills that replace another's, and skills whose lock holds the integrity their inner links once gave.
  const replaced: string[] = [];
  for (const r of resolution.resolved) {
    const local = locals.get(r.id) ?? spares.get(r.id);
    let plan: Plan;
    let entrySource: string;
    let integrity: string;
    if (local && registryVersion(local.skill) === r.version) {
      plan = { kind: 'local', prepared: local };
      entrySource = local.source;
      integrity = local.integrity;
    } else {
      const release = readReleases(source, r.id)[r.version]!;
      integrity = release.integrity;
      if (options.from) {
        plan = {
          kind: 'from',
          root: join(options.from, release.path),
          release,
          owner: owners.get(r.id) ?? 'built-in',
          registry: options.from,
        };
        entrySource = `registry:${lockPath(lockDir, options.from)}`;
      } else {
        plan = { kind: 'present', release };
        entrySource = 'registry';
      }
    }
    const old = lock.skills[r.id];
    // An unversioned skill from a folder or archive changes without a version to bump: its new content is an update.
    // So is a skill from another commit of a repository (the commit is its version), and a linked folder.
    const unversionedUpdate =
      plan.kind === 'local' &&
      (isUnversioned(plan.prepared.skill) ||
        (plan.prepared.origin?.commit !== undefined && plan.prepared.origin.commit !== old?.commit) ||
        options.link === true ||
        old?.link === true);
    // A lock written when symlinks inside a skill were copied as links records what they hashed to then: the same
    // content, now copied (and hashed) as the files they lead to. The lock takes the new integrity, and says so.
    const relinked =
      old !== undefined &&
      old.version === r.version &&
      old.integrity !== integrity &&
      plan.kind === 'local' &&
      legacyIntegrities(plan.prepared.skill.root).includes(old.integrity);
    if (relinked) replaced.push(relinkedNote(r.id, r.version, options.lockfile));
    if (old && old.version === r.version && old.integrity !== integrity && !unversionedUpdate && !relinked) {
      throw mismatch(
        r.id,
        r.version,
        options.lockfile,
        old.integrity,
        plan.kind === 'local' ? plan.prepared.typed : entrySource,
        integrity,
      );
    }
    // The same content, pulled in again from elsewhere (a dependency now found in the registry): the lock keeps
    // where it first came from, so installs in a different order write the same lock.
    const keep = old !== undefined && old.version === r.version && plan.kind !== 'local';
    const origin = plan.kind === 'local' ? plan.prepared.origin : undefined;
    const asked = rangeAsked.get(r.id);
    const entry: LockEntry = {
      version: r.version,
      source: keep ? old!.source : entrySource,
      integrity,
      dependencies: depsOf(r),
      ...(origin?.commit === undefined ? {} : { commit: origin.commit }),
      ...(origin?.path ? { path: origin.path } : {}),
      ...(origin?.ref !== undefined ? { ref: origin.ref } : asked !== undefined ? { ref: asked } : {}),
      ...(options.link && plan.kind === 'local' ? { link: true as const } : {}),
      ...(origin?.tarball === undefined ? {} : { tarball: origin.tarball }),
      ...(origin?.tarballIntegrity === undefined ? {} : { tarballIntegrity: origin.tarballIntegrity }),
    };
    if (keep && old!.ref !== undefined && entry.ref === undefined) entry.ref = old!.ref;
    // Another repository's skill of the same name replaces the one installed: said, as it is someone else's.
    if (old && old.source !== entry.source && old.integrity !== entry.integrity)
      replaced.push(`${r.id} from ${entry.source} replaces the ${r.id} installed from ${old.source}`);
    items.push({ resolved: r, plan, entry, requested: requested.has(`${r.id}@${r.version}`) });
  }
  const next: Lockfile = { ...lock, skills: { ...lock.skills } };
  for (const i of items) next.skills[i.resolved.id] = i.entry;
  const changes = diffLockfiles(lock, next);
  if (options.frozen && changes.length > 0) {
    return {
      ok: false,
      kind: 'frozen',
      changes,
      warnings: resolution.warnings,
      error: new SkillsError(
        'E_INVALID',
        `--frozen: ${options.lockfile} would change; nothing was installed:\n${changes.map((c) => `  ${c}`).join('\n')}`,
        {
          hint: `run skills install without --frozen and commit ${basename(options.lockfile)}`,
        },
      ),
    };
  }
  // Each is said of one skill, and counted in one line for many (named with --verbose). A skill from a repository or
  // a URL is pinned by its commit or content, so no version is no news there.
  const all = items.flatMap((i) => (i.plan.kind === 'local' ? [i.plan.prepared] : []));
  const verbose = options.verbose === true;
  const said = [
    ...oneOrMany(
      all.filter((p) => isUnversioned(p.skill) && p.origin === undefined),
      (p) => `${p.skill.id} has no version; it is kept as 0.0.0`,
      (n) => `${n} skills have no version; they are kept as 0.0.0`,
      (p) => p.skill.id,
      verbose,
    ),
    // A skill whose folder in the source is not named as the skill is installed under its name.
    ...oneOrMany(
      all.filter((p) => p.folderName !== undefined),
      (p) => `${p.skill.id} is in a folder named ${p.folderName}; it is installed as ${p.skill.id}, by its name`,
      (n) => `${n} skills are in folders not named as they are; each is installed by its name`,
      (p) => `${p.folderName} as ${p.skill.id}`,
      verbose,
    ),
    // Links that lead out of the skill are not copied (a copy holds the skill's own files), as pack refuses them.
    ...oneOrMany(
      options.link ? [] : all.filter((p) => outwardLinks(p).length > 0),
      (p) =>
        `${p.skill.id}: ${outwardLinks(p).join(', ')} ${outwardLinks(p).length === 1 ? 'is a symbolic link that leads' : 'are symbolic links that lead'} out of the skill, left out of its copies (lint: SK131)`,
      (n) => `${n} skills hold symbolic links that lead out of them, left out of their copies (lint: SK131)`,
      (p) => `${p.skill.id}: ${outwardLinks(p).join(', ')}`,
      verbose,
    ),
    // A repository that keeps files in Git LFS gives a clone its pointers alone: installed as they are, and said.
    ...oneOrMany(
      all.filter((p) => lfsPointers(p).length > 0),
      (p) =>
        `${p.skill.id}: ${someOf(lfsPointers(p))} ${lfsPointers(p).length === 1 ? 'is a Git LFS pointer' : 'are Git LFS pointers'}, not the content (skills does not fetch LFS content; lint: SK132)`,
      (n) => `${n} skills hold Git LFS pointers in place of files (skills does not fetch LFS content; lint: SK132)`,
      (p) => `${p.skill.id}: ${someOf(lfsPointers(p))}`,
      verbose,
    ),
    // A file of secrets in what was fetched (someone's .env, in a repository or an archive) is never copied: said.
    ...oneOrMany(
      all.filter((p) => secretFiles(p).length > 0),
      (p) => `${p.skill.id}: ${secretFiles(p).join(', ')} left out of its copies: secrets are never installed`,
      (n) => `${n} skills hold .env files, left out of their copies: secrets are never installed`,
      (p) => `${p.skill.id}: ${secretFiles(p).join(', ')}`,
      verbose,
    ),
    // A loose version (`1.0`) is kept as the one it plainly means.
    ...oneOrMany(
      all.filter((p) => looseVersion(p.skill) !== undefined),
      (p) => looseVersionWarning(p.skill),
      (n) => `${n} skills have a version that is not MAJOR.MINOR.PATCH; each is kept as the one it plainly means`,
      (p) => `${p.skill.id} "${p.skill.version}" as ${looseVersion(p.skill)}`,
      verbose,
    ),
  ];
  const placedIds = new Set(items.map((i) => i.resolved.id));
  const dangling = siblingLinkWarnings(
    all,
    leftOut.filter((p) => !placedIds.has(p.skill.id)),
  );
  return {
    ok: true,
    items,
    next,
    skipped,
    warnings: [...warnings, ...said, ...dangling, ...replaced, ...resolution.warnings],
    ofSeveral,
  };
}

/** The skill's symbolic links that lead out of it (or nowhere): a copy leaves them out. */
const outwardLinks = (p: Prepared) =>
  p.skill.entries.filter((e) => e.kind === 'symlink' && !e.inside).map((e) => e.path);

/** The skill's files of secrets (.env), and its links to one, which a copy leaves out. */
const secretFiles = (p: Prepared) =>
  p.skill.entries
    .filter(
      (e) =>
        (e.kind === 'file' && isSecretFile(e.path.split('/').at(-1)!)) ||
        (e.kind === 'symlink' && e.inside && e.target !== undefined && isSecretFile(basename(e.target))),
    )
    .map((e) => e.path);

/** A warning about one skill as `one` says it; about several, one line: `many`, then their names with verbose. */
function oneOrMany(
  items: Prepared[],
  one: (p: Prepared) => string,
  many: (n: number) => string,
  name: (p: Prepared) => string,
  verbose: boolean,
): string[] {
  if (items.length <= 1) return items.map(one);
  return [`${many(items.length)} (${verbose ? items.map(name).join(', ') : '--verbose names them'})`];
}
