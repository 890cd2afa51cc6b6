import { basename, isAbsolute, normalize } from 'node:path';
import validRange from 'semver/ranges/valid.js';
import type { Diagnostic, Position } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { isStrictSemver, parseSpec } from '../model/spec.js';
import { closest, suggestName } from './names.js';
import { CLIENT_KEYS, EXTENSION_KEYS, MANIFEST_KEYS, SPEC_KEYS } from '../model/schemas.js';
import { codePoints } from '../formats/text.js';
import { diag } from '../model/diagnostic.js';

export interface ValidateOptions {
  /** Check against the bare Agent Skills specification, as its reference validator does. */
  spec?: boolean;
}

export interface SkillReport {
  skill: Skill;
  valid: boolean;
  diagnostics: Diagnostic[];
}

type SafeRegex = (re: string | RegExp) => boolean;

/** Validate loaded skills; `valid` means no errors (warnings are the caller's to weigh). */
export async function validateSkills(skills: Skill[], options: ValidateOptions = {}): Promise<SkillReport[]> {
  let safeRegex: SafeRegex | undefined;
  if (!options.spec && skills.some((s) => (s.triggers?.patterns.length ?? 0) > 0)) {
    safeRegex = ((await import('safe-regex2')) as unknown as { default: SafeRegex }).default;
  }
  return skills.map((skill) => {
    const diagnostics = validateSkill(skill, options, safeRegex);
    return { skill, valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  });
}

/** All findings for one skill: load's and the checks of its layout, in file order. */
export function validateSkill(skill: Skill, options: ValidateOptions = {}, safeRegex?: SafeRegex): Diagnostic[] {
  const out = [...skill.diagnostics];
  const parsed = Object.keys(skill.raw).length > 0 || !out.some((d) => d.severity === 'error');
  if (parsed && !out.some((d) => ['SK001', 'SK002', 'SK003', 'SK004', 'SK019', 'SK020'].includes(d.ruleId))) {
    if (skill.layout === 'skill-md') checkSkillMd(skill, out, options);
    else if (options.spec) {
      out.push(diag('frontmatter-missing', 'error', 'the Agent Skills specification requires SKILL.md; manifest.json is not part of it', skill.file, undefined, 'validate without --spec to check the manifest.json layout'));
    } else checkManifest(skill, out);
    if (!options.spec) checkExtensions(skill, out, safeRegex);
  }
  if (options.spec) {
    // The reference reads everything as text and reports nothing else: keep only what it would report.
    for (let i = out.length - 1; i >= 0; i--) if (SPEC_IGNORES.has(out[i]!.rule)) out.splice(i, 1);
  }
  return out.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1));
}

const SPEC_IGNORES = new Set(['field-type', 'metadata-format', 'scalar-as-text']);

function checkSkillMd(skill: Skill, out: Diagnostic[], options: ValidateOptions): void {
  const raw = skill.raw;
  const file = skill.file;
  const at = (k: string): Position | undefined => skill.positions[k];
  const known = new Set(options.spec ? SPEC_KEYS : [...SPEC_KEYS, ...EXTENSION_KEYS, ...CLIENT_KEYS]);
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    const near = closest(key, options.spec ? SPEC_KEYS : [...known]);
    out.push(
      diag(
        'unknown-key',
        options.spec ? 'error' : 'warning',
        options.spec
          ? `"${key}" is not a field of the Agent Skills specification (allowed: ${SPEC_KEYS.join(', ')})`
          : `unknown frontmatter key "${key}"${near ? `; did you mean "${near}"?` : ''}`,
        file,
        at(key),
        options.spec
          ? 'move it under metadata:, or validate without --spec to accept extension fields'
          : near
            ? `rename it to ${near}`
            : `agents ignore it; to keep it, move it under metadata:\nmetadata:\n  ${key}: …`,
      ),
    );
  }
  // name
  const name = raw.name;
  if (!('name' in raw) || typeof name !== 'string' || name.trim() === '') {
    out.push(
      diag('name-required', 'error', `name is ${'name' in raw ? (typeof name === 'string' ? 'empty' : 'not text') : 'missing'}: expected the skill's name, e.g. name: ${suggestName(basename(skill.root))}`, file, at('name') ?? { line: 2, column: 1 }),
    );
  } else {
    const n = name.trim().normalize('NFKC');
    const pos = at('name');
    const suggestion = () => suggestName(n);
    if (codePoints(n) > 64) out.push(diag('name-length', 'error', `name is ${codePoints(n)} characters long; at most 64 are allowed`, file, pos));
    if (n !== n.toLowerCase()) out.push(diag('name-lowercase', 'error', `name "${n}" must be lowercase: expected "${suggestion()}"`, file, pos));
    if (n.startsWith('-') || n.endsWith('-') || n.includes('--')) {
      out.push(diag('name-hyphens', 'error', `name "${n}" must not ${n.includes('--') ? 'contain consecutive hyphens' : 'start or end with a hyphen'}: expected e.g. "${suggestion()}"`, file, pos));
    }
    if (!/^[\p{L}\p{N}-]+$/u.test(n)) {
      out.push(diag('name-characters', 'error', `name "${n}" may hold only letters, digits and hyphens: expected e.g. "${suggestion()}"`, file, pos));
    }
    const folder = basename(skill.root).normalize('NFKC');
    if (folder !== n) {
      out.push(
        diag('name-matches-folder', 'error', `name "${n}" does not match its folder "${basename(skill.root)}"`, file, pos, `rename the folder to ${n}, or set name: ${folder}`),
      );
    }
  }
  // description
  const description = raw.description;
  if (!('description' in raw) || typeof description !== 'string' || description.trim() === '') {
    out.push(
      diag('description-required', 'error', `description is ${'description' in raw ? (typeof description === 'string' ? 'empty' : 'not text') : 'missing'}: expected what the skill does and when to use it (1-1024 characters)`, file, at('description') ?? { line: 2, column: 1 }),
    );
  } else {
    const len = codePoints(options.spec ? description : description.trim());
    if (len > 1024) out.push(diag('description-length', 'error', `description is ${len} characters long; at most 1024 are allowed`, file, at('description'), 'move detail into the body of SKILL.md'));
  }
  if ('compatibility' in raw) {
    const c = raw.compatibility;
    if (typeof c !== 'string') out.push(diag('compatibility-format', 'error', 'compatibility must be text (e.g. compatibility: Requires Python 3.10+)', file, at('compatibility')));
    else {
      const len = codePoints(c);
      if (len > 500 || (!options.spec && c.trim() === '')) {
        out.push(diag('compatibility-format', 'error', `compatibility must be 1-500 characters, found ${len}`, file, at('compatibility')));
      }
    }
  }
  if (!options.spec) {
    // zod reported these as plain field-type findings; the checks here say more (and name/description above).
    for (let i = out.length - 1; i >= 0; i--) {
      const d = out[i]!;
      if (d.rule === 'field-type' && /^(license|allowed-tools|name|description|compatibility) must be text, found/.test(d.message)) out.splice(i, 1);
    }
    for (const key of ['license', 'allowed-tools'] as const) {
      if (key in raw && typeof raw[key] !== 'string') {
        const isList = Array.isArray(raw[key]);
        // The standard says a space-separated string, but Claude Code and much of the world's skills write a YAML
        // list of tool names, and the reference validator accepts it: a warning, which lint --fix rewrites.
        const toolList = key === 'allowed-tools' && isList && (raw[key] as unknown[]).every((x) => typeof x === 'string');
        out.push(
          diag('field-type', toolList ? 'warning' : 'error', `${key} must be text${key === 'allowed-tools' ? ' (space-separated tool names)' : ''}, found ${isList ? 'a list' : 'a mapping'}`, file, at(key),
            key === 'allowed-tools' && isList ? `write it as one string: allowed-tools: ${(raw[key] as unknown[]).join(' ')}` : undefined, { field: key }),
        );
      }
    }
  } else if ('allowed-tools' in raw) {
    const t = raw['allowed-tools'];
    if (typeof t !== 'string' && !(Array.isArray(t) && t.every((x) => typeof x === 'string'))) {
      out.push(diag('field-type', 'error', "allowed-tools must be text or a list of text", file, at('allowed-tools')));
    }
  }
}

function checkManifest(skill: Skill, out: Diagnostic[]): void {
  const raw = skill.raw;
  const file = skill.file;
  const at = (k: string): Position | undefined => skill.positions[k];
  const known = new Set(MANIFEST_KEYS);
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    const near = closest(key, MANIFEST_KEYS);
    out.push(diag('unknown-key', 'warning', `unknown manifest field "${key}"${near ? `; did you mean "${near}"?` : ''}`, file, at(key)));
  }
  const example: Record<string, string> = { id: suggestName(basename(skill.root)), name: 'Social Media APIs', version: '1.0.0', description: 'Post to social networks. Use when …', owner: 'built-in' };
  for (const key of ['id', 'name', 'version', 'description', 'owner']) {
    const v = raw[key];
    if (v === undefined || (typeof v === 'string' && v.trim() === '')) {
      out.push(diag('manifest-required', 'error', `${key} is ${v === undefined ? 'missing' : 'empty'}: expected e.g. "${key}": "${example[key]}"`, file, at(key) ?? { line: 1, column: 1 }));
    }
  }
  if (typeof raw.id === 'string' && raw.id !== '' && !/^[a-z0-9-]+$/.test(raw.id)) {
    out.push(diag('id-format', 'error', `id "${raw.id}" may hold only lowercase letters, digits and hyphens: expected e.g. "${suggestName(raw.id)}"`, file, at('id')));
  }
  for (const key of ['context', 'scripts'] as const) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    list.forEach((p, i) => {
      if (typeof p === 'string') checkPath(skill, p, `${key}[${i}]`, out, key === 'scripts');
    });
  }
  if (skill.envVars.length > 0) {
    if (!skill.envExample) {
      out.push(
        diag('env-example', 'error', `envVars declares ${skill.envVars.join(', ')} but the skill has no .env.example`, file, at('envVars'), `create .env.example with one line per variable:\n${skill.envVars.map((v) => `${v}=`).join('\n')}`),
      );
    } else {
      const missing = skill.envVars.filter((v) => !skill.envExample!.includes(v));
      if (missing.length > 0) {
        out.push(diag('env-example', 'error', `.env.example does not name ${missing.join(', ')}, declared in envVars`, file, at('envVars'), `add to .env.example:\n${missing.map((v) => `${v}=`).join('\n')}`));
      }
    }
  }
  if (Array.isArray(raw.mcpServers)) {
    const names = new Set<string>();
    raw.mcpServers.forEach((m, i) => {
      const name = m && typeof m === 'object' ? (m as { name?: unknown }).name : undefined;
      if (typeof name === 'string') {
        if (names.has(name)) out.push(diag('mcp-server', 'error', `mcpServers[${i}]: the name "${name}" is used twice`, file, at(`mcpServers[${i}].name`)));
        names.add(name);
      }
    });
  }
  if (typeof raw.nodeVersion === 'string' && validRange(raw.nodeVersion) === null) {
    out.push(diag('node-version', 'error', `nodeVersion "${raw.nodeVersion}" is not a semver range: expected e.g. ">=20.0.0"`, file, at('nodeVersion')));
  }
}

/** Checks shared by both layouts: seed 004's extension fields, version and dependencies. */
function checkExtensions(skill: Skill, out: Diagnostic[], safeRegex?: SafeRegex): void {
  const raw = skill.raw;
  const file = skill.file;
  const at = (k: string): Position | undefined => skill.positions[k];
  const version = raw.version;
  if (typeof version === 'string' && version !== '' && !isStrictSemver(version)) {
    // The manifest layout requires a semantic version; in SKILL.md a top-level version is an extension the standard
    // does not define, and real skills write "1.0" or "v1.2.3": a warning there (pack, sync and install, which need
    // MAJOR.MINOR.PATCH, still refuse it with their own message).
    const loose = skill.layout === 'skill-md';
    const suggestion = semverLike(version);
    out.push(diag('version-semver', loose ? 'warning' : 'error', `version "${version}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "${suggestion ?? '1.0.0'}"`, file, at('version'),
      suggestion ? `write version: ${suggestion}` : undefined));
  }
  if (skill.layout === 'skill-md' && Array.isArray(raw.scripts)) {
    raw.scripts.forEach((p, i) => {
      if (typeof p === 'string') checkPath(skill, p, `scripts[${i}]`, out, false);
    });
  }
  if (Array.isArray(raw.dependencies)) {
    raw.dependencies.forEach((d, i) => {
      if (typeof d !== 'string') return;
      const s = parseSpec(d);
      if ('error' in s) out.push(diag('dependency-spec', 'error', `dependencies[${i}]: ${s.error}`, file, at(`dependencies[${i}]`) ?? at('dependencies')));
    });
  }
  const patterns = skill.triggers?.patterns ?? [];
  patterns.forEach((p, i) => {
    const pos = at(`triggers.patterns[${i}]`) ?? at('triggers.patterns') ?? at('triggers');
    let re: RegExp;
    try {
      re = new RegExp(p, 'i');
    } catch (err) {
      out.push(diag('trigger-pattern', 'error', `triggers.patterns[${i}] does not compile as a regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`, file, pos));
      return;
    }
    if (safeRegex && !safeRegex(re)) {
      out.push(
        diag('trigger-pattern', 'error', `triggers.patterns[${i}] "${p}" can backtrack catastrophically (nested or overlapping repetition)`, file, pos, 'remove the nested quantifier, e.g. (a+)+ → a+'),
      );
    }
  });
  if (Array.isArray(raw.toolsets)) {
    raw.toolsets.forEach((t, i) => {
      if (typeof t !== 'string') return;
      const pos = at(`toolsets[${i}]`) ?? at('toolsets');
      const m = /^([^:]+):([A-Za-z_$][\w$]*)$/.exec(t);
      if (!m) {
        out.push(diag('toolset-format', 'error', `toolsets[${i}] "${t}" must be path:Export, e.g. "toolsets/index:HelloToolset"`, file, pos));
        return;
      }
      const p = m[1]!;
      if (isAbsolute(p) || normalize(p).replace(/\\/g, '/').startsWith('../')) {
        out.push(diag('path-inside', 'error', `toolsets[${i}] "${p}" leads out of the skill`, file, pos));
        return;
      }
      const base = normalize(p).replace(/\\/g, '/').replace(/^\.\//, '');
      const exts = ['', '.ts', '.js', '.mjs', '.mts', '.cjs', '.tsx'];
      if (!skill.entries.some((e) => e.kind !== 'dir' && exts.some((x) => e.path === base + x))) {
        out.push(diag('toolset-format', 'error', `toolsets[${i}]: no file ${base} (or ${base}.ts, ${base}.js) in the skill`, file, pos));
      }
    });
  }
}

function checkPath(skill: Skill, p: string, field: string, out: Diagnostic[], script: boolean): void {
  const pos = skill.positions[field];
  if (isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p)) {
    out.push(diag('path-inside', 'error', `${field} "${p}" is an absolute path: expected a path relative to the skill folder`, skill.file, pos));
    return;
  }
  const norm = normalize(p).replace(/\\/g, '/').replace(/^\.\//, '');
  if (norm === '..' || norm.startsWith('../')) {
    out.push(diag('path-inside', 'error', `${field} "${p}" leads out of the skill folder`, skill.file, pos));
    return;
  }
  const entry = skill.entries.find((e) => e.path === norm);
  // The walk does not enter symlinked folders: a path through one that leads out is outside, not missing.
  const via = entry ? undefined : skill.entries.find((e) => e.kind === 'symlink' && norm.startsWith(`${e.path}/`));
  if (via) {
    const out2 = !via.inside;
    out.push(diag(out2 ? 'path-inside' : 'path-exists', 'error', out2 ? `${field} "${p}" goes through ${via.path}, a symlink that leads out of the skill` : `${field} "${p}" goes through the symlinked folder ${via.path}; declare the real path`, skill.file, pos));
    return;
  }
  if (!entry || entry.kind === 'dir') {
    out.push(diag('path-exists', 'error', `${field} "${p}" does not exist${entry ? ' as a file (it is a folder)' : ''}`, skill.file, pos));
    return;
  }
  if (entry.kind === 'symlink' && !entry.inside) {
    out.push(diag('path-inside', 'error', `${field} "${p}" is a symlink that leads out of the skill${entry.target ? ` (to ${entry.target})` : ' (or nowhere)'}`, skill.file, pos));
    return;
  }
  if (script && process.platform !== 'win32') {
    const ref = skill.scripts.find((s) => s.path === norm);
    if (ref && ref.exists && ref.executable === false) {
      out.push(diag('script-executable', 'error', `${field} "${p}" is not executable`, skill.file, pos, `chmod +x ${norm}`, { path: ref.path }));
    }
  }
}

/** The semantic version a loose one means ("v1.2" → "1.2.0"), when it plainly means one. */
function semverLike(v: string): string | undefined {
  const m = /^\s*[v=]?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/i.exec(v);
  if (!m) return undefined;
  const s = `${Number(m[1])}.${Number(m[2] ?? 0)}.${Number(m[3] ?? 0)}`;
  return isStrictSemver(s) ? s : undefined;
}
