import { readdirSync, statSync, type Dirent } from 'node:fs';
import { basename, isAbsolute, join, normalize } from 'node:path';
import type { ZodType } from 'zod';
import type { CheckName } from '../model/checks.js';
import { diag, type Diagnostic, type Position } from '../model/diagnostic.js';
import type { InstructionPart, McpServer, ScriptRef, Skill, SkillEntry, Triggers } from '../model/skill.js';
import { parseSpec, type DependencySpec } from '../model/spec.js';
import { fitsManifestShape, fitsSkillMdShape, manifestSchema, skillMdSchema } from '../model/schemas.js';
import { parseSkillMd, type ParseProblem } from '../formats/skill-md.js';
import { parseManifest } from '../formats/manifest.js';
import { normalizeText } from '../formats/text.js';
import { issueMessage, issuePath } from '../formats/zod-issue.js';
import { LinkOutside, walkSkill } from '../fs/walk.js';
import { readPart, type HeldFile } from '../fs/read-held.js';
import { parseEnvNames } from '../formats/dotenv.js';
import { MAX_SKILL_FILE_BYTES, noSkillFile, skillFileFinding, skillFileIn } from './skill-file.js';
import { linkedOut } from './check-path.js';
import { SkillsError } from '../errors.js';
import { mayBeTyped, typedAs } from '../formats/yaml-scalars.js';

const MAX_CONTEXT_BYTES = 4 * 1024 * 1024;

export interface LoadOptions {
  /** Read SKILL.md the way the reference validator does (split at the second ---, no BOM tolerance). */
  spec?: boolean;
  /** The folder's listing, when discovery already read it. */
  listing?: Dirent[];
  /** Its entries, when known without a walk (knownEntries of what an archive's extraction wrote). */
  entries?: SkillEntry[];
  /** The bytes of the files the load reads, kept by path for a caller that hashes and copies them next (readPart). */
  held?: Map<string, HeldFile>;
}

/**
 * Read a skill folder of either layout into the one Skill model. Problems of reading and of shape become
 * diagnostics on the Skill; only a folder that is no skill at all (or cannot be read) throws.
 */
export function loadSkill(dir: string, options: LoadOptions = {}): Skill {
  const known = options.entries;
  let listing: Dirent[] | undefined;
  try {
    listing = known ? undefined : (options.listing ?? readdirSync(dir, { withFileTypes: true }));
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read skill folder ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const found = skillFileIn(
    listing
      ? listing.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name)
      : known!.filter((e) => e.kind === 'file' && !e.path.includes('/')).map((e) => e.path),
  );
  if (!found) throw noSkillFile(dir, listing ?? known!);
  const file = join(dir, found.name);
  const entries = known ?? walkSkill(dir, listing).entries;
  const diagnostics: Diagnostic[] = [];
  const skill: Skill = {
    id: basename(dir),
    name: basename(dir),
    description: '',
    layout: found.layout,
    root: dir,
    file,
    instructions: '',
    instructionParts: [],
    scripts: [],
    references: entries.filter((e) => e.kind !== 'dir' && e.path.startsWith('references/')).map((e) => e.path),
    assets: entries.filter((e) => e.kind !== 'dir' && e.path.startsWith('assets/')).map((e) => e.path),
    entries,
    envVars: [],
    mcpServers: [],
    dependencies: [],
    toolsets: [],
    metadata: {},
    systemPackages: [],
    defaultEnabled: true,
    disableModelInvocation: false,
    raw: {},
    positions: {},
    source: '',
    diagnostics,
  };
  if (found.layout === 'skill-md' && found.name !== 'SKILL.md') {
    diagnostics.push(
      diag(
        'skill-file-name',
        'warning',
        `the skill file is named ${found.name}; the standard name is SKILL.md: agents on macOS and Windows, whose file names ignore case, load it, but not on Linux`,
        file,
        undefined,
        `rename it: git mv ${found.name} SKILL.md`,
      ),
    );
  }
  if (found.also) {
    diagnostics.push(
      diag(
        'layout-conflict',
        'warning',
        'the folder holds both SKILL.md and manifest.json; SKILL.md is read and manifest.json ignored',
        file,
      ),
    );
  }
  let read: { text?: string; ascii?: boolean; tooLarge?: number };
  try {
    read = readPart(skill.entries, file, found.name, MAX_SKILL_FILE_BYTES, options.held, dir);
  } catch (err) {
    // A skill file that cannot be read for what it is (a link leading out of the skill, nowhere or to a FIFO, a
    // folder, a file this user may not read) is a finding about this skill: one such skill must not end the run.
    const finding = skillFileFinding(file, found.name, err);
    if (finding) {
      diagnostics.push(finding);
      return skill;
    }
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (read.text === undefined) {
    diagnostics.push(
      diag(
        'file-too-large',
        'error',
        `${found.name} is ${read.tooLarge} bytes; at most ${MAX_SKILL_FILE_BYTES} bytes are read`,
        file,
        undefined,
        'move long material into references/ files',
      ),
    );
    return skill;
  }
  if (found.layout === 'skill-md') loadSkillMd(skill, read.text, options, read.ascii);
  else loadManifest(skill, read.text, options.held);
  readEnvExample(skill, options.held);
  collectScripts(skill);
  return skill;
}

/** Keep what a parser found on the skill; the parsed data, or undefined when parsing failed (and said why). */
function accept(
  skill: Skill,
  parsed: { data?: Record<string, unknown>; positions: Record<string, Position>; problem?: ParseProblem },
) {
  // A manifest's positions may be a getter that parses on first use (formats/manifest.ts): it stays one on the skill.
  const locate = Object.getOwnPropertyDescriptor(parsed, 'positions')?.get;
  if (locate) {
    Object.defineProperty(skill, 'positions', {
      get: () => {
        const positions = locate.call(parsed) as Record<string, Position>;
        Object.defineProperty(skill, 'positions', { value: positions, writable: true, enumerable: true });
        return positions;
      },
      set: (positions: Record<string, Position>) =>
        Object.defineProperty(skill, 'positions', { value: positions, writable: true, enumerable: true }),
      enumerable: true,
      configurable: true,
    });
  } else skill.positions = parsed.positions;
  if (parsed.problem) {
    skill.diagnostics.push(problemToDiag(parsed.problem, skill.file));
    return undefined;
  }
  skill.raw = parsed.data!;
  return parsed.data!;
}

/** Typed reads of raw fields: text, or a list of its text items (anything else counts as absent). */
function readers(data: Record<string, unknown>) {
  return {
    str: (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : undefined),
    list: (k: string) =>
      Array.isArray(data[k]) ? (data[k] as unknown[]).filter((x): x is string => typeof x === 'string') : [],
  };
}

function problemToDiag(p: ParseProblem, file: string): Diagnostic {
  return diag(
    p.check,
    'error',
    p.message,
    file,
    p.line ? { line: p.line, column: p.column ?? 1 } : undefined,
    p.hint,
    p.slip ? { slip: p.slip } : undefined,
  );
}

const TEXT_FIELDS = [
  'name',
  'description',
  'license',
  'compatibility',
  'allowed-tools',
  'version',
  'brief_description',
];
function loadSkillMd(skill: Skill, rawText: string, options: LoadOptions, ascii?: boolean): void {
  const file = skill.file;
  // The reference validator reads the text as given: a BOM makes it miss the opening ---.
  const { text } = options.spec ? { text: rawText.replace(/\r\n?/g, '\n') } : normalizeText(rawText);
  skill.source = text;
  const parsed = parseSkillMd(text, { referenceSplit: options.spec, positions: 'lazy' });
  skill.instructions = parsed.body;
  // Made LF, cut or not, ASCII text stays ASCII.
  skill.instructionParts = [
    { file, text: parsed.body, line: parsed.bodyLine, ...(ascii ? { ascii: true as const } : {}) },
  ];
  const data = accept(skill, parsed);
  if (!data) return;
  const lineAt = lineReader(text);
  for (const key of Object.keys(data)) {
    const v = data[key];
    // An empty value (`license:`) is null in YAML; the reference reads it as empty text.
    if (v === null) data[key] = TEXT_FIELDS.includes(key) ? '' : undefined;
    // So is one under metadata (`related-skills:`): an error made the skill invalid, skipped by install and sync.
    else if (key === 'metadata' && typeof v === 'object' && !Array.isArray(v))
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        if (x === null) (v as Record<string, unknown>)[k] = '';
    if (TEXT_FIELDS.includes(key) && typeof data[key] === 'string') {
      // The token read below can look typed only if the value's first word does (a plain scalar is its text, folded
      // lines joined by spaces; a quoted or block one never looks typed): otherwise the key's place is not needed.
      const first = (data[key] as string).trimStart().split(/\s/, 1)[0]!;
      if (!mayBeTyped(first)) continue;
      const pos = skill.positions[key];
      const line = pos ? lineAt(pos.line) : undefined;
      // The value as written, without a comment after it (`yes # why` reads as yes).
      const token = line
        ?.slice(line.indexOf(':') + 1)
        .trim()
        .replace(/\s+#.*$/, '');
      // Only short tokens can be numbers or booleans; the length check also keeps the regexes off long lines.
      const typed = token && token.length < 64 ? typedAs(token) : undefined;
      if (typed) {
        skill.diagnostics.push(
          diag(
            'scalar-as-text',
            'warning',
            `${key}: ${token} is read as the text "${data[key]}", not as ${typed}`,
            file,
            pos,
            `quote it to say so: ${key}: "${data[key]}"`,
          ),
        );
      }
    }
  }
  // Community skills often write triggers as a plain list of phrases: read it as keywords, and say so.
  let shaped = data;
  if (Array.isArray(data.triggers) && data.triggers.every((t) => typeof t === 'string')) {
    skill.diagnostics.push(
      diag(
        'field-type',
        'warning',
        'triggers is a list; it is read as triggers.keywords',
        file,
        skill.positions.triggers,
        `write it as a mapping:\ntriggers:\n  keywords: [${(data.triggers as string[])
          .slice(0, 3)
          .map((t) => JSON.stringify(t))
          .join(', ')}]`,
      ),
    );
    shaped = { ...data, triggers: { keywords: data.triggers } };
  }
  if (!fitsSkillMdShape(shaped)) shapeDiagnostics(skill, skillMdSchema(), shaped);
  const { str, list } = readers(data);
  const name = str('name');
  if (name !== undefined && name.trim() !== '') skill.name = skill.id = name.trim().normalize('NFKC');
  skill.description = (str('description') ?? '').trim();
  skill.license = str('license');
  skill.compatibility = str('compatibility');
  skill.allowedTools = str('allowed-tools');
  skill.briefDescription = str('brief_description');
  const meta = data.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const [k, v] of Object.entries(meta)) if (typeof v === 'string') skill.metadata[k] = v;
  }
  skill.version = str('version') ?? skill.metadata.version;
  skill.owner = skill.metadata.author || undefined;
  skill.toolsets = list('toolsets');
  skill.triggers = readTriggers(shaped.triggers);
  skill.dependencies = readDependencies(skill, list('dependencies'));
  skill.defaultEnabled = !/^false$/i.test(str('default_enabled') ?? '');
  skill.disableModelInvocation = /^true$/i.test(str('disable-model-invocation') ?? '');
  for (const p of list('scripts')) skill.scripts.push({ path: p, declared: true, exists: false });
}

/**
 * Line `n` (1-based) of a text, without its \n; undefined past the last. Only the frontmatter's lines are asked for:
 * the text is read up to the line asked for, never split whole (a body may be megabytes).
 */
function lineReader(text: string): (n: number) => string | undefined {
  const starts = [0];
  return (n) => {
    if (n < 1) return undefined;
    while (starts.length < n) {
      const nl = text.indexOf('\n', starts[starts.length - 1]!);
      if (nl < 0) return undefined;
      starts.push(nl + 1);
    }
    const at = starts[n - 1]!;
    const nl = text.indexOf('\n', at);
    return text.slice(at, nl < 0 ? text.length : nl);
  };
}

function loadManifest(skill: Skill, rawText: string, held?: Map<string, HeldFile>): void {
  const { text } = normalizeText(rawText);
  skill.source = text;
  const parsed = parseManifest(text);
  const data = accept(skill, parsed);
  if (!data) return;
  if (!fitsManifestShape(data)) shapeDiagnostics(skill, manifestSchema(), data);
  const { str, list } = readers(data);
  const id = str('id');
  if (id) skill.id = id;
  skill.name = str('name') ?? skill.id;
  skill.version = str('version');
  skill.description = (str('description') ?? '').trim();
  skill.owner = str('owner');
  skill.envVars = list('envVars');
  skill.nodeVersion = str('nodeVersion');
  skill.systemPackages = list('systemPackages');
  skill.toolsets = list('toolsets');
  skill.triggers = readTriggers(data.triggers);
  skill.briefDescription = str('brief_description');
  skill.license = str('license');
  skill.compatibility = str('compatibility');
  if (typeof data.default_enabled === 'boolean') skill.defaultEnabled = data.default_enabled;
  if (Array.isArray(data.mcpServers)) {
    skill.mcpServers = data.mcpServers.filter(
      (m): m is McpServer =>
        !!m &&
        typeof m === 'object' &&
        typeof (m as McpServer).name === 'string' &&
        ((m as McpServer).type === 'local' || (m as McpServer).type === 'remote'),
    );
  }
  skill.dependencies = readDependencies(skill, list('dependencies'));
  for (const p of list('scripts')) skill.scripts.push({ path: p, declared: true, exists: false });
  // Instructions are the context files, in order; only files inside the skill are read.
  const parts: InstructionPart[] = [];
  for (const [i, p] of list('context').entries()) {
    const entry = insideEntry(skill, p);
    if (!entry) continue;
    const abs = join(skill.root, entry.path);
    try {
      const r = readPart(skill.entries, abs, entry.path, MAX_CONTEXT_BYTES, held, skill.root);
      if (r.text !== undefined) {
        parts.push({
          file: abs,
          text: normalizeText(r.text).text,
          line: 1,
          ...(r.ascii ? { ascii: true as const } : {}),
        });
      }
    } catch (err) {
      // A folder on the way made a link leading out since the walk: validate cannot tell from the entries.
      if (err instanceof LinkOutside) skill.diagnostics.push(linkedOut(skill, `context[${i}]`, p, err.target));
      /* a missing context file is reported by validate from the entries */
    }
  }
  skill.instructionParts = parts;
  skill.instructions = parts.map((p) => p.text).join('\n\n');
}

/**
 * The names .env.example sets, in either layout: a manifest checks them against envVars; a SKILL.md skill declares by
 * them.
 */
function readEnvExample(skill: Skill, held?: Map<string, HeldFile>): void {
  if (!skill.entries.some((e) => e.path === '.env.example' && e.kind === 'file')) return;
  try {
    const r = readPart(skill.entries, join(skill.root, '.env.example'), '.env.example', 1024 * 1024, held, skill.root);
    skill.envExample = r.text === undefined ? [] : parseEnvNames(r.text);
  } catch {
    skill.envExample = [];
  }
}

/** The absolute path of a declared relative path when it stays inside the skill and is a file; else undefined. */
export function resolveInside(skill: Skill, p: string): string | undefined {
  const entry = insideEntry(skill, p);
  return entry && join(skill.root, entry.path);
}

/** The entry of a declared relative path when it stays inside the skill and is a file (or a link to one inside). */
function insideEntry(skill: Skill, p: string): SkillEntry | undefined {
  const entry = findEntry(skill, p);
  if (!entry || (entry.kind === 'symlink' && !entry.inside)) return undefined;
  return entry.kind === 'dir' || entry.kind === 'other' ? undefined : entry;
}

/** The entry a declared path names, if the path is relative, stays inside, and exists. */
export function findEntry(skill: Skill, p: string): SkillEntry | undefined {
  if (isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p)) return undefined;
  const norm = normalize(p).replace(/\\/g, '/').replace(/^\.\//, '');
  if (norm === '..' || norm.startsWith('../')) return undefined;
  return skill.entries.find((e) => e.path === norm);
}

/** Triggers as a mapping, or (as community skills write them) a plain list, read as keywords. */
export function readTriggers(v: unknown): Triggers | undefined {
  const l = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
  if (Array.isArray(v)) return { keywords: l(v), verbs: [], patterns: [] };
  if (!v || typeof v !== 'object') return undefined;
  const t = v as Record<string, unknown>;
  return { keywords: l(t.keywords), verbs: l(t.verbs), patterns: l(t.patterns) };
}

function readDependencies(skill: Skill, raw: string[]): DependencySpec[] {
  const out: DependencySpec[] = [];
  for (const r of raw) {
    const s = parseSpec(r);
    if ('error' in s) continue;
    out.push(s);
  }
  return out;
}

/** Scripts declared, plus every file in scripts/ (not declared), each with existence and execute bit. */
function collectScripts(skill: Skill): void {
  const seen = new Set<string>();
  const withState = (ref: ScriptRef): ScriptRef => {
    const entry = findEntry(skill, ref.path);
    if (entry && (entry.kind === 'file' || (entry.kind === 'symlink' && entry.inside))) {
      ref.exists = true;
      ref.path = entry.path;
      try {
        ref.executable = (statSync(join(skill.root, entry.path)).mode & 0o111) !== 0;
      } catch {
        ref.exists = false;
      }
    }
    return ref;
  };
  const scripts: ScriptRef[] = [];
  for (const s of skill.scripts) {
    const ref = withState(s);
    seen.add(ref.path);
    scripts.push(ref);
  }
  for (const e of skill.entries) {
    if (e.kind === 'file' && e.path.startsWith('scripts/') && !seen.has(e.path)) {
      scripts.push(withState({ path: e.path, declared: false, exists: false }));
    }
  }
  skill.scripts = scripts;
}

/** Turn zod's findings on the raw shape into located diagnostics. */
function shapeDiagnostics(skill: Skill, schema: ZodType, data: Record<string, unknown>): void {
  const result = schema.safeParse(data);
  if (result.success) return;
  for (const issue of result.error.issues) {
    const top = String(issue.path[0] ?? '');
    const check: CheckName =
      top === 'mcpServers' ? 'mcp-server' : top === 'metadata' ? 'metadata-format' : 'field-type';
    const pos = nearestPosition(skill.positions, issue.path);
    const message = issueMessage(issue, { words: 'plain', booleanEnum: skill.layout === 'skill-md' });
    // A mapping or list under one metadata key is a warning: agents keep their own settings there (OpenClaw's
    // `metadata.openclaw`, Hermes's `metadata.hermes`: hundreds of public skills), and the reference validator
    // accepts it.
    const nested =
      check === 'metadata-format' && issue.path.length === 2 ? nestedKind(data.metadata, issue.path[1]) : '';
    skill.diagnostics.push(
      nested
        ? diag(
            check,
            'warning',
            `${issuePath(issue.path)} is ${nested}, not text`,
            skill.file,
            pos,
            NESTED_METADATA_HINT,
          )
        : diag(check, 'error', message, skill.file, pos),
    );
  }
}

const NESTED_METADATA_HINT =
  "the standard's metadata holds text values; the agent that reads this key takes it, other agents ignore it";

/** "a mapping" or "a list" when `meta[key]` is one, else "" (text, a number, nothing). */
function nestedKind(meta: unknown, key: PropertyKey | undefined): string {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || key === undefined) return '';
  const v = (meta as Record<PropertyKey, unknown>)[key];
  return typeof v !== 'object' || v === null ? '' : Array.isArray(v) ? 'a list' : 'a mapping';
}

/** Position of a path, or of its nearest located ancestor. */
export function nearestPosition(positions: Record<string, Position>, parts: (string | number)[]): Position | undefined {
  for (let n = parts.length; n > 0; n--) {
    const p = positions[issuePath(parts.slice(0, n))];
    if (p) return p;
  }
  return undefined;
}
