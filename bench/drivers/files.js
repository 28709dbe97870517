'use strict';
// The files named on the command line, a directory's files recursively,
// in sorted order of their paths (as bench/make-corpus wrote them).
const fs = require('fs');
const path = require('path');

function walk(p, out) {
  if (fs.statSync(p).isDirectory()) {
    for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name), out);
  } else {
    out.push(p);
  }
  return out;
}

module.exports = function listFiles(paths) {
  const out = [];
  for (const p of paths) walk(p, out);
  return out;
};
