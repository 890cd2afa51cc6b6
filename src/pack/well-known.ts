// `skills publish --well-known <out>`: a skill as the Agent Skills Discovery RFC (v0.2.0) lays it out for any static
// host: `<out>/.well-known/agent-skills/index.json` with one entry per skill (name, type, description, url, digest),
// a SKILL.md alone as `type: "skill-md"` at `<name>/SKILL.md`, and a skill with more files as `type: "archive"`, a
// `<name>.tar.gz` with the files at its root. Publishing into the same folder again replaces that skill's entry and
// keeps the others. Files are written whole or not at all; index.json is written last.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import { writeAtomic } from '../fs/atomic.js';
import { readBounded } from '../fs/read.js';
import type { Skill } from '../model/skill.js';
import { gzipTar, planPack, tarEntries } from './pack.js';
import { readPacked } from './open-packed.js';
import { requiredFiles } from '../skill/ignore-rules.js';

export const WELL_KNOWN_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const WELL_KNOWN_PATH = '.well-known/agent-skills';

export interface WellKnownEntry {
  name: string;
  type: 'skill-md' | 'archive';
  description: string;
  url: string;
  digest: string;
}

export interface WellKnownResult {
  index: string;
  entry: WellKnownEntry;
  /** The file written for the entry (SKILL.md or the archive). */
  file: string;
  /** Entries of other skills kept from the index that was there. */
  kept: number;
}

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** The index already in `dir`, or an empty one; a broken one is an error that names it (nothing is overwritten). */
function readIndex(file: string): WellKnownEntry[] {
  if (!existsSync(file)) return [];
  const { text, tooLarge } = readBounded(file, 16 * 1024 * 1024);
  if (tooLarge) throw new SkillsError('E_INVALID', `${file} is over 16 MiB; not an index skills writes`);
  if (text === undefined) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SkillsError('E_INVALID', `${file} is not JSON (${(err as Error).message}); nothing was written`, {
      hint: 'fix or remove it, then publish again',
    });
  }
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as { $schema?: unknown; skills?: unknown };
  if (d.$schema !== WELL_KNOWN_SCHEMA || !Array.isArray(d.skills))
    throw new SkillsError(
      'E_INVALID',
      `${file} is not a v0.2.0 discovery index (expected "$schema": "${WELL_KNOWN_SCHEMA}" and a "skills" list); nothing was written`,
      { hint: 'publish into an empty folder, or remove the old index' },
    );
  // Every entry is written back as it is: one that cannot be read is refused, never dropped or rewritten.
  for (const [i, raw] of (d.skills as unknown[]).entries()) {
    const e = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : undefined) as
      Record<string, unknown> | undefined;
    const bad =
      e === undefined
        ? `expected an object, found ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`}`
        : typeof e.name !== 'string' || e.name === ''
          ? '"name" must be a string'
          : typeof e.url !== 'string' || e.url === ''
            ? `(${e.name}) "url" must be a string`
            : typeof e.digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(e.digest)
              ? `(${e.name}) "digest" must be sha256:<64 hex>`
              : undefined;
    if (bad !== undefined)
      throw new SkillsError('E_INVALID', `${file}: skills[${i}]: ${bad}; nothing was written`, {
        hint: 'fix or remove that entry, then publish again',
      });
  }
  return d.skills as WellKnownEntry[];
}

/** Write one skill into the well-known layout under `outDir`. */
export async function publishWellKnown(skill: Skill, outDir: string, dryRun = false): Promise<WellKnownResult> {
  if (skill.layout !== 'skill-md')
    throw new SkillsError(
      'E_INVALID',
      `${skill.id} is a manifest.json skill; a well-known site serves SKILL.md skills (the discovery RFC asks for a SKILL.md at each skill's root)`,
      { hint: 'publish it to an npm registry (skills publish --scope …) or a skills registry (skills registry sync)' },
    );
  const base = join(outDir, WELL_KNOWN_PATH);
  const indexFile = join(base, 'index.json');
  const others = readIndex(indexFile).filter((e) => e.name !== skill.id);
  const plan = await planPack(skill.root, [], requiredFiles(skill));
  const onlySkillMd = plan.files.length === 1 && plan.files[0]!.path === 'SKILL.md';
  let file: string;
  let bytes: Buffer;
  let entry: WellKnownEntry;
  if (onlySkillMd) {
    bytes = readPacked(plan.files[0]!);
    file = join(base, skill.id, 'SKILL.md');
    entry = {
      name: skill.id,
      type: 'skill-md',
      description: skill.description,
      url: `/${WELL_KNOWN_PATH}/${skill.id}/SKILL.md`,
      digest: sha256(bytes),
    };
  } else {
    bytes = await gzipTar(tarEntries(plan, ''));
    file = join(base, `${skill.id}.tar.gz`);
    entry = {
      name: skill.id,
      type: 'archive',
      description: skill.description,
      url: `/${WELL_KNOWN_PATH}/${skill.id}.tar.gz`,
      digest: sha256(bytes),
    };
  }
  const skills = [...others, entry].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (!dryRun) {
    mkdirSync(join(base, onlySkillMd ? skill.id : ''), { recursive: true });
    writeAtomic(file, bytes);
    // The other form of the same skill, from an earlier publish, would be served stale: remove it.
    rmSync(onlySkillMd ? join(base, `${skill.id}.tar.gz`) : join(base, skill.id), { recursive: true, force: true });
    writeAtomic(indexFile, `${JSON.stringify({ $schema: WELL_KNOWN_SCHEMA, skills }, null, 2)}\n`);
  }
  return { index: indexFile, entry, file, kept: others.length };
}
