'use strict';
// Resolver peer: Node's built-in WHATWG URL (the ada parser), new URL(ref, base).
const fs = require('fs');

const [file, base, passesArg] = process.argv.slice(2);
if (!file || !base) {
  console.error('usage: resolve_whatwg.js REFS-FILE BASE-URL [PASSES]');
  process.exit(2);
}
const refs = fs.readFileSync(file, 'utf8').split('\n');
if (refs.length && refs[refs.length - 1] === '') refs.pop();
const passes = Number(passesArg || 3);
const baseUrl = new URL(base);
let best = Infinity, bestCpu = Infinity, ok = 0, bytes = 0;
for (let p = 0; p < passes; p++) {
  ok = 0; bytes = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (const ref of refs) {
    try {
      bytes += new URL(ref, baseUrl).href.length;
      ok++;
    } catch (e) { /* an invalid reference */ }
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const cu = process.cpuUsage(c0);
  const c = (cu.user + cu.system) / 1e6;
  if (s < best) best = s;
  if (c < bestCpu) bestCpu = c;
}
console.log(`node_url refs=${refs.length} resolved=${ok} bytes=${bytes} seconds=${best.toFixed(6)} ` +
            `refs_per_s=${Math.round(refs.length / best)} cpu_seconds=${bestCpu.toFixed(6)} ` +
            `cpu_refs_per_s=${Math.round(refs.length / bestCpu)}`);
