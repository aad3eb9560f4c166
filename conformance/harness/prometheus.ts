// Prometheus text exposition (format 0.0.4), line by line: enough to tell a
// sample line from anything else. Label values are quoted strings in which
// `\\`, `\"` and `\n` are the only escapes and every other character, `}` and
// `,` included, stands for itself, so they are matched as strings rather than
// cut at the first brace.

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
/** A quoted label value: any character but `"`, `\` and a line break, or one of the three escapes. */
const LABEL_VALUE = '"(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const LABEL = `${LABEL_NAME}[ \\t]*=[ \\t]*${LABEL_VALUE}`;
const LABELS = `\\{[ \\t]*(?:${LABEL}(?:[ \\t]*,[ \\t]*${LABEL})*[ \\t]*,?[ \\t]*)?\\}`;
/** What Go's ParseFloat reads, as the format says: decimals, hexadecimal floats, NaN and infinities in any case. */
const VALUE =
  '[-+]?(?:(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?' +
  '|0[xX](?:[0-9a-fA-F]+(?:\\.[0-9a-fA-F]*)?|\\.[0-9a-fA-F]+)[pP][-+]?[0-9]+' +
  '|[nN][aA][nN]|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)';
const TIMESTAMP = '-?[0-9]+';

const SAMPLE = new RegExp(`^${NAME}(?:${LABELS})?[ \\t]+${VALUE}(?:[ \\t]+${TIMESTAMP})?[ \\t]*$`);

/** Whether one line (without its line break) is a well-formed sample line. */
export function isPrometheusSample(line: string): boolean {
  return SAMPLE.test(line);
}
