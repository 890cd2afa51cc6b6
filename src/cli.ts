import { Command, Option } from 'commander';
import type { Context } from './context.js';

/** Set by an action: the exit code its command chose. */
export type SetExit = (code: number) => void;

/** The commander program; every action imports its handler lazily, so start-up loads only what it runs. */
export function buildProgram(ctx: Context, setExit: SetExit): Command {
  const program = new Command('skills')
    .description('Author, check, package, install, resolve, render and run agent skills (SKILL.md and manifest.json)')
    .version(ctx.version, '-V, --version', 'print the version')
    .option('--color', 'force colour output')
    .option('--no-color', 'disable colour output (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false });

  program
    .command('validate')
    .description('check skills against the Agent Skills specification and the manifest.json layout')
    .argument('[paths...]', 'skill folders, folders holding skills, or files inside skills (default: .)')
    .option('--strict', 'fail on warnings too')
    .option('--spec', 'check against the bare Agent Skills specification, as the reference validator (skills-ref) does')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['stylish', 'json']).default('stylish'))
    .option('--json', 'same as --format json')
    .action(async (paths: string[], opts, cmd: Command) => {
      const all = cmd.optsWithGlobals();
      const { validate } = await import('./commands/validate.js');
      const { exitCode } = await validate({ paths, ...opts, format: opts.json ? 'json' : opts.format, color: all.color }, ctx);
      setExit(exitCode);
    });

  program
    .command('lint')
    .description('find what is valid but will work badly in an agent: every validate check plus best-practice rules')
    .argument('[paths...]', 'skill folders, folders holding skills, or files inside skills (default: .)')
    .addOption(new Option('-f, --format <format>', 'output format (markdown too, with --list-rules)').choices(['stylish', 'json', 'sarif', 'markdown']).default('stylish'))
    .option('--json', 'same as --format json')
    .option('--max-warnings <n>', 'fail when there are more than n warnings', (v: string) => Number(v))
    .option('--fix', 'apply the safe fixes and report each change')
    .option('--fix-dry-run', 'print the diff the fixes would make, change nothing')
    .option('-c, --config <file>', 'configuration file (default: the nearest skills.config.json)')
    .option('--strict', 'fail on warnings too')
    .option('--spec', "check SKILL.md against the bare Agent Skills specification, as validate --spec does")
    .option('--list-rules', 'list every rule (with --format markdown: docs/rules.md)')
    .action(async (paths: string[], opts, cmd: Command) => {
      const all = cmd.optsWithGlobals();
      const { lint } = await import('./commands/lint.js');
      const { exitCode } = await lint({ paths, ...opts, format: opts.json ? 'json' : opts.format, color: all.color }, ctx);
      setExit(exitCode);
    });

  program
    .command('init')
    .description('create a new skill folder from a template')
    .argument('<name>', 'the skill name (lowercase letters, digits and hyphens), also its folder name')
    .addOption(new Option('-l, --layout <layout>', 'skill layout').choices(['skill-md', 'manifest']))
    .option('-d, --description <text>', 'what the skill does and when to use it')
    .option('--owner <owner>', 'owner: "built-in" or an agent id (manifest owner; metadata.author in SKILL.md)')
    .option('--skill-version <version>', 'initial version (semver)')
    .option('--with <parts>', 'optional folders to create: scripts,references,assets', (v: string, prev: string[] = []) => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)])
    .option('--dir <parent>', 'parent folder to create the skill in (default: the current folder)')
    .option('-y, --yes', 'accept defaults for everything not given; never prompt')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, opts) => {
      const { init } = await import('./commands/init.js');
      await init({ name, ...opts, version: opts.skillVersion }, ctx);
      setExit(0);
    });

  return program;
}
