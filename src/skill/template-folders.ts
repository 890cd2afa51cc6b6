// Skeletons of skills in a collection: a repository's `templates/skill-skeleton/SKILL.md` (jezweb/claude-skills,
// full of `[TODO: …]`) or `template/SKILL.md` (anthropics/skills' `template-skill`) is what an author copies to
// start a skill, not a skill to install or register, as cargo installs a package's binaries and not its examples
// (`cargo install --example` names one).

/** A folder that holds skeletons of skills, by its name. */
const TEMPLATE_FOLDER = /^templates?$/i;

/** Whether a skill folder, by its slash-separated path in a collection, is or lies below a `template(s)/` folder. */
export function isTemplatePath(inside: string): boolean {
  return inside !== '' && inside.split('/').some((part) => TEMPLATE_FOLDER.test(part));
}

/**
 * The skills of a collection that are not templates (by `inside`, each one's path in it), and the templates. When
 * every skill is a template, none is set apart: a collection of templates alone is installed as one of skills is.
 */
export function splitTemplates<T>(found: readonly T[], inside: (t: T) => string): { skills: T[]; templates: T[] } {
  const skills = found.filter((t) => !isTemplatePath(inside(t)));
  if (skills.length === 0) return { skills: [...found], templates: [] };
  return { skills, templates: found.filter((t) => isTemplatePath(inside(t))) };
}
