// validate's checks of a manifest.json skill (seed 000's layout).
import { basename } from 'node:path';
import validRange from 'semver/ranges/valid.js';
import type { Diagnostic, Position } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { closest, suggestName } from './names.js';
import { MANIFEST_KEYS } from '../model/schemas.js';
import { diag } from '../model/diagnostic.js';
import { checkPath } from './check-path.js';

export function checkManifest(skill: Skill, out: Diagnostic[]): void {
  const raw = skill.raw;
  const file = skill.file;
  const at = (k: string): Position | undefined => skill.positions[k];
  const known = new Set(MANIFEST_KEYS);
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    const near = closest(key, MANIFEST_KEYS);
    out.push(
      diag(
        'unknown-key',
        'warning',
        `unknown manifest field "${key}"${near ? `; did you mean "${near}"?` : ''}`,
        file,
        at(key),
      ),
    );
  }
  // The id's example is worked out only for a message that needs it (NFKC and a Unicode pattern per skill).
  const example: Record<string, string> = {
    get id() {
      return suggestName(basename(skill.root));
    },
    name: 'Social Media APIs',
    version: '1.0.0',
    description: 'Post to social networks. Use when …',
    owner: 'built-in',
  };
  for (const key of ['id', 'name', 'version', 'description', 'owner']) {
    const v = raw[key];
    if (v === undefined || (typeof v === 'string' && v.trim() === '')) {
      out.push(
        diag(
          'manifest-required',
          'error',
          `${key} is ${v === undefined ? 'missing' : 'empty'}: expected e.g. "${key}": "${example[key]}"`,
          file,
          at(key) ?? { line: 1, column: 1 },
        ),
      );
    }
  }
  if (typeof raw.id === 'string' && raw.id !== '' && !/^[a-z0-9-]+$/.test(raw.id)) {
    out.push(
      diag(
        'id-format',
        'error',
        `id "${raw.id}" may hold only lowercase letters, digits and hyphens: expected e.g. "${suggestName(raw.id)}"`,
        file,
        at('id'),
      ),
    );
  }
  for (const key of ['context', 'scripts'] as const) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    list.forEach((p, i) => {
      if (typeof p === 'string') checkPath(skill, p, `${key}[${i}]`, out, key === 'scripts');
    });
  }
  if (skill.envVars.length > 0) {
    if (!skill.envExample) {
      out.push(
        diag(
          'env-example',
          'error',
          `envVars declares ${skill.envVars.join(', ')} but the skill has no .env.example`,
          file,
          at('envVars'),
          `create .env.example with one line per variable:\n${skill.envVars.map((v) => `${v}=`).join('\n')}`,
        ),
      );
    } else {
      const missing = skill.envVars.filter((v) => !skill.envExample!.includes(v));
      if (missing.length > 0) {
        out.push(
          diag(
            'env-example',
            'error',
            `.env.example does not name ${missing.join(', ')}, declared in envVars`,
            file,
            at('envVars'),
            `add to .env.example:\n${missing.map((v) => `${v}=`).join('\n')}`,
          ),
        );
      }
    }
  }
  if (Array.isArray(raw.mcpServers)) {
    const names = new Set<string>();
    raw.mcpServers.forEach((m, i) => {
      const name = m && typeof m === 'object' ? (m as { name?: unknown }).name : undefined;
      if (typeof name === 'string') {
        if (names.has(name))
          out.push(
            diag(
              'mcp-server',
              'error',
              `mcpServers[${i}]: the name "${name}" is used twice`,
              file,
              at(`mcpServers[${i}].name`),
            ),
          );
        names.add(name);
      }
    });
  }
  if (typeof raw.nodeVersion === 'string' && validRange(raw.nodeVersion) === null) {
    out.push(
      diag(
        'node-version',
        'error',
        `nodeVersion "${raw.nodeVersion}" is not a semver range: expected e.g. ">=20.0.0"`,
        file,
        at('nodeVersion'),
      ),
    );
  }
}
