// Display names (spec/protocol.md §5.1): NFC, 0 to 32 code points, no code point of category C*
// (controls, format, surrogates, private use, unassigned), Zl or Zp, and no leading or trailing
// space separator (Zs). The empty name means "no name chosen".

const FORBIDDEN = /[\p{C}\p{Zl}\p{Zp}]/u;
const SPACE = /^\p{Zs}$/u;

/**
 * What is wrong with a display name, or null.
 * @param {string} name
 */
export function nameProblem(name) {
  if (typeof name !== 'string') return 'a name is a string';
  if (name.normalize('NFC') !== name) return 'the name is not in NFC';
  const points = [...name];
  if (points.length > 32) return 'a name has at most 32 characters';
  if (FORBIDDEN.test(name)) return 'a name has no control, format, unassigned or separator characters';
  if (points.length && (SPACE.test(points[0]) || SPACE.test(points[points.length - 1]))) return 'a name does not begin or end with a space';
  return null;
}
