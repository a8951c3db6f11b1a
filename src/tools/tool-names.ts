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

/** `name` as a tool name not in `taken` (which it joins): two that read the same once made safe get a number. */
export function uniqueToolName(name: string, taken: Set<string>): string {
  let safe = toToolName(name);
  for (let n = 2; taken.has(safe); n++) safe = toToolName(`${toToolName(name).slice(0, 60)}_${n}`);
  taken.add(safe);
  return safe;
}
