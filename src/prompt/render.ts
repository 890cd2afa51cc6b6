import { isAbsolute, normalize, relative, sep } from 'node:path';
import type { McpServer } from '../model/skill.js';
import { stripUnsafe } from '../formats/unsafe-text.js';

// The skills part of an agent's system prompt, from data already loaded: pure (no fs, no printing).
// Tiers follow seed 004 and the Agent Skills client guide: nothing, a breadcrumb, the catalog, or the catalog
// with the full instructions of the selected skills. Formats: markdown in seed 000's shape, and xml, the
// reference validator's <available_skills> block.

export type Tier = 'none' | 'breadcrumb' | 'catalog' | 'full';
export const TIERS: readonly Tier[] = ['none', 'breadcrumb', 'catalog', 'full'];
export type PromptFormat = 'markdown' | 'xml';
/** How much of each description the catalog shows: all of it, the brief one, or none (names and locations). */
export type DescriptionLevel = 'full' | 'brief' | 'none';

export interface PromptEntry {
  name: string;
  description: string;
  briefDescription?: string;
  /** Absolute path of the skill file. */
  location: string;
}

export interface PromptTool {
  /** Path relative to the skill folder. */
  path: string;
  description?: string;
}

/** A selected skill, with what the full tier shows of it. */
export interface PromptSkill {
  name: string;
  /** The heading: the name as written (manifest `name`). */
  title: string;
  version?: string;
  /** Absolute path of the skill folder. */
  root: string;
  instructions: string;
  /** Bundled files, relative to the root: listed, never inlined. */
  files: string[];
  tools: PromptTool[];
  mcpServers: McpServer[];
}

export interface PromptInput {
  tier: Tier;
  /** Every skill of the catalog, in order. */
  catalog: PromptEntry[];
  /** The selected skills, best first (shown at the full tier). */
  active: PromptSkill[];
  /** The agent's soul file (seed 000), printed first. */
  soul?: string;
  descriptions?: DescriptionLevel;
  /**
   * Show locations and skill folders relative to this folder, with "/" (render-prompt --write: the file's folder,
   * so that the file can be committed); absolute when absent.
   */
  base?: string;
}

/** What the model is told about loading a skill, above the catalog (markdown). */
export const LOAD_INSTRUCTION =
  "The following skills provide specialized instructions for specific tasks. When a task matches a skill's description, " +
  "read the file at the skill's location to load its full instructions before you proceed. Paths inside a skill are " +
  'relative to its folder. A skill whose instructions are already included below needs no loading.';

/** Added to LOAD_INSTRUCTION when locations are relative (PromptInput.base). */
export const RELATIVE_LOCATIONS = "Skill locations are relative to this file's folder.";

/** Most bundled files listed for one skill; the rest are counted. */
const MAX_FILES = 100;

/** Python's html.escape(s, quote=True), which the reference validator applies to names and descriptions. */
export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

/** The breadcrumb tier's one line (seed 004). */
export function breadcrumb(n: number): string {
  return `[${n} ${n === 1 ? 'skill' : 'skills'} available]`;
}

/** A text on one line: every run of whitespace one space, none at the ends (most descriptions already are). */
function oneLine(text: string): string {
  return /^\S(?:\S| (?=\S))*$/.test(text) ? text : text.replace(/\s+/g, ' ').trim();
}

/** A short description: brief_description, else the first sentence (seed 004), at most 160 characters. */
export function briefOf(e: PromptEntry): string {
  if (e.briefDescription) return e.briefDescription;
  const flat = oneLine(e.description);
  const m = /^(.+?[.!?])(?:\s|$)/.exec(flat);
  const first = m ? m[1]! : flat;
  const chars = [...first];
  return chars.length > 160 ? `${chars.slice(0, 159).join('')}…` : first;
}

function describe(e: PromptEntry, level: DescriptionLevel): string | undefined {
  if (level === 'none') return undefined;
  return level === 'brief' ? briefOf(e) : e.description;
}

const versioned = (title: string, version?: string) =>
  version ? `${title} (${/^v/i.test(version) ? version : `v${version}`})` : title;

/** The `<skill_content>` block of one selected skill (Agent Skills client guide): instructions, folder, file list. */
export function skillContent(s: PromptSkill): string {
  const lines = [`<skill_content name="${escapeXml(s.name)}">`];
  const body = s.instructions.trim();
  if (body) lines.push(body, '');
  lines.push(`Skill directory: ${s.root}`, 'Relative paths in this skill are relative to the skill directory.');
  if (s.files.length > 0) {
    lines.push('', '<skill_resources>');
    for (const f of s.files.slice(0, MAX_FILES)) lines.push(`<file>${escapeXml(f)}</file>`);
    if (s.files.length > MAX_FILES) lines.push(`<!-- and ${s.files.length - MAX_FILES} more files -->`);
    lines.push('</skill_resources>');
  }
  lines.push('</skill_content>');
  return lines.join('\n');
}

/**
 * Render the prompt; the empty string when the tier is none and there is no soul. Control, bidirectional and
 * invisible characters (formats/unsafe-text.ts) are taken out: they would reach the user's terminal when the prompt
 * is printed, and can hide text from whoever reviews the prompt while the model still reads it.
 */
export function renderPrompt(input: PromptInput, format: PromptFormat): string {
  // Locations are shown only by the catalog and full tiers: the others need no relative ones (10,000 entries).
  const shown =
    input.base === undefined || input.tier === 'none' || input.tier === 'breadcrumb'
      ? input
      : relativeTo(input, input.base);
  return stripUnsafe(format === 'xml' ? renderXml(shown) : renderMarkdown(shown));
}

/** A path relative to `base`, with "/" on every system ("." for the base itself). */
export function relativePath(base: string, path: string): string {
  return below(base, path) ?? (relative(base, path).split(sep).join('/') || '.');
}

let lastBase: string | undefined;
let lastPrefix: string | undefined;
/** A segment that is empty, . or .., or a trailing slash: a path not in normal form. */
const NOT_NORMAL = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|\/$/;

/**
 * What `relative(base, path)` gives when `path` lies below `base` and both are normal absolute POSIX paths (as
 * catalog locations and a --write file's folder are): the rest of `path`, found without resolving either again (ten
 * thousand locations). Undefined otherwise; the caller then asks node:path.
 */
export function below(base: string, path: string): string | undefined {
  if (sep !== '/') return undefined;
  if (base !== lastBase) {
    lastBase = base;
    lastPrefix = isAbsolute(base) && normalize(base) === base ? (base.endsWith('/') ? base : `${base}/`) : undefined;
  }
  if (lastPrefix === undefined || path.length <= lastPrefix.length || !path.startsWith(lastPrefix)) return undefined;
  const rest = path.slice(lastPrefix.length);
  return NOT_NORMAL.test(rest) ? undefined : rest;
}

function relativeTo(input: PromptInput, base: string): PromptInput {
  return {
    ...input,
    catalog: input.catalog.map((e) => ({ ...e, location: relativePath(base, e.location) })),
    active: input.active.map((s) => ({ ...s, root: relativePath(base, s.root) })),
  };
}

function renderMarkdown(input: PromptInput): string {
  const level = input.descriptions ?? 'full';
  const sections: string[] = [];
  if (input.soul !== undefined) sections.push(`# Soul\n\n${input.soul.trim()}`);
  if (input.tier === 'breadcrumb') sections.push(breadcrumb(input.catalog.length));
  const active = input.tier === 'full' ? input.active : [];
  // No empty block: a catalog of no skills says nothing.
  if ((input.tier === 'catalog' || input.tier === 'full') && (input.catalog.length > 0 || active.length > 0)) {
    const parts = [
      '# Available Skills',
      input.base === undefined ? LOAD_INSTRUCTION : `${LOAD_INSTRUCTION} ${RELATIVE_LOCATIONS}`,
    ];
    if (input.catalog.length > 0) parts.push(input.catalog.map((e) => catalogItem(e, 'markdown', level)).join('\n'));
    for (const s of active) parts.push(`## ${versioned(s.title, s.version)}\n\n${skillContent(s)}`);
    sections.push(parts.join('\n\n'));
    const tools = active.flatMap((s) =>
      s.tools.map((t) => `- ${s.name}/${t.path}${t.description ? `: ${t.description}` : ''}`),
    );
    const mcp = active.flatMap((s) => s.mcpServers.map((m) => `- ${m.name} (${s.name}): ${mcpLine(m)}`));
    const tail: string[] = [];
    if (tools.length > 0) tail.push(`# Available Tools\n\n${tools.join('\n')}`);
    if (mcp.length > 0) tail.push(`# MCP Tools\n\n${mcp.join('\n')}`);
    if (tail.length > 0) sections.push(tail.join('\n\n'));
  }
  return sections.length === 0 ? '' : `${sections.join('\n\n---\n\n')}\n`;
}

/**
 * One skill of the catalog as the prompt shows it, without the newline that follows it: a list item (markdown), or
 * the reference validator's `<skill>` lines (xml). It starts with "-" or "<" after a newline, where the count of a
 * prompt may be cut (prompt-tokens.ts), and holds no character that stripUnsafe looks beyond it to judge.
 */
export function catalogItem(e: PromptEntry, format: PromptFormat, level: DescriptionLevel): string {
  const d = describe(e, level);
  if (format === 'markdown') return `- ${e.name}${d ? `: ${oneLine(d)}` : ''} (${e.location})`;
  const description = d === undefined ? '' : `<description>\n${escapeXml(d)}\n</description>\n`;
  return `<skill>\n<name>\n${escapeXml(e.name)}\n</name>\n${description}<location>\n${e.location}\n</location>\n</skill>`;
}

/**
 * The catalog items of `entries` (catalogItem), each followed by a newline, as renderPrompt writes them between the
 * item before and the one after (locations relative to `base` when given); unsafe characters taken out.
 */
export function catalogItems(
  entries: readonly PromptEntry[],
  format: PromptFormat,
  level: DescriptionLevel,
  base?: string,
): string {
  let text = '';
  for (const e of entries) {
    const shown = base === undefined ? e : { ...e, location: relativePath(base, e.location) };
    text += `${catalogItem(shown, format, level)}\n`;
  }
  return stripUnsafe(text);
}

function mcpLine(m: McpServer): string {
  if (m.type === 'remote') return `remote, ${m.url ?? ''}`;
  return `local, ${[m.command ?? '', ...(m.args ?? [])].join(' ').trim()}`;
}

/**
 * The reference validator's block, line for line (skills-ref prompt.py): each value on its own line, name and
 * description through html.escape, the location as is; `skills-ref to-prompt` ends it with one newline.
 */
function renderXml(input: PromptInput): string {
  const level = input.descriptions ?? 'full';
  const blocks: string[] = [];
  if (input.soul !== undefined) blocks.push(input.soul.trim());
  if (input.tier === 'breadcrumb') blocks.push(breadcrumb(input.catalog.length));
  if (input.tier === 'catalog' || input.tier === 'full') {
    if (input.catalog.length > 0) {
      const lines = ['<available_skills>'];
      for (const e of input.catalog) lines.push(catalogItem(e, 'xml', level));
      lines.push('</available_skills>');
      blocks.push(lines.join('\n'));
    }
    if (input.tier === 'full') for (const s of input.active) blocks.push(skillContent(s));
  }
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

/** One thing --budget took out of the prompt. */
export type Dropped = { what: 'instructions'; skill: string } | { what: 'descriptions'; to: 'brief' | 'none' };

export interface Fitted {
  prompt: string;
  tokens: number;
  /** The input as rendered, after what was dropped. */
  input: PromptInput;
  dropped: Dropped[];
  /** True when the prompt is still over the budget with everything droppable dropped. */
  over: boolean;
}

/**
 * Render within `budget` tokens (counted by `count`): drop the full instructions of the selected skills, lowest
 * ranked first, then shorten every description to its brief form, then drop descriptions. Without a budget,
 * render as is.
 */
export async function fitBudget(
  input: PromptInput,
  format: PromptFormat,
  count: (text: string) => number | Promise<number>,
  budget?: number,
): Promise<Fitted> {
  let current: PromptInput = { ...input, active: [...input.active], descriptions: input.descriptions ?? 'full' };
  let prompt = renderPrompt(current, format);
  let tokens = prompt === '' ? 0 : await count(prompt);
  const dropped: Dropped[] = [];
  if (budget === undefined) return { prompt, tokens, input: current, dropped, over: false };
  const retry = async (next: PromptInput, d: Dropped) => {
    current = next;
    dropped.push(d);
    prompt = renderPrompt(current, format);
    tokens = prompt === '' ? 0 : await count(prompt);
  };
  const showsContent = current.tier === 'full';
  while (tokens > budget && showsContent && current.active.length > 0) {
    const last = current.active[current.active.length - 1]!;
    await retry({ ...current, active: current.active.slice(0, -1) }, { what: 'instructions', skill: last.name });
  }
  const showsCatalog = current.tier === 'catalog' || current.tier === 'full';
  if (tokens > budget && showsCatalog && current.catalog.length > 0 && current.descriptions === 'full')
    await retry({ ...current, descriptions: 'brief' }, { what: 'descriptions', to: 'brief' });
  if (tokens > budget && showsCatalog && current.catalog.length > 0 && current.descriptions !== 'none')
    await retry({ ...current, descriptions: 'none' }, { what: 'descriptions', to: 'none' });
  return { prompt, tokens, input: current, dropped, over: tokens > budget };
}
