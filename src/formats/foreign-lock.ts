// The skills-lock.json another widely used installer writes (`npx skills add …`, vercel-labs/skills):
// `{"version":1,"skills":{"<name>":{"source":"owner/repo","sourceType":"github","ref"?,"skillPath"?,"computedHash"}}}`.
// skills never fails on it and never writes it: it reads it (so `skills install` can replay its git sources) and
// keeps its own lock beside it, in `.skills-lock.json`.

/** One skill of the other tool's lock, as far as it can be read. */
export interface ForeignEntry {
  name: string;
  /** `owner/repo`, a git URL, a local path, an npm name… as that tool wrote it. */
  source: string;
  /** `github`, `gitlab`, `git`, `local`, `node_modules`, `direct-url`, … */
  sourceType: string;
  ref?: string;
  /** The skill's SKILL.md (or folder) inside the source. */
  skillPath?: string;
  /** sha256 hex of the skill folder's files, computed that tool's way. */
  computedHash?: string;
}

/** The name our own lock takes when skills-lock.json is another tool's. */
export const SIDE_LOCKFILE_NAME = '.skills-lock.json';

/**
 * The other tool's lock read from text; undefined when the text is not that format (our own lock has
 * `lockfileVersion`; anything unparsable is left for our reader to locate).
 */
export function parseForeignLock(text: string): ForeignEntry[] | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const o = doc as Record<string, unknown>;
  if ('lockfileVersion' in o || typeof o.version !== 'number') return undefined;
  const skills = o.skills;
  if (typeof skills !== 'object' || skills === null || Array.isArray(skills)) return [];
  const out: ForeignEntry[] = [];
  for (const [name, raw] of Object.entries(skills as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const e = raw as Record<string, unknown>;
    const str = (k: string) => (typeof e[k] === 'string' && e[k] !== '' ? (e[k] as string) : undefined);
    const source = str('source');
    if (source === undefined) continue;
    out.push({
      name,
      source,
      sourceType: str('sourceType') ?? 'unknown',
      ...(str('ref') === undefined ? {} : { ref: str('ref') }),
      ...(str('skillPath') === undefined ? {} : { skillPath: str('skillPath') }),
      ...(str('computedHash') === undefined ? {} : { computedHash: str('computedHash') }),
    });
  }
  return out;
}

/**
 * What `skills install` is given to replay one entry: a source it takes (`owner/repo#ref:path`, a git URL, a local
 * path), or why not (an npm package, a URL it cannot read again).
 */
export function foreignSource(e: ForeignEntry): { source: string } | { reason: string } {
  const folder = e.skillPath?.replace(/\\/g, '/').replace(/\/?SKILL\.md$/i, '');
  const inside = folder && folder !== '.' ? `:${folder.replace(/^\.\//, '')}` : '';
  const ref = e.ref ?? '';
  const fragment = ref !== '' || inside !== '' ? `#${ref}${inside}` : '';
  if (e.sourceType === 'github' || e.sourceType === 'gitlab') {
    const shorthand = /^[\w.-]+\/[\w.-]+$/.test(e.source) ? `${e.sourceType}:${e.source}` : e.source;
    return { source: `${shorthand}${fragment}` };
  }
  if (e.sourceType === 'git') return { source: `${e.source}${fragment}` };
  if (e.sourceType === 'local') return { source: e.source };
  return { reason: `its source type "${e.sourceType}" (${e.source}) is not one skills installs from` };
}
