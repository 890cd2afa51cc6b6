// The registry's commands: `skills registry sync|remove|use|unuse|list`, and the old top-level sync, use, unuse.
import { Option, type Command } from 'commander';
import { SkillsError } from '../errors.js';
import { listOptions, type Kit } from './kit.js';

export function defineRegistry(program: Command, { act, examples, registryOption }: Kit): void {
  // The registry's own operations (a team's or an agent server's store of versioned skills), in one group. sync,
  // use and unuse answer at the top level too (hidden), as they did before the group existed; `remove` there is
  // uninstall's, as in every peer.
  const defineSync = (cmd: Command) =>
    cmd
      .description(
        'register every valid skill in a folder: copy it into the registry store and add its version to the index',
      )
      .argument('<dir>', 'a skill folder, or a folder holding skills')
      .option('--owner <id>', "owner of the registered skills (default: the skill's own owner, else built-in)")
      .option('--force', 'replace a registered version whose content differs')
      .option('--watch', 'keep watching the folder and register skills as they appear or change')
      .option('--dry-run', 'say what each skill would be (added, updated, …), and register nothing')
      .option('-q, --quiet', 'print only the skills skipped as invalid or refused, and errors')
      .option('--json', 'print the result as JSON (with --watch: one JSON line per event)')
      .addOption(registryOption())
      .addHelpText('after', examples(['skills registry sync ./skills', 'skills registry sync . --watch']))
      .action(act(async () => (await import('../commands/sync.js')).sync, ['dir']));
  const defineUse = (cmd: Command, add: boolean) =>
    cmd
      .description(
        add
          ? "record that a consumer (an agent, a project) uses a skill: it goes into the skill's usedBy"
          : "record that a consumer no longer uses a skill: it leaves the skill's usedBy",
      )
      .argument('<id>', 'the skill id')
      .option('--for <consumer>', add ? 'who uses the skill' : 'who no longer uses the skill')
      .addOption(new Option('--by <consumer>').hideHelp())
      .option('--json', 'print the result as JSON')
      .addOption(registryOption())
      .addHelpText('after', examples([`skills registry ${add ? 'use' : 'unuse'} pdf --for content-creator`]))
      .action(
        act(
          async () => (await import(add ? '../commands/use.js' : '../commands/unuse.js'))[add ? 'use' : 'unuse'],
          ['id'],
          (o) => ({ ...o, by: oneConsumer(o.for, o.by) }),
        ),
      );
  const registry = program
    .command('registry')
    .description('the registry of versioned skills a team or an agent server keeps: sync, remove, use, unuse, list')
    .addHelpText(
      'after',
      examples(['skills registry sync ./skills', 'skills registry list', 'skills registry remove pdf@1.0.0']),
    );
  defineSync(registry.command('sync'));
  registry
    .command('remove')
    .alias('rm')
    .description('remove a skill version (or every version) from the registry store and index')
    .argument('<spec>', 'id (every version) or id@version')
    .option(
      '--force',
      "remove even while usedBy is not empty, or this project's skills-lock.json installs it from the registry",
    )
    .option('-q, --quiet', 'print nothing but errors')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .addHelpText(
      'after',
      examples(['skills registry remove pdf@1.0.0', 'skills registry remove pdf   # every version']),
    )
    .action(act(async () => (await import('../commands/remove.js')).remove, ['spec']));
  defineUse(registry.command('use'), true);
  defineUse(registry.command('unuse'), false);
  listOptions(registry.command('list').alias('ls').description("list the registry's skills (from its index alone)"))
    .addHelpText('after', examples(['skills registry list --long', 'skills registry list --owner built-in --json']))
    .action(
      act(
        async () => (await import('../commands/list.js')).list,
        [],
        (o) => ({ ...o, dirs: [], folders: false }),
      ),
    );
  defineSync(program.command('sync', { hidden: true }));
  defineUse(program.command('use', { hidden: true }), true);
  defineUse(program.command('unuse', { hidden: true }), false);
}

/** `--for` (and `--by`, its old name): two different consumers in one command are a usage error, not one ignored. */
function oneConsumer(forName: unknown, by: unknown): unknown {
  if (forName !== undefined && by !== undefined && forName !== by)
    throw new SkillsError('E_USAGE', `--for ${String(forName)} and --by ${String(by)} name two consumers`, {
      hint: '--by is the old name of --for: give one of them',
    });
  return forName ?? by;
}
