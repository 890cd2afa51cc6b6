import { z } from 'zod';
import { SKILL_ID_RULE, isSkillId } from '../model/spec.js';
import { parseDocument, type Problem } from './json-document.js';

// skills-lock.json: what `skills install` installed in a project, so that `skills install` with no arguments
// installs exactly that again. Keys are sorted on write, so the file diffs well and two installs of the same
// thing write the same bytes.

export const LOCKFILE_NAME = 'skills-lock.json';
export const LOCKFILE_VERSION = 1;

/**
 * A folder inside the lockfile's folder, as the lock keeps it: `.`, or names joined by `/`, none of them `.`, `..`
 * or empty, no backslash, not absolute. A lock may come from a stranger's repository: anything that led out of the
 * project would have `skills install` write there.
 */
export const INTO_PATH = /^(?:\.|(?![A-Za-z]:)(?!(?:\.\.?)(?:\/|$))[^/\\\0]+(?:\/(?!(?:\.\.?)(?:\/|$))[^/\\\0]+)*)$/;

/** A path inside a repository or archive: names joined by `/`, none of them `.`, `..` or empty; '' for the top. */
export const INNER_PATH = /^(?:|(?!(?:\.\.?)(?:\/|$))[^/\\\0]+(?:\/(?!(?:\.\.?)(?:\/|$))[^/\\\0]+)*)$/;

/** A user folder in the global lock (`~/.claude/skills`): below the home folder, never `..`. */
export const HOME_INTO_PATH = /^~\/(?!(?:\.\.?)(?:\/|$))[^/\\\0]+(?:\/(?!(?:\.\.?)(?:\/|$))[^/\\\0]+)*$/;

// Built on first use: zod is set up only when a lockfile is read (README, "Libraries set up on first use"); list and
// render-prompt import this module for LOCKFILE_NAME alone.
function buildSchemas() {
  const entry = z
    .object({
      version: z.string().min(1),
      /**
       * `folder:<path>`, `archive:<path>`, `archive:<path>#<path inside>` (relative to the lockfile's folder),
       * `registry`, `registry:<dir>`, `git:<url>` (with `commit`, and `path` inside the repository), or `url:<https URL
       * of an archive>`.
       */
      source: z
        .string()
        .regex(
          /^(folder:.+|archive:.+|registry(:.+)?|git:.+|url:https?:\/\/.+|npm:(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*|well-known:https?:\/\/.+|mcp:(stdio:.+|https?:\/\/.+))$/,
          'expected "folder:<path>", "archive:<path>", "registry", "registry:<dir>", "git:<url>", "url:<https URL>", "npm:<package>", "well-known:<index URL>" or "mcp:<server>"',
        ),
      /**
       * What was asked, kept so `outdated` and `update` know the range: a git ref (`v1.2.0`, `main`, `semver:^1.2`)
       * or a registry range.
       */
      ref: z.string().min(1).optional(),
      /** A git source's resolved commit: 40 hex digits. */
      commit: z
        .string()
        .regex(/^[0-9a-f]{40}$/, 'expected the 40-hex commit')
        .optional(),
      /** The skill's folder inside a git repository or an archive by URL ('' or absent: its top). */
      path: z
        .string()
        .regex(INNER_PATH, 'expected a relative path with "/" and no ".." (e.g. "skills/pdf")')
        .optional(),
      /** An npm package's tarball URL, as the registry's packument gave it. */
      tarball: z.string().url().optional(),
      /** The sha512 SRI of that tarball, as the packument records it (checked again on every install). */
      tarballIntegrity: z
        .string()
        .regex(/^sha512-[A-Za-z0-9+/]+={0,2}$/, 'expected "sha512-<base64>"')
        .optional(),
      /**
       * Placed as a symlink to the source folder (--link): its content follows the folder, so replay does not check it.
       */
      link: z.literal(true).optional(),
      /** sha512 SRI of the skill's files (paths, execute bits, bytes): the registry's integrity. */
      integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]+={0,2}$/, 'expected "sha512-<base64>"'),
      /** The resolved dependencies: id → version. */
      dependencies: z.record(z.string()),
    })
    // A field of a later version of the lock (as `into` and `link` once were) is kept as it was written, not dropped
    // by this version's next write: a team on two versions loses nothing either records.
    .passthrough();

  const file = z
    .object({
      /**
       * The agent folders this project installs `<id>/` folders into, relative to the lockfile's folder; sorted,
       * unique.
       */
      into: z
        .array(
          z
            .string()
            .refine(
              (p) => INTO_PATH.test(p) || HOME_INTO_PATH.test(p),
              'expected a folder inside the lockfile\'s folder, relative, with "/" and no ".." (e.g. ".claude/skills")',
            ),
        )
        .optional(),
      lockfileVersion: z.literal(LOCKFILE_VERSION),
      /** Keyed by skill id (the one rule, isSkillId), as the registry keeps ids (and `--into` names folders). */
      skills: z.record(z.string().refine(isSkillId, `expected a skill id: ${SKILL_ID_RULE}`), entry),
    })
    .passthrough();
  return { entry, file };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;
const lockSchemas = () => (schemas ??= buildSchemas());

export type LockEntry = z.infer<ReturnType<typeof buildSchemas>['entry']>;

/** Where a locked skill comes from: a lock entry's `source`, taken apart. */
export type LockSource =
  | { kind: 'folder'; path: string }
  /** `inner`: the skill's folder inside an archive that holds several skills; undefined for an archive of one. */
  | { kind: 'archive'; path: string; inner?: string }
  /** `dir` undefined: the registry in use. */
  | { kind: 'registry'; dir?: string }
  /** A git repository (the entry's `commit` and `path` say which tree); `url` as git takes it. */
  | { kind: 'git'; url: string }
  /** An archive downloaded from an http(s) URL. */
  | { kind: 'url'; url: string }
  // An npm-compatible registry's package (`npm:@acme/pdf`); its registry is the one .npmrc names for its scope.
  | { kind: 'npm'; name: string }
  // A site's discovery index (`well-known:https://site/.well-known/agent-skills/index.json`); `path` is the skill's name.
  | { kind: 'well-known'; url: string }
  // An MCP server serving skills (`mcp:stdio:<command line>` or `mcp:https://host/mcp`); `path` is the skill's name.
  | { kind: 'mcp'; server: string };

// The path inside an archive follows the last `#`; a `#` or `%` in it is escaped, so the split is unambiguous.
const escapeInner = (p: string) => p.replace(/%/g, '%25').replace(/#/g, '%23');
const unescapeInner = (p: string) => p.replace(/%23/g, '#').replace(/%25/g, '%');

/** A lock entry's `source` for a skill's origin (paths already relative to the lockfile's folder, with `/`). */
export function formatLockSource(s: LockSource): string {
  if (s.kind === 'registry') return s.dir === undefined ? 'registry' : `registry:${s.dir}`;
  if (s.kind === 'folder') return `folder:${s.path}`;
  if (s.kind === 'git' || s.kind === 'url') return `${s.kind}:${s.url}`;
  if (s.kind === 'npm') return `npm:${s.name}`;
  if (s.kind === 'well-known') return `well-known:${s.url}`;
  if (s.kind === 'mcp') return `mcp:${s.server}`;
  // A `#` in the archive's own path gets an empty fragment after it, so a reader never splits inside the path.
  return s.inner !== undefined || s.path.includes('#')
    ? `archive:${s.path}#${escapeInner(s.inner ?? '')}`
    : `archive:${s.path}`;
}

/** Take a lock entry's `source` apart (it has passed the schema). */
export function parseLockSource(source: string): LockSource {
  const colon = source.indexOf(':');
  const kind = colon < 0 ? source : source.slice(0, colon);
  const arg = colon < 0 ? '' : source.slice(colon + 1);
  if (kind === 'folder') return { kind, path: arg };
  if (kind === 'git' || kind === 'url') return { kind, url: arg };
  if (kind === 'npm') return { kind, name: arg };
  if (kind === 'well-known') return { kind, url: arg };
  if (kind === 'mcp') return { kind, server: arg };
  if (kind === 'archive') {
    const hash = arg.lastIndexOf('#');
    if (hash < 0) return { kind, path: arg };
    const inner = unescapeInner(arg.slice(hash + 1));
    return { kind, path: arg.slice(0, hash), ...(inner === '' ? {} : { inner }) };
  }
  return arg === '' ? { kind: 'registry' } : { kind: 'registry', dir: arg };
}
export type Lockfile = z.infer<ReturnType<typeof buildSchemas>['file']>;

/** A lockfile with nothing in it. */
export function emptyLockfile(): Lockfile {
  return { lockfileVersion: LOCKFILE_VERSION, skills: {} };
}

/**
 * Parse skills-lock.json text; a problem comes back located (line, column) rather than thrown. `newer`: the lock's
 * lockfileVersion is a later one than this version of skills reads (written by a newer skills).
 */
export function parseLockfile(
  text: string,
  label = LOCKFILE_NAME,
): { lock?: Lockfile; problem?: Problem; newer?: number } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const { value, problem } = parseDocument(body, lockSchemas().file, label);
  if (value) return { lock: value };
  const newer = newerVersion(body);
  if (newer === undefined) return { problem };
  const at = body.slice(0, Math.max(0, body.indexOf('"lockfileVersion"'))).split('\n');
  return {
    newer,
    problem: {
      message: `${label} has lockfileVersion ${newer}: it was written by a newer version of skills, and this one reads lockfileVersion ${LOCKFILE_VERSION}`,
      line: at.length,
      column: at[at.length - 1]!.length + 1,
    },
  };
}

/** The lockfileVersion of a lock later than this version reads, else undefined. */
function newerVersion(text: string): number | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = (data as { lockfileVersion?: unknown } | null)?.lockfileVersion;
  return typeof v === 'number' && Number.isSafeInteger(v) && v > LOCKFILE_VERSION ? v : undefined;
}

/** The fields of `o` this version does not know (a later version's), kept as written. */
function unknownFields(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (!known.includes(k) && o[k] !== undefined) out[k] = o[k];
  return out;
}

const sortKeys = <T>(o: Record<string, T>): Record<string, T> =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]!]),
  );

/** Serialize a lockfile: every key sorted, two-space indent, final newline. */
export function serializeLockfile(lock: Lockfile): string {
  // The fields this version knows: any other is a later version's, kept as written.
  const known = Object.keys(lockSchemas().entry.shape);
  const skills = Object.fromEntries(
    Object.keys(lock.skills)
      .sort()
      .map((id) => {
        const e = lock.skills[id]!;
        // Keys in order, the optional ones only when set: a lock from before them keeps its bytes. A later version's
        // fields are kept, in the order of their names among the others.
        return [
          id,
          sortKeys({
            ...unknownFields(e, known),
            ...(e.commit === undefined ? {} : { commit: e.commit }),
            dependencies: sortKeys(e.dependencies),
            integrity: e.integrity,
            ...(e.link ? { link: true } : {}),
            ...(e.path === undefined || e.path === '' ? {} : { path: e.path }),
            ...(e.ref === undefined ? {} : { ref: e.ref }),
            source: e.source,
            ...(e.tarball === undefined ? {} : { tarball: e.tarball }),
            ...(e.tarballIntegrity === undefined ? {} : { tarballIntegrity: e.tarballIntegrity }),
            version: e.version,
          }),
        ];
      }),
  );
  // No folder recorded, no field: a lock from before `into` existed keeps its bytes.
  const into = intoOf(lock);
  const top = sortKeys({
    ...unknownFields(lock, Object.keys(lockSchemas().file.shape)),
    ...(into.length ? { into } : {}),
    lockfileVersion: lock.lockfileVersion,
    skills,
  });
  return `${JSON.stringify(top, null, 2)}\n`;
}

/** The lock's recorded agent folders, sorted and unique (none: an empty list). */
export function intoOf(lock: Lockfile): string[] {
  return [...new Set(lock.into ?? [])].sort();
}

/**
 * What changed between two lockfiles: the agent folders on one line (`~ into: + .claude/skills, - skills`), then
 * one line per skill (`+ id@1.0.0`, `- id@1.0.0`, `~ id: 1.0.0 → 1.1.0`).
 */
export function diffLockfiles(before: Lockfile, after: Lockfile): string[] {
  const out: string[] = [];
  const [intoA, intoB] = [intoOf(before), intoOf(after)];
  const intoChanges = [
    ...intoB.filter((d) => !intoA.includes(d)).map((d) => `+ ${d}`),
    ...intoA.filter((d) => !intoB.includes(d)).map((d) => `- ${d}`),
  ];
  if (intoChanges.length) out.push(`~ into: ${intoChanges.join(', ')}`);
  const ids = [...new Set([...Object.keys(before.skills), ...Object.keys(after.skills)])].sort();
  for (const id of ids) {
    const a = before.skills[id];
    const b = after.skills[id];
    if (!a) out.push(`+ ${id}@${b!.version}`);
    else if (!b) out.push(`- ${id}@${a.version}`);
    else {
      const changes: string[] = [];
      if (a.version !== b.version) changes.push(`${a.version} → ${b.version}`);
      if (a.source !== b.source) changes.push(`source ${a.source} → ${b.source}`);
      if (a.commit !== b.commit)
        changes.push(`commit ${a.commit?.slice(0, 12) ?? '(none)'} → ${b.commit?.slice(0, 12) ?? '(none)'}`);
      if ((a.path ?? '') !== (b.path ?? '')) changes.push(`path ${a.path || '(top)'} → ${b.path || '(top)'}`);
      if (a.ref !== b.ref) changes.push(`ref ${a.ref ?? '(none)'} → ${b.ref ?? '(none)'}`);
      if (a.link !== b.link) changes.push(b.link ? 'now linked' : 'now copied');
      if (a.tarballIntegrity !== b.tarballIntegrity)
        changes.push(`tarball ${a.tarballIntegrity ?? '(none)'} → ${b.tarballIntegrity ?? '(none)'}`);
      if (a.integrity !== b.integrity) changes.push(`integrity ${a.integrity} → ${b.integrity}`);
      if (JSON.stringify(sortKeys(a.dependencies)) !== JSON.stringify(sortKeys(b.dependencies)))
        changes.push('dependencies');
      if (changes.length) out.push(`~ ${id}: ${changes.join(', ')}`);
    }
  }
  return out;
}
