// `skills install --list`: the skills each source holds (fetched, unpacked and checked as an install would), with
// nothing installed.
import { dirname } from 'node:path';
import { SkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import { insideOf, namesakesOf, withoutTwins } from './namesakes.js';
import { alone, gather } from './plan.js';
import { Scratch, classifySource, scratchBase } from './sources.js';
import type { InstallOptions, InvalidSource, Prepared } from './types.js';

export interface ListedSkill {
  id: string;
  description: string;
  /** Where it is shown from: the source, and its folder inside. */
  shown: string;
  /** Why it cannot be installed; undefined when it can. */
  problem?: string;
  /**
   * For a skill that installing all would leave out for a namesake here (namesakes.ts): why, and the source that
   * installs it alone (none for an invalid one, which installs nowhere: `problem` says why).
   */
  leftOut?: { why: string; alone?: string };
  /**
   * A skill found with the same files at more than one path of the source (a twin, installed once): every such
   * path inside the source, the first (`shown`) first. One entry, not one a path.
   */
  foundAt?: string[];
}

export interface SourceListing {
  source: string;
  skills: ListedSkill[];
  /** What the listing is taken from, when it is not the skills' own files (a well-known site's index). */
  note?: string;
  /** What the source holds that the listing may lack (a search cut at its limits, a git submodule): for stderr. */
  warnings?: string[];
}

export async function listSources(options: InstallOptions): Promise<SourceListing[]> {
  const scratch = new Scratch(scratchBase(options));
  try {
    const out: SourceListing[] = [];
    for (const raw of options.sources) {
      const c = classifySource(raw, options.cwd);
      if (c.kind === 'spec')
        throw new SkillsError(
          'E_USAGE',
          `--list shows the skills of a repository, folder or archive, and ${raw} is a registry spec`,
          {
            hint: `see the registry's versions with skills resolve ${raw}`,
          },
        );
      // --skill narrows the list as it narrows an install.
      const only = options.only === undefined ? undefined : new Set(options.only);
      if (c.kind === 'well-known') {
        // The site's index names and describes each skill: its files are not downloaded to list them.
        const { skills, note } = await (await import('./well-known.js')).listWellKnown(c.remote, options, scratch);
        out.push({ source: redactUrl(raw), skills: only ? skills.filter((s) => only.has(s.id)) : skills, note });
        continue;
      }
      // The skills nested in a skill of the source (its top, or one below) are listed too (only: []), as what --skill
      // installs.
      const asked = options.only === undefined ? { ...options, only: [] } : options;
      const { found: all, warnings } = await gather(c, raw, asked, scratch, dirname(options.lockfile));
      const found = only ? all.filter((p) => only.has('diagnostics' in p ? (p.id ?? '') : p.skill.id)) : all;
      const namesakes = namesakesOf(all);
      // What "all" leaves out for a namesake, said once a skill: why, and its source alone.
      // An invalid deeper namesake (a translation that lost its description) is left out for the shallower one too.
      const leftOut = (p: Prepared | InvalidSource): Pick<ListedSkill, 'leftOut'> => {
        const kept = namesakes.outranked.get(p);
        const id = 'diagnostics' in p ? p.id : p.skill.id;
        if (!only && !('diagnostics' in p) && p.nestedIn !== undefined)
          return { leftOut: { why: `nested in ${p.nestedIn}, installed only when named (--skill ${id})` } };
        if (!only && p.template)
          return { leftOut: { why: `a template (a skeleton to copy), installed only when named (--skill ${id})` } };
        const why = kept
          ? `a shallower ${id} is taken (${insideOf(raw, kept)})`
          : !('diagnostics' in p) && namesakes.tied.has(p.skill.id)
            ? 'same name as another here at its depth'
            : undefined;
        if (why === undefined) return {};
        return { leftOut: 'diagnostics' in p ? { why } : { why, alone: alone(raw, p) } };
      };
      out.push({
        source: redactUrl(raw),
        ...(warnings?.length ? { warnings } : {}),
        skills: withoutTwins(raw, found).map(({ p, foundAt }) =>
          'diagnostics' in p
            ? {
                id: p.id ?? p.source,
                description: '',
                shown: p.source,
                problem: p.diagnostics[0]?.message ?? p.message,
                ...leftOut(p),
              }
            : {
                id: p.skill.id,
                description: p.skill.description ?? '',
                shown: p.typed,
                ...leftOut(p),
                ...(foundAt ? { foundAt } : {}),
              },
        ),
      });
    }
    return out;
  } finally {
    scratch.cleanup();
  }
}
