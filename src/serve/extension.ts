// The Skills Extension (SEP-2640, `io.modelcontextprotocol/skills`): skills/list, skills/get, resources/read of
// skill:// URIs, resources/directory/read; and resources/list and its template for clients without the extension.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isSkillsError } from '../errors.js';
import { LAYOUT_META } from '../fetch/mcp.js';
import { locate, readDirectory, readFile } from './read.js';
import { anyParams, kindOf, RequestError, type Sdk } from './sdk.js';
import { SKILL_MD, type ServedSkill, type SkillSet } from './skill-set.js';
import { parseSkillUri, skillUri } from './uri.js';

export const EXTENSION = 'io.modelcontextprotocol/skills';
/** The `_meta` prefix SEP-2640 reserves for skill resources. */
export const META_PREFIX = 'io.modelcontextprotocol.skills/';
/** Entries a page of skills/list, resources/list or resources/directory/read holds. */
export const PAGE_SIZE = 100;

// Params are checked here rather than by zod in the SDK, so that a missing or wrong one is -32602 with a message
// naming it, as the SEP asks, not a parse failure reported as an internal error.
const request = anyParams;

/**
 * An entry of skills/list and the result of skills/get. A manifest skill's entry is marked in `_meta`, so that
 * `skills install` from this server puts back the manifest skill rather than the SKILL.md made for it.
 */
export function skillEntryOf(e: ServedSkill): {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string }[];
  _meta?: Record<string, unknown>;
} {
  return {
    uri: e.uri,
    frontmatter: e.frontmatter,
    resources: e.files.map((f) => ({ uri: skillUri(e.name, f.path), digest: f.digest })),
    ...(e.layout === 'manifest' ? { _meta: { [LAYOUT_META]: 'manifest' } } : {}),
  };
}

export interface ExtensionOptions {
  /** Said on stderr: a skill left out of a listing because its entry cannot be made. */
  warn(line: string): void;
}

/** Register the extension's methods and the resource methods on a server. */
export function registerExtension(server: Server, set: SkillSet, sdk: Sdk, options: ExtensionOptions): void {
  const { ErrorCode } = sdk.types;
  // Said once a serve process, however many sessions and listings meet it; again when its reason changes.
  const leftOut = (line: string) => {
    if (set.firstTime(line)) options.warn(line);
  };
  const invalid = (message: string) => new RequestError(ErrorCode.InvalidParams, message);
  /** Run a handler; a SkillsError (a refusal) becomes -32602 with its message and hint. */
  const guarded =
    <T>(fn: (params: Record<string, unknown>) => T) =>
    async (req: { params?: unknown }): Promise<T> => {
      const params = req.params ?? {};
      if (typeof params !== 'object' || Array.isArray(params))
        throw invalid(`params must be a JSON object of the request's parameters; got ${kindOf(params)}`);
      try {
        return fn(params as Record<string, unknown>);
      } catch (err) {
        if (isSkillsError(err)) throw invalid(err.hint ? `${err.message}; ${err.hint}` : err.message);
        throw err;
      }
    };
  const uriOf = (params: Record<string, unknown>): string => {
    if (typeof params.uri !== 'string')
      throw invalid(
        `params.uri must be a string, a skill:// URI such as skill://<skill>/SKILL.md; got ${kindOf(params.uri)}`,
      );
    return params.uri;
  };
  const page = <T>(items: T[], params: Record<string, unknown>): { items: T[]; nextCursor?: string } => {
    const c = params.cursor;
    let start = 0;
    if (c !== undefined) {
      if (typeof c !== 'string' || !/^\d{1,9}$/.test(c) || Number(c) > items.length)
        throw invalid(`invalid cursor ${JSON.stringify(c)}: pass back a nextCursor this server returned`);
      start = Number(c);
    }
    const end = start + PAGE_SIZE;
    return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) };
  };

  server.setRequestHandler(
    request('skills/list'),
    guarded((params) => {
      const { items, nextCursor } = page(set.current().listed, params);
      const skills = [];
      for (const s of items) {
        try {
          const e = set.entry(s);
          if (!e.repaired) skills.push(skillEntryOf(e));
          else leftOut(`skills/list: ${s.name} left out: its SKILL.md frontmatter is not YAML (${e.repaired})`);
        } catch (err) {
          if (!isSkillsError(err)) throw err;
          leftOut(`skills/list: ${s.name} left out: ${err.message}`);
        }
      }
      return { skills, ...(nextCursor ? { nextCursor } : {}) };
    }),
  );

  server.setRequestHandler(
    request('skills/get'),
    guarded((params) => {
      const uri = uriOf(params);
      const { path } = parseOrRefuse(uri);
      if (path !== SKILL_MD) throw invalid(`${uri} is not a skill's URI: skills/get takes skill://<skill>/SKILL.md`);
      const { entry } = locate(set, uri);
      if (entry.repaired)
        throw invalid(
          `${uri}: its SKILL.md frontmatter is not valid YAML (read by skills as: ${entry.repaired}); fix the SKILL.md`,
        );
      return { skill: skillEntryOf(entry) };
    }),
  );

  server.setRequestHandler(
    request('resources/directory/read'),
    guarded((params) => {
      const { items, nextCursor } = page(readDirectory(set, uriOf(params)), params);
      return {
        resources: items,
        ...(nextCursor ? { nextCursor } : {}),
      };
    }),
  );

  server.setRequestHandler(
    request('resources/read'),
    guarded((params) => {
      const r = readFile(set, uriOf(params));
      const meta =
        r.file.path === SKILL_MD
          ? {
              _meta: Object.fromEntries(Object.entries(r.entry.frontmatter).map(([k, v]) => [`${META_PREFIX}${k}`, v])),
            }
          : {};
      const body = r.text !== undefined ? { text: r.text } : { blob: r.bytes.toString('base64') };
      return { contents: [{ uri: r.uri, mimeType: r.mimeType, ...body, ...meta }] };
    }),
  );

  // Clients without the extension see each skill's SKILL.md as a resource, and a template for its other files.
  server.setRequestHandler(
    request('resources/list'),
    guarded((params) => {
      const { items, nextCursor } = page(set.current().listed, params);
      return {
        resources: items.map((s) => ({
          uri: skillUri(s.name, SKILL_MD),
          name: s.name,
          description: s.description,
          mimeType: 'text/markdown',
        })),
        ...(nextCursor ? { nextCursor } : {}),
      };
    }),
  );
  server.setRequestHandler(
    request('resources/templates/list'),
    guarded(() => ({
      resourceTemplates: [
        {
          uriTemplate: 'skill://{skill}/{+path}',
          name: 'skill-file',
          description: "A file of a skill: its SKILL.md, or a path relative to the skill's folder",
        },
      ],
    })),
  );

  function parseOrRefuse(uri: string) {
    try {
      return parseSkillUri(uri);
    } catch (err) {
      throw invalid((err as Error).message);
    }
  }
}
