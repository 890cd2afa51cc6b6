import yaml from 'js-yaml';

/**
 * js-yaml's load, without the stack trace each YAMLException captures as it is made: a failed parse is mostly that
 * (a third to a half of its time), and the reason and mark are all anyone reads of it. Real collections fail often
 * (one public registry: a skill in six), and the lenient reading tries up to five repairs of each. An exception
 * that is no YAMLException (a bug) has no stack either.
 */
export function loadYaml(text: string, options: yaml.LoadOptions): unknown {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return yaml.load(text, options);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
