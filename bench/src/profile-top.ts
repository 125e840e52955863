import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

// `node bench/dist/profile-top.js <file.cpuprofile | dir> [count]`: the functions with the most self time of a V8
// CPU profile (as `node --cpu-prof` writes them; BENCH_CPU_PROF=<dir> makes the benchmarks' services write them).
// Given a folder, every profile in it, named by service when the folder has the benchmark's services.json.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface HotSpot {
  name: string;
  selfMs: number;
  percent: number;
}

/** Self time per function (same name, file and line), most first; `(idle)` left out, shares of the busy time. */
export function topSelfTime(profile: Profile, count: number): HotSpot[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') return;
    const file = frame.url
      .replace(/^file:\/\//, '')
      .replace(/^.*\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')
      .replace(`${process.cwd()}/`, '');
    const key =
      `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, selfMs: us / 1000, percent: (100 * us) / Math.max(1, total) }));
}

function main(): void {
  const [target, countArg] = process.argv.slice(2);
  if (!target) {
    process.stderr.write('usage: node bench/dist/profile-top.js <file.cpuprofile | dir> [count]\n');
    process.exit(2);
  }
  const count = Number(countArg ?? 15);
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(target, f))
    : [target];
  const namesFile = statSync(target).isDirectory() ? join(target, 'services.json') : '';
  const names = (
    namesFile && existsSync(namesFile) ? JSON.parse(readFileSync(namesFile, 'utf8')) : {}
  ) as Record<string, string>;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    // CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile
    const pid = basename(file).split('.')[3];
    const seconds = (profile.endTime - profile.startTime) / 1e6;
    const spots = topSelfTime(profile, count);
    const busy = spots.length > 0 ? spots[0].selfMs / spots[0].percent / 10 : 0;
    process.stdout.write(
      `\n${names[pid] ?? 'process'} (pid ${pid}, ${seconds.toFixed(1)} s profiled, ${busy.toFixed(1)} s busy): ${file}\n`,
    );
    for (const spot of spots) {
      process.stdout.write(
        `${spot.selfMs.toFixed(0).padStart(8)} ms ${spot.percent.toFixed(1).padStart(5)}%  ${spot.name}\n`,
      );
    }
  }
}

if (require.main === module) main();
