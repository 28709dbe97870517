'use strict';
// Peer: markdown-link-extractor (marked renders the Markdown to HTML,
// cheerio reads the links back out of it), each file read whole.
//   markdown-link-extractor.js PATH ...   prints urls=N bytes=B files=F
const fs = require('fs');
const path = require('path');
const extract = require(path.join(__dirname, '..', 'node_modules', 'markdown-link-extractor'));
const listFiles = require('./files');

let count = 0;
let bytes = 0;
const files = listFiles(process.argv.slice(2));
for (const file of files) {
  const data = fs.readFileSync(file);
  bytes += data.length;
  count += extract(data.toString('utf8')).length;
}
console.log(`urls=${count} bytes=${bytes} files=${files.length}`);
