// Which plugin a skill ships in: Claude Code, Codex and Cursor install a plugin whole and name its skills
// `plugin:name`. SK127 compares skills of one plugin only; SK109 lets a skill refer to its plugin's other files; the
// searches of skill folders (list, render-prompt) let skills of one name in two plugins stand side by side.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readBoundedBytes } from '../fs/read.js';

/** A manifest folder of an agent's plugin format: `.claude-plugin`, `.codex-plugin`, `.cursor-plugin`, … */
const MANIFEST_FOLDER = /^\.[a-z0-9][a-z0-9-]*-plugin$/i;

/**
 * Whether `dir` holds a plugin manifest: `plugin.json` (as GitHub Copilot and marketplaces without a manifest folder
 * keep it), or `plugin.json` in any agent's manifest folder (`.claude-plugin`,
 * `.codex-plugin`, `.cursor-plugin`, `.grok-plugin`: stripe/ai ships one plugin per agent, each with the same skills).
 */
function holdsPluginManifest(dir: string): boolean {
  if (existsSync(join(dir, 'plugin.json'))) return true;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((n) => MANIFEST_FOLDER.test(n) && existsSync(join(dir, n, 'plugin.json')));
}

/** The largest marketplace.json read (stripe's and anthropics' are a few KB). */
const MARKETPLACE_MAX = 4 << 20;

/** How many folders above a plugin's folder a marketplace naming it is looked for (its own folder included). */
const MARKETPLACE_REACH = 4;

/**
 * The plugin folders a Claude Code marketplace (`.claude-plugin/marketplace.json` in `dir`) names as the source of
 * its plugins: a relative source from `dir`, or from its `metadata.pluginRoot` when written without `./`. A plugin
 * needs no manifest of its own (anthropics/claude-code's plugin-dev has none): the marketplace entry is its manifest.
 */
function marketplaceSources(dir: string): string[] {
  let data: unknown;
  try {
    // A stranger's repository: a FIFO there is refused (never waited on), a file past MARKETPLACE_MAX not read.
    const { bytes } = readBoundedBytes(join(dir, '.claude-plugin', 'marketplace.json'), MARKETPLACE_MAX);
    if (!bytes) return [];
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return [];
  }
  if (typeof data !== 'object' || data === null) return [];
  const { plugins, metadata } = data as { plugins?: unknown; metadata?: { pluginRoot?: unknown } };
  if (!Array.isArray(plugins)) return [];
  const base = typeof metadata?.pluginRoot === 'string' ? resolve(dir, metadata.pluginRoot) : dir;
  const out: string[] = [];
  for (const p of plugins) {
    const source = (p as { source?: unknown } | null)?.source;
    if (typeof source !== 'string') continue;
    out.push(/^\.\.?\//.test(source) || source === '.' ? resolve(dir, source) : resolve(base, source));
  }
  return out;
}

/** What one run has learnt of folders: whether each is a plugin, and each marketplace's sources. */
export interface PluginCache {
  plugins: Map<string, string | undefined>;
  marketplaces: Map<string, string[]>;
}

export const pluginCache = (): PluginCache => ({ plugins: new Map(), marketplaces: new Map() });

function namedByMarketplace(dir: string, cache: PluginCache): boolean {
  let at = dir;
  for (let i = 0; i <= MARKETPLACE_REACH; i++) {
    let sources = cache.marketplaces.get(at);
    if (!sources) cache.marketplaces.set(at, (sources = marketplaceSources(at)));
    if (sources.includes(dir)) return true;
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  return false;
}

/** Whether a skill folder sits in a `skills/` folder, where a plugin keeps its skills: pluginOf looks only then. */
export const inSkillsFolder = (skillRoot: string): boolean => basename(dirname(skillRoot)) === 'skills';

/**
 * The plugin a skill folder ships in: the folder above its `skills/` folder, when that holds a plugin manifest or a
 * marketplace above it names it as a plugin's source; undefined for a skill in no plugin.
 */
export function pluginOf(skillRoot: string, cache: PluginCache): string | undefined {
  if (!inSkillsFolder(skillRoot)) return undefined;
  const plugin = dirname(dirname(skillRoot));
  if (!cache.plugins.has(plugin))
    cache.plugins.set(plugin, holdsPluginManifest(plugin) || namedByMarketplace(plugin, cache) ? plugin : undefined);
  return cache.plugins.get(plugin);
}

/**
 * The earlier skill of a name that shadows one more of it (`earlier` are those of its name kept so far, first
 * first), or undefined when none does: agents name a plugin's skills `plugin:name`, so skills of one name shadow each
 * other only within one plugin, or when neither is in a plugin (two of one agent folder).
 */
export function shadowFinder<T>(rootOf: (t: T) => string): (earlier: readonly T[], t: T) => T | undefined {
  const cache = pluginCache();
  return (earlier, t) => {
    if (earlier.length === 0) return undefined;
    const plugin = pluginOf(rootOf(t), cache);
    return earlier.find((e) => pluginOf(rootOf(e), cache) === plugin);
  };
}
