// Tools for clients that do not speak the extension (seeds 002 and 003): list_skills (with an optional query, the
// built-in selection), load_skill, read_skill_file, and the scripts --allow-scripts allows.
import { stripUnsafe } from '../formats/unsafe-text.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isSkillsError, SkillsError } from '../errors.js';
import { readPath } from './read.js';
import { anyParams, kindOf, RequestError, setToolsCallHandler, type Sdk } from './sdk.js';
import { SCRIPT_INPUT_SCHEMA, scriptTools, type AllowScripts, type ScriptTool } from './script-tools.js';
import { checkRoot, SKILL_MD, type SkillSet } from './skill-set.js';
import { skillUri } from './uri.js';

export interface ToolsOptions {
  allow?: AllowScripts;
  timeoutSeconds: number;
  /** Said on stderr: a skill whose full load found what keeps scripts from being tools (once a run). */
  warn(line: string): void;
}

const MAX_QUERY_PICKS = 20;

/**
 * The most one list_skills answer without a query holds, in characters of its JSON (~8,000 tokens): a listing
 * past it comes in pages. Claude Code warns of a tool answer over 10,000 tokens and cuts one over 25,000
 * (MAX_MCP_OUTPUT_TOKENS); 500 skills listed whole are ~45,000.
 */
export const LIST_PAGE_CHARS = 32_000;

const BASE_TOOLS = [
  {
    name: 'list_skills',
    description:
      "List the agent skills this server serves: name, description and URI of each (a long listing comes in pages: pass nextCursor as cursor). With a query (the user's request), only the skills that fit it, best first.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: "The user's request, to pick the skills that fit it" },
        cursor: {
          type: 'string',
          description: 'Without a query: the nextCursor of the last answer, for the next page of a long listing',
        },
        max: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_QUERY_PICKS,
          description: 'With a query: at most this many skills (default 3)',
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'load_skill',
    description:
      "Load a skill's full instructions (its SKILL.md body) by name, with the list of its files. Call it when a skill fits the task, before acting.",
    inputSchema: {
      type: 'object',
      properties: { skill_name: { type: 'string', description: 'The skill name, as list_skills gives it' } },
      required: ['skill_name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'read_skill_file',
    description:
      "Read one file of a skill (a reference, a script, an asset) by its path relative to the skill's folder, as load_skill lists them.",
    inputSchema: {
      type: 'object',
      properties: {
        skill_name: { type: 'string', description: 'The skill name' },
        file_path: { type: 'string', description: "The file's path in the skill, e.g. references/selectors.md" },
      },
      required: ['skill_name', 'file_path'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
];

type ToolResult = {
  content: (
    { type: 'text'; text: string } | { type: 'resource'; resource: { uri: string; mimeType: string; blob: string } }
  )[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

const text = (t: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(isError ? { isError } : {}),
});
const json = (data: Record<string, unknown>, isError = false): ToolResult => ({
  ...text(JSON.stringify(data, null, 2), isError),
  structuredContent: data,
});

/** Register tools/list and tools/call. */
export function registerTools(server: Server, set: SkillSet, sdk: Sdk, options: ToolsOptions): void {
  const { ErrorCode } = sdk.types;
  const scripts = (): ScriptTool[] =>
    options.allow ? scriptTools(set, options.allow, options.timeoutSeconds, options.warn) : [];

  server.setRequestHandler(anyParams('tools/list'), async () => ({
    tools: [
      ...BASE_TOOLS,
      ...scripts().map((t) => ({ name: t.name, description: t.description, inputSchema: SCRIPT_INPUT_SCHEMA })),
    ],
  }));

  setToolsCallHandler(sdk, server, async (req, extra) => {
    const params = (req.params ?? {}) as Record<string, unknown>;
    if (typeof params !== 'object' || Array.isArray(params))
      throw new RequestError(
        ErrorCode.InvalidParams,
        `tools/call: params must be a JSON object, e.g. {"name": "load_skill", "arguments": {"skill_name": "…"}}; got ${kindOf(params)}`,
      );
    const name = params.name;
    if (typeof name !== 'string' || name === '')
      throw new RequestError(
        ErrorCode.InvalidParams,
        `tools/call: params.name must be the name of a tool (a string, as tools/list gives it, e.g. "load_skill"); got ${kindOf(name)}`,
      );
    const given = params.arguments;
    if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given)))
      throw new RequestError(
        ErrorCode.InvalidParams,
        `${name}: params.arguments must be a JSON object of the tool's arguments by name, e.g. {"skill_name": "…"}; got ${kindOf(given)}`,
      );
    const args = (given ?? {}) as Record<string, unknown>;
    const str = (key: string, required: boolean): string | undefined => {
      const v = args[key];
      if (v === undefined && !required) return undefined;
      if (typeof v !== 'string' || v.trim() === '')
        throw new RequestError(ErrorCode.InvalidParams, `${name}: "${key}" must be a non-empty string`);
      return v;
    };
    try {
      switch (name) {
        case 'list_skills':
          return listSkills(str('query', false), args.max, str('cursor', false));
        case 'load_skill':
          return loadSkill(str('skill_name', true)!);
        case 'read_skill_file':
          return readSkillFile(str('skill_name', true)!, str('file_path', true)!);
      }
      const tool = scripts().find((t) => t.name === name);
      // The SDK aborts the signal when the client cancels the call or the connection closes: the script ends then.
      if (tool) return await runTool(tool, args, extra.signal);
      if (options.allow) withdrawn(name);
    } catch (err) {
      // A refusal is the tool's answer, for the model to read; anything else is a bug, reported as such.
      if (isSkillsError(err)) return text(err.hint ? `${err.message}\nhint: ${err.hint}` : err.message, true);
      throw err;
    }
    throw new RequestError(
      ErrorCode.InvalidParams,
      options.allow
        ? `unknown tool "${name}": tools/list names the tools (script tools are those --allow-scripts allows)`
        : `unknown tool "${name}": scripts do not run as tools unless the server is started with --allow-scripts`,
    );
  });

  /**
   * A script tool no longer offered because its skill's folder was moved or swapped since it was loaded: refused
   * with checkRoot's reason ("leads outside the skill") rather than as an unknown tool.
   */
  function withdrawn(name: string): void {
    const now = set.current();
    for (const s of [...now.listed, ...now.hidden])
      if (name.startsWith(`${s.name}_`)) checkRoot(set.entry(s), `the tool ${name} of the skill ${s.name}`, 'run');
  }

  function listSkills(query: string | undefined, max: unknown, cursor: string | undefined): ToolResult {
    const now = set.current();
    const item = (s: { name: string; description: string }) => ({
      name: s.name,
      description: s.description,
      uri: skillUri(s.name, SKILL_MD),
    });
    if (query === undefined) {
      const total = now.listed.length;
      const from = cursor === undefined ? 0 : /^\d{1,9}$/.test(cursor) ? Number(cursor) : NaN;
      if (!(from < total) && !(from === 0 && total === 0))
        throw new RequestError(
          ErrorCode.InvalidParams,
          `list_skills: "cursor" must be a nextCursor an earlier list_skills gave (${total} skills are listed)`,
        );
      const page = pageOf(now.listed.map(item), from);
      const next = from + page.length;
      if (from === 0 && next === total) return json({ skills: page });
      return json({
        skills: page,
        total,
        ...(next < total ? { nextCursor: String(next) } : {}),
        note:
          `skills ${from + 1} to ${next} of ${total}` +
          (next < total ? `; call list_skills with cursor "${next}" for the next page` : '') +
          ", or with the user's request as query for the skills that fit it",
      });
    }
    if (max !== undefined && (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_QUERY_PICKS))
      throw new RequestError(
        ErrorCode.InvalidParams,
        `list_skills: "max" must be a whole number from 1 to ${MAX_QUERY_PICKS}`,
      );
    const picks = set.source.select(query, now.listed, (max as number | undefined) ?? 3);
    const byName = new Map(now.listed.map((s) => [s.name, s]));
    return json({
      query,
      skills: picks.map((p) => ({
        ...item(byName.get(p.name)!),
        kind: p.kind,
        ...(p.score !== undefined ? { score: p.score } : {}),
        matched: p.matched,
      })),
      ...(picks.length === 0
        ? { note: `no skill fits the query; list_skills without a query lists all ${now.listed.length}` }
        : {}),
    });
  }

  /** The items from `from` on that fit in LIST_PAGE_CHARS (one at least), as the answer's JSON will hold them. */
  function pageOf<T>(items: T[], from: number): T[] {
    let size = 400; // the answer's other keys: total, nextCursor, note
    let end = from;
    while (end < items.length) {
      // Inside the answer's array each line of an item is indented four spaces more; a comma and a newline follow.
      const shown = JSON.stringify(items[end], null, 2);
      const chars = shown.length + 4 * shown.split('\n').length + 2;
      if (end > from && size + chars > LIST_PAGE_CHARS) break;
      size += chars;
      end++;
    }
    return items.slice(from, end);
  }

  function loadSkill(name: string): ToolResult {
    const entry = set.entry(set.named(name));
    const files = entry.files.filter((f) => f.path !== SKILL_MD).map((f) => f.path);
    const tools = scripts().filter((t) => t.skill === entry.name);
    const head = [
      `# Skill: ${entry.name}`,
      '',
      `URI: ${entry.uri}`,
      files.length > 0
        ? `Files (read them with read_skill_file; paths are relative to the skill's folder): ${files.join(', ')}`
        : 'Files: none but SKILL.md',
      ...(tools.length > 0
        ? [`Its scripts run as the tools: ${tools.map((t) => `${t.name} (${t.path})`).join(', ')}`]
        : []),
      '',
      '---',
      '',
    ];
    // The instructions go into the model's context as render-prompt's prompt does: without the characters a reader
    // cannot see (terminal escapes, bidirectional overrides, hidden tag text). read_skill_file gives a file as it is.
    return text(`${head.join('\n')}${stripUnsafe(entry.instructions)}`);
  }

  function readSkillFile(name: string, path: string): ToolResult {
    const wanted = path.replace(/^(?:\.\/)+/, '');
    if (
      wanted.startsWith('/') ||
      /^[A-Za-z]:[\\/]/.test(wanted) ||
      wanted.includes('\\') ||
      wanted.split('/').includes('..')
    )
      throw new SkillsError(
        'E_USAGE',
        `read_skill_file: "${path}" leads outside the skill; give a path inside it, e.g. references/guide.md`,
      );
    const r = readPath(set.entry(set.named(name)), wanted);
    if (r.text !== undefined) return text(r.text);
    return {
      content: [{ type: 'resource', resource: { uri: r.uri, mimeType: r.mimeType, blob: r.bytes.toString('base64') } }],
    };
  }

  async function runTool(tool: ScriptTool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const extra = Object.keys(args).filter((k) => k !== 'args' && k !== 'words');
    if (extra.length > 0 || (args.args !== undefined && args.words !== undefined))
      throw new RequestError(
        ErrorCode.InvalidParams,
        `${tool.name}: give "args" (the JSON object the script reads) or "words" (its command-line words), not ${extra.length > 0 ? extra.map((k) => `"${k}"`).join(', ') : 'both'}`,
      );
    const a = args.args;
    if (a !== undefined && (typeof a !== 'object' || a === null || Array.isArray(a)))
      throw new RequestError(ErrorCode.InvalidParams, `${tool.name}: "args" must be a JSON object`);
    const w = args.words;
    if (w !== undefined && (!Array.isArray(w) || w.some((x) => typeof x !== 'string')))
      throw new RequestError(ErrorCode.InvalidParams, `${tool.name}: "words" must be a list of strings`);
    // The script runs from the folder it was offered from, not from wherever the folder leads now.
    checkRoot(set.entry(set.named(tool.skill)), `${tool.name} (${tool.path})`, 'run');
    const run = await set.source.runScript({
      root: tool.root,
      script: tool.path,
      ...(a !== undefined ? { args: a as Record<string, unknown> } : {}),
      ...(w !== undefined ? { words: w as string[] } : {}),
      signal,
    });
    const doc: Record<string, unknown> = {
      success: run.success,
      ...(run.success ? { result: run.result } : { error: run.error }),
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      durationMs: run.durationMs,
      stdout: run.stdout,
      stderr: run.stderr,
      ...(run.truncated.stdout || run.truncated.stderr ? { truncated: run.truncated } : {}),
      ...(run.notices.length > 0 ? { notices: run.notices } : {}),
    };
    return json(doc, !run.success);
  }
}
