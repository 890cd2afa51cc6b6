// Installing and keeping skills: install (add), uninstall (remove, rm), outdated, update.
import type { Command } from 'commander';
import type { Kit } from './kit.js';

export function defineInstall(program: Command, { act, examples, registryOption, collectList }: Kit): void {
  program
    .command('install')
    .alias('add')
    .description(
      'install skills from a git repository, an archive or a folder into the agent folders of this project (with --global, your user folders); with no sources, install what skills-lock.json says',
    )
    .argument(
      '[sources...]',
      'owner/repo[/path], a git URL (#ref, #ref:path), an archive file or URL (.tgz .zip .skill), a skill folder, or a registry spec id[@range]',
    )
    .option(
      '-a, --agent <names>',
      'place skills where these agents read them (comma-separated or repeated; skills agents lists them)',
      collectList,
    )
    .option('-g, --global', "install into each agent's user folder (e.g. ~/.claude/skills), locked in ~/.config/skills")
    .option(
      '--into <dir>',
      'also write flat <id>/ folders here (e.g. .claude/skills); recorded in skills-lock.json, so later installs place skills there too',
      collectList,
    )
    .option(
      '-s, --skill <ids>',
      'of a repository or folder of many skills, only these (comma-separated or repeated)',
      collectList,
    )
    .option('-l, --list', 'list the skills the sources hold, and install nothing')
    .option('-y, --yes', 'ask nothing: every skill of a source, and the agent folders found')
    .option('--strict', 'refuse every skill when one skill of a source of many is invalid (else it is skipped)')
    .option('--link', 'symlink each <folder>/<id> to the skill folder instead of copying it (for authors)')
    .option('--from <dir>', 'resolve specs and dependencies from this registry folder instead of the registry')
    .option(
      '--for <consumer>',
      "record this consumer in each installed skill's usedBy (uses the registry; places into no agent folder unless --agent or --into)",
    )
    .option(
      '--frozen',
      'fail, writing nothing, when the skills in skills-lock.json would change; never writes the lock (an --into it lacks is used, not recorded)',
    )
    .option(
      '--force',
      'replace a registered version with other content, and an <into>/<id> folder skills did not write',
    )
    .option('--dry-run', 'fetch, check and plan everything, and write nothing in the project (the cache may fill)')
    .option('--verbose', 'name every skill a warning counts')
    .option('-q, --quiet', 'print nothing but errors (and the skills skipped as invalid)')
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .addHelpText(
      'after',
      [
        '',
        'A project install writes only the agent folders and skills-lock.json; the registry is used when asked for (--registry, SKILLS_REGISTRY, a .skills/ folder in the project, --for).',
        '',
        'Exit codes: 0 installed; 1 an invalid skill (skipped or refused), no resolution, or --frozen and the lock would change or not hold (an integrity mismatch); 2 usage, I/O, git or download failures, a corrupt or refused archive, an integrity mismatch without --frozen.',
      ].join('\n') +
        '\n' +
        examples([
          'skills install anthropics/skills --skill pdf --agent claude-code',
          'skills install https://github.com/o/r.git#v1.2.0:skills/pdf',
          'skills install --frozen             # CI: what skills-lock.json says',
        ]),
    )
    .action(act(async () => (await import('../commands/install.js')).install, ['sources']));

  program
    .command('uninstall')
    .aliases(['remove', 'rm'])
    .description(
      "remove a skill from this project's agent folders (--into, --agent, and the lock's recorded folders) and skills-lock.json, and from the registry store when a registry is in use and nothing else uses it",
    )
    .argument('<id>', 'the skill id')
    .option('-a, --agent <names>', "also remove it from these agents' folders", collectList)
    .option('-g, --global', 'uninstall from your user folders (the lock in ~/.config/skills)')
    .option(
      '--into <dir>',
      'also remove <dir>/<id> when it is the copy skills installed (as from the folders the lock records); refused otherwise',
      collectList,
    )
    .option('--for <consumer>', "first take this consumer out of the skill's usedBy")
    .option('--force', 'remove <dir>/<id> copies even when their content is not what skills installed')
    .option('--dry-run', 'say what would be removed, and remove nothing')
    .option('-q, --quiet', 'print nothing but errors')
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .addHelpText(
      'after',
      examples([
        'skills uninstall pdf',
        'skills rm pdf --dry-run',
        'skills uninstall pdf --global --agent claude-code',
      ]),
    )
    .action(act(async () => (await import('../commands/uninstall.js')).uninstall, ['id']));

  program
    .command('outdated')
    .description(
      "list the installed skills that have newer versions: each one's current version, the one its ref or range wants, the latest, and where it comes from",
    )
    .option('-g, --global', 'check your user folders (the lock in ~/.config/skills)')
    .option('--all', 'list every locked skill, up to date or not')
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .addHelpText(
      'after',
      [
        '',
        'A git source is checked against its tags (v1.2.3, 1.2.3, or <id>@1.2.3 / <id>-v1.2.3) and its branch, without a clone; a registry source against the registry. Skills from folders and archives are not checked.',
        '',
        'Exit codes: 0 every skill that has versions was checked, newer ones or not; 2 a skill could not be checked (a remote out of reach, a registry that did not answer: said for its skill, the others still checked), usage, or a corrupt skills-lock.json.',
      ].join('\n'),
    )
    .addHelpText('after', examples(['skills outdated', 'skills outdated --all --json']))
    .action(act(async () => (await import('../commands/outdated.js')).outdated, []));

  program
    .command('update')
    .description(
      'update installed skills from git repositories and registries to what their ref or range wants (with --latest, the newest version), recording the new commit or version in skills-lock.json',
    )
    .argument('[ids...]', 'the skills to update (default: every git or registry skill in skills-lock.json)')
    .option('--latest', 'to the newest version tag (or release), even outside the ref or range the lock keeps')
    .option('--dry-run', 'show what would change (files and a diff), write nothing')
    .option('--force', 'overwrite a placed <folder>/<id> copy that was edited since it was installed')
    .option('-g, --global', 'update your user folders (the lock in ~/.config/skills)')
    .option('-q, --quiet', 'print nothing but errors')
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .addHelpText(
      'after',
      '\nExit codes: 0 updated, nothing to update, or --dry-run; 1 the install refused (an invalid skill, no resolution); 2 a skill could not be checked, a placed copy was edited (without --force), usage, I/O or git failures.',
    )
    .addHelpText('after', examples(['skills update', 'skills update pdf --latest --dry-run']))
    .action(act(async () => (await import('../commands/update.js')).update, ['ids']));
}
