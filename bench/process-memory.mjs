// The memory a browser holds, from Linux's /proc: the proportional set size
// (PSS: a page shared by several processes counted once, split between them)
// of the browser's process and all its descendants (renderers, the GPU and
// utility processes), where a shared worker may run in a process of its own.
import { readdirSync, readFileSync } from 'node:fs';

/** Each process's children, by pid; null where /proc cannot tell (not Linux). */
function processTree() {
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const children = new Map();
  for (const name of entries) {
    try {
      // The command name is in parentheses and may hold spaces: the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** The browser Playwright launched from this process: the child it talks to over a pipe (a wrapper script may have exec'd another binary). */
export function browserPid() {
  for (const pid of processTree()?.get(process.pid) ?? []) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--remote-debugging-pipe')) return pid;
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** PSS of `pid` and its descendants, in MiB; null where /proc cannot tell (not Linux). */
export function treePssMiB(pid) {
  const children = processTree();
  if (!children) return null;
  let kib = 0;
  for (const stack = [pid]; stack.length; ) {
    const next = stack.pop();
    stack.push(...(children.get(next) ?? []));
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${next}/smaps_rollup`, 'utf8'));
      if (pss) kib += Number(pss[1]);
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  return kib / 1024;
}
