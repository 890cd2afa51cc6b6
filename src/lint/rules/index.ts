import type { Rule } from '../types.js';
import instructionsMaxLines from './instructions-max-lines.js';

/** Every lint rule, in id order; docs/rules.md is generated from this list. */
export const rules: Rule[] = [instructionsMaxLines];
