import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

export type TreeSpec = Record<string, string | { content: string; mode?: number } | { symlink: string }>;

/** Write files (and symlinks) below `root`; paths use forward slashes. */
export function writeTree(root: string, tree: TreeSpec): void {
  for (const [rel, spec] of Object.entries(tree)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof spec === 'string') writeFileSync(abs, spec);
    else if ('symlink' in spec) symlinkSync(spec.symlink, abs);
    else {
      writeFileSync(abs, spec.content);
      if (spec.mode !== undefined) chmodSync(abs, spec.mode);
    }
  }
}

/** A SKILL.md text from frontmatter lines and a body. */
export function skillMd(frontmatter: string, body = '# Skill\n\nInstructions.\n'): string {
  return `---\n${frontmatter.replace(/^\n/, '')}${frontmatter.endsWith('\n') ? '' : '\n'}---\n${body}`;
}

/** Every file and folder below `dir` (none when it is missing): a folder as `<dir>`, a file with its content. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const abs = join(dir, rel);
    out[rel] = statSync(abs).isDirectory() ? '<dir>' : readFileSync(abs, 'utf8');
  }
  return out;
}

/**
 * Every entry below `dir`: its kind, permission bits, and content or link text (`snapshot` with modes and links);
 * the files `skip` names are left out.
 */
export function describeTree(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (abs: string, rel: string) => {
    const st = lstatSync(abs);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isDirectory()) {
      out[rel || '.'] = `dir ${mode}`;
      for (const name of readdirSync(abs).sort()) visit(join(abs, name), rel ? `${rel}/${name}` : name);
    } else if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(abs)}`;
    else if (!skip(rel)) out[rel] = `file ${mode} ${readFileSync(abs, 'utf8')}`;
  };
  visit(dir, '');
  return out;
}

/** A Claude Code marketplace's `.claude-plugin/marketplace.json` naming each plugin by its folder (`./<name>`). */
export const marketplaceJson = (...plugins: string[]): string =>
  JSON.stringify({ name: 'm', owner: { name: 'me' }, plugins: plugins.map((p) => ({ name: p, source: `./${p}` })) });
