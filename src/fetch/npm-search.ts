// `skills search`: an npm-compatible registry's search endpoint (/-/v1/search), kept to the packages that are
// skills (the `agentskills` field in package.json, or the keyword skills publish gives them).
import { z } from 'zod';
import { SkillsError } from '../errors.js';
import { registryOf, type NpmConfig } from './npm-config.js';
import { noAnswer, timedOut } from './npm-errors.js';
import { fetchCappedJson, MAX_PACKUMENT } from './npm-registry.js';

export interface SearchHit {
  name: string;
  version: string;
  description: string;
  /** The skill ids the package declares in its agentskills field (or its own name's last part). */
  skills: string[];
}

export interface SearchResult {
  registry: string;
  hits: SearchHit[];
  /** Packages the registry found that are not skills. */
  skipped: number;
  /** Hits of the registry's answer that are not of the search API's shape (no package name, a name not a string…). */
  malformed: number;
}

/** One hit of /-/v1/search, as far as it is read: a hit of another shape is counted and skipped, never trusted. */
const SearchObject = z.object({
  package: z
    .object({
      name: z.string().min(1),
      version: z.string().optional(),
      description: z.string().optional(),
      // Anything: only an array of strings counts as keywords (a string would match "agentskills" inside a word).
      keywords: z.unknown().optional(),
    })
    .passthrough(),
});
type SearchObject = z.infer<typeof SearchObject>;

/** The strings of a keywords field that is an array; none for anything else. */
const keywordsOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];

const SKILL_KEYWORD = 'agentskills';

/** The most a search answer may be: 250 hits (the API's most) of a few KiB each is far below. */
const MAX_SEARCH = 8 * 1024 * 1024;

/** Search `words` on the registry of `scope` (or the default registry), at most `size` hits. */
export async function searchSkills(
  words: string,
  config: NpmConfig,
  opts: { scope?: string; size?: number } = {},
): Promise<SearchResult> {
  const registry = registryOf(config, opts.scope);
  const base = { ...config.settings, registry, timeout: config.timeoutMs, fetchRetries: 0 };
  const text = opts.scope ? `${words} ${opts.scope}` : words;
  const objects: SearchObject[] = [];
  let malformed = 0;
  try {
    const doc = (await fetchCappedJson(
      `/-/v1/search?text=${encodeURIComponent(text)}&size=${opts.size ?? 20}`,
      base,
      MAX_SEARCH,
      `the search "${words}"`,
    )) as { objects?: unknown } | null;
    for (const o of Array.isArray(doc?.objects) ? (doc.objects as unknown[]) : []) {
      const parsed = SearchObject.safeParse(o);
      if (parsed.success) objects.push(parsed.data);
      else malformed++;
    }
  } catch (err) {
    if (err instanceof SkillsError) throw err;
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode === 401 || e.statusCode === 403)
      throw new SkillsError('E_CONFIG', `${registry} refused the search (${e.statusCode}): not logged in`, {
        hint: `set //${new URL(registry).host}${new URL(registry).pathname}:_authToken in an .npmrc, or npm login --registry ${registry}`,
        cause: err,
      });
    if (timedOut(err)) throw noAnswer(err, registry, `the search "${words}"`, config);
    throw new SkillsError('E_IO', `cannot search ${registry}: ${e.code ?? e.statusCode ?? e.message}`, {
      hint: 'check the registry URL (registry= or @scope:registry= in .npmrc) and the network',
      cause: err,
    });
  }
  const hits: SearchHit[] = [];
  let skipped = 0;
  for (const o of objects) {
    const p = o.package;
    if (opts.scope && !p.name.startsWith(`${opts.scope}/`)) continue;
    let skills: string[] | undefined;
    let version = p.version;
    const ownName = p.name.split('/').pop()!;
    if (keywordsOf(p.keywords).includes(SKILL_KEYWORD) && version) skills = [ownName];
    else {
      // No keyword, or no version in the hit (Verdaccio leaves it out for a package published with npm): the
      // package's own document says, at its latest version.
      try {
        const doc = await fetchCappedJson(
          `/${p.name.replace('/', '%2f')}`,
          base,
          MAX_PACKUMENT,
          `the package document of ${p.name} (a hit of the search "${words}")`,
        );
        version ||= (doc['dist-tags'] as Record<string, string> | undefined)?.latest ?? '';
        const versions = doc.versions;
        const manifest =
          typeof versions === 'object' && versions !== null && !Array.isArray(versions)
            ? (versions as Record<string, Record<string, unknown> | null | undefined>)[version]
            : undefined;
        const declared = (manifest?.agentskills as { skills?: unknown } | null | undefined)?.skills;
        const keywords = [...keywordsOf(p.keywords), ...keywordsOf(manifest?.keywords)];
        if (Array.isArray(declared))
          skills = declared
            .map((s: unknown) => (typeof s === 'object' && s !== null ? (s as { name?: unknown }).name : undefined))
            .filter((n): n is string => typeof n === 'string');
        else if (keywords.includes(SKILL_KEYWORD)) skills = [ownName];
      } catch (err) {
        if (err instanceof SkillsError) throw err;
        if (timedOut(err)) throw noAnswer(err, registry, `${p.name} (a hit of the search "${words}")`, config);
        skills = undefined;
      }
    }
    if (skills && skills.length > 0 && version)
      hits.push({ name: p.name, version, description: p.description ?? '', skills });
    else skipped++;
  }
  return { registry, hits, skipped, malformed };
}
