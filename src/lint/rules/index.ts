import type { Rule } from '../types.js';
import instructionsMaxLines from './instructions-max-lines.js';
import instructionsMaxTokens from './instructions-max-tokens.js';
import descriptionWhenToUse from './description-when-to-use.js';
import descriptionTooShort from './description-too-short.js';
import descriptionVague from './description-vague.js';
import descriptionAngleBrackets from './description-angle-brackets.js';
import nameReservedWord from './name-reserved-word.js';
import nameVague from './name-vague.js';
import fileReferenceMissing from './file-reference-missing.js';
import fileReferenceOutside from './file-reference-outside.js';
import fileReferenceBackslash from './file-reference-backslash.js';
import fileReferenceDepth from './file-reference-depth.js';
import referenceNeedsToc from './reference-needs-toc.js';
import scriptShebang from './script-shebang.js';
import scriptExecutable from './script-executable.js';
import shellSetE from './shell-set-e.js';
import envUndeclared from './env-undeclared.js';
import envUnused from './env-unused.js';
import envExampleSync from './env-example-sync.js';
import secretInFile from './secret-in-file.js';
import unreferencedFile from './unreferenced-file.js';
import emptyFolder from './empty-folder.js';
import readmeInSkill from './readme-in-skill.js';
import skillSize from './skill-size.js';
import placeholderLeft from './placeholder-left.js';
import registryFields from './registry-fields.js';
import contextNotMarkdown from './context-not-markdown.js';
import duplicateSkill from './duplicate-skill.js';
import triggerPatternCost from './trigger-pattern-cost.js';
import portableFileNames from './portable-file-names.js';
import templateLeft from './template-left.js';
import linkOutside from './link-outside.js';
import lfsPointer from './lfs-pointer.js';
import nestedSkill from './nested-skill.js';
import disableUnknownRule from './disable-unknown-rule.js';
import unusedDisable from './unused-disable.js';

/** Every lint rule, in id order; docs/rules.md is generated from this list. */
export const rules: Rule[] = [
  instructionsMaxLines,
  instructionsMaxTokens,
  descriptionWhenToUse,
  descriptionTooShort,
  descriptionVague,
  descriptionAngleBrackets,
  nameReservedWord,
  nameVague,
  fileReferenceMissing,
  fileReferenceOutside,
  fileReferenceBackslash,
  fileReferenceDepth,
  referenceNeedsToc,
  scriptShebang,
  scriptExecutable,
  shellSetE,
  envUndeclared,
  envUnused,
  envExampleSync,
  secretInFile,
  unreferencedFile,
  emptyFolder,
  readmeInSkill,
  skillSize,
  placeholderLeft,
  registryFields,
  contextNotMarkdown,
  duplicateSkill,
  triggerPatternCost,
  portableFileNames,
  templateLeft,
  linkOutside,
  lfsPointer,
  nestedSkill,
  disableUnknownRule,
  // Last: it reads what every rule before it reported.
  unusedDisable,
];
