// validate's checks shared by both layouts: seed 004's extension fields, version and dependencies.
import { isAbsolute, normalize } from 'node:path';
import type { Diagnostic, Position } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { isStrictSemver, parseSpec } from '../model/spec.js';
import { diag } from '../model/diagnostic.js';
import { checkPath } from './check-path.js';
import type { SafeRegex } from './validate.js';

/** Checks shared by both layouts: seed 004's extension fields, version and dependencies. */
export function checkExtensions(skill: Skill, out: Diagnostic[], safeRegex?: SafeRegex): void {
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
    out.push(
      diag(
        'version-semver',
        loose ? 'warning' : 'error',
        `version "${version}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "${suggestion ?? '1.0.0'}"`,
        file,
        at('version'),
        suggestion ? `write version: ${suggestion}` : undefined,
      ),
    );
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
      if ('error' in s)
        out.push(
          diag(
            'dependency-spec',
            'error',
            `dependencies[${i}]: ${s.error}`,
            file,
            at(`dependencies[${i}]`) ?? at('dependencies'),
          ),
        );
    });
  }
  const patterns = skill.triggers?.patterns ?? [];
  patterns.forEach((p, i) => {
    const pos = at(`triggers.patterns[${i}]`) ?? at('triggers.patterns') ?? at('triggers');
    let re: RegExp;
    try {
      re = new RegExp(p, 'i');
    } catch (err) {
      out.push(
        diag(
          'trigger-pattern',
          'error',
          `triggers.patterns[${i}] does not compile as a regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
          file,
          pos,
        ),
      );
      return;
    }
    if (safeRegex && !safeRegex(re)) {
      out.push(
        diag(
          'trigger-pattern',
          'error',
          `triggers.patterns[${i}] "${p}" can backtrack catastrophically (nested or overlapping repetition)`,
          file,
          pos,
          'remove the nested quantifier, e.g. (a+)+ → a+',
        ),
      );
    }
  });
  if (Array.isArray(raw.toolsets)) {
    raw.toolsets.forEach((t, i) => {
      if (typeof t !== 'string') return;
      const pos = at(`toolsets[${i}]`) ?? at('toolsets');
      const m = /^([^:]+):([A-Za-z_$][\w$]*)$/.exec(t);
      if (!m) {
        out.push(
          diag(
            'toolset-format',
            'error',
            `toolsets[${i}] "${t}" must be path:Export, e.g. "toolsets/index:HelloToolset"`,
            file,
            pos,
          ),
        );
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
        out.push(
          diag(
            'toolset-format',
            'error',
            `toolsets[${i}]: no file ${base} (or ${base}.ts, ${base}.js) in the skill`,
            file,
            pos,
          ),
        );
      }
    });
  }
}

/** The semantic version a loose one means ("v1.2" → "1.2.0"), when it plainly means one. */
function semverLike(v: string): string | undefined {
  const m = /^\s*[v=]?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/i.exec(v);
  if (!m) return undefined;
  const s = `${Number(m[1])}.${Number(m[2] ?? 0)}.${Number(m[3] ?? 0)}`;
  return isStrictSemver(s) ? s : undefined;
}
