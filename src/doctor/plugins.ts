import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isSkillsError } from '../errors.js';
import { parseJsonObject } from '../formats/json.js';
import { readBounded } from '../fs/read.js';
import { isFolder, isInside, real } from '../fs/walk.js';

// The Claude Code plugins that are enabled here, and the folders their skills are in. Claude Code lists a plugin's
// skills beside the others, named `<plugin>:<skill>`, so they take part of the same listing budget (docs: Plugins,
// "namespaced skills"). Where a plugin is installed and whether it is enabled is in Claude Code's own files, which
// its docs do not describe: `<config>/plugins/installed_plugins.json` (version 2: each `<plugin>@<marketplace>` with
// a list of installs, `{scope, installPath, projectPath?, version}`; version 1: one install each) and the
// `enabledPlugins` of its settings files (`{"<plugin>@<marketplace>": true}`): the user's, then the project's
// `.claude/settings.json` and `.claude/settings.local.json`, a later one deciding a plugin the earlier named. What
// cannot be read of them is a warning, never an error: they are Claude Code's files, not ours.

/** An enabled plugin with an install that applies here. */
export interface EnabledPlugin {
  /** `<plugin>@<marketplace>`, as Claude Code's files name it. */
  id: string;
  /** The plugin's name: its skills are listed as `<name>:<skill>`. */
  name: string;
  /** The install's folder. */
  dir: string;
  /** The folders its skills are in: `skills/`, and the paths its `.claude-plugin/plugin.json` adds. */
  skillDirs: string[];
}

export interface ClaudePlugins {
  plugins: EnabledPlugin[];
  warnings: string[];
}

/** Larger settings or plugin records than this are not read (a warning says so). */
const MAX_FILE = 8 * 1024 * 1024;

/** The enabled plugins of Claude Code whose config folder is `configDir`, working in the project `project`. */
export function claudePlugins(configDir: string, project: string): ClaudePlugins {
  const warnings: string[] = [];
  const enabled = new Map<string, boolean>();
  for (const file of [
    join(configDir, 'settings.json'),
    join(project, '.claude', 'settings.json'),
    join(project, '.claude', 'settings.local.json'),
  ]) {
    const settings = readObject(file, warnings, 'its enabledPlugins are not counted');
    const map = settings?.enabledPlugins;
    if (map === undefined) continue;
    if (!isRecord(map)) {
      warnings.push(`${file}: enabledPlugins is not an object of "<plugin>@<marketplace>": true; it is not counted`);
      continue;
    }
    for (const [id, on] of Object.entries(map)) if (typeof on === 'boolean') enabled.set(id, on);
  }
  const on = [...enabled].filter(([, v]) => v).map(([id]) => id);
  if (on.length === 0) return { plugins: [], warnings };
  const recordFile = join(configDir, 'plugins', 'installed_plugins.json');
  const record = readObject(recordFile, warnings, 'the skills of enabled plugins are not counted');
  if (!record) {
    if (!existsSync(recordFile))
      warnings.push(`${on.length} plugin(s) are enabled (${on.join(', ')}) but ${recordFile} is not there`);
    return { plugins: [], warnings };
  }
  const installs = isRecord(record.plugins) ? record.plugins : undefined;
  if (!installs) {
    warnings.push(`${recordFile}: no "plugins" object; the skills of enabled plugins are not counted`);
    return { plugins: [], warnings };
  }
  const plugins: EnabledPlugin[] = [];
  for (const id of on) {
    const entries = installs[id];
    const list = Array.isArray(entries) ? entries : entries === undefined ? [] : [entries];
    const install = pickInstall(list.filter(isRecord), project);
    if (!install) {
      warnings.push(`plugin ${id} is enabled but ${recordFile} has no install of it for this project`);
      continue;
    }
    const dir = install.installPath;
    if (!isFolder(dir)) {
      warnings.push(`plugin ${id} is enabled but its folder ${dir} is not there (reinstall it: /plugin install ${id})`);
      continue;
    }
    const at = id.lastIndexOf('@');
    plugins.push({ id, name: at > 0 ? id.slice(0, at) : id, dir, skillDirs: skillDirsOf(dir, id, warnings) });
  }
  return { plugins, warnings };
}

/** The install that applies in `project`: one for this project (local, then project scope), else the user's. */
function pickInstall(list: Record<string, unknown>[], project: string): { installPath: string } | undefined {
  const withPath = list.filter((e): e is Record<string, unknown> & { installPath: string } => {
    return typeof e.installPath === 'string' && e.installPath !== '';
  });
  const here = (e: Record<string, unknown>) => typeof e.projectPath === 'string' && sameFolder(e.projectPath, project);
  return (
    withPath.find((e) => e.scope === 'local' && here(e)) ??
    withPath.find((e) => e.scope === 'project' && here(e)) ??
    withPath.find((e) => e.scope === undefined || e.scope === 'user')
  );
}

/** `skills/`, then each path of plugin.json's `skills` (a string or a list) that stays inside the plugin. */
function skillDirsOf(dir: string, id: string, warnings: string[]): string[] {
  const dirs = [join(dir, 'skills')];
  const manifest = join(dir, '.claude-plugin', 'plugin.json');
  const extra = readObject(manifest, warnings, 'only its skills/ folder is read')?.skills;
  const paths = typeof extra === 'string' ? [extra] : Array.isArray(extra) ? extra : [];
  for (const p of paths) {
    if (typeof p !== 'string') continue;
    const abs = resolve(dir, p);
    if (!isInside(dir, abs))
      warnings.push(`plugin ${id}: ${manifest} names skills at ${p}, outside the plugin's folder; not read`);
    else if (!dirs.includes(abs)) dirs.push(abs);
  }
  return dirs.filter(isFolder);
}

/** The JSON object in `file`; undefined, with a warning, when it is there but cannot be read as one. */
function readObject(file: string, warnings: string[], consequence: string): Record<string, unknown> | undefined {
  let text: string | undefined;
  try {
    const read = readBounded(file, MAX_FILE);
    if (read.tooLarge !== undefined) {
      warnings.push(`${file} is ${read.tooLarge} bytes, over the ${MAX_FILE} read; ${consequence}`);
      return undefined;
    }
    text = read.text;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (isSkillsError(err)) warnings.push(`${err.message}; ${consequence}`);
    else if (code !== undefined) warnings.push(`cannot read ${file}: ${(err as Error).message}; ${consequence}`);
    else throw err;
    return undefined;
  }
  const { value, problem } = parseJsonObject(text ?? '');
  if (problem) {
    warnings.push(`${file}:${problem.line}:${problem.column}: ${problem.message}; ${consequence}`);
    return undefined;
  }
  return value;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const sameFolder = (a: string, b: string) => real(resolve(a)) === real(resolve(b));
