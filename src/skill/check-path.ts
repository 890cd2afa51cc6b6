// A path a skill declares (a script, a context file, a reference): inside the skill, present, executable when run.
import { isAbsolute, normalize } from 'node:path';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { diag } from '../model/diagnostic.js';

export function checkPath(skill: Skill, p: string, field: string, out: Diagnostic[], script: boolean): void {
  // Looked up only for a finding: a manifest's positions are parsed on first use.
  const pos = () => skill.positions[field];
  if (isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p)) {
    out.push(
      diag(
        'path-inside',
        'error',
        `${field} "${p}" is an absolute path: expected a path relative to the skill folder`,
        skill.file,
        pos(),
      ),
    );
    return;
  }
  const norm = normalize(p).replace(/\\/g, '/').replace(/^\.\//, '');
  if (norm === '..' || norm.startsWith('../')) {
    out.push(diag('path-inside', 'error', `${field} "${p}" leads out of the skill folder`, skill.file, pos()));
    return;
  }
  const entry = skill.entries.find((e) => e.path === norm);
  // The walk does not enter symlinked folders: a path through one that leads out is outside, not missing.
  const via = entry ? undefined : skill.entries.find((e) => e.kind === 'symlink' && norm.startsWith(`${e.path}/`));
  if (via) {
    const out2 = !via.inside;
    out.push(
      diag(
        out2 ? 'path-inside' : 'path-exists',
        'error',
        out2
          ? `${field} "${p}" goes through ${via.path}, a symlink that leads out of the skill`
          : `${field} "${p}" goes through the symlinked folder ${via.path}; declare the real path`,
        skill.file,
        pos(),
      ),
    );
    return;
  }
  if (!entry || entry.kind === 'dir') {
    out.push(
      diag(
        'path-exists',
        'error',
        `${field} "${p}" does not exist${entry ? ' as a file (it is a folder)' : ''}`,
        skill.file,
        pos(),
      ),
    );
    return;
  }
  if (entry.kind === 'symlink' && !entry.inside) {
    out.push(
      diag(
        'path-inside',
        'error',
        `${field} "${p}" is a symlink that leads out of the skill${entry.target ? ` (to ${entry.target})` : ' (or nowhere)'}`,
        skill.file,
        pos(),
      ),
    );
    return;
  }
  if (script && process.platform !== 'win32') {
    const ref = skill.scripts.find((s) => s.path === norm);
    if (ref && ref.exists && ref.executable === false) {
      out.push(
        diag('script-executable', 'error', `${field} "${p}" is not executable`, skill.file, pos(), `chmod +x ${norm}`, {
          path: ref.path,
        }),
      );
    }
  }
}

/** A declared path the load found leading out through a folder made a link since the walk (SK025). */
export function linkedOut(skill: Skill, field: string, p: string, target: string): Diagnostic {
  const message = `${field} "${p}" goes through a symbolic link that leads out of the skill (to ${target}); it is not read`;
  return diag('path-inside', 'error', message, skill.file);
}
