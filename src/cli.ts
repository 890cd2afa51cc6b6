import { Command, Option } from 'commander';
import type { Context } from './context.js';

/** Set by an action: the exit code its command chose. */
export type SetExit = (code: number) => void;

/**
 * A command's handler: its options (positional arguments by name, the flags, the global --color) and the context
 * in; the data it printed out, with the exit code it chose (0 when it has none).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (options: any, ctx: Context) => Promise<object>;

/** The commander program; every action imports its handler lazily, so start-up loads only what it runs. */
export function buildProgram(ctx: Context, setExit: SetExit): Command {
  /** The one shape of an action: load the handler, hand it the options, set the exit code it returns. */
  const act =
    (load: () => Promise<Handler>, names: string[], adapt = (o: Record<string, unknown>) => o) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const named = Object.fromEntries(names.map((n, i) => [n, args[i]]));
      const handler = await load();
      const result = await handler(adapt({ ...named, ...cmd.opts(), color: cmd.optsWithGlobals().color }), ctx);
      setExit((result as { exitCode?: number }).exitCode ?? 0);
    };

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
    .action(
      act(
        async () => (await import('./commands/validate.js')).validate,
        ['paths'],
        (o) => ({ ...o, format: o.json ? 'json' : o.format }),
      ),
    );

  program
    .command('lint')
    .description('find what is valid but will work badly in an agent: every validate check plus best-practice rules')
    .argument('[paths...]', 'skill folders, folders holding skills, or files inside skills (default: .)')
    .addOption(
      new Option('-f, --format <format>', 'output format (markdown too, with --list-rules)')
        .choices(['stylish', 'json', 'sarif', 'markdown'])
        .default('stylish'),
    )
    .option('--json', 'same as --format json')
    .option('--max-warnings <n>', 'fail when there are more than n warnings', (v: string) =>
      /^\s*\d+\s*$/.test(v) ? Number(v) : v,
    )
    .option('--fix', 'apply the safe fixes and report each change')
    .option('--fix-dry-run', 'print the diff the fixes would make, change nothing')
    .option('-c, --config <file>', 'configuration file (default: the nearest skills.config.json)')
    .option('--strict', 'fail on warnings too')
    .option('--spec', 'check SKILL.md against the bare Agent Skills specification, as validate --spec does')
    .option('--list-rules', 'list every rule (with --format markdown: docs/rules.md)')
    .action(
      act(
        async () => (await import('./commands/lint.js')).lint,
        ['paths'],
        (o) => ({ ...o, format: o.json ? 'json' : o.format }),
      ),
    );

  program
    .command('init')
    .description('create a new skill folder from a template')
    .argument('<name>', 'the skill name (lowercase letters, digits and hyphens), also its folder name')
    .addOption(new Option('-l, --layout <layout>', 'skill layout').choices(['skill-md', 'manifest']))
    .option('-d, --description <text>', 'what the skill does and when to use it')
    .option('--owner <owner>', 'owner: "built-in" or an agent id (manifest owner; metadata.author in SKILL.md)')
    .option('--skill-version <version>', 'initial version (semver)')
    .option(
      '--with <parts>',
      'optional folders to create: scripts,references,assets',
      (v: string, prev: string[] = []) => [
        ...prev,
        ...v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ],
    )
    .option('--dir <parent>', 'parent folder to create the skill in (default: the current folder)')
    .option('-y, --yes', 'accept defaults for everything not given; never prompt')
    .option('--json', 'print the result as JSON')
    .action(
      act(
        async () => (await import('./commands/init.js')).init,
        ['name'],
        (o) => ({ ...o, version: o.skillVersion }),
      ),
    );

  program
    .command('render-prompt')
    .description(
      "print the skills part of an agent's system prompt: the catalog, and the full instructions of the skills a query selects",
    )
    .argument(
      '[dirs...]',
      'skill folders or folders holding skills (default: skillDirs from skills.config.json, else ./.agents/skills, ./.claude/skills, ./.agent/skills, ./skills, ~/.agents/skills, ~/.claude/skills, ~/.agent/skills, and the registry)',
    )
    .option('-q, --query <text>', "the user's request: selects the skills whose full instructions are included")
    .option(
      '-n, --max-skills <n>',
      'most skills a query selects (default: SKILLS_MAX_ACTIVE, else maxSkills in skills.config.json, else 3)',
    )
    .option('--select <names>', "activate these skills by name, comma-separated (as a user's /skill name)")
    .option(
      '--selector <command>',
      'a shell command that picks the skills: reads {query, maxSkills, catalog} as JSON on stdin, prints names',
    )
    .option('--selector-timeout <ms>', 'how long the selector may take (default 30000)')
    .option('--explain', "print each candidate's score and what matched (stderr; in the JSON with --format json)")
    .addOption(
      new Option('--tier <tier>', 'force a tier instead of choosing one').choices([
        'none',
        'breadcrumb',
        'catalog',
        'full',
      ]),
    )
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(['markdown', 'xml', 'json']).default('markdown'),
    )
    .option('--json', 'same as --format json')
    .option('--soul <file>', "the agent's soul file, printed first as # Soul (seed 000)")
    .option(
      '--budget <tokens>',
      'fit the prompt in this many tokens: drop instructions (lowest ranked first), then descriptions',
    )
    .option('-c, --config <file>', 'configuration file (default: the nearest skills.config.json)')
    .addOption(
      new Option(
        '--registry <dir>',
        'read this registry too (default without dirs: SKILLS_REGISTRY, else the nearest .skills/ upward, else ~/.skills)',
      ),
    )
    .option('--no-registry', 'read no registry')
    .addHelpText(
      'after',
      '\nPrints nothing when there are no skills. The prompt goes to stdout; its size in tokens, warnings and --explain to stderr.',
    )
    .action(act(async () => (await import('./commands/render-prompt.js')).renderPromptCommand, ['dirs']));

  /** A repeatable option whose values may also be comma-separated: `-a claude-code,cursor -a codex`. */
  const collectList = (value: string, previous: string[] = []): string[] => [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  ];

  const registryOption = () =>
    new Option(
      '--registry <dir>',
      'the registry folder (default: SKILLS_REGISTRY, else the nearest .skills/ upward, else ~/.skills)',
    );

  program
    .command('sync')
    .description(
      'register every valid skill in a folder: copy it into the registry store and add its version to the index',
    )
    .argument('<dir>', 'a skill folder, or a folder holding skills')
    .option('--owner <id>', "owner of the registered skills (default: the skill's own owner, else built-in)")
    .option('--force', 'replace a registered version whose content differs')
    .option('--watch', 'keep watching the folder and register skills as they appear or change')
    .option('--json', 'print the result as JSON (with --watch: one JSON line per event)')
    .addOption(registryOption())
    .action(act(async () => (await import('./commands/sync.js')).sync, ['dir']));

  program
    .command('remove')
    .description('remove a skill version (or every version) from the registry store and index')
    .argument('<spec>', 'id (every version) or id@version')
    .option('--force', 'remove even while usedBy is not empty')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .action(act(async () => (await import('./commands/remove.js')).remove, ['spec']));

  program
    .command('use')
    .description("record that a consumer (an agent, a project) uses a skill: it goes into the skill's usedBy")
    .argument('<id>', 'the skill id')
    .requiredOption('--by <consumer>', 'who uses the skill')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .action(act(async () => (await import('./commands/use.js')).use, ['id']));

  program
    .command('unuse')
    .description("record that a consumer no longer uses a skill: it leaves the skill's usedBy")
    .argument('<id>', 'the skill id')
    .requiredOption('--by <consumer>', 'who no longer uses the skill')
    .option('--json', 'print the result as JSON')
    .addOption(registryOption())
    .action(act(async () => (await import('./commands/unuse.js')).unuse, ['id']));

  program
    .command('list')
    .description(
      'list the skills in the registry and in skill folders (./.agents/skills, ./.claude/skills, ./.agent/skills, ./skills, ~/.agents/skills, ~/.claude/skills, ~/.agent/skills)',
    )
    .argument('[dirs...]', 'skill folders to list instead of the default ones')
    .option('--json', 'print the result as JSON')
    .option('--long', 'show every version, not only the latest')
    .option('--owner <id>', 'only skills of this owner')
    .addOption(new Option('--layout <layout>', 'only skills of this layout').choices(['skill-md', 'manifest']))
    .addOption(registryOption())
    .action(act(async () => (await import('./commands/list.js')).list, ['dirs']));

  program
    .command('agents')
    .description('list the agents that read skills, the folders each reads them from, and which are used here')
    .option('--json', 'print one JSON array: name, title, aliases, folders, reads, detected {here, user}, found')
    .addHelpText(
      'after',
      [
        '',
        'HERE: the skill folder or the config of the agent is in the current folder (.claude/skills, CLAUDE.md, .cursor…).',
        'USER: its user skill folder or its config folder is in your home (~/.claude, ~/.codex, ~/.config/goose…);',
        'CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME and XDG_CONFIG_HOME move them as they move the agents.',
        '',
        'Examples:',
        '  # which agents this project uses, and the folders each reads skills from',
        '  skills agents',
        '  # the skill folders, absolute, of the agents used here',
        "  skills agents --json | jq -r '.[] | select(.detected.here) | .projectDir'",
        '  # where Claude Code reads user skills when its config folder is elsewhere',
        '  CLAUDE_CONFIG_DIR=~/.claude-work skills agents',
      ].join('\n'),
    )
    .action(act(async () => (await import('./commands/agents.js')).agents, []));

  program
    .command('run-script')
    .description(
      "run a skill's script: JSON arguments in, {success, result | error} out, a clean environment with its declared secrets, a timeout",
    )
    .argument(
      '<skill>',
      'a skill folder (or a file inside one), or a skill id from the skill folders or the registry (id@version: registry only)',
    )
    .argument('[script]', 'the script: its name with or without extension, or its path in the skill')
    .option(
      '--args <json>',
      'the arguments, a JSON object (default: JSON on stdin when stdin is not a terminal, else {})',
    )
    .option('--args-file <file>', 'read the JSON arguments from a file (- for stdin)')
    .option('--secrets <file>', 'the secrets file (default: SKILLS_SECRETS, else secrets/env.json beside the registry)')
    .option('--inherit-env', "pass the caller's whole environment to the script (declared secrets are still added)")
    .option(
      '--timeout <seconds>',
      'end the script and everything it started after this many seconds (exit 124)',
      String(60),
    )
    .option('--list', "list the skill's scripts with their interpreter and description")
    .option(
      '--json',
      'print one JSON document: {skill, script, exitCode, durationMs, success, result | error, stdout, stderr, truncated, timedOut}',
    )
    .addOption(registryOption())
    .addHelpText(
      'after',
      "\nExit code: the script's own; 124 on timeout; 128 + n when signal n ended it; 2 when run-script refuses or fails before running it.",
    )
    .action(act(async () => (await import('./commands/run-script.js')).runScript, ['skill', 'script']));

  program
    .command('resolve')
    .description(
      'pick, for each skill and its dependencies, the highest version that satisfies every constraint; print them dependencies first',
    )
    .argument('<specs...>', 'skill specs: id (the latest, with a warning), id@1.2.3 or id@<semver range>')
    .option('--tree', 'draw the dependency graph')
    .option('--json', 'print one JSON document: {resolved, warnings} or {error}')
    .addOption(registryOption())
    .addHelpText(
      'after',
      '\nExit codes: 0 resolved; 1 no resolution (unknown skill, missing version, conflict, cycle); 2 a bad spec or an unreadable registry.',
    )
    .action(act(async () => (await import('./commands/resolve.js')).resolve, ['specs']));

  program
    .command('pack')
    .description('validate a skill and write it as a reproducible archive: <id>-<version>.tgz, or a .skill zip')
    .argument('[dir]', 'the skill folder (default: .)')
    .option('--out <dir>', 'the folder to write the archive to (default: the current folder)')
    .addOption(
      new Option('--format <format>', "tgz (gzip tar, entries under <id>/) or skill (Anthropic's .skill zip)")
        .choices(['tgz', 'skill'])
        .default('tgz'),
    )
    .option('--dry-run', 'list what would go in; write nothing')
    .option('--json', 'print one JSON document')
    .addHelpText(
      'after',
      '\nExit codes: 0 packed; 1 the skill cannot be packed as it is (invalid, a version that is not MAJOR.MINOR.PATCH, a symlink leading out); 2 usage or I/O.',
    )
    .action(act(async () => (await import('./commands/pack.js')).pack, ['dir']));

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
    .option('--for <consumer>', "record this consumer in each installed skill's usedBy (uses the registry)")
    .option(
      '--frozen',
      'fail, writing nothing, when the skills in skills-lock.json would change; never writes the lock (an --into it lacks is used, not recorded)',
    )
    .option(
      '--force',
      'replace a registered version with other content, and an <into>/<id> folder skills did not write',
    )
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .addHelpText(
      'after',
      [
        '',
        'A project install writes only the agent folders and skills-lock.json; the registry is used when asked for (--registry, SKILLS_REGISTRY, a .skills/ folder in the project, --for).',
        '',
        'Examples:',
        '  skills install anthropics/skills --skill pdf --agent claude-code',
        '  skills install https://github.com/o/r.git#v1.2.0:skills/pdf',
        '  skills install                      # what skills-lock.json says (add --frozen in CI)',
        '',
        'Exit codes: 0 installed; 1 an invalid skill (skipped or refused), no resolution, or --frozen and the lock would change; 2 usage, I/O, git or download failures, a corrupt or refused archive, an integrity mismatch.',
      ].join('\n'),
    )
    .action(act(async () => (await import('./commands/install.js')).install, ['sources']));

  program
    .command('uninstall')
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
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .action(act(async () => (await import('./commands/uninstall.js')).uninstall, ['id']));

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
        'Exit codes: 0 always, when the lock can be read (a remote that cannot be reached is reported for its skill); 2 usage or a corrupt skills-lock.json.',
      ].join('\n'),
    )
    .action(act(async () => (await import('./commands/outdated.js')).outdated, []));

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
    .option('--json', 'print one JSON document')
    .addOption(registryOption())
    .addHelpText(
      'after',
      '\nExit codes: 0 updated, nothing to update, or --dry-run; 1 the install refused (an invalid skill, no resolution); 2 a skill could not be checked, a placed copy was edited (without --force), usage, I/O or git failures.',
    )
    .action(act(async () => (await import('./commands/update.js')).update, ['ids']));

  return program;
}
