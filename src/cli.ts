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

  const registryOption = () => new Option('--registry <dir>', 'the registry folder (default: SKILLS_REGISTRY, else the nearest .skills/ upward, else ~/.skills)');

  program
    .command('sync')
    .description('register every valid skill in a folder: copy it into the registry store and add its version to the index')
    .argument('<dir>', 'a skill folder, or a folder holding skills')
    .option('--owner <id>', 'owner of the registered skills (default: the skill\'s own owner, else built-in)')
    .option('--force', 'replace a registered version whose content differs')
    .option('--watch', 'keep watching the folder and register skills as they appear or change')
    .option('--json', 'print the result as JSON (with --watch: one JSON line per event)')
    .addOption(registryOption())
    .action(async (dir: string, opts, cmd: Command) => {
      const all = cmd.optsWithGlobals();
      const { sync } = await import('./commands/sync.js');
      const { exitCode } = await sync({ dir, ...opts, color: all.color }, ctx);
      setExit(exitCode);
    });

  program
    .command('remove')
    .description('remove a skill version (or every version) from the registry store and index')
    .argument('<spec>', 'id (every version) or id@version')
    .option('--force', 'remove even while usedBy is not empty')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .action(async (spec: string, opts) => {
      const { remove } = await import('./commands/remove.js');
      await remove({ spec, ...opts }, ctx);
      setExit(0);
    });

  program
    .command('use')
    .description("record that a consumer (an agent, a project) uses a skill: it goes into the skill's usedBy")
    .argument('<id>', 'the skill id')
    .requiredOption('--by <consumer>', 'who uses the skill')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .action(async (id: string, opts) => {
      const { use } = await import('./commands/use.js');
      await use({ id, ...opts }, ctx);
      setExit(0);
    });

  program
    .command('unuse')
    .description("record that a consumer no longer uses a skill: it leaves the skill's usedBy")
    .argument('<id>', 'the skill id')
    .requiredOption('--by <consumer>', 'who no longer uses the skill')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .action(async (id: string, opts) => {
      const { unuse } = await import('./commands/unuse.js');
      await unuse({ id, ...opts }, ctx);
      setExit(0);
    });

  program
    .command('list')
    .description('list the skills in the registry and in skill folders (./skills, ./.agents/skills, ./.claude/skills, ~/.agents/skills)')
    .argument('[dirs...]', 'skill folders to list instead of the default ones')
    .option('--json', 'print the result as JSON')
    .option('--long', 'show every version, not only the latest')
    .option('--owner <id>', 'only skills of this owner')
    .addOption(new Option('--layout <layout>', 'only skills of this layout').choices(['skill-md', 'manifest']))
    .addOption(registryOption())
    .action(async (dirs: string[], opts, cmd: Command) => {
      const all = cmd.optsWithGlobals();
      const { list } = await import('./commands/list.js');
      await list({ dirs, ...opts, color: all.color }, ctx);
      setExit(0);
    });

  program
    .command('resolve')
    .description('pick, for each skill and its dependencies, the highest version that satisfies every constraint; print them dependencies first')
    .argument('<specs...>', 'skill specs: id (the latest, with a warning), id@1.2.3 or id@<semver range>')
    .option('--tree', 'draw the dependency graph')
    .option('--json', 'print one JSON document: {resolved, warnings} or {error}')
    .addOption(registryOption())
    .addHelpText('after', '\nExit codes: 0 resolved; 1 no resolution (unknown skill, missing version, conflict, cycle); 2 a bad spec or an unreadable registry.')
    .action(async (specs: string[], opts, cmd: Command) => {
      const all = cmd.optsWithGlobals();
      const { resolve } = await import('./commands/resolve.js');
      const { exitCode } = await resolve({ specs, ...opts, color: all.color }, ctx);
      setExit(exitCode);
    });

  return program;
}
