// What a process tree costs, read from /proc: CPU seconds (utime + stime) and proportional set size, for
// the benchmarks that run a real `watchkeeper serve` with its PostgreSQL. (The underscore keeps this file
// out of `npm run bench`.)
import fs from 'node:fs/promises';

const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  /** utime + stime, in seconds. */
  own: number;
  /** cutime + cstime (children already reaped), in seconds. */
  reaped: number;
}

async function stat(pid: number): Promise<Stat | undefined> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!text) return undefined;
  // Fields after "(comm)": state is fields[0], ppid fields[1], utime fields[11] … cstime fields[14].
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const at = (i: number) => Number(fields[i] ?? NaN);
  return { ppid: at(1), own: (at(11) + at(12)) / TICKS_PER_SECOND, reaped: (at(13) + at(14)) / TICKS_PER_SECOND };
}

/** The direct children of `pid` (from every process's parent id). */
async function childrenOf(pid: number): Promise<number[]> {
  const entries = await fs.readdir('/proc').catch(() => [] as string[]);
  const out: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const found = await stat(Number(entry));
    if (found?.ppid === pid) out.push(Number(entry));
  }
  return out;
}

/** The parent of a process (the postmaster of a PostgreSQL backend), if it still runs. */
export async function parentOf(pid: number): Promise<number | undefined> {
  return (await stat(pid))?.ppid;
}

/**
 * CPU seconds used so far by `node` and a PostgreSQL postmaster with all its processes: the node process's
 * own time, the postmaster's own time plus that of its children already gone (cutime, cstime: backends that
 * came and went), plus its live children's own time. The difference of two readings is the work done
 * between them, whichever backends lived and died in between.
 */
export async function treeCpuSeconds(nodePid: number, postmasterPid: number | undefined): Promise<number> {
  let total = (await stat(nodePid))?.own ?? 0;
  if (postmasterPid === undefined) return total;
  const postmaster = await stat(postmasterPid);
  if (!postmaster) return total;
  total += postmaster.own + postmaster.reaped;
  for (const child of await childrenOf(postmasterPid)) total += (await stat(child))?.own ?? 0;
  return total;
}

async function pssKb(pid: number): Promise<number> {
  const text = await fs.readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  return Number(/^Pss:\s+(\d+) kB/m.exec(text)?.[1] ?? 0);
}

/** Proportional set size (MB) of `node` and of the postmaster with its live children: pages shared between them count once. */
export async function treePssMb(nodePid: number, postmasterPid: number | undefined): Promise<{ node: number; tree: number }> {
  const node = await pssKb(nodePid);
  let tree = node;
  if (postmasterPid !== undefined) {
    tree += await pssKb(postmasterPid);
    for (const child of await childrenOf(postmasterPid)) tree += await pssKb(child);
  }
  return { node: node / 1024, tree: tree / 1024 };
}
