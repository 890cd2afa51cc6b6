import { z } from 'zod';
import { parseTree, getNodeValue, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { positionFinder } from './text.js';

/** What the index keeps of one registered version, so list, resolve and render-prompt need not read the skill. */
export const releaseSchema = z.object({
  /** sha512 SRI of the skill's content (sorted paths, execute bits and bytes), as `skills` computes it. */
  integrity: z.string(),
  layout: z.enum(['skill-md', 'manifest']),
  name: z.string(),
  description: z.string(),
  /** Dependency specs as written: `id` or `id@range`. */
  dependencies: z.array(z.string()),
  triggers: z.object({ keywords: z.array(z.string()), verbs: z.array(z.string()), patterns: z.array(z.string()) }).partial().optional(),
  nodeVersion: z.string().optional(),
  systemPackages: z.array(z.string()).optional(),
  /** Folder of the stored copy, relative to the registry: `built-in/<id>@<version>` or `custom/<id>@<version>`. */
  path: z.string(),
  registeredAt: z.string(),
});

/** One skill in the index: seed 000's registry fields, plus the per-version data above. */
export const indexEntrySchema = z.object({
  id: z.string(),
  /** Newest first. */
  versions: z.array(z.string()),
  latestVersion: z.string(),
  owner: z.string(),
  usedBy: z.array(z.string()),
  registeredAt: z.string(),
  updatedAt: z.string(),
  releases: z.record(releaseSchema),
});

export const indexSchema = z.object({
  /** Format version of this file. */
  version: z.literal(1),
  skills: z.array(indexEntrySchema),
});

export type Release = z.infer<typeof releaseSchema>;
export type IndexEntry = z.infer<typeof indexEntrySchema>;
export type RegistryIndex = z.infer<typeof indexSchema>;

export const EMPTY_INDEX: RegistryIndex = { version: 1, skills: [] };

/** Parse index.json text; a problem comes back located (line, column) rather than thrown. */
export function parseIndex(text: string): { index?: RegistryIndex; problem?: { message: string; line: number; column: number } } {
  // Fast path: JSON.parse is ten times quicker than a located parse on a big index; only a failure needs places.
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (data !== undefined) {
    const quick = indexSchema.safeParse(data);
    if (quick.success) return { index: quick.data };
  }
  const at = positionFinder(text);
  const errors: ParseError[] = [];
  let tree;
  try {
    tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  } catch {
    return { problem: { message: 'index.json nests too deeply to read', line: 1, column: 1 } };
  }
  if (errors.length > 0 || !tree) {
    const e = errors[0];
    return { problem: { message: `index.json is not valid JSON (${e ? printParseErrorCode(e.error) : 'empty'})`, ...at(e?.offset ?? 0) } };
  }
  const parsed = indexSchema.safeParse(getNodeValue(tree));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // Locate the deepest node the issue's path reaches.
    let node: typeof tree | undefined = tree;
    let offset = tree.offset;
    for (const key of issue.path) {
      if (!node) break;
      const child: typeof tree | undefined =
        node.type === 'object' ? node.children?.find((c) => c.children?.[0]?.value === key)?.children?.[1] : node.type === 'array' && typeof key === 'number' ? node.children?.[key] : undefined;
      if (child) offset = child.offset;
      node = child;
    }
    return { problem: { message: `index.json: ${issue.path.join('.') || 'the file'}: ${issue.message}`, ...at(offset) } };
  }
  return { index: parsed.data };
}

/** Serialize the index: stable key order, skills sorted by id, two-space indent, final newline. */
export function serializeIndex(index: RegistryIndex): string {
  const skills = [...index.skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return `${JSON.stringify({ version: 1, skills }, null, 2)}\n`;
}
