import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileIdentity, indexIdentity, readIndex, readReleasesFile } from '../../src/registry/index-io.js';
import { releasesFile } from '../../src/registry/layout.js';
import { RESOLVE_INDEX_FILE, rowOf } from '../../src/registry/resolve-index.js';

/**
 * The resolve index a registry's files call for, built afresh from index.json and every releases file: what the one
 * a write leaves must equal, byte for byte.
 */
export function rebuiltResolveIndex(reg: string): string {
  const skills = readIndex(reg).skills;
  const body = skills
    .map((e) => {
      const file = releasesFile(reg, e.id);
      const identity = fileIdentity(statSync(file));
      return `${e.id}\t${JSON.stringify(e.versions)}\t${identity}\t${rowOf(e.id, readReleasesFile(reg, e.id, false)!)}\n`;
    })
    .join('');
  const header = JSON.stringify({
    format: 'skills-resolve-index',
    version: 2,
    index: indexIdentity(reg),
    skills: skills.length,
    length: body.length,
  });
  return `${header}\n${body}`;
}

/** The registry's resolve index as it is on disk. */
export const resolveIndexText = (reg: string) => readFileSync(join(reg, RESOLVE_INDEX_FILE), 'utf8');
