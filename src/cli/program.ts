import { Command, Option, type AddHelpTextContext, type AddHelpTextPosition } from 'commander';
import {
  collectList,
  examples,
  listOptions,
  refuseConflicts,
  registryOption,
  withOwnHint,
  type Handler,
  type Kit,
} from './kit.js';
import { defineInstall } from './install.js';
import { defineRegistry } from './registry.js';
import { defineServe } from './serve.js';
import { defineShare } from './share.js';
import { deferredCommands } from './deferred.js';
import type { Context } from '../context.js';

/** Set by an action: the exit code its command chose. */
export type SetExit = (code: number) => void;

/**
 * Text wrapped to `width` columns at spaces; a line that starts with a space (an example, a table row) is kept as it
 * is.
 */
export function wrapHelp(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width || /^\s/.test(line)) return line;
      const out: string[] = [];
      let cur = '';
      for (const word of line.split(' ')) {
        if (cur !== '' && cur.length + 1 + word.length > width) {
          out.push(cur);
          cur = word;
        } else cur = cur === '' ? word : `${cur} ${word}`;
      }
      out.push(cur);
      return out.join('\n');
    })
    .join('\n');
}

/** The commander program; every action imports its handler lazily, so start-up loads only what it runs. */
export function buildProgram(ctx: Context, setExit: SetExit, argv?: readonly string[]): Command {
  /** The one shape of an action: load the handler, hand it the options, set the exit code it returns. */
  const act =
    (load: () => Promise<Handler>, names: string[], adapt = (o: Record<string, unknown>) => o) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      refuseConflicts(cmd);
      const named = Object.fromEntries(names.map((n, i) => [n, args[i]]));
      const handler = await load();
      let result;
      try {
        result = await handler(adapt({ ...named, ...cmd.opts(), color: cmd.optsWithGlobals().color }), ctx);
      } catch (err) {
        throw withOwnHint(cmd, err);
      }
      setExit((result as { exitCode?: number }).exitCode ?? 0);
    };

  const kit: Kit = { act, examples, registryOption, collectList };

  // Help fits the terminal (80 columns when there is none): commander wraps the option and command lists, and the
  // text after them is wrapped here; a command's arguments are in its own --help, not in the list of commands.
  const width = ctx.stdout.isTTY && ctx.stdout.columns ? Math.max(40, ctx.stdout.columns) : 80;
  const help = {
    sortSubcommands: false,
    helpWidth: width,
    // commander leaves a description column narrower than 40 unwrapped; a 50-column terminal has about 25.
    minWidthToWrap: 16,
    subcommandTerm: (cmd: Command) => [cmd.name(), ...cmd.aliases()].join(', '),
  };
  class SkillsCommand extends Command {
    override createCommand(name?: string): Command {
      return new SkillsCommand(name).configureHelp(help);
    }
    override addHelpText(position: AddHelpTextPosition, text: string | ((c: AddHelpTextContext) => string)): this {
      // Wrapped when the help is shown, not while every command is defined at start-up.
      return typeof text === 'string'
        ? super.addHelpText(position, () => wrapHelp(text, width))
        : super.addHelpText(position, text);
    }
  }

  const root = new SkillsCommand('skills')
    .description('Author, check, package, install, resolve, render and run agent skills (SKILL.md and manifest.json)')
    .version(ctx.version, '-V, --version', 'print the version')
    .option('--color', 'force colour output')
    .option('--no-color', 'disable colour output (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .configureHelp(help)
    .addHelpText(
      'after',
      examples([
        'skills install anthropics/skills --skill pdf --agent claude-code',
        'skills validate ./my-skill',
        'skills render-prompt --query "fill in a PDF form"',
      ]),
    );

  // The commands are defined through a stand-in of the program whose command() records them; at the end, only those
  // this run can reach are built (cli/deferred.ts): the first argument's command, else all.
  const deferred = deferredCommands((nameAndArgs, opts) => root.command(nameAndArgs, opts));
  const program = new Proxy(root, {
    get: (target, key) => (key === 'command' ? deferred.define : Reflect.get(target, key)),
  });

  program
    .command('validate')
    .description('check skills against the Agent Skills specification and the manifest.json layout')
    .argument('[paths...]', 'skill folders, folders holding skills, or files inside skills (default: .)')
    .option('--strict', 'fail on warnings too')
    .option('--spec', 'check against the bare Agent Skills specification, as the reference validator (skills-ref) does')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['stylish', 'json']).default('stylish'))
    .option('-q, --quiet', 'show the skills with errors, and their errors only (the summary still counts the rest)')
    .option('--json', 'same as --format json')
    .addHelpText(
      'after',
      examples(['skills validate ./my-skill', 'skills validate skills/ --strict', 'skills validate . --json']),
    )
    .action(
      act(
        async () => (await import('../commands/validate.js')).validate,
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
    .option('-q, --quiet', 'show errors only (the summary still counts the rest; json and sarif keep every finding)')
    .option('--verbose', 'show info findings too (hidden unless skills.config.json sets their rule)')
    .option('--spec', 'check SKILL.md against the bare Agent Skills specification, as validate --spec does')
    .option('--list-rules', 'list every rule (with --format markdown: docs/rules.md)')
    .option(
      '--concurrency <n>',
      'threads to lint on: a number, auto (the default: workers, up to one a core, when the work pays for them) or off',
    )
    .option(
      '--no-cache',
      "lint every skill afresh: use and keep no findings in the user's cache (each skill's findings are kept, and " +
        'used while none of its files, the configuration or this build changed; SKILLS_LINT_CACHE=0 turns it off too)',
    )
    .addHelpText('after', examples(['skills lint ./my-skill', 'skills lint skills/ --quiet', 'skills lint . --fix']))
    .action(
      act(
        async () => (await import('../commands/lint.js')).lint,
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
    .addHelpText('after', examples(['skills init pdf-forms', 'skills init pdf-forms --with scripts,references --yes']))
    .action(
      act(
        async () => (await import('../commands/init.js')).init,
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
      'skill folders or folders holding skills (default: skillDirs from skills.config.json, else ./.agents/skills, ./.claude/skills, ./.agent/skills, ./skills, ~/.agents/skills, ~/.claude/skills (moved by CLAUDE_CONFIG_DIR), ~/.agent/skills, and the registry)',
    )
    .option('--query <text>', "the user's request: selects the skills whose full instructions are included")
    .option('-q, --quiet', 'print nothing on stderr but errors: no warnings, no token count')
    .option('--verbose', 'print every warning about single skills (else the first 10, and how many more)')
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
    .option('--soul <file>', "the agent's soul file (who the agent is), printed first as # Soul")
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
    .option(
      '--write <file>',
      'put the prompt in a managed block of this file (AGENTS.md, CLAUDE.md …), the rest left as it is; locations relative to its folder; project skills only',
    )
    .option('--check', 'with --write: write nothing; exit 1 when the block is missing or stale (for CI and pre-commit)')
    .addHelpText(
      'after',
      '\nThe prompt goes to stdout; its size in tokens, warnings and --explain to stderr. With no skills, stdout stays empty and stderr says where it looked.' +
        '\n\nExamples:\n  skills render-prompt --query "scrape prices" examples/skills\n  skills render-prompt --write AGENTS.md\n  skills render-prompt --write AGENTS.md --check',
    )
    .action(act(async () => (await import('../commands/render-prompt.js')).renderPromptCommand, ['dirs']));

  defineRegistry(program, kit);

  const list = program
    .command('list')
    .alias('ls')
    .description(
      'list the skills in the registry and in skill folders (./.agents/skills, ./.claude/skills, ./.agent/skills, ./skills, ~/.agents/skills, ~/.claude/skills (moved by CLAUDE_CONFIG_DIR), ~/.agent/skills)',
    )
    .argument('[dirs...]', 'skill folders to list instead of the default ones');
  listOptions(list)
    .option('--no-registry', 'read no registry: the skill folders only')
    .option(
      '-c, --config <file>',
      'configuration file whose skillDirs to list (default: the nearest skills.config.json)',
    )
    .addHelpText('after', examples(['skills ls', 'skills list --no-registry --json', 'skills list ./vendor/skills']))
    .action(act(async () => (await import('../commands/list.js')).list, ['dirs']));

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
    .action(act(async () => (await import('../commands/agents.js')).agents, []));

  program
    .command('doctor')
    .description(
      'for each agent with skill folders here: the skills it loads, those it skips and why, names that collide, and its skill listing against its budget',
    )
    .option(
      '--agent <names>',
      'only these agents, comma-separated or repeated (default: every agent whose skill folder exists)',
      collectList,
    )
    .option('--json', 'print one JSON document: every agent with its folders, skills, skips, collisions and listing')
    .addHelpText(
      'after',
      [
        '',
        'Exit 0 when nothing is wrong; 1 when an agent skips an invalid or unreadable skill, two of its skills collide, or its listing is over its budget; 2 on usage errors.',
        examples([
          'skills doctor',
          'skills doctor --agent claude-code',
          "skills doctor --json | jq '.agents[] | {name, over: .listing.over}'",
        ]),
      ].join('\n'),
    )
    .action(act(async () => (await import('../commands/doctor.js')).doctor, []));

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
    .argument('[words...]', "the script's command-line words; those starting with - go after --")
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
      "\nExit code: the script's own; 124 on timeout; 128 + n when signal n ended it; 2 when run-script refuses or fails before running it.\n" +
        examples(['skills run-script ./my-skill --list', 'skills run-script my-skill greet -- Alice --loud']),
    )
    .configureOutput({
      // `greet Alice --loud`: the script's own options go after --, as with npm run.
      outputError: (text, write) =>
        write(text.replace(/unknown option '(.*?)'.*/, '$&\nhint: options for the script go after --: <script> -- $1')),
    })
    .action(act(async () => (await import('../commands/run-script.js')).runScript, ['skill', 'script', 'words']));

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
    .addHelpText('after', examples(['skills resolve web-scraping@^1', 'skills resolve pdf@1.2.0 docx --json']))
    .action(act(async () => (await import('../commands/resolve.js')).resolve, ['specs']));

  program
    .command('pack')
    .description('validate a skill and write it as a reproducible archive: <id>-<version>.tgz, or a .skill zip')
    .argument('[dir]', 'the skill folder (default: .)')
    .option('-o, --out <dir>', 'the folder to write the archive to (default: the current folder)')
    .addOption(
      new Option('--format <format>', "tgz (gzip tar, entries under <id>/) or skill (Anthropic's .skill zip)")
        .choices(['tgz', 'skill'])
        .default('tgz'),
    )
    .option('--dry-run', 'list what would go in; write nothing')
    .option('-q, --quiet', "print the archive's path alone (no warnings, no summary)")
    .option('--json', 'print one JSON document')
    .addHelpText(
      'after',
      '\nExit codes: 0 packed; 1 the skill cannot be packed as it is (invalid, a version that is not MAJOR.MINOR.PATCH, a symlink leading out); 2 usage or I/O.',
    )
    .addHelpText('after', examples(['skills pack ./my-skill', 'skills pack ./my-skill --format skill --out dist']))
    .action(act(async () => (await import('../commands/pack.js')).pack, ['dir']));

  defineInstall(program, kit);
  defineShare(program, kit);
  defineServe(program, kit);
  deferred.build(argv?.[0]);
  return root;
}
