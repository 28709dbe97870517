// Peer: parse5-html-rewriting-stream making each relative URL attribute
// absolute against BASE (or the document's first <base href>, itself
// resolved against BASE), with Node's URL; other tokens are copied as
// written. The attributes are those urlsift's HTML reader takes
// (src/formats/html.cpp): href, src, srcset (each candidate), action,
// formaction, cite, poster, data, background, longdesc, manifest, on the
// elements where HTML makes them URLs. Each file is read whole and
// rewritten to standard output, one after the other, as `urlsift rewrite
// --input html --base BASE -r PATH` writes them.
//   parse5-rewrite.mjs BASE PATH ...   stderr: urls=N bytes=B files=F
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { RewritingStream } = await import(path.join(here, '..', 'node_modules', 'parse5-html-rewriting-stream',
  'dist', 'index.js'));
const listFiles = require('./files.js');

const one = {
  href: new Set(['a', 'area', 'link']),
  src: new Set(['audio', 'embed', 'frame', 'iframe', 'img', 'input', 'script', 'source', 'track', 'video']),
  action: new Set(['form']),
  formaction: new Set(['button', 'input']),
  cite: new Set(['blockquote', 'del', 'ins', 'q']),
  poster: new Set(['video']),
  data: new Set(['object']),
  background: new Set(['body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']),
  longdesc: new Set(['img', 'frame', 'iframe']),
  manifest: new Set(['html']),
};
const srcset = new Set(['img', 'source']);
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;

let edits = 0;
function absolute(value, base) {
  const v = value.trim();
  if (v === '' || scheme.test(v)) return value;
  try {
    const u = new URL(v, base).href;
    if (u !== v) edits++;
    return u;
  } catch {
    return value;
  }
}

function rewriteSrcset(value, base) {
  return value.split(',').map((candidate) => {
    const m = /^(\s*)(\S+)(.*)$/s.exec(candidate);
    return m ? m[1] + absolute(m[2], base) + m[3] : candidate;
  }).join(',');
}

const outerBase = process.argv[2];
const files = listFiles(process.argv.slice(3));
let bytes = 0;
for (const file of files) {
  const text = fs.readFileSync(file);
  bytes += text.length;
  let base = outerBase;
  let baseSeen = false;
  const rewriter = new RewritingStream();
  const out = [];
  rewriter.on('data', (chunk) => out.push(chunk));
  rewriter.on('startTag', (tag, raw) => {
    let changed = false;
    if (tag.tagName === 'base' && !baseSeen) {
      const href = tag.attrs.find((a) => a.name === 'href');
      if (href) {
        baseSeen = true;
        try { base = new URL(href.value.trim(), outerBase).href; } catch { /* kept */ }
      }
    }
    for (const attr of tag.attrs) {
      let value = attr.value;
      if (one[attr.name] && one[attr.name].has(tag.tagName)) value = absolute(value, base);
      else if (attr.name === 'srcset' && srcset.has(tag.tagName)) value = rewriteSrcset(value, base);
      if (value !== attr.value) {
        attr.value = value;
        changed = true;
      }
    }
    if (changed) rewriter.emitStartTag(tag);
    else rewriter.emitRaw(raw);
  });
  rewriter.end(text.toString('utf8'));
  fs.writeSync(1, out.join(''));
}
process.stderr.write(`urls=${edits} bytes=${bytes} files=${files.length}\n`);
