// Replaying a lock: exactly what skills-lock.json says, each entry fetched again (a git commit from the cache, an
// archive, a folder, a registry's stored copy) and checked against the integrity the lock records.
import { dirname, join, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import { parseRemoteSource, redactUrl } from '../formats/install-source.js';
import { LOCKFILE_NAME, parseLockSource, type LockEntry, type Lockfile } from '../formats/lockfile.js';
import { present } from '../fs/walk.js';
import { readIndex, readReleases } from '../registry/index-io.js';
import { legacyIntegrities } from '../registry/integrity.js';
import { registryVersion } from '../registry/unversioned.js';
import type { ResolvedSkill } from '../resolve/resolve.js';
import { mismatch, relinkedNote } from './plan.js';
import { prepareArchived, prepareLocal, relabelError, relabeler, unpackArchive, type Scratch } from './sources.js';
import { nestedArchived } from './nested-skills.js';
import type { ArchivedSkill, InstallOptions, InvalidSource, Plan, Planned, Prepared } from './types.js';

/**
 * A lock's git source passes the same checks as one typed (the schemes allowed, no argument that looks like an
 * option): a lock may come from a stranger's repository.
 */
function checkLockedGit(url: string, entry: LockEntry, id: string, lockfile: string): void {
  let problem: string | undefined;
  try {
    if (parseRemoteSource(url, () => false)?.kind !== 'git')
      problem = `"${redactUrl(url)}" is not a git URL skills takes`;
  } catch (err) {
    problem = (err as Error).message;
  }
  if (problem === undefined && entry.ref?.startsWith('-')) problem = `ref "${entry.ref}" looks like an option`;
  if (problem !== undefined)
    throw new SkillsError('E_CONFIG', `${lockfile}: ${id}: ${problem}; nothing was installed`, {
      hint: `install ${id} again from a source skills takes, which rewrites its entry`,
    });
}

const originOf = (e: LockEntry): Prepared['origin'] => ({
  ...(e.commit === undefined ? {} : { commit: e.commit }),
  ...(e.path === undefined ? {} : { path: e.path }),
  ...(e.ref === undefined ? {} : { ref: e.ref }),
  ...(e.tarball === undefined ? {} : { tarball: e.tarball }),
  ...(e.tarballIntegrity === undefined ? {} : { tarballIntegrity: e.tarballIntegrity }),
});

/** A replayed skill must be valid and be the id and version the lock says. */
function checkReplayed(
  p: Prepared | InvalidSource,
  id: string,
  entry: LockEntry,
  lockfile: string,
  shown: string,
  hint: string,
): Prepared {
  if ('diagnostics' in p) {
    throw new SkillsError(
      'E_INVALID',
      `${p.message}:\n${p.diagnostics.map((d) => `  ${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}  ${d.message}`).join('\n')}`,
      { hint },
    );
  }
  if (p.skill.id !== id || registryVersion(p.skill) !== entry.version) {
    throw new SkillsError(
      'E_INVALID',
      `${lockfile} locks ${id}@${entry.version}, but ${shown} holds ${p.skill.id}@${registryVersion(p.skill)}; nothing was installed`,
      { hint: `install it again to update the lock` },
    );
  }
  return p;
}

/**
 * The skill an archive's lock entry names: by its path inside (a skill nested in another too, as install --skill
 * took it), else the archive's one skill, else by id.
 */
function pickArchived(
  scratch: Scratch,
  inArchive: ArchivedSkill[],
  inner: string | undefined,
  id: string,
  where: string,
  lockfile: string,
  source: string,
  shown: string,
): ArchivedSkill {
  const a =
    inner !== undefined
      ? (inArchive.find((f) => f.inner === inner) ??
        nestedArchived(inArchive, scratch, []).find((f) => f.inner === inner))
      : inArchive.length === 1
        ? inArchive[0]
        : inArchive.find((f) => f.id === id);
  if (!a) {
    throw new SkillsError(
      'E_NOT_FOUND',
      `${lockfile}: ${where} comes from ${source}, but ${shown} holds no skill ${inner !== undefined ? `at "${inner}"` : `with the id ${id}`}; it holds ${inArchive.map((f) => (f.inner === '' ? `${f.id} at its top` : `${f.id} in "${f.inner}"`)).join(', ')}. Nothing was installed`,
      { hint: `install ${id} again from where it is now` },
    );
  }
  return a;
}

/** Plan an install of exactly what the lock says, each entry checked against where it comes from. */
export async function planFromLock(
  options: InstallOptions,
  lock: Lockfile | undefined,
  scratch: Scratch,
): Promise<Planned> {
  if (!lock) {
    throw new SkillsError(
      'E_USAGE',
      `nothing to install: no ${LOCKFILE_NAME} in ${options.cwd} or the folders above it (up to the repository root)`,
      {
        hint: 'name what to install: skills install <folder | archive | id[@range]>',
      },
    );
  }
  const lockDir = dirname(options.lockfile);
  const items: Planned['items'] = [];
  const next: Lockfile = { ...lock, skills: { ...lock.skills } };
  const warnings: string[] = [];
  const ids = Object.keys(lock.skills).sort();
  for (const id of ids) {
    const entry = lock.skills[id]!;
    const where = `${id}@${entry.version}`;
    let plan: Plan;
    let found: string;
    let origin: string;
    const src = parseLockSource(entry.source);
    if (src.kind === 'git') {
      checkLockedGit(src.url, entry, id, options.lockfile);
      // The locked commit, whatever the branch or tag names now: from the cache, else fetched.
      const typed = `${src.url}#${entry.commit ?? entry.ref ?? ''}`;
      const { root } = await (
        await import('./remote.js')
      ).gitTree(src.url, entry.commit ?? entry.ref, entry.path, options, typed);
      const shown = `${src.url} at ${entry.commit?.slice(0, 12) ?? entry.ref ?? 'HEAD'}${entry.path ? `: ${entry.path}` : ''}`;
      const p = checkReplayed(
        await prepareLocal(root, shown, entry.source),
        id,
        entry,
        options.lockfile,
        shown,
        `the repository's skill is not valid at that commit: install ${id} again from a commit where it is`,
      );
      plan = { kind: 'local', prepared: { ...p, source: entry.source, origin: originOf(entry) } };
      found = p.integrity;
      origin = shown;
    } else if (src.kind === 'url') {
      const file = await (await import('./remote.js')).downloadOnce(src.url, src.url, scratch, options);
      const inArchive = await unpackArchive(file, src.url, scratch, options).catch((err: unknown) => {
        throw relabelError(err, relabeler(file, redactUrl(src.url), ''));
      });
      const inner = entry.path === undefined ? undefined : entry.path;
      const shown = inner ? `${src.url}: ${inner}` : src.url;
      const a = pickArchived(scratch, inArchive, inner, id, where, options.lockfile, entry.source, src.url);
      const p = checkReplayed(
        await prepareArchived(a, src.url, '', inner !== undefined),
        id,
        entry,
        options.lockfile,
        shown,
        `download ${src.url}, unpack it and run skills validate on the skill folder`,
      );
      plan = { kind: 'local', prepared: { ...p, source: entry.source, origin: originOf(entry) } };
      found = p.integrity;
      origin = shown;
    } else if (src.kind === 'well-known') {
      const shown = `${src.url}: ${entry.path ?? id}`;
      const remote = { kind: 'well-known' as const, index: src.url, typed: src.url };
      const [p] = (await (await import('./well-known.js')).gatherWellKnown(remote, options, scratch, entry.path ?? id))
        .found;
      const checked = checkReplayed(p!, id, entry, options.lockfile, shown, `the site's ${id} is not valid now`);
      plan = { kind: 'local', prepared: { ...checked, source: entry.source, origin: originOf(entry) } };
      found = checked.integrity;
      origin = shown;
    } else if (src.kind === 'mcp') {
      // A command in a committed lockfile is not run: whoever installs says so themselves.
      if (src.server.startsWith('stdio:'))
        throw new SkillsError(
          'E_USAGE',
          `${options.lockfile} locks ${where} from the MCP server command ${JSON.stringify(src.server.slice('stdio:'.length))}; skills does not run a command a lockfile names; nothing was installed`,
          { hint: `run it yourself: skills install mcp+${src.server}` },
        );
      const shown = `${src.server}: ${entry.path ?? id}`;
      const remote = { kind: 'mcp' as const, server: src.server, typed: src.server };
      const [p] = (await (await import('./mcp.js')).gatherMcp(remote, options, scratch, entry.path ?? id)).found;
      const checked = checkReplayed(p!, id, entry, options.lockfile, shown, `the server's ${id} is not valid now`);
      plan = { kind: 'local', prepared: { ...checked, source: entry.source, origin: originOf(entry) } };
      found = checked.integrity;
      origin = shown;
    } else if (src.kind === 'npm') {
      const shown = `${src.name}@${entry.version}`;
      const p = checkReplayed(
        await (await import('./npm.js')).replayNpm(src.name, entry, options, scratch),
        id,
        entry,
        options.lockfile,
        shown,
        `the package's skill is not valid: install ${id} again at a version where it is`,
      );
      plan = { kind: 'local', prepared: { ...p, source: entry.source, origin: originOf(entry) } };
      found = p.integrity;
      origin = shown;
    } else if (src.kind === 'folder' || src.kind === 'archive') {
      let { path } = src;
      let inner = src.kind === 'archive' ? src.inner : undefined;
      // A lock written before `#<path inside>` existed may have a `#` in the archive's own path.
      const whole = entry.source.slice(entry.source.indexOf(':') + 1);
      if (inner !== undefined && (path === '' || !present(resolve(lockDir, path))) && present(resolve(lockDir, whole)))
        [path, inner] = [whole, undefined];
      const abs = resolve(lockDir, path);
      if (!present(abs))
        throw new SkillsError(
          'E_NOT_FOUND',
          `${options.lockfile}: ${where} comes from ${entry.source}, and ${abs} is not there`,
          { hint: `restore it, or install ${id} again from where it is now` },
        );
      let p: Prepared | InvalidSource;
      let shown = abs;
      if (src.kind === 'folder') p = await prepareLocal(abs, path, entry.source);
      else {
        const inArchive = await unpackArchive(abs, path, scratch, options);
        // No path inside: the archive's one skill (or, should it hold several now, the one with the locked id).
        const a = pickArchived(scratch, inArchive, inner, id, where, options.lockfile, entry.source, abs);
        p = await prepareArchived(a, path, path, inner !== undefined);
        if (inner !== undefined) shown = `${abs}: ${inner}`;
      }
      const checked = checkReplayed(
        p,
        id,
        entry,
        options.lockfile,
        shown,
        src.kind === 'archive'
          ? `unpack ${abs} and run skills validate on the skill folder`
          : `run skills validate ${abs}`,
      );
      plan = { kind: 'local', prepared: { ...checked, source: entry.source } };
      // A linked folder is the author's work in progress: its content is whatever it is now.
      found = entry.link ? entry.integrity : checked.integrity;
      if (entry.link) plan.prepared.integrity = checked.integrity;
      origin = shown;
    } else {
      const arg = (src.kind === 'registry' ? src.dir : undefined) ?? '';
      const reg = arg !== '' ? resolve(lockDir, arg) : options.registry;
      const index = readIndex(reg);
      const e = index.skills.find((s) => s.id === id);
      const release = e?.versions.includes(entry.version) ? readReleases(reg, id)[entry.version] : undefined;
      if (!release) {
        throw new SkillsError(
          'E_NOT_FOUND',
          `${options.lockfile} locks ${where} from the registry ${reg}, which does not have it${e ? ` (it has ${e.versions.join(', ')})` : ''}; nothing was installed`,
          {
            hint: arg
              ? 'restore that registry folder'
              : `register it (skills registry sync <dir>), or use --registry to point at the registry that has it`,
          },
        );
      }
      found = release.integrity;
      origin = reg;
      plan = arg
        ? { kind: 'from', root: join(reg, release.path), release, owner: e!.owner, registry: reg }
        : { kind: 'present', release };
    }
    // Locked when links inside a skill were copied as links: the same content, now copied as files, recorded anew.
    let locked = entry;
    if (
      found !== entry.integrity &&
      plan.kind === 'local' &&
      legacyIntegrities(plan.prepared.skill.root).includes(entry.integrity)
    ) {
      locked = { ...entry, integrity: found };
      next.skills[id] = locked;
      warnings.push(
        options.frozen
          ? `${relinkedNote(id, entry.version, options.lockfile)}; --frozen leaves the lock as it is: run skills install to record it`
          : relinkedNote(id, entry.version, options.lockfile),
      );
    } else if (found !== entry.integrity)
      throw mismatch(id, entry.version, options.lockfile, entry.integrity, origin, found);
    const resolved: ResolvedSkill = {
      id,
      version: entry.version,
      layout: plan.kind === 'local' ? plan.prepared.skill.layout : plan.release.layout,
      path: '',
      dependencies: Object.entries(entry.dependencies).map(([d, v]) => `${d}@${v}`),
    };
    items.push({ resolved, plan, entry: locked, requested: true });
  }
  // The lock itself when no entry was recorded anew.
  return { ok: true, items, next: warnings.length > 0 ? next : lock, skipped: [], warnings };
}
