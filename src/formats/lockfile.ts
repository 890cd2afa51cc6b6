import { z } from 'zod';
import { parseDocument, type Problem } from './index-file.js';

// skills-lock.json: what `skills install` installed in a project, so that `skills install` with no arguments
// installs exactly that again. Keys are sorted on write, so the file diffs well and two installs of the same
// thing write the same bytes.

export const LOCKFILE_NAME = 'skills-lock.json';
export const LOCKFILE_VERSION = 1;

export const lockEntrySchema = z.object({
  version: z.string().min(1),
  /** `folder:<path>`, `archive:<path>` (relative to the lockfile's folder), `registry`, or `registry:<dir>`. */
  source: z.string().regex(/^(folder:.+|archive:.+|registry(:.+)?)$/, 'expected "folder:<path>", "archive:<path>", "registry" or "registry:<dir>"'),
  /** sha512 SRI of the skill's files (paths, execute bits, bytes): the registry's integrity. */
  integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]+={0,2}$/, 'expected "sha512-<base64>"'),
  /** The resolved dependencies: id → version. */
  dependencies: z.record(z.string()),
});

export const lockfileSchema = z.object({
  lockfileVersion: z.literal(LOCKFILE_VERSION),
  /** Keyed by skill id: letters, digits and hyphens, as the registry keeps ids (and `--into` names folders). */
  skills: z.record(z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N}-]*$/u, 'expected a skill id (letters, digits and hyphens)'), lockEntrySchema),
});

export type LockEntry = z.infer<typeof lockEntrySchema>;
export type Lockfile = z.infer<typeof lockfileSchema>;

/** A lockfile with nothing in it. */
export function emptyLockfile(): Lockfile {
  return { lockfileVersion: LOCKFILE_VERSION, skills: {} };
}

/** Parse skills-lock.json text; a problem comes back located (line, column) rather than thrown. */
export function parseLockfile(text: string, label = LOCKFILE_NAME): { lock?: Lockfile; problem?: Problem } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const { value, problem } = parseDocument(body, lockfileSchema, label);
  return value ? { lock: value } : { problem };
}

const sortKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));

/** Serialize a lockfile: every key sorted, two-space indent, final newline. */
export function serializeLockfile(lock: Lockfile): string {
  const skills = Object.fromEntries(
    Object.keys(lock.skills)
      .sort()
      .map((id) => {
        const e = lock.skills[id]!;
        return [id, { dependencies: sortKeys(e.dependencies), integrity: e.integrity, source: e.source, version: e.version }];
      }),
  );
  return `${JSON.stringify({ lockfileVersion: lock.lockfileVersion, skills }, null, 2)}\n`;
}

/** What changed between two lockfiles, one line per skill (`+ id@1.0.0`, `- id@1.0.0`, `~ id: 1.0.0 → 1.1.0`). */
export function diffLockfiles(before: Lockfile, after: Lockfile): string[] {
  const out: string[] = [];
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
      if (a.integrity !== b.integrity) changes.push(`integrity ${a.integrity} → ${b.integrity}`);
      if (JSON.stringify(sortKeys(a.dependencies)) !== JSON.stringify(sortKeys(b.dependencies))) changes.push('dependencies');
      if (changes.length) out.push(`~ ${id}: ${changes.join(', ')}`);
    }
  }
  return out;
}
