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
