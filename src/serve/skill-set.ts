// The skills served, as SEP-2640 entries: each skill's frontmatter as JSON and every file with its sha256 digest.
// The catalog and each skill's entry are read once and kept until the watcher says their folder changed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import yaml from 'js-yaml';
import { SkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { isInside } from '../fs/walk.js';
import { skipped } from '../registry/integrity.js';
import { loadSkill } from '../skill/load.js';
import { closest } from '../skill/names.js';
import type { SkillSource, SourceSkill, SourceSkills } from './source.js';
import { skillUri } from './uri.js';

/** One file of a served skill. */
export interface ServedFile {
  /** Path in the skill, forward slashes. */
  path: string;
  /** Where it is on disk; undefined for the SKILL.md made for a manifest skill. */
  abs?: string;
  /** The bytes of a made SKILL.md. */
  made?: Buffer;
  /** `sha256:<hex>` of its bytes. */
  digest: string;
  size: number;
}

/** A skill as the extension serves it. */
export interface ServedSkill {
  name: string;
  /** skill://<name>/SKILL.md */
  uri: string;
  source: SourceSkill;
  skill: Skill;
  /** The SKILL.md frontmatter as JSON (for a manifest skill, the frontmatter of the SKILL.md made for it). */
  frontmatter: Record<string, unknown>;
  /** The instructions an agent loads: the SKILL.md body, or a manifest's context files. */
  instructions: string;
  /** SKILL.md first, then the other files by path. */
  files: ServedFile[];
  byPath: Map<string, ServedFile>;
  /** Every folder of the skill ('' its root), by path. */
  dirs: Set<string>;
}

export const SKILL_MD = 'SKILL.md';

export class SkillSet {
  private now?: SourceSkills;
  private byName?: Map<string, SourceSkill>;
  private readonly entries = new Map<string, ServedSkill>();

  constructor(readonly source: SkillSource) {}

  /** The skills served now (read once, kept until a change). */
  current(): SourceSkills {
    if (!this.now) {
      this.now = this.source.skills();
      this.byName = new Map([...this.now.listed, ...this.now.hidden].map((s) => [s.name, s]));
    }
    return this.now;
  }

  /** The skill of a name, listed or hidden; E_NOT_FOUND (saying whether it is disabled, or what is near) if none. */
  named(name: string): SourceSkill {
    const now = this.current();
    const hit = this.byName!.get(name) ?? this.byName!.get(name.normalize('NFKC'));
    if (hit) return hit;
    if (now.disabled.includes(name))
      throw new SkillsError('E_NOT_FOUND', `the skill "${name}" is disabled (disabledSkills) and is not served`);
    const near = closest(name, [...this.byName!.keys()]);
    throw new SkillsError('E_NOT_FOUND', `no skill "${name}" is served${near ? `; did you mean "${near}"?` : ''}`, {
      hint: 'list_skills (or skills/list) shows the skills served',
    });
  }

  /** The entry of a skill: its frontmatter and files with digests (computed once until the skill changes). */
  entry(s: SourceSkill): ServedSkill {
    let e = this.entries.get(s.root);
    if (!e || e.name !== s.name) {
      e = servedSkill(s);
      this.entries.set(s.root, e);
    }
    return e;
  }

  /**
   * Forget what the changed paths touch: the catalog always (a skill may have appeared, gone or been renamed), and
   * the entries of the skills that hold them (all of them when a path is not inside a known skill).
   */
  invalidate(paths: string[]): void {
    this.now = undefined;
    this.byName = undefined;
    for (const p of paths) {
      let hit = false;
      for (const root of this.entries.keys()) {
        if (isInside(root, p)) {
          this.entries.delete(root);
          hit = true;
        }
      }
      // A folder above the skills (a skill folder renamed or removed): drop every entry below it.
      if (!hit) for (const root of this.entries.keys()) if (root.startsWith(p + sep)) this.entries.delete(root);
    }
  }
}

/** Read a skill's entry: load it, take its frontmatter, and digest every file it holds. */
function servedSkill(s: SourceSkill): ServedSkill {
  const skill = loadSkill(s.root);
  const skillFileName = basename(skill.file);
  const files: ServedFile[] = [];
  let frontmatter: Record<string, unknown>;
  let instructions = skill.instructions;
  if (skill.layout === 'skill-md') {
    frontmatter = jsonOf(skill.raw);
  } else {
    frontmatter = manifestFrontmatter(skill);
    const made = Buffer.from(`---\n${yaml.dump(frontmatter, { lineWidth: -1 })}---\n\n${skill.instructions}\n`);
    instructions = skill.instructions;
    files.push({ path: SKILL_MD, made, digest: digestOf(made), size: made.length });
  }
  // The files the registry keeps of a skill (no .env secrets, no VCS or OS litter), from the walk load made: links
  // that stay inside are read through, links leading out are not served.
  const litter = (path: string, isDir: boolean) =>
    path.split('/').some((part, i, all) => skipped(part, isDir || i < all.length - 1));
  for (const e of skill.entries) {
    if (litter(e.path, e.kind === 'dir')) continue;
    if (e.kind !== 'file' && !(e.kind === 'symlink' && e.inside && e.mode !== 0o040000)) continue;
    const abs = join(s.root, e.path);
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs);
    } catch {
      continue; // gone since the walk, or a dangling link
    }
    const path = skill.layout === 'skill-md' && e.path === skillFileName ? SKILL_MD : e.path;
    const file = { path, abs, digest: digestOf(bytes), size: bytes.length };
    if (path === SKILL_MD) files.unshift(file);
    else files.push(file);
  }
  files.sort((a, b) =>
    a.path === SKILL_MD ? -1 : b.path === SKILL_MD ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const dirs = new Set<string>(['']);
  for (const e of skill.entries) if (e.kind === 'dir' && !litter(e.path, true)) dirs.add(e.path);
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return {
    name: s.name,
    uri: skillUri(s.name, SKILL_MD),
    source: s,
    skill,
    frontmatter,
    instructions,
    files,
    byPath: new Map(files.map((f) => [f.path, f])),
    dirs,
  };
}

/** `sha256:<hex>` of some bytes. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A parsed YAML value as plain JSON (dates become text, as JSON has none). */
function jsonOf(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
}

/**
 * The frontmatter a manifest skill is served with: `name` its id, its `description` and `version`, `metadata`
 * with its display name and owner, and its `dependencies`. (README: "manifest.json skills over MCP".)
 */
function manifestFrontmatter(skill: Skill): Record<string, unknown> {
  const raw = skill.raw;
  const text = (k: string) =>
    typeof raw[k] === 'string' && (raw[k] as string).trim() !== '' ? (raw[k] as string) : undefined;
  const out: Record<string, unknown> = { name: skill.id, description: skill.description };
  if (text('version')) out.version = text('version');
  const metadata: Record<string, string> = {};
  if (text('name')) metadata.title = text('name')!;
  if (text('owner')) metadata.owner = text('owner')!;
  if (Object.keys(metadata).length > 0) out.metadata = metadata;
  const deps = Array.isArray(raw.dependencies) ? raw.dependencies.filter((d) => typeof d === 'string') : [];
  if (deps.length > 0) out.dependencies = deps;
  return out;
}
