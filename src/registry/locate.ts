import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { homeOf, type Context } from '../context.js';

/**
 * Where the registry is: --registry, else SKILLS_REGISTRY, else the nearest .skills/ from cwd upward, else
 * <home>/.skills.
 */
export function locateRegistry(opts: {
  registry?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
}): string {
  if (opts.registry !== undefined && opts.registry.trim() !== '') return resolve(opts.cwd, opts.registry);
  const fromEnv = opts.env.SKILLS_REGISTRY;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolve(opts.cwd, fromEnv);
  for (let d = resolve(opts.cwd), prev = ''; d !== prev; prev = d, d = dirname(d)) {
    try {
      if (statSync(join(d, '.skills')).isDirectory()) return join(d, '.skills');
    } catch {
      /* not here: look further up */
    }
  }
  return join(resolve(opts.cwd, opts.home), '.skills');
}

/** The registry a command works on: its --registry option, else the rest of locateRegistry's order. */
export function registryFor(options: { registry?: string }, ctx: Pick<Context, 'cwd' | 'env'>): string {
  return locateRegistry({ registry: options.registry, cwd: ctx.cwd, env: ctx.env, home: homeOf(ctx) });
}

/**
 * The registry a command was asked to use: --registry, SKILLS_REGISTRY, or a `.skills/` folder in the project (from
 * cwd up to the project's root, the lockfile's folder; never the home folder's own `.skills`). undefined: none was
 * asked for, and a project install writes no registry.
 */
export function askedRegistry(
  options: { registry?: string },
  ctx: Pick<Context, 'cwd' | 'env'>,
  projectRoot: string,
): string | undefined {
  if (options.registry !== undefined && options.registry.trim() !== '') return resolve(ctx.cwd, options.registry);
  const fromEnv = ctx.env.SKILLS_REGISTRY;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolve(ctx.cwd, fromEnv);
  const home = resolve(homeOf(ctx));
  const root = resolve(projectRoot);
  for (let d = resolve(ctx.cwd), prev = ''; d !== prev && d !== home; prev = d, d = dirname(d)) {
    try {
      if (statSync(join(d, '.skills')).isDirectory()) return join(d, '.skills');
    } catch {
      /* not here: look further up, to the project's root */
    }
    if (d === root) break;
  }
  return undefined;
}
