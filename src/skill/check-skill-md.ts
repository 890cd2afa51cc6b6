// validate's checks of a SKILL.md skill's frontmatter (the Agent Skills specification, and what --spec leaves out).
import { basename } from 'node:path';
import type { Diagnostic, Position } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { checkName, closest, nameTooLongFor, suggestName } from './names.js';
import { CLIENT_KEYS, EXTENSION_KEYS, SPEC_KEYS } from '../model/schemas.js';
import { codePoints } from '../formats/text.js';
import { diag } from '../model/diagnostic.js';
import type { ValidateOptions } from './validate.js';

const KNOWN_KEYS = [...SPEC_KEYS, ...EXTENSION_KEYS, ...CLIENT_KEYS];
const KNOWN = new Set(KNOWN_KEYS);
const SPEC = new Set(SPEC_KEYS);
// The known key nearest to each unknown one, by key: a collection's skills repeat the same few (slug, author,
// category …), 17,000 times over in agentskillexchange/skills. Emptied when it grows large (strangers' keys).
const nearKey = new Map<string, string | undefined>();
function nearestKey(key: string): string | undefined {
  if (!nearKey.has(key)) {
    if (nearKey.size >= 10_000) nearKey.clear();
    nearKey.set(key, closest(key, KNOWN_KEYS));
  }
  return nearKey.get(key);
}

export function checkSkillMd(skill: Skill, out: Diagnostic[], options: ValidateOptions): void {
  const raw = skill.raw;
  const file = skill.file;
  const at = (k: string): Position | undefined => skill.positions[k];
  const known = options.spec ? SPEC : KNOWN;
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    const near = options.spec ? undefined : nearestKey(key);
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
      diag(
        'name-required',
        'error',
        `name is ${'name' in raw ? (typeof name === 'string' ? 'empty' : 'not text') : 'missing'}: expected the skill's name, e.g. name: ${suggestName(basename(skill.root))}`,
        file,
        at('name') ?? { line: 2, column: 1 },
      ),
    );
  } else {
    const n = name.trim().normalize('NFKC');
    // Looked up only for a finding: the frontmatter's keys are located on first use.
    const pos = () => at('name');
    const suggestion = () => suggestName(n);
    if (codePoints(n) > 64)
      out.push(
        diag('name-length', 'error', `name is ${codePoints(n)} characters long; at most 64 are allowed`, file, pos()),
      );
    else {
      const tooLong = nameTooLongFor(n, skill.version);
      if (tooLong) out.push(diag('name-length', 'error', tooLong, file, pos()));
    }
    if (n !== n.toLowerCase()) {
      // A folder named as the name (simota/agent-skills: Anvil/ with name: Anvil) must be renamed with it, or the
      // name stops matching its folder (SK010).
      const lower = suggestion();
      const hint =
        basename(skill.root).normalize('NFKC') === n
          ? `set name: ${lower} and rename the folder to ${lower}: a name matches its folder`
          : `set name: ${lower}`;
      out.push(
        diag('name-lowercase', 'error', `name "${n}" must be lowercase: expected "${lower}"`, file, pos(), hint),
      );
    }
    if (n.startsWith('-') || n.endsWith('-') || n.includes('--')) {
      out.push(
        diag(
          'name-hyphens',
          'error',
          `name "${n}" must not ${n.includes('--') ? 'contain consecutive hyphens' : 'start or end with a hyphen'}: expected e.g. "${suggestion()}"`,
          file,
          pos(),
        ),
      );
    }
    if (!/^[\p{L}\p{N}-]+$/u.test(n)) {
      const marks = marksAlone(n);
      out.push(
        diag(
          'name-characters',
          'error',
          marks
            ? `name "${n}" may hold only letters, digits and hyphens, and its combining marks (${marks}) are none: the standard counts no mark as a letter, though in Devanagari, Tamil and other Brahmic scripts the vowel signs of nearly every word are marks; expected a name without them, e.g. in Latin letters`
            : `name "${n}" may hold only letters, digits and hyphens: expected e.g. "${suggestion()}"`,
          file,
          pos(),
        ),
      );
    }
    const folder = basename(skill.root).normalize('NFKC');
    if (folder !== n) {
      out.push(
        diag(
          'name-matches-folder',
          'error',
          `name "${n}" does not match its folder "${basename(skill.root)}"`,
          file,
          pos(),
          matchHint(n, folder),
        ),
      );
    }
  }
  // description
  const description = raw.description;
  if (!('description' in raw) || typeof description !== 'string' || description.trim() === '') {
    out.push(
      diag(
        'description-required',
        'error',
        `description is ${'description' in raw ? (typeof description === 'string' ? 'empty' : 'not text') : 'missing'}: expected what the skill does and when to use it (1-1024 characters)`,
        file,
        at('description') ?? { line: 2, column: 1 },
      ),
    );
  } else {
    const len = codePoints(options.spec ? description : description.trim());
    if (len > 1024)
      out.push(
        diag(
          'description-length',
          'error',
          `description is ${len} characters long; at most 1024 are allowed`,
          file,
          at('description'),
          'move detail into the body of SKILL.md',
        ),
      );
  }
  if ('compatibility' in raw) {
    const c = raw.compatibility;
    if (typeof c !== 'string')
      out.push(
        diag(
          'compatibility-format',
          'error',
          'compatibility must be text (e.g. compatibility: Requires Python 3.10+)',
          file,
          at('compatibility'),
        ),
      );
    else {
      const len = codePoints(c);
      if (len > 500 || (!options.spec && c.trim() === '')) {
        out.push(
          diag(
            'compatibility-format',
            'error',
            `compatibility must be 1-500 characters, found ${len}`,
            file,
            at('compatibility'),
          ),
        );
      }
    }
  }
  if (!options.spec) {
    // zod reported these as plain field-type findings; the checks here say more (and name/description above).
    for (let i = out.length - 1; i >= 0; i--) {
      const d = out[i]!;
      if (
        d.rule === 'field-type' &&
        /^(license|allowed-tools|name|description|compatibility) must be text, found/.test(d.message)
      )
        out.splice(i, 1);
    }
    for (const key of ['license', 'allowed-tools'] as const) {
      if (key in raw && typeof raw[key] !== 'string') {
        const isList = Array.isArray(raw[key]);
        // The standard says a space-separated string, but Claude Code and much of the world's skills write a YAML
        // list of tool names, and the reference validator accepts it: a warning, which lint --fix rewrites.
        const toolList =
          key === 'allowed-tools' && isList && (raw[key] as unknown[]).every((x) => typeof x === 'string');
        out.push(
          diag(
            'field-type',
            toolList ? 'warning' : 'error',
            `${key} must be text${key === 'allowed-tools' ? ' (space-separated tool names)' : ''}, found ${isList ? 'a list' : 'a mapping'}`,
            file,
            at(key),
            key === 'allowed-tools' && isList
              ? `write it as one string: allowed-tools: ${(raw[key] as unknown[]).join(' ')}`
              : undefined,
            { field: key },
          ),
        );
      }
    }
  } else if ('allowed-tools' in raw) {
    const t = raw['allowed-tools'];
    if (typeof t !== 'string' && !(Array.isArray(t) && t.every((x) => typeof x === 'string'))) {
      out.push(diag('field-type', 'error', 'allowed-tools must be text or a list of text', file, at('allowed-tools')));
    }
  }
}

/** How to make name and folder match, offering only names that are valid themselves. */
function matchHint(name: string, folder: string): string {
  const ways = [
    ...(checkName(name).ok ? [`rename the folder to ${name}`] : []),
    ...(checkName(folder).ok ? [`set name: ${folder}`] : []),
  ];
  return ways.length > 0
    ? ways.join(', or ')
    : `give both the folder and name: one valid name, e.g. ${suggestName(name)}`;
}

/**
 * The combining marks of a name whose only fault they are (its other characters letters, digits and hyphens), as
 * "U+0947, U+093F" (the first three), or undefined. Taking them out gives no name a speaker would know
 * ("डेटा" → "डट"), so no such suggestion is made.
 */
function marksAlone(name: string): string | undefined {
  const marks = name.match(/\p{M}/gu);
  if (!marks || !/^[\p{L}\p{N}-]+$/u.test(name.replace(/\p{M}/gu, ''))) return undefined;
  const shown = [...new Set(marks)]
    .slice(0, 3)
    .map((m) => `U+${m.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return shown.join(', ');
}
