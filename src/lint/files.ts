import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Skill } from '../model/skill.js';
import { findEntry } from '../skill/load.js';
import { decodeUtf8, readBoundedBytes, SNIFF_BYTES } from '../fs/read.js';
import { entryMap } from './references.js';

const MAX_TEXT = 1024 * 1024;

/**
 * File access for lint rules on one skill: every file is read at most once, the skill file and context files
 * come from what load already read, and nothing outside the skill (through a symlink) is ever read.
 */
export function skillFiles(skill: Skill) {
  const texts = new Map<string, string | undefined>();
  const stats = new Map<string, { size: number; mode: number } | undefined>();
  const rel = (abs: string) =>
    abs
      .slice(skill.root.length + 1)
      .split('\\')
      .join('/');
  texts.set(rel(skill.file), skill.source);
  for (const part of skill.instructionParts) if (part.file !== skill.file) texts.set(rel(part.file), part.text);
  const map = entryMap(skill);
  // findEntry, with a look-up for a path as the walk wrote it; any other form (./x, a\\b, C:/x) goes through findEntry.
  const entryAt = (p: string) => (!p.includes('\\') && p[1] !== ':' && map.get(p)) || findEntry(skill, p);
  const inside = (p: string) => {
    const e = entryAt(p);
    return e && (e.kind === 'file' || (e.kind === 'symlink' && e.inside)) ? e.path : undefined;
  };
  return {
    readText(p: string): string | undefined {
      const path = inside(p);
      if (path === undefined) return undefined;
      if (texts.has(path)) return texts.get(path);
      let text: string | undefined;
      try {
        // A NUL byte in the first 8 KiB: binary, as git decides, and the rest is not read (a font, a PDF).
        const { bytes, stat } = readBoundedBytes(join(skill.root, path), MAX_TEXT, { textOnly: true });
        // What the open file is, as stat() would find it (a regular file, the link followed): no second look.
        if (!stats.has(path)) stats.set(path, stat);
        // A file that ended before 8 KiB was read whole at once: its NUL bytes are still to be looked for.
        if (bytes && !bytes.subarray(0, SNIFF_BYTES).includes(0)) {
          text = decodeUtf8(bytes);
          // A scan for a CR costs a fraction of a replace that finds none (most files have no CR).
          if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
        }
      } catch {
        text = undefined;
      }
      texts.set(path, text);
      return text;
    },
    stat(p: string): { size: number; mode: number } | undefined {
      const path = inside(p);
      if (path === undefined) return undefined;
      if (!stats.has(path)) {
        try {
          const st =
            entryAt(path)?.kind === 'symlink' ? statSync(join(skill.root, path)) : lstatSync(join(skill.root, path));
          stats.set(path, { size: st.size, mode: st.mode });
        } catch {
          stats.set(path, undefined);
        }
      }
      return stats.get(path);
    },
  };
}
