// Tool names every model family and OpenAI-style API accept, and how a name
// from elsewhere (an MCP server's, which may hold `.` or `/` and run to 128
// characters) is made into one.

export const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** `name` as a tool name: other characters become `_`, a leading digit or `-` gets a `_` before it, cut at 64. */
export function toToolName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return (/^[A-Za-z_]/.test(safe) ? safe : `_${safe}`).slice(0, 64);
}

/** `namespace_name`, as a tool name. */
export function namespacedName(namespace: string, name: string): string {
  return toToolName(`${namespace}_${name}`);
}

/**
 * Tool names for a source's names, in order, all different: a name that is
 * already a tool name keeps it, whatever stands before it (a server's
 * `files_read` stays `files_read` beside its `files/read`, whose made name gets
 * a number), and names that read the same once made safe get numbers.
 */
export function toolNames(names: readonly string[]): string[] {
  const taken = new Set(names.filter((name) => TOOL_NAME.test(name)));
  /** The next number to try for each made name: a server may list thousands that read the same. */
  const next = new Map<string, number>();
  return names.map((name) => {
    if (TOOL_NAME.test(name)) return name;
    const base = toToolName(name);
    let safe = base;
    let n = next.get(base) ?? 2;
    // The number is never cut: the base gives way to it, so each number makes a new name.
    while (taken.has(safe)) safe = `${base.slice(0, 64 - `_${n}`.length)}_${n++}`;
    next.set(base, n);
    taken.add(safe);
    return safe;
  });
}
