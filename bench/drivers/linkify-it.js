'use strict';
// Peer: linkify-it (fuzzyLink, fuzzyEmail and fuzzyIP on) counting links.
const path = require('path');
const mod = require(path.join(__dirname, '..', 'node_modules', 'linkify-it'));
const LinkifyIt = typeof mod === 'function' ? mod : (mod.LinkifyIt || mod.default);
const forEachBlock = require('./chunks');

const linkify = new LinkifyIt();
linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });
let count = 0;
const bytes = forEachBlock(process.argv[2], (text) => {
  const m = linkify.match(text);
  if (m) count += m.length;
});
console.log(`urls=${count} bytes=${bytes}`);
