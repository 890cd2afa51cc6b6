import { registryFor } from '../registry/locate.js';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Context } from '../context.js';
import { installSkills } from '../install/install.js';
import { findLockfile } from '../install/lock.js';
import type { InstallOutcome } from '../install/types.js';
import { SkillsError } from '../errors.js';
import { jsonDiagnostic } from '../model/diagnostic.js';
import { paint, useColor } from '../ui/color.js';
import { startProgress } from '../ui/spinner.js';
import { formatDiagnostic } from '../ui/validate-report.js';
import { safeJson } from '../ui/terminal-text.js';

export interface InstallOptions {
  sources: string[];
  from?: string;
  into?: string;
  for?: string;
  frozen?: boolean;
  force?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
}

/**
 * `skills install [source…]`: exit 0 installed; 1 when a skill is invalid, no resolution exists, or --frozen and
 * the lock would change (findings, reported here); 2 for usage, I/O, a corrupt or hostile archive, an integrity
 * mismatch (thrown, so main.ts reports them).
 */
export async function install(
  options: InstallOptions,
  ctx: Context,
): Promise<{ outcome: InstallOutcome; exitCode: number }> {
  if (options.for !== undefined && options.for.trim() === '') {
    throw new SkillsError('E_USAGE', '--for is empty: expected the id of the agent or project that uses the skills', {
      hint: 'e.g. --for content-creator',
    });
  }
  const registry = registryFor(options, ctx);
  const lockfile = findLockfile(ctx.cwd);
  const progress = await startProgress(
    ctx,
    options,
    options.sources.length ? 'installing' : `installing from ${lockfile}`,
  );
  let outcome: InstallOutcome;
  try {
    outcome = await installSkills({
      registry,
      lockfile,
      sources: options.sources,
      from: options.from === undefined ? undefined : resolve(ctx.cwd, options.from),
      into: options.into === undefined ? undefined : resolve(ctx.cwd, options.into),
      consumer: options.for?.trim(),
      frozen: options.frozen,
      force: options.force,
      cwd: ctx.cwd,
      nodeVersion: process.versions.node,
      progress: (t) => progress.text(t),
    });
  } finally {
    progress.stop();
  }
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  // A finding inside an archive is named `<archive>: <path inside>`, which is no path to make relative.
  const rel = (p: string) => (isAbsolute(p) ? relative(ctx.cwd, p) || '.' : p);
  for (const w of outcome.warnings) ctx.stderr.write(`${ce.yellow('warning:')} ${w}\n`);

  if (!outcome.ok) {
    const { error } = outcome;
    if (options.json) {
      const doc = {
        error: {
          code: error.code,
          kind: outcome.kind,
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        },
        ...(outcome.invalid
          ? {
              invalid: outcome.invalid.map((i) => ({
                source: i.source,
                id: i.id,
                diagnostics: i.diagnostics.map(jsonDiagnostic),
              })),
            }
          : {}),
        ...(outcome.changes ? { changes: outcome.changes } : {}),
      };
      ctx.stdout.write(`${safeJson(doc)}\n`);
    } else {
      if (outcome.invalid) {
        for (const i of outcome.invalid) {
          ctx.stderr.write(`${ce.red('error:')} ${i.message}\n`);
          for (const d of i.diagnostics) ctx.stderr.write(`${formatDiagnostic(d, ce, rel)}\n`);
        }
      } else ctx.stderr.write(`${ce.red('error:')} ${error.message}\n`);
      if (error.hint) ctx.stderr.write(`${ce.dim('hint:')} ${error.hint}\n`);
    }
    return { outcome, exitCode: 1 };
  }

  if (options.json) {
    const { ok: _ok, ...doc } = outcome;
    ctx.stdout.write(`${safeJson(doc)}\n`);
    return { outcome, exitCode: 0 };
  }
  const colour = { added: c.green, updated: c.green, replaced: c.yellow, unchanged: c.dim } as const;
  for (const s of outcome.skills) {
    const written = s.placed?.some((p) => p.status === 'written') ?? false;
    const label = s.status === 'unchanged' && !written ? 'present' : s.status === 'unchanged' ? 'installed' : s.status;
    const into = s.placed?.length
      ? `  → ${s.placed.map((p) => `${rel(p.into)}${p.status === 'unchanged' ? ' (unchanged)' : ''}`).join(', ')}`
      : '';
    ctx.stdout.write(
      `${colour[s.status](label.padEnd(9))} ${c.bold(`${s.id}@${s.version}`)}${s.requested ? '' : c.dim(' (dependency)')}${into}\n`,
    );
  }
  const n = outcome.skills.length;
  ctx.stdout.write(
    `${n} skill${n === 1 ? '' : 's'} installed into ${outcome.registry}; ${rel(outcome.lockfile)} ${outcome.lockChanged ? 'written' : 'unchanged'}\n`,
  );
  return { outcome, exitCode: 0 };
}
